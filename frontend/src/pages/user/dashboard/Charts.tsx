// The dashboard's two charts. A chart needs numbers for its geometry, so the
// day's spend becomes a number for the bar heights only; every amount the
// user reads (tooltips, the table) is the API's string through formatINR.
import '@mantine/charts/styles.css'; // with the charts' chunk
import { AreaChart, BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../../api/types';
import { chartAxisINR, chartNumber, formatINR } from '../../../lib/money';
import { formatDate } from '../../../lib/dates';

type Day = Schemas['DashboardDay'];

const shortDay = (d: string) => formatDate(d).replace(/ \d{4}$/, '');

interface TooltipArgs {
  label?: unknown;
  active?: boolean;
}

function DayTooltip({ day }: { day: Day | undefined }) {
  if (!day) return null;
  return (
    <Paper withBorder shadow="sm" p="xs" radius="sm">
      <Stack gap={2}>
        <Text size="sm" fw={600}>{formatDate(day.date)}</Text>
        <Text size="sm">{day.calls.toLocaleString('en-IN')} calls ({day.billed_calls.toLocaleString('en-IN')} billed)</Text>
        <Text size="sm">Spend {formatINR(day.spend)}</Text>
      </Stack>
    </Paper>
  );
}

export function CallsChart({ days }: { days: Day[] }) {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const data = days.map((d) => ({ date: d.date, Calls: d.calls, Billed: d.billed_calls }));
  return (
    <BarChart
      h={220}
      data={data}
      dataKey="date"
      series={[
        { name: 'Calls', color: 'indigo.3' },
        { name: 'Billed', color: 'indigo.7' },
      ]}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 40 }}
      xAxisProps={{ tickFormatter: shortDay, minTickGap: 16 }}
      yAxisProps={{ allowDecimals: false, width: 40 }}
      tooltipProps={{ content: ({ label, active }: TooltipArgs) => (active ? <DayTooltip day={byDate.get(String(label))} /> : null) }}
      aria-label="Calls per day, last 30 days"
      role="img"
    />
  );
}

export function SpendChart({ days }: { days: Day[] }) {
  const byDate = new Map(days.map((d) => [d.date, d]));
  const data = days.map((d) => ({ date: d.date, Spend: chartNumber(d.spend) }));
  return (
    <AreaChart
      h={220}
      data={data}
      dataKey="date"
      series={[{ name: 'Spend', color: 'teal.6' }]}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 40 }}
      curveType="monotone"
      withDots={false}
      xAxisProps={{ tickFormatter: shortDay, minTickGap: 16 }}
      yAxisProps={{ width: 60 }}
      valueFormatter={chartAxisINR}
      tooltipProps={{ content: ({ label, active }: TooltipArgs) => (active ? <DayTooltip day={byDate.get(String(label))} /> : null) }}
      aria-label="Spend per day, last 30 days"
      role="img"
    />
  );
}

/** Both charts side by side (stacked on phones). Its own chunk: recharts is large. */
export function DashboardCharts({ days }: { days: Day[] }) {
  // No call in the window: an empty state, not two flat lines at zero.
  if (!days.some((d) => d.calls > 0 || /[1-9]/.test(d.spend))) {
    return (
      <Paper withBorder p="md" radius="md" data-testid="dashboard-charts-empty">
        <Title order={2} size="h4" mb={4}>Calls and spend per day</Title>
        <Text size="sm" c="dimmed">No calls in the last 30 days. Make a call from a service's try-it console or with an API key, and the daily calls and spend show here.</Text>
      </Paper>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">Calls per day</Title>
        <CallsChart days={days} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">Spend per day</Title>
        <SpendChart days={days} />
      </Paper>
    </SimpleGrid>
  );
}
