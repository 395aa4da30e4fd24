// One issued document: number, kind, dates, place of supply, the parties,
// the lines with their tax and the totals, and its PDF. A credit note
// names the invoice it corrects.
import { Alert, Badge, Button, Drawer, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Money } from '../../../components/Money';
import { ErrorState, Loading } from '../../../components/States';
import { useInvoice, type Invoice } from '../../../features/invoices/api';
import { formatDate } from '../../../lib/dates';
import { monthOf } from '../planBilling/dates';
import { InvoiceLines, percent, TaxSummary, taxKind } from './InvoiceLines';
import { Fact, Parties, PlaceOfSupply } from './Parties';

export const kindName = (k: Invoice['kind']) => (k === 'credit_note' ? 'Credit note' : 'Invoice');

export function KindBadge({ kind, size }: { kind: Invoice['kind']; size?: 'xs' | 'sm' }) {
  return (
    <Badge variant="light" size={size} color={kind === 'credit_note' ? 'grape' : 'blue'} styles={{ root: { minWidth: 'max-content' } }}>
      {kind === 'credit_note' ? 'credit note' : 'invoice'}
    </Badge>
  );
}

export function InvoiceDrawer({ id, onClose, onDownload, downloading }: {
  id: number | null;
  onClose: () => void;
  onDownload: (inv: Invoice & { id: number }) => void;
  downloading: boolean;
}) {
  const q = useInvoice(id);
  const inv = q.data;
  const title = inv ? `${kindName(inv.kind)} ${inv.number ?? ''}` : 'Invoice';
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="xl" title={title}>
      {q.isPending ? <Loading label="Loading the document…" /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} /> : inv && (
        <Stack gap="md" data-testid="invoice-detail">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs">
              <KindBadge kind={inv.kind} />
              {taxKind(inv) === 'none' && <Badge variant="outline" color="gray">bill of supply</Badge>}
            </Group>
            <Button leftSection={<IconDownload size={16} aria-hidden />} loading={downloading}
              onClick={() => onDownload({ ...inv, id: inv.id! })}>Download PDF</Button>
          </Group>
          {inv.kind === 'credit_note' && (
            <Alert color="grape" variant="light" data-testid="corrects">
              Corrects invoice <b>{inv.corrects_number ?? '—'}</b>: the charges of that invoice refunded in {monthOf(inv.month)}.
              {inv.reason && <> {inv.reason}.</>}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
            <Fact label="Number"><span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{inv.number}</span></Fact>
            <Fact label="Date">{formatDate(inv.issued_at)}</Fact>
            <Fact label="For">{monthOf(inv.month)}</Fact>
            <Fact label="Place of supply" testId="place-of-supply"><PlaceOfSupply invoice={inv} /></Fact>
            <Fact label="GST rate">{percent(inv.rate)}</Fact>
            <Fact label="Tax" testId="invoice-tax"><TaxSummary invoice={inv} /></Fact>
            <Fact label="Taxable value"><Money value={inv.totals.taxable} /></Fact>
            <Fact label={inv.kind === 'credit_note' ? 'Credited' : 'Total'} testId="invoice-gross"><Money value={inv.totals.gross} fw={600} /></Fact>
          </SimpleGrid>
          <Parties invoice={inv} />
          <InvoiceLines invoice={inv} caption={`Lines of ${inv.number ?? 'the document'}`} />
        </Stack>
      )}
    </Drawer>
  );
}
