// Webhooks: the URL and low-balance alert, the signing secret's rotation,
// and the deliveries (filters, details with attempts, send again).
import { useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { useMe } from '../../auth/useMe';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { PageHeader } from '../../components/PageHeader';
import { useDeliveries } from '../../features/webhooks/api';
import { QueryState } from '../../components/States';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { StatusBadge } from './common/StatusBadge';
import { DeliveryDrawer } from './webhooks/DeliveryDrawer';
import { WebhookSettings } from './webhooks/Settings';

type Delivery = Schemas['WebhookDelivery'];
const EVENTS: Schemas['WebhookEventType'][] = ['payment.success', 'payment.failed', 'payment.expired', 'recharge.success', 'recharge.failed',
  'balance_request.approved', 'balance_request.rejected', 'balance.low', 'refund.processed', 'refund.failed',
  'payout.success', 'payout.failed', 'payout.reversed', 'account_opening.opened', 'account_opening.rejected'];

export default function Webhooks() {
  const me = useMe();
  const list = useListParams({ status: '', event_type: '', from: '', to: '' });
  const { tableProps } = useDeliveries(list, {
    refetchInterval: (data) => (data?.data.some((d) => d.status === 'pending') ? 5000 : false),
  });
  const [open, setOpen] = useState<number | null>(null);

  const columns: Column<Delivery>[] = [
    { key: 'created_at', header: 'When', render: (d) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(d.created_at)}</Text> },
    { key: 'event', header: 'Event', render: (d) => <Text size="sm" ff="monospace">{d.event_type}</Text> },
    { key: 'status', header: 'Status', render: (d) => <StatusBadge status={d.status} /> },
    { key: 'attempts', header: 'Attempts', align: 'right', hiddenOnMobile: true, render: (d) => d.attempts },
    { key: 'last', header: 'Last answer', hiddenOnMobile: true, render: (d) => <Text size="sm" lineClamp={1} maw={240}>{d.last_status_code ?? d.last_error ?? '—'}</Text> },
    { key: 'dest', header: 'To', hiddenOnMobile: true, render: (d) => <Text size="xs" ff="monospace" truncate maw={220} title={d.url}>{d.url}</Text> },
    { key: 'open', header: 'Details', align: 'right', pinRight: true, render: (d) => <Button size="compact-xs" variant="subtle" onClick={() => setOpen(d.id)} aria-label={`Details of delivery ${d.id}`}>Details</Button> },
  ];

  return (
    <>
      <PageHeader title="Webhooks" description="Signed notifications of your account's events, and every delivery's outcome." />
      <Stack gap="lg">
        <QueryState query={me}>{(u) => <WebhookSettings me={u} />}</QueryState>
        <div>
          <Title order={2} size="h4" mb="sm">Deliveries</Title>
          <DataTable<Delivery>
            caption="Webhook deliveries"
            columns={columns}
            rowKey={(d) => d.id}
            {...tableProps}
            emptyTitle="No deliveries"
            emptyDescription="Events sent to your webhook URL and to payments' callback URLs show here."
            filters={
              <>
                <FilterSelect list={list} name="status" label="Status" w={140} data={['pending', 'delivered', 'failed']} />
                <FilterSelect list={list} name="event_type" label="Event" w={230} data={EVENTS} />
                <DateRangeFilter list={list} />
              </>
            }
          />
        </div>
      </Stack>
      <DeliveryDrawer id={open} onClose={() => setOpen(null)} />
    </>
  );
}
