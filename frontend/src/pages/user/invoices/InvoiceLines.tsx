// An invoice's lines and totals (a draft's too): SAC, quantity, unit
// price, taxable value, the tax columns (CGST and SGST within the
// supplier's state, IGST across states, none on a bill of supply) and the
// amount. Amounts are the API's strings, shown as they are.
import { ScrollArea, Table, Text } from '@mantine/core';
import { Money } from '../../../components/Money';
import type { Invoice } from '../../../features/invoices/api';

/** "18.00" → "18%", "2.50" → "2.5%": a tax rate as a percentage. */
export function percent(rate: string): string {
  const r = rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;
  return `${r || '0'}%`;
}

/** Half a rate with 2 places ("18.00" → "9.00"), exactly: the CGST and SGST rates. */
export function halfRate(rate: string): string {
  const [i = '0', f = ''] = rate.split('.');
  const hundredths = BigInt(i) * 100n + BigInt((f + '00').slice(0, 2)); // not money: a tax rate
  const half = hundredths * 5n; // in thousandths
  const whole = half / 1000n;
  const frac = (half % 1000n).toString().padStart(3, '0').replace(/0$/, '');
  return `${whole}.${frac.padEnd(2, '0')}`;
}

export type TaxKind = 'intra' | 'inter' | 'none';

/** How the document is taxed: CGST + SGST (place of supply = supplier's state), IGST, or none (rate 0: a bill of supply). */
export function taxKind(inv: Invoice): TaxKind {
  if (/^0+(\.0+)?$/.test(inv.rate)) return 'none';
  return inv.place_of_supply === inv.supplier.state ? 'intra' : 'inter';
}

export function InvoiceLines({ invoice, caption }: { invoice: Invoice; caption: string }) {
  const kind = taxKind(invoice);
  const half = percent(halfRate(invoice.rate));
  const t = invoice.totals;
  const num = { ta: 'right' as const, style: { whiteSpace: 'nowrap' as const } };
  return (
    <ScrollArea type="auto">
      <Table verticalSpacing="xs" aria-label={caption} data-testid="invoice-lines" miw={kind === 'intra' ? 760 : 660}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th>SAC</Table.Th>
            <Table.Th {...num}>Qty</Table.Th>
            <Table.Th {...num}>Unit price</Table.Th>
            <Table.Th {...num}>Taxable value</Table.Th>
            {kind === 'intra' && <><Table.Th {...num}>CGST {half}</Table.Th><Table.Th {...num}>SGST {half}</Table.Th></>}
            {kind === 'inter' && <Table.Th {...num}>IGST {percent(invoice.rate)}</Table.Th>}
            <Table.Th {...num}>Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoice.lines.map((l, i) => (
            <Table.Tr key={i}>
              <Table.Td><Text size="sm">{l.description}</Text></Table.Td>
              <Table.Td><Text size="sm" ff="monospace">{l.sac}</Text></Table.Td>
              <Table.Td {...num}><Text size="sm">{l.quantity.toLocaleString('en-IN')}</Text></Table.Td>
              <Table.Td {...num}>{l.unit_price === null ? <Text size="sm" c="dimmed" title="The items had different prices">varied</Text> : <Money value={l.unit_price} size="sm" />}</Table.Td>
              <Table.Td {...num}><Money value={l.taxable} size="sm" /></Table.Td>
              {kind === 'intra' && <><Table.Td {...num}><Money value={l.cgst} size="sm" /></Table.Td><Table.Td {...num}><Money value={l.sgst} size="sm" /></Table.Td></>}
              {kind === 'inter' && <Table.Td {...num}><Money value={l.igst} size="sm" /></Table.Td>}
              <Table.Td {...num}><Money value={l.gross} size="sm" /></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr data-testid="invoice-totals">
            <Table.Th colSpan={4}>Total</Table.Th>
            <Table.Th {...num}><Money value={t.taxable} /></Table.Th>
            {kind === 'intra' && <><Table.Th {...num}><Money value={t.cgst} /></Table.Th><Table.Th {...num}><Money value={t.sgst} /></Table.Th></>}
            {kind === 'inter' && <Table.Th {...num}><Money value={t.igst} /></Table.Th>}
            <Table.Th {...num}><Money value={t.gross} /></Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

/**
 * The tax of a document: "IGST ₹18.00", "CGST ₹9.00 + SGST ₹9.00", or "No GST (bill of supply)".
 * Each head keeps its amount on its line, but the two heads wrap onto two lines where a narrow
 * column (a phone's two-column facts) cannot hold both, instead of running over the next fact.
 */
export function TaxSummary({ invoice, size = 'sm' }: { invoice: Invoice; size?: 'xs' | 'sm' }) {
  const t = invoice.totals;
  const head = { whiteSpace: 'nowrap' as const, display: 'inline-block' };
  switch (taxKind(invoice)) {
    case 'none': return <Text size={size} c="dimmed">No GST</Text>;
    case 'inter': return <Text size={size} style={head}>IGST <Money value={t.igst} /></Text>;
    default: return (
      <Text size={size} data-testid="tax-heads" style={{ overflowWrap: 'anywhere' }}>
        <span style={head}>CGST <Money value={t.cgst} /></span>{' '}
        <span style={head}>+ SGST <Money value={t.sgst} /></span>
      </Text>
    );
  }
}
