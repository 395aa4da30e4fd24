// The caller's dashboard (GET /dashboard): balance, the last 30 local days'
// calls and spend per day, status counts and the top services. A reseller's
// opens on its customers (its main business), its own account below.
import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/types';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, Loading, QueryState } from '../../components/States';
import { useDashboard } from '../../features/dashboard/api';
import { formatDate } from '../../lib/dates';
import { useUser } from '../../auth/useSession';

const ResellerSection = lazy(() => import('../reseller/ResellerSection').then((m) => ({ default: m.ResellerSection })));
const Charts = lazy(() => import('./dashboard/Charts').then((m) => ({ default: m.DashboardCharts })));

function Stat({ label, children, testId, hint }: { label: string; children: React.ReactNode; testId?: string; hint?: React.ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>{label}</Text>
      <Text size="xl" fw={700} mt={4} data-testid={testId}>{children}</Text>
      {hint && <Text size="xs" c="dimmed" mt={2}>{hint}</Text>}
    </Paper>
  );
}

function TopServices({ rows }: { rows: Schemas['DashboardService'][] }) {
  if (rows.length === 0) return <EmptyState title="No calls yet" description={<>Pick a service in <Anchor component={Link} to="/services">Services</Anchor> and try it.</>} />;
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table aria-label="Top services, last 30 days" data-testid="top-services">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Service</Table.Th>
            <Table.Th ta="right">Calls</Table.Th>
            <Table.Th ta="right">Billed</Table.Th>
            <Table.Th ta="right">Spend</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((s) => (
            <Table.Tr key={s.service_id}>
              <Table.Td>
                {s.name ? <Anchor component={Link} to={`/services/${s.service_id}`} size="sm">{s.name}</Anchor> : <Text size="sm" c="dimmed">Deleted service</Text>}
              </Table.Td>
              <Table.Td ta="right">{s.calls.toLocaleString('en-IN')}</Table.Td>
              <Table.Td ta="right">{s.billed_calls.toLocaleString('en-IN')}</Table.Td>
              <Table.Td ta="right"><Money value={s.spend} /></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export default function Dashboard() {
  const q = useDashboard();
  const reseller = useUser().role === 'reseller';
  return (
    <>
      <PageHeader title="Dashboard" description={reseller
        ? "Your customers' calls and your commission, then your own balance and calls."
        : 'Your balance and the last 30 days of calls.'} />
      {reseller && <Suspense fallback={<Loading label="Loading your customers' figures…" />}><ResellerSection /></Suspense>}
      {reseller && <Title order={2} size="h3" mt="xl" mb="md" id="own-account">Your own account</Title>}
      <QueryState query={q} loadingLabel="Loading your dashboard…">
        {(d) => {
          const today = d.days[d.days.length - 1];
          return (
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
                <Stat label="Balance" testId="dashboard-balance" hint={<Anchor component={Link} to="/balance-requests" size="xs">Add balance</Anchor>}>
                  <Money value={d.balance} />
                </Stat>
                <Stat label="Spent today" testId="dashboard-today-spend" hint={`${(today?.calls ?? 0).toLocaleString('en-IN')} ${today?.calls === 1 ? 'call' : 'calls'} today`}>
                  <Money value={today?.spend ?? '0.0000'} />
                </Stat>
                <Stat label="Spent, 30 days" testId="dashboard-spend" hint={`${formatDate(d.from)} – ${formatDate(d.to)}`}>
                  <Money value={d.spend} />
                </Stat>
                <Stat label="Calls, 30 days" testId="dashboard-calls"
                  hint={`${d.calls.success} billed · ${d.calls.failed} failed · ${d.calls.insufficient_balance} no balance`}>
                  {d.calls.calls.toLocaleString('en-IN')}
                </Stat>
              </SimpleGrid>
              <Suspense fallback={<Loading label="Loading charts…" />}>
                <Charts days={d.days} />
              </Suspense>
              <Paper withBorder p="md" radius="md">
                <Group justify="space-between" mb="xs">
                  <Title order={2} size="h4">Top services</Title>
                  <Anchor component={Link} to="/hit-logs" size="sm">All calls</Anchor>
                </Group>
                <TopServices rows={d.top_services} />
              </Paper>
              <Text size="xs" c="dimmed">All-time spend: <Money value={d.total_spent} /> · days in {d.timezone}</Text>
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}
