// Mobile recharges made with the caller's keys (the gateway's recharge/mobile):
// status, "needs reconciliation", days, pagination.
import { Stack, Switch, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { RECHARGE_ENDPOINT, useRecharges } from '../../features/recharges/api';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { StatusBadge } from './common/StatusBadge';

type Recharge = Schemas['Recharge'];

const columns: Column<Recharge>[] = [
  { key: 'created_at', header: 'When', render: (r) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Text> },
  { key: 'mobile', header: 'Mobile', render: (r) => <Text size="sm" ff="monospace">{r.mobile}</Text> },
  { key: 'operator', header: 'Operator', render: (r) => <Text size="sm" tt="capitalize">{r.operator} · {r.circle}</Text> },
  { key: 'amount', header: 'Amount', align: 'right', render: (r) => <Money value={r.amount} fw={500} /> },
  {
    key: 'status', header: 'Status',
    render: (r) => (
      <Stack gap={2}>
        <StatusBadge status={r.status} />
        {r.needs_reconciliation && <Text size="xs" c="orange">no answer for 48 h</Text>}
      </Stack>
    ),
  },
  { key: 'ref', header: 'Your reference', hiddenOnMobile: true, render: (r) => <Text size="xs" ff="monospace">{r.reference_id}</Text> },
  {
    key: 'detail', header: 'Operator ref / reason', hiddenOnMobile: true,
    render: (r) => <Text size="sm" c={r.fail_reason ? 'red' : undefined}>{r.operator_ref ?? r.fail_reason ?? '—'}</Text>,
  },
];

export default function Recharges() {
  const list = useListParams({ status: '', needs_reconciliation: '', from: '', to: '' });
  const { tableProps } = useRecharges(list);
  return (
    <>
      <PageHeader title="Recharges" description="Mobile recharges made through the gateway API with your keys." />
      <DataTable<Recharge>
        caption="Recharges"
        columns={columns}
        rowKey={(r) => r.id}
        {...tableProps}
        emptyTitle="No recharges"
        emptyDescription={<>Recharge a number with <code>POST {RECHARGE_ENDPOINT}</code> and your API key.</>}
        filters={
          <>
            <FilterSelect list={list} name="status" label="Status" w={140} data={['pending', 'success', 'failed']} />
            <DateRangeFilter list={list} />
            <Switch label="Only awaiting reconciliation" mb={8} checked={list.filters.needs_reconciliation === 'true'}
              onChange={(e) => list.setFilter('needs_reconciliation', e.currentTarget.checked ? 'true' : '')} />
          </>
        }
      />
    </>
  );
}
