// One customer of the reseller (issue 34): its balance and status, block or
// activate, money moved to or from it, and in tabs its transfers, keys, hit
// logs (with the commission), transactions and balance requests. The tab is
// in the URL (?tab=), so a reload or a shared link keeps it.
import { Link, useParams, useSearchParams } from 'react-router';
import { Anchor, Button, Grid, Group, Paper, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/States';
import { useCustomer } from '../../features/customers/api';
import { formatDate } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { UserStatusBadge } from '../admin/shared/badges';
import { HitsSection, KeysSection, RequestsSection, TransactionsSection, TransfersSection } from './customers/Sections';
import { TransferForm } from './customers/TransferForm';
import { useCustomerActions } from './customers/useCustomerActions';

const TABS = [
  { value: 'transfers', label: 'Transfers' },
  { value: 'keys', label: 'API keys' },
  { value: 'hits', label: 'Hit logs' },
  { value: 'transactions', label: 'Transactions' },
  { value: 'requests', label: 'Balance requests' },
];

export default function CustomerDetail() {
  const id = parseId(useParams().id) ?? 0;
  const q = useCustomer(id);
  const [sp, setSp] = useSearchParams();
  const tab = TABS.some((t) => t.value === sp.get('tab')) ? sp.get('tab')! : 'transfers';
  const { activate, confirmBlock, busyId } = useCustomerActions();
  return (
    <>
      <Anchor component={Link} to="/customers" size="sm" mb="xs" display="inline-flex" style={{ alignItems: 'center', gap: 4 }}>
        <IconArrowLeft size={14} aria-hidden /> Customers
      </Anchor>
      <QueryState query={q} loadingLabel="Loading the customer…">
        {(c) => (
          <Stack gap="md">
            <PageHeader title={c.name} description={<>{c.email} · {c.phone}</>}
              actions={c.status === 'blocked' || c.status === 'pending'
                ? <Button variant="light" color="teal" loading={busyId === c.id} onClick={() => activate(c)}>Activate</Button>
                : <Button variant="subtle" color="red" loading={busyId === c.id} onClick={() => confirmBlock(c)}>Block</Button>} />
            <Grid>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <Paper withBorder p="md" radius="md" h="100%">
                  <SimpleGrid cols={2} spacing="sm">
                    <Stack gap={2}>
                      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>Balance</Text>
                      <Text size="xl" fw={700}><Money value={c.balance} data-testid="customer-detail-balance" /></Text>
                    </Stack>
                    <Stack gap={2}>
                      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>Status</Text>
                      <Group><UserStatusBadge status={c.status} /></Group>
                    </Stack>
                    <Stack gap={2}>
                      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>Spent</Text>
                      <Text><Money value={c.total_spent} /></Text>
                    </Stack>
                    <Stack gap={2}>
                      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>Customer since</Text>
                      <Text>{formatDate(c.created_at)}</Text>
                    </Stack>
                  </SimpleGrid>
                </Paper>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 6 }}>
                <TransferForm customer={c} />
              </Grid.Col>
            </Grid>
            <Tabs value={tab} keepMounted={false} onChange={(v) => setSp(v && v !== 'transfers' ? { tab: v } : {}, { replace: true })}>
              <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
                {TABS.map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
              </Tabs.List>
              <Tabs.Panel value="transfers" pt="md"><TransfersSection id={c.id} /></Tabs.Panel>
              <Tabs.Panel value="keys" pt="md"><KeysSection id={c.id} /></Tabs.Panel>
              <Tabs.Panel value="hits" pt="md"><HitsSection id={c.id} /></Tabs.Panel>
              <Tabs.Panel value="transactions" pt="md"><TransactionsSection id={c.id} /></Tabs.Panel>
              <Tabs.Panel value="requests" pt="md"><RequestsSection id={c.id} /></Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
