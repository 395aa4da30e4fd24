// Invoices (decisions part 17): this month so far (the draft of the
// caller's invoice), then the tax invoices and credit notes issued on the
// 1st of each month, each with its PDF and a detail drawer (lines, tax,
// totals; a credit note names the invoice it corrects). Admins see every
// account's documents, filtered by user, month and kind. Admins and
// resellers download a month's GSTR-1 register of what they issued.
import { useSearchParams } from 'react-router';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { errorMessage } from '../../api/errors';
import { useUser } from '../../auth/useSession';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { useInvoicePdf, useInvoices, type Invoice } from '../../features/invoices/api';
import { useUsersById } from '../../features/users/api';
import { formatDate } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { useListParams } from '../../lib/listParams';
import { UserRef } from '../admin/shared/badges';
import { UserFilterChip, UserFilterPicker } from '../admin/shared/UserFilter';
import { MonthInput } from './common/MonthInput';
import { saveFile } from './common/saveFile';
import { InvoiceDrawer, KindBadge, kindName } from './invoices/InvoiceDrawer';
import { TaxSummary } from './invoices/InvoiceLines';
import { RegisterDownload } from './invoices/Register';
import { Upcoming } from './invoices/Upcoming';

type Issued = Invoice & { id: number };

/** "2026-11" → "Nov 2026". */
function shortMonth(month: string): string {
  const [y, m] = month.split('-').map((x) => parseInt(x, 10)); // not money
  return new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', month: 'short', year: 'numeric' }).format(new Date(Date.UTC(y!, m! - 1, 1)));
}

const KINDS = [
  { value: 'invoice', label: 'Invoices' },
  { value: 'credit_note', label: 'Credit notes' },
];

export default function Invoices() {
  const role = useUser().role;
  const admin = role === 'admin';
  const list = useListParams({ user_id: '', month: '', kind: '' });
  const { tableProps } = useInvoices(list);
  const [sp, setSp] = useSearchParams();
  const open = parseId(sp.get('invoice'));
  const setOpen = (id: number | null) => setSp((prev) => {
    const next = new URLSearchParams(prev);
    if (id === null) next.delete('invoice');
    else next.set('invoice', String(id));
    return next;
  });
  const users = useUsersById(admin ? (tableProps.rows ?? []).map((r) => r.user_id) : []);
  const pdf = useInvoicePdf({
    onSuccess: saveFile,
    onError: (err) => notifications.show({ color: 'red', title: 'Could not download the PDF', message: errorMessage(err) }),
  });
  const download = (inv: Issued) => pdf.mutate(inv.id);
  const downloading = (id: number) => pdf.isPending && pdf.variables === id;

  const columns: Column<Issued>[] = [
    {
      key: 'number', header: 'Number',
      render: (inv) => (
        <Stack gap={2} align="flex-start">
          <Anchor component="button" type="button" size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}
            aria-label={`Open ${kindName(inv.kind).toLowerCase()} ${inv.number}`} onClick={(e) => { e.stopPropagation(); setOpen(inv.id); }}>
            {inv.number}
          </Anchor>
          <Group gap={6} wrap="nowrap">
            <KindBadge kind={inv.kind} size="xs" />
            <Text size="xs" c="dimmed" hiddenFrom="sm" style={{ whiteSpace: 'nowrap' }}>{shortMonth(inv.month)}</Text>
          </Group>
        </Stack>
      ),
    },
    ...(admin ? [{
      key: 'user', header: 'Account',
      render: (inv: Issued) => (
        <Stack gap={0}>
          <UserRef id={inv.user_id} users={users} compact />
          <Text size="xs" c="dimmed" lineClamp={1} maw={220}>{inv.recipient.legal_name}</Text>
        </Stack>
      ),
    }] : []),
    { key: 'month', header: 'Month', hiddenOnMobile: true, render: (inv) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{shortMonth(inv.month)}</Text> },
    { key: 'date', header: 'Date', hiddenOnMobile: true, render: (inv) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDate(inv.issued_at)}</Text> },
    ...(admin ? [] : [{ key: 'taxable', header: 'Taxable value', align: 'right' as const, hiddenOnMobile: true, render: (inv: Issued) => <Money value={inv.totals.taxable} size="sm" /> }]),
    { key: 'tax', header: 'Tax', hiddenOnMobile: true, render: (inv) => <TaxSummary invoice={inv} /> },
    { key: 'gross', header: 'Total', align: 'right', render: (inv) => <Money value={inv.totals.gross} size="sm" fw={500} /> },
    {
      key: 'pdf', header: '', align: 'right', pinRight: true,
      render: (inv) => (
        <Button size="compact-sm" variant="light" leftSection={<IconDownload size={14} aria-hidden />} loading={downloading(inv.id)}
          aria-label={`Download PDF of ${inv.number}`} onClick={(e) => { e.stopPropagation(); download(inv); }}>
          PDF
        </Button>
      ),
    },
  ];
  const filtered = Object.values(list.filters).some((v) => v !== '');
  return (
    <>
      <PageHeader title="Invoices" description={admin
        ? "Every account's GST tax invoices and credit notes. Each month's are issued on the 1st for the month before, and never change."
        : 'Your GST tax invoices and credit notes, issued on the 1st of each month for the month before. Download them as PDF for your accounts.'} />
      <Stack gap="lg">
        {!admin && <Upcoming />}
        {(admin || role === 'reseller') && <RegisterDownload reseller={!admin} />}
        <section aria-labelledby="issued-title">
          <Title order={2} size="h4" id="issued-title" mb="xs">{admin ? 'Issued documents' : 'Issued invoices and credit notes'}</Title>
          <Stack gap="sm">
            {admin && <UserFilterChip list={list} what="Invoices" />}
            <DataTable<Issued>
              caption="Invoices and credit notes"
              columns={columns}
              rowKey={(inv) => inv.id}
              {...tableProps}
              rows={tableProps.rows as Issued[] | undefined}
              onRowClick={(inv) => setOpen(inv.id)}
              emptyTitle={filtered ? 'Nothing matches' : 'No invoices yet'}
              emptyDescription={filtered ? 'No document matches these filters.' : 'Your first invoice is issued on the 1st of the month after your first charge.'}
              filters={
                <>
                  {admin && <UserFilterPicker list={list} />}
                  <MonthInput label="Month" placeholder="Any month" clearable w={{ base: '100%', xs: 180 }}
                    value={list.filters.month} onChange={(m) => list.setFilter('month', m)} />
                  <FilterSelect list={list} name="kind" label="Kind" w={150} data={KINDS} />
                </>
              }
            />
          </Stack>
        </section>
      </Stack>
      <InvoiceDrawer id={open} onClose={() => setOpen(null)} onDownload={download} downloading={open !== null && downloading(open)} />
    </>
  );
}
