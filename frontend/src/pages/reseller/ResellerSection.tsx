// The reseller's part of the dashboard (issue 34): its customers' calls and
// spend, its own cost of those calls, the commission accrued on them and
// the part already settled to its balance, per customer; and the
// commission settlements (one credit per closed hour). From/to are local
// days in the URL; empty, the server's default period.
import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { Money } from '../../components/Money';
import { EmptyState, QueryState } from '../../components/States';
import { useCommissions, useResellerDashboard } from '../../features/customers/api';
import type { CommissionSettlement, ResellerDashboard } from '../../features/customers/types';
import { formatDate, formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';

function Stat({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>{label}</Text>
      <Text size="lg" fw={700} mt={4} data-testid={testId}>{children}</Text>
    </Paper>
  );
}

function PerCustomer({ rows }: { rows: ResellerDashboard['customers'] }) {
  if (rows.length === 0) return <EmptyState title="No customer calls in this period" />;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table aria-label="Per customer" data-testid="reseller-customers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Customer</Table.Th>
            <Table.Th ta="right">Calls</Table.Th>
            <Table.Th ta="right">Spend</Table.Th>
            <Table.Th ta="right" visibleFrom="sm">Your cost</Table.Th>
            <Table.Th ta="right">Commission</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.customer_id}>
              <Table.Td><Anchor component={Link} to={`/customers/${r.customer_id}`} size="sm">{r.name}</Anchor></Table.Td>
              <Table.Td ta="right">{r.calls.toLocaleString('en-IN')}</Table.Td>
              <Table.Td ta="right"><Money value={r.spend} /></Table.Td>
              <Table.Td ta="right" visibleFrom="sm"><Money value={r.cost} /></Table.Td>
              <Table.Td ta="right"><Money value={r.commission} /></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function ResellerSection() {
  const list = useListParams({ from: '', to: '' }, 10);
  const range = { from: list.filters.from, to: list.filters.to };
  const q = useResellerDashboard(Object.fromEntries(Object.entries(range).filter(([, v]) => v !== '')) as typeof range);
  const commissions = useCommissions(list);
  const columns: Column<CommissionSettlement>[] = [
    { key: 'hour', header: 'Hour', render: (s) => formatDateTime(s.hour_start) },
    { key: 'hits', header: 'Calls', align: 'right', render: (s) => s.hits.toLocaleString('en-IN') },
    { key: 'amount', header: 'Credited', align: 'right', render: (s) => <Money value={s.amount} data-testid="settlement-amount" /> },
    // Commission of calls refunded after the hour was credited: taken back
    // at the next settlements, as far as the balance allows; the rest is due.
    { key: 'taken', header: 'Taken back', align: 'right', render: (s) => <Money value={s.reversal_taken} data-testid="settlement-reversal-taken" /> },
    { key: 'due', header: 'Still due', align: 'right', render: (s) => <Money value={s.reversal_due} data-testid="settlement-reversal-due" /> },
    { key: 'created', header: 'Settled', hiddenOnMobile: true, render: (s) => formatDateTime(s.created_at) },
  ];
  return (
    <Stack gap="md" component="section" aria-labelledby="reseller-section">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} size="h3" id="reseller-section">Your customers</Title>
          {q.data && <Text size="sm" c="dimmed">{formatDate(q.data.from)} – {formatDate(q.data.to)}</Text>}
        </Stack>
        <Group gap="sm" align="flex-end"><DateRangeFilter list={list} /></Group>
      </Group>
      <QueryState query={q} loadingLabel="Loading your customers' figures…">
        {(d) => (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
              <Stat label="Customers" testId="reseller-customers-count">{d.totals.customers.toLocaleString('en-IN')}</Stat>
              <Stat label="Calls" testId="reseller-calls">{d.totals.calls.toLocaleString('en-IN')}</Stat>
              <Stat label="Spend" testId="reseller-spend"><Money value={d.totals.spend} /></Stat>
              <Stat label="Your cost" testId="reseller-cost"><Money value={d.totals.cost} /></Stat>
              <Stat label="Commission accrued" testId="reseller-commission-accrued"><Money value={d.totals.commission_accrued} /></Stat>
              <Stat label="Commission settled" testId="reseller-commission-settled"><Money value={d.totals.commission_settled} /></Stat>
            </SimpleGrid>
            <Paper withBorder p="md" radius="md">
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h4">Per customer</Title>
                <Anchor component={Link} to="/customers" size="sm">All customers</Anchor>
              </Group>
              <PerCustomer rows={d.customers} />
            </Paper>
          </Stack>
        )}
      </QueryState>
      <Title order={3} size="h4">Commission settlements</Title>
      <DataTable caption="Commission settlements" columns={columns} rowKey={(s) => s.id} {...commissions.tableProps}
        emptyTitle="No commission settled yet" emptyDescription="Each closed hour's commission is credited to your balance a few minutes after the hour." />
    </Stack>
  );
}
