// Gateway payments created with the caller's keys (the gateway's payment/create):
// status filter, days, pagination.
import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { PAYMENT_CREATE_ENDPOINT, usePayments } from '../../features/payments/api';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { StatusBadge } from './common/StatusBadge';

type Payment = Schemas['Payment'];

const columns: Column<Payment>[] = [
  { key: 'created_at', header: 'Created', render: (p) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.created_at)}</Text> },
  { key: 'amount', header: 'Amount', align: 'right', render: (p) => <Money value={p.amount} fw={500} /> },
  {
    key: 'status', header: 'Status',
    render: (p) => (
      <Group gap={6} wrap="nowrap">
        <StatusBadge status={p.status} />
        {!p.livemode && <Badge size="sm" color="yellow" variant="light" title="A sandbox payment: no money moved">Test</Badge>}
      </Group>
    ),
  },
  { key: 'customer', header: 'Customer', render: (p) => <Text size="sm">{p.customer_id}</Text> },
  { key: 'id', header: 'Payment id', hiddenOnMobile: true, render: (p) => <Text size="xs" ff="monospace">{p.payment_id}</Text> },
  {
    key: 'when', header: 'Completed / expires', hiddenOnMobile: true,
    render: (p) => <Text size="sm">{p.completed_at ? formatDateTime(p.completed_at) : p.status === 'created' || p.status === 'pending' ? `expires ${formatDateTime(p.expires_at)}` : '—'}</Text>,
  },
  {
    key: 'page', header: 'Checkout', hiddenOnMobile: true,
    render: (p) => (p.status === 'created' || p.status === 'pending'
      ? <Anchor href={p.payment_url} target="_blank" rel="noreferrer" size="sm">Open</Anchor> : <Text size="sm" c="dimmed">—</Text>),
  },
];

export default function Payments() {
  const list = useListParams({ status: '', from: '', to: '' });
  const { tableProps } = usePayments(list);
  return (
    <>
      <PageHeader title="Payments" description="Payments your customers make on hosted checkout pages you create with the gateway API." />
      <DataTable<Payment>
        caption="Payments"
        columns={columns}
        rowKey={(p) => p.payment_id}
        {...tableProps}
        emptyTitle="No payments"
        emptyDescription={<>Create one with <code>POST {PAYMENT_CREATE_ENDPOINT}</code> and your API key.</>}
        filters={
          <>
            <FilterSelect list={list} name="status" label="Status" w={140} data={['created', 'pending', 'success', 'failed', 'expired']} />
            <DateRangeFilter list={list} />
          </>
        }
      />
    </>
  );
}
