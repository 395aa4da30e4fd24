// Fixtures of the invoices and statements screens' tests.
import type { Invoice } from '../../../features/invoices/api';

export const states = { data: [{ code: '27', name: 'Maharashtra' }, { code: '29', name: 'Karnataka' }, { code: '33', name: 'Tamil Nadu' }] };

const supplier = { legal_name: 'Paygate Technologies LLP', address: '12 MG Road\nPune 411001', state: '27', gstin: '27AAPFU0939F1ZV' };
const recipient = { legal_name: 'Bharat Exports Pvt Ltd', address: '4 Residency Road\nBengaluru 560025', state: '29', gstin: '29AAGCB7383J1Z4' };

/** An issued invoice of user 7 for a customer in Karnataka (IGST); `over` changes any field. */
export function invoice(over: Partial<Invoice> = {}): Invoice {
  return {
    id: 5, user_id: 7, issuer_id: null, kind: 'invoice', number: 'PG/26-27/000001', month: '2026-10', issued_at: '2026-10-31T18:30:00Z', rate: '18.00',
    place_of_supply: '29', supplier, recipient,
    lines: [
      { description: 'SMS OTP calls', resold: false, sac: '998319', quantity: 3, unit_price: '0.50', gross: '1.50', taxable: '1.27', cgst: '0.00', sgst: '0.00', igst: '0.23' },
      { description: 'Plan fee: Growth', resold: false, sac: '998319', quantity: 1, unit_price: '300.00', gross: '300.00', taxable: '254.24', cgst: '0.00', sgst: '0.00', igst: '45.76' },
    ],
    totals: { gross: '301.50', taxable: '255.51', cgst: '0.00', sgst: '0.00', igst: '45.99' },
    corrects_id: null, corrects_number: null, pdf_url: '/api/v1/panel/invoices/5/pdf', irn: null, ...over,
  };
}

/** The same customer in the supplier's state: CGST and SGST. */
export function intraInvoice(over: Partial<Invoice> = {}): Invoice {
  return invoice({
    id: 6, number: 'PG/26-27/000002', place_of_supply: '27', recipient: { ...recipient, state: '27', gstin: null },
    lines: [{ description: 'SMS OTP calls', resold: false, sac: '998319', quantity: 3, unit_price: '0.50', gross: '1.50', taxable: '1.28', cgst: '0.11', sgst: '0.11', igst: '0.00' }],
    totals: { gross: '1.50', taxable: '1.28', cgst: '0.11', sgst: '0.11', igst: '0.00' }, ...over,
  });
}

export function creditNote(over: Partial<Invoice> = {}): Invoice {
  return invoice({
    id: 9, kind: 'credit_note', number: 'PGC/26-27/000001', month: '2026-11', issued_at: '2026-11-30T18:30:00Z', corrects_id: 5, corrects_number: 'PG/26-27/000001',
    reason: 'Refund of a call to SMS OTP',
    lines: [{ description: 'SMS OTP calls refunded', resold: false, sac: '998319', quantity: 1, unit_price: '0.50', gross: '0.50', taxable: '0.42', cgst: '0.00', sgst: '0.00', igst: '0.08' }],
    totals: { gross: '0.50', taxable: '0.42', cgst: '0.00', sgst: '0.00', igst: '0.08' }, pdf_url: '/api/v1/panel/invoices/9/pdf', ...over,
  });
}

/** This month's draft: no id, number, date or PDF. */
export function draft(over: Partial<Invoice> = {}): Invoice {
  return invoice({ id: null, number: null, issued_at: null, pdf_url: null, month: '2026-11', ...over });
}

/** A PDF answer as the server gives it. */
export function pdfResponse(name: string): Response {
  return new Response(new Blob(['%PDF-1.4 test'], { type: 'application/pdf' }), {
    status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${name}"` },
  });
}
