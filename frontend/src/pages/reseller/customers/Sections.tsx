// The lists of a customer's page: keys (never secrets), hit logs with the
// reseller's commission, transactions, transfers, and the customer's
// balance requests with their screenshots, approve and reject.
import { Badge, Button, Group, Text, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { errorMessage } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { DataTable, type Column } from '../../../components/DataTable';
import { DateRangeFilter } from '../../../components/DateRangeFilter';
import { FilterSelect } from '../../../components/FilterSelect';
import { Money } from '../../../components/Money';
import { useCustomersBalanceRequests, useDecideBalanceRequest } from '../../../features/balanceRequests/api';
import { invalidateAfterDecision, useCustomerHits, useCustomerKeys, useCustomerTransactions, useCustomerTransfers } from '../../../features/customers/api';
import type { CustomerHit, Transfer } from '../../../features/customers/types';
import { formatDateTime } from '../../../lib/dates';
import { formatINR } from '../../../lib/money';
import { useListParams } from '../../../lib/listParams';
import { Screenshot } from '../../admin/balanceRequests/Screenshot';
import { RequestStatusBadge } from '../../admin/shared/badges';
import { StatusBadge } from '../../user/common/StatusBadge';

export function KeysSection({ id }: { id: number }) {
  const list = useListParams({});
  const { tableProps } = useCustomerKeys(id, list);
  const columns: Column<Schemas['ApiKey']>[] = [
    { key: 'name', header: 'Name', render: (k) => <Text size="sm" fw={500}>{k.name}</Text> },
    { key: 'key', header: 'Key', render: (k) => <Text size="xs" ff="monospace">{k.key}</Text> },
    { key: 'status', header: 'Status', render: (k) => <Badge variant="light" color={k.status === 'active' ? 'teal' : 'gray'}>{k.status}</Badge> },
    { key: 'today', header: 'Calls today', align: 'right', hiddenOnMobile: true, render: (k) => `${k.hits_today}${k.daily_limit ? ` / ${k.daily_limit}` : ''}` },
    { key: 'used', header: 'Last used', hiddenOnMobile: true, render: (k) => formatDateTime(k.last_used_at) },
  ];
  return <DataTable caption="Customer's API keys" columns={columns} rowKey={(k) => k.id} {...tableProps} emptyTitle="No API keys yet" />;
}

const HIT_STATUSES = ['success', 'failed', 'insufficient_balance', 'pending'].map((s) => ({ value: s, label: s.replace(/_/g, ' ') }));

export function HitsSection({ id }: { id: number }) {
  const list = useListParams({ status: '', from: '', to: '' });
  const { tableProps } = useCustomerHits(id, list);
  const columns: Column<CustomerHit>[] = [
    { key: 'when', header: 'When', render: (h) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(h.created_at)}</Text> },
    { key: 'service', header: 'Service', render: (h) => (h.api_service_name
      ? <Text size="sm" fw={500}>{h.api_service_name}</Text>
      : <Text size="sm" c="dimmed">Deleted service</Text>) },
    { key: 'status', header: 'Status', render: (h) => <StatusBadge status={h.status} /> },
    { key: 'charge', header: 'Charge', align: 'right', render: (h) => <Money value={h.charge_amount} /> },
    { key: 'commission', header: 'Commission', align: 'right', render: (h) => <Money value={h.commission ?? '0.0000'} data-testid="hit-commission" /> },
    { key: 'key', header: 'Key', hiddenOnMobile: true, render: (h) => <Text size="sm">{h.api_key_name ?? `Key #${h.api_key_id}`}</Text> },
  ];
  return (
    <DataTable caption="Customer's hit logs" columns={columns} rowKey={(h) => h.id} {...tableProps} emptyTitle="No calls yet"
      filters={<><FilterSelect list={list} name="status" label="Status" data={HIT_STATUSES} w={180} /><DateRangeFilter list={list} /></>} />
  );
}

export function TransactionsSection({ id }: { id: number }) {
  const list = useListParams({ type: '', from: '', to: '' });
  const { tableProps } = useCustomerTransactions(id, list);
  const columns: Column<Schemas['Transaction']>[] = [
    { key: 'when', header: 'When', render: (t) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(t.created_at)}</Text> },
    { key: 'type', header: 'Type', render: (t) => <Badge variant="light" color={t.type === 'debit' ? 'red' : 'teal'}>{t.type}</Badge> },
    { key: 'description', header: 'Description', hiddenOnMobile: true, render: (t) => <Text size="sm">{t.description}</Text> },
    { key: 'amount', header: 'Amount', align: 'right', render: (t) => <Money value={t.type === 'debit' ? `-${t.amount}` : t.amount} colored /> },
    { key: 'after', header: 'Balance after', align: 'right', render: (t) => <Money value={t.balance_after} /> },
  ];
  return (
    <DataTable caption="Customer's transactions" columns={columns} rowKey={(t) => t.id} {...tableProps} emptyTitle="No transactions yet"
      filters={<><FilterSelect list={list} name="type" label="Type" data={['credit', 'debit', 'refund']} w={130} /><DateRangeFilter list={list} /></>} />
  );
}

export function TransfersSection({ id }: { id: number }) {
  const list = useListParams({});
  const { tableProps } = useCustomerTransfers(id, list);
  const columns: Column<Transfer>[] = [
    { key: 'when', header: 'When', render: (t) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(t.created_at)}</Text> },
    { key: 'direction', header: 'Direction', render: (t) => (t.direction === 'to_customer' ? 'Added to the customer' : 'Taken back') },
    { key: 'amount', header: 'Amount', align: 'right', render: (t) => <Money value={t.direction === 'to_customer' ? t.amount : `-${t.amount}`} colored data-testid="transfer-amount" /> },
  ];
  return <DataTable caption="Transfers" columns={columns} rowKey={(t) => t.id} {...tableProps} emptyTitle="No transfers yet" />;
}

function Decide({ req }: { req: Schemas['BalanceRequest'] }) {
  const qc = useQueryClient();
  const remarks = useRef('');
  const decide = useDecideBalanceRequest(req.id, {
    onSuccess: (r) => {
      invalidateAfterDecision(qc);
      notifications.show({ color: 'teal', message: r.status === 'approved' ? `${formatINR(r.amount)} approved: moved from your balance to the customer's.` : 'Request rejected.' });
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not decide the request', message: errorMessage(err) }),
  });
  const confirm = (action: 'approve' | 'reject') => {
    remarks.current = '';
        modals.openConfirmModal({
      title: action === 'approve' ? 'Approve this top-up?' : 'Reject this top-up?',
      children: action === 'approve'
        ? <Text size="sm">The amount moves from your balance to the customer's (the customer paid you). UTR {req.utr_number}.</Text>
        : <Textarea label="Reason (optional)" onChange={(e) => { remarks.current = e.currentTarget.value; }} />,
      labels: { confirm: action === 'approve' ? 'Approve' : 'Reject', cancel: 'Cancel' },
      confirmProps: { color: action === 'approve' ? 'teal' : 'red' },
      onConfirm: () => decide.mutate({ action, remarks: remarks.current }),
    });
  };
  if (req.status !== 'pending') return null;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Button size="compact-sm" variant="light" color="teal" loading={decide.isPending} onClick={() => confirm('approve')} aria-label={`Approve request ${req.id}`}>Approve</Button>
      <Button size="compact-sm" variant="subtle" color="red" loading={decide.isPending} onClick={() => confirm('reject')} aria-label={`Reject request ${req.id}`}>Reject</Button>
    </Group>
  );
}

/** The customer's payment screenshot, opened in a modal (fetched with the session's token). */
function Proof({ req }: { req: Schemas['BalanceRequest'] }) {
  const path = req.screenshot_url;
  if (!path) return <Text size="xs" c="dimmed">None</Text>;
  return (
    <Button size="compact-sm" variant="subtle" aria-label={`View the screenshot of request ${req.id}`}
      onClick={() => modals.open({ title: `Payment screenshot of request ${req.id}`, size: 'lg',
        children: <Screenshot path={path} requestId={req.id} /> })}>View</Button>
  );
}

export function RequestsSection({ id }: { id: number }) {
  const list = useListParams({ status: '' });
  const { tableProps } = useCustomersBalanceRequests(list, id);
  const columns: Column<Schemas['BalanceRequest']>[] = [
    { key: 'when', header: 'Sent', render: (r) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Text> },
    { key: 'amount', header: 'Amount', align: 'right', render: (r) => <Money value={r.amount} /> },
    { key: 'utr', header: 'UTR', hiddenOnMobile: true, render: (r) => <Text size="xs" ff="monospace">{r.utr_number}</Text> },
    { key: 'proof', header: 'Screenshot', hiddenOnMobile: true, render: (r) => <Proof req={r} /> },
    { key: 'status', header: 'Status', render: (r) => <RequestStatusBadge status={r.status} /> },
    { key: 'actions', header: 'Decide', align: 'right', pinRight: true, render: (r) => <Decide req={r} /> },
  ];
  return (
    <DataTable caption="Balance requests" columns={columns} rowKey={(r) => r.id} {...tableProps} emptyTitle="No balance requests"
      filters={<FilterSelect list={list} name="status" label="Status" data={['pending', 'approved', 'rejected']} w={140} />} />
  );
}
