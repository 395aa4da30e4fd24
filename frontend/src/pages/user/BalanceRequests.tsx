// Add balance: the top-up request form and the caller's requests with their
// status (and the reviewer's remarks, the screenshot sent).
import { useEffect, useState } from 'react';
import { Button, Image, Modal, Paper, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, Loading } from '../../components/States';
import { useBalanceRequests, usePayee, useRequestScreenshot } from '../../features/balanceRequests/api';
import { formatDateTime } from '../../lib/dates';
import { formatINR } from '../../lib/money';
import { useListParams } from '../../lib/listParams';
import { CheckoutForm } from './balanceRequests/CheckoutForm';
import { CheckoutReturn } from './balanceRequests/CheckoutReturn';
import { creditor, PayeeDetails } from './balanceRequests/PayeeDetails';
import { METHODS, RequestForm } from './balanceRequests/RequestForm';
import { StatusBadge } from './common/StatusBadge';

type Req = Schemas['BalanceRequest'];
const methodLabel = (m: string) => METHODS.find((x) => x.value === m)?.label ?? m;

function Screenshot({ req, onClose }: { req: Req | null; onClose: () => void }) {
  const q = useRequestScreenshot(req);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!q.data) return;
    const u = URL.createObjectURL(q.data.blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [q.data]);
  const isImage = q.data?.blob.type.startsWith('image/');
  return (
    <Modal opened={req !== null} onClose={onClose} title={`Screenshot of ${req ? formatINR(req.amount) : ''} (${req?.utr_number ?? ''})`} size="lg">
      {q.isPending ? <Loading /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} />
        : url && isImage ? <Image src={url} alt={`Screenshot sent with UTR ${req?.utr_number}`} fit="contain" />
        : url ? <Button component="a" href={url} download={q.data?.filename ?? 'screenshot.pdf'}>Download the PDF</Button> : null}
    </Modal>
  );
}

export default function BalanceRequests() {
  const list = useListParams({ status: '', q: '', from: '', to: '' });
  const { tableProps } = useBalanceRequests(list);
  const [utr, setUtr] = useState(list.filters.q);
  const applyUtr = useDebouncedCallback((v: string) => list.setFilter('q', v.trim()), 300);
  const [shot, setShot] = useState<Req | null>(null);
  // A reseller's customer pays its reseller directly (no platform checkout)
  // and its reseller credits the balance; everyone else as before.
  const payee = usePayee().data;
  const reseller = payee?.payee === 'reseller' ? creditor(payee) : null;
  const checkout = payee ? payee.checkout : false;

  const columns: Column<Req>[] = [
    { key: 'created_at', header: 'Sent', render: (r) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Text> },
    { key: 'amount', header: 'Amount', align: 'right', render: (r) => <Money value={r.amount} fw={500} /> },
    { key: 'utr', header: 'UTR number', render: (r) => <Text size="sm" ff="monospace">{r.utr_number}</Text> },
    { key: 'method', header: 'Method', hiddenOnMobile: true, render: (r) => <Text size="sm">{methodLabel(r.payment_method)}</Text> },
    { key: 'status', header: 'Status', render: (r) => <StatusBadge status={r.status} /> },
    {
      key: 'remarks', header: 'Reviewer’s remarks', hiddenOnMobile: true,
      render: (r) => <Text size="sm" c={r.admin_remarks ? undefined : 'dimmed'} lineClamp={2} maw={280}>{r.admin_remarks ?? (r.status === 'pending' ? 'Waiting for review' : '—')}</Text>,
    },
    {
      key: 'screenshot', header: 'Screenshot', pinRight: true,
      render: (r) => r.screenshot_url
        ? <Button size="compact-xs" variant="subtle" onClick={() => setShot(r)} aria-label={`View the screenshot of UTR ${r.utr_number}`}>View</Button>
        : <Text size="sm" c="dimmed">None</Text>,
    },
  ];

  return (
    <>
      <PageHeader title="Add balance" description={reseller
        ? `Pay ${reseller} by UPI or bank transfer, then send the UTR here: ${reseller} checks the payment and credits your balance.`
        : 'Pay by UPI through the checkout and your balance is credited when the payment succeeds, or pay by bank transfer and tell us here for an administrator to check.'} />
      <CheckoutReturn />
      {checkout && (
        <Paper withBorder p="md" radius="md" mb="lg">
          <Title order={2} size="h4" mb="xs">Pay by UPI</Title>
          <Text size="sm" c="dimmed" mb="sm">Scan the QR code or open your UPI app on the next page; no form to fill in afterwards.</Text>
          <CheckoutForm />
        </Paper>
      )}
      <Paper withBorder p="md" radius="md" mb="lg">
        <Title order={2} size="h4" mb="xs">{reseller ? (payee?.payable ? `Pay ${reseller} by UPI or bank transfer` : `Pay ${reseller}`) : 'Pay by bank transfer'}</Title>
        <PayeeDetails />
        <Title order={3} size="h5" mt="md" mb="sm">Request a top-up</Title>
        <RequestForm onCreated={(r) => notifications.show({ color: 'teal', title: 'Request sent', message: `${formatINR(r.amount)} (UTR ${r.utr_number}) is waiting for ${reseller ?? 'review'}.` })} />
      </Paper>
      <Title order={2} size="h4" mb="sm">Your requests</Title>
      <DataTable<Req>
        caption="Your balance requests"
        columns={columns}
        rowKey={(r) => r.id}
        {...tableProps}
        emptyTitle="No requests yet"
        emptyDescription="Your top-up requests and their status show here."
        filters={
          <>
            <FilterSelect list={list} name="status" label="Status" w={140} data={['pending', 'approved', 'rejected']} />
            <TextInput label="Search UTR" placeholder="Part of a UTR number" w={170} value={utr}
              onChange={(e) => { setUtr(e.currentTarget.value); applyUtr(e.currentTarget.value); }} />
            <DateRangeFilter list={list} />
          </>
        }
      />
      <Screenshot req={shot} onClose={() => setShot(null)} />
    </>
  );
}
