// The platform dashboard's charts. A chart needs numbers to place points,
// so the amounts are converted for plotting only (chartNumber); every amount
// a person reads, the tooltip included, is formatINR of the API's string.
import '@mantine/charts/styles.css'; // with the charts' chunk
import { Paper, Stack, Text } from '@mantine/core';
import { AreaChart, BarChart } from '@mantine/charts';
import { chartAxisINR, chartNumber, formatINR } from '../../../lib/money';
import { formatDate } from '../../../lib/dates';
import type { Schemas } from '../../../api/types';

type Day = Schemas['PlatformDay'];

const shortDay = (d: string) => formatDate(d).replace(/ \d{4}$/, '');

interface TooltipEntry { payload?: Record<string, unknown> }

function MoneyTooltip({ payload, keys }: { payload?: readonly TooltipEntry[]; keys: { key: string; label: string; color: string }[] }) {
  const row = payload?.[0]?.payload;
  if (!row) return null;
  return (
    <Paper withBorder shadow="sm" p="xs" radius="md">
      <Stack gap={2}>
        <Text size="sm" fw={600}>{formatDate(String(row.date))}</Text>
        {keys.map((k) => (
          <Text key={k.key} size="sm">
            <Text span c={k.color} fw={700} aria-hidden>● </Text>{k.label}: {formatINR(String(row[`${k.key}_text`]))}
          </Text>
        ))}
      </Stack>
    </Paper>
  );
}

const MONEY_SERIES = [
  { key: 'revenue', label: 'Revenue', color: 'indigo.6' },
  { key: 'cost', label: 'Cost', color: 'orange.6' },
  { key: 'margin', label: 'Margin', color: 'teal.6' },
];

export function MoneyChart({ days }: { days: Day[] }) {
  const data = days.map((d) => ({
    date: d.date,
    day: shortDay(d.date),
    revenue: chartNumber(d.revenue), cost: chartNumber(d.cost), margin: chartNumber(d.margin),
    revenue_text: d.revenue, cost_text: d.cost, margin_text: d.margin,
  }));
  return (
    <AreaChart
      h={260}
      data={data}
      dataKey="day"
      series={MONEY_SERIES.map((s) => ({ name: s.key, label: s.label, color: s.color }))}
      curveType="monotone"
      withLegend
      withDots={false}
      valueFormatter={chartAxisINR}
      tooltipProps={{ content: ({ payload }) => <MoneyTooltip payload={payload as readonly TooltipEntry[] | undefined} keys={MONEY_SERIES} /> }}
      aria-label="Revenue, cost and margin per day"
    />
  );
}

export function CallsChart({ days }: { days: Day[] }) {
  const data = days.map((d) => ({ day: shortDay(d.date), calls: d.calls, billed: d.billed_calls }));
  return (
    <BarChart
      h={220}
      data={data}
      dataKey="day"
      series={[{ name: 'calls', label: 'All calls', color: 'gray.5' }, { name: 'billed', label: 'Billed calls', color: 'indigo.6' }]}
      withLegend
      aria-label="Calls per day"
    />
  );
}
