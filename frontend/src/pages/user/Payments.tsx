// Gateway payments created with the caller's keys (the gateway's payment/create):
// status filter, days, pagination; a successful payment's refunds and its
// "Refund" action in a dialog. Admins see everyone's, with the user and a
// user filter.
import { useState } from 'react';
import { Anchor, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/useSession';
import { CopyId } from '../../components/CopyId';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { TestBadge } from '../../components/TestBadge';
import { PAYMENT_CREATE_ENDPOINT, usePayments } from '../../features/payments/api';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { NamedUserRef } from '../admin/shared/badges';
import { UserFilterChip, UserFilterPicker } from '../admin/shared/UserFilter';
import { StatusBadge } from './common/StatusBadge';
import { Refunds } from './payments/Refunds';

type Payment = Schemas['Payment'];

const columns = (admin: boolean, openRefunds: (p: Payment) => void): Column<Payment>[] => [
  { key: 'created_at', header: 'Created', render: (p) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.created_at)}</Text> },
  ...(admin ? [{ key: 'user', header: 'User', render: (p: Payment) => <NamedUserRef id={p.user_id} name={p.user_name} email={p.user_email} /> }] : []),
  { key: 'amount', header: 'Amount', align: 'right', render: (p) => <Money value={p.amount} fw={500} /> },
  {
    key: 'status', header: 'Status',
    render: (p) => (
      <Group gap={6} wrap="nowrap">
        <StatusBadge status={p.status} />
        <TestBadge livemode={p.livemode} title="A sandbox payment: no money moved" />
        {p.purpose === 'balance' && <Badge size="sm" color="gray" variant="outline" styles={{ root: { minWidth: 'max-content', flexShrink: 0 } }}
          title="Your own top-up (Add balance), not a customer's payment" data-testid="own-top-up">Your top-up</Badge>}
      </Group>
    ),
  },
  { key: 'customer', header: 'Customer', render: (p) => <Text size="sm">{p.customer_id}</Text> },
  { key: 'id', header: 'Payment id', hiddenOnMobile: true, render: (p) => <CopyId value={p.payment_id} label="payment id" /> },
  {
    key: 'when', header: 'Completed / expires', hiddenOnMobile: true,
    render: (p) => <Text size="sm">{p.completed_at ? formatDateTime(p.completed_at) : p.status === 'created' || p.status === 'pending' ? `expires ${formatDateTime(p.expires_at)}` : '—'}</Text>,
  },
  {
    key: 'page', header: 'Checkout', hiddenOnMobile: true,
    render: (p) => (p.status === 'created' || p.status === 'pending'
      ? <Anchor href={p.payment_url} target="_blank" rel="noreferrer" size="sm">Open</Anchor> : <Text size="sm" c="dimmed">—</Text>),
  },
  {
    key: 'refunds', header: 'Refunds',
    // A top-up of one's own balance is not a customer's payment: nothing to refund.
    render: (p) => (p.status === 'success' && p.purpose !== 'balance'
      ? (
        <Group gap={6} wrap="nowrap">
          {p.refunded_amount !== '0.00' && <Money value={p.refunded_amount} size="sm" />}
          <Button size="compact-xs" variant="light" onClick={() => openRefunds(p)} aria-label={`Refunds of ${p.payment_id}`}>
            {p.refundable_amount !== '0.00' ? 'Refund' : 'Refunds'}
          </Button>
        </Group>
      )
      : <Text size="sm" c="dimmed">—</Text>),
  },
];

export default function Payments() {
  const admin = useUser().role === 'admin';
  const list = useListParams({ user_id: '', status: '', from: '', to: '' });
  const { tableProps } = usePayments(list);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  return (
    <>
      <Modal opened={refunding !== null} onClose={() => setRefunding(null)} title={refunding ? `Refunds of ${refunding.payment_id}` : ''} size="lg">
        {refunding && <Refunds payment={refunding} />}
      </Modal>
      <PageHeader title="Payments" description={admin
        ? "All payments: every user's customers paying on hosted checkout pages."
        : 'Payments your customers make on hosted checkout pages you create with the gateway API.'} />
      <Stack gap="sm">
        {admin && <UserFilterChip list={list} what="Payments" />}
        <DataTable<Payment>
          caption="Payments"
          columns={columns(admin, setRefunding)}
          rowKey={(p) => p.payment_id}
          {...tableProps}
          emptyTitle="No payments"
          emptyDescription={<>Create one with <code>POST {PAYMENT_CREATE_ENDPOINT}</code> and your API key.</>}
          filters={
            <>
              {admin && <UserFilterPicker list={list} />}
              <FilterSelect list={list} name="status" label="Status" w={140} data={['created', 'pending', 'success', 'failed', 'expired']} />
              <DateRangeFilter list={list} />
            </>
          }
        />
      </Stack>
    </>
  );
}
