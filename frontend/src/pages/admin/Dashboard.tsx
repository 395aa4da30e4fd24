import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Collapse, Group, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Schemas } from '../../api/types';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, QueryState } from '../../components/States';
import { useDashboard } from '../../features/dashboard/api';
import { formatDate } from '../../lib/dates';
import { signOf } from '../../lib/money';
import { CallsChart, MoneyChart } from './dashboard/charts';

export default function Dashboard() {
  const dash = useDashboard({ refetchInterval: 60_000 });
  return (
    <>
      <PageHeader
        title="Platform dashboard"
        description={dash.data ? `Last 30 days, ${formatDate(dash.data.from)} to ${formatDate(dash.data.to)} (${dash.data.timezone})` : 'Last 30 days'}
      />
      <QueryState query={dash} loadingLabel="Loading the dashboard…">
        {(d) => (d.platform ? <Platform p={d.platform} /> : <EmptyState title="No platform figures" description="The API sent no platform section for this account." />)}
      </QueryState>
    </>
  );
}

function Stat({ label, children, hint, testId }: { label: string; children: ReactNode; hint?: ReactNode; testId?: string }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{label}</Text>
      <Text size="xl" fw={700} mt={4} component="div">{children}</Text>
      {hint && <Text size="xs" c="dimmed" mt={4} component="div">{hint}</Text>}
    </Paper>
  );
}

function Platform({ p }: { p: Schemas['PlatformDashboard'] }) {
  const [showTable, setShowTable] = useState(false);
  const noCalls = p.calls.calls === 0;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        <Stat label="Revenue" testId="stat-revenue" hint="Sum of the charges of billed calls"><Money value={p.revenue} /></Stat>
        <Stat label="Upstream cost" testId="stat-cost" hint="Admin cost of billed calls"><Money value={p.cost} /></Stat>
        <Stat label="Margin" testId="stat-margin" hint="Revenue − cost"><Money value={p.margin} colored /></Stat>
        <Stat label="Pending balance requests" testId="stat-pending"
          hint={<Anchor component={Link} to="/admin/balance-requests" size="xs">Open the queue</Anchor>}>
          {p.pending_balance_requests.toLocaleString('en-IN')}
        </Stat>
        <Stat label="Calls" hint={<>{p.calls.success.toLocaleString('en-IN')} billed · {p.calls.failed.toLocaleString('en-IN')} failed · {p.calls.insufficient_balance.toLocaleString('en-IN')} no balance · {p.calls.pending.toLocaleString('en-IN')} pending</>}>
          {p.calls.calls.toLocaleString('en-IN')}
        </Stat>
        <Stat label="Users" hint={
          <>{p.users_by_status.active.toLocaleString('en-IN')} active · <Anchor component={Link} to="/admin/users?status=pending" size="xs">
            {p.users_by_status.pending.toLocaleString('en-IN')} waiting for activation</Anchor> · {p.users_by_status.blocked.toLocaleString('en-IN')} blocked</>
        }>
          {(p.users_by_status.active + p.users_by_status.pending + p.users_by_status.blocked).toLocaleString('en-IN')}
        </Stat>
      </SimpleGrid>

      <Paper withBorder p="md" radius="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h4">Revenue, cost and margin per day</Title>
            <Button variant="subtle" size="xs" onClick={() => setShowTable((s) => !s)} aria-expanded={showTable}>
              {showTable ? 'Hide the table' : 'Show as a table'}
            </Button>
          </Group>
          {noCalls ? <Text size="sm" c="dimmed">No calls in the last 30 days yet.</Text> : <MoneyChart days={p.days} />}
          <Collapse expanded={showTable}>
            <ScrollArea type="auto">
              <Table striped aria-label="Per day" verticalSpacing={4}>
                <Table.Thead>
                  <Table.Tr><Table.Th>Day</Table.Th><Table.Th ta="right">Calls</Table.Th><Table.Th ta="right">Billed</Table.Th>
                    <Table.Th ta="right">Revenue</Table.Th><Table.Th ta="right">Cost</Table.Th><Table.Th ta="right">Margin</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {[...p.days].reverse().map((d) => (
                    <Table.Tr key={d.date}>
                      <Table.Td>{formatDate(d.date)}</Table.Td><Table.Td ta="right">{d.calls}</Table.Td><Table.Td ta="right">{d.billed_calls}</Table.Td>
                      <Table.Td ta="right"><Money value={d.revenue} /></Table.Td><Table.Td ta="right"><Money value={d.cost} /></Table.Td>
                      <Table.Td ta="right"><Money value={d.margin} colored /></Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
          </Collapse>
        </Stack>
      </Paper>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">Calls per day</Title>
            {noCalls ? <Text size="sm" c="dimmed">No calls yet.</Text> : <CallsChart days={p.days} />}
          </Stack>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h4">Top services</Title>
            {p.top_services.length === 0 ? (
              <EmptyState title="No calls yet" description="Services appear here once they are called." />
            ) : (
              <ScrollArea type="auto">
                <Table aria-label="Top services" verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr><Table.Th>Service</Table.Th><Table.Th ta="right">Calls</Table.Th><Table.Th ta="right">Revenue</Table.Th>
                      <Table.Th ta="right" visibleFrom="sm">Cost</Table.Th><Table.Th ta="right">Margin</Table.Th></Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {p.top_services.map((s) => (
                      <Table.Tr key={s.service_id}>
                        <Table.Td>{s.name ? <Anchor component={Link} to={`/admin/services/${s.service_id}`} size="sm">{s.name}</Anchor>
                          : <Text size="sm" c="dimmed">deleted service #{s.service_id}</Text>}</Table.Td>
                        <Table.Td ta="right">{s.calls.toLocaleString('en-IN')}<Text span size="xs" c="dimmed"> ({s.billed_calls} billed)</Text></Table.Td>
                        <Table.Td ta="right"><Money value={s.revenue} /></Table.Td>
                        <Table.Td ta="right" visibleFrom="sm"><Money value={s.cost} /></Table.Td>
                        <Table.Td ta="right"><Money value={s.margin} colored={signOf(s.margin) < 0} /></Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
