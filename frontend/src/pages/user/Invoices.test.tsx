import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Invoices from './Invoices';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { setTimeZoneForTests } from '../../lib/dates';
import { admin, list, signInAsAdmin, stubApi, user } from '../admin/test/fixtures';
import { creditNote, draft, intraInvoice, invoice, pdfResponse, states } from './test/invoices';

function signInAsUser() {
  session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
}

beforeEach(() => setTimeZoneForTests('Asia/Kolkata'));
afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('Invoices (a user)', () => {
  beforeEach(signInAsUser);

  it("shows this month's draft with its lines, IGST and totals, then the issued documents", async () => {
    const calls = stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft()),
      'GET /api/v1/panel/invoices': () => json(200, list([creditNote(), invoice()])),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoices' })).toBeInTheDocument();

    const upcoming = await screen.findByRole('region', { name: 'This month so far' });
    expect(await within(upcoming).findByTestId('upcoming-gross')).toHaveTextContent('₹301.50');
    expect(within(upcoming).getByText(/Your invoice for November 2026 as it stands now\. It is issued with a number on 1 December 2026/)).toBeInTheDocument();
    expect(within(upcoming).getByTestId('upcoming-tax')).toHaveTextContent('IGST ₹45.99');
    const lines = within(upcoming).getByRole('table', { name: 'Your charges of November 2026 so far' });
    expect(within(lines).getByRole('columnheader', { name: 'IGST 18%' })).toBeInTheDocument();
    expect(within(lines).queryByRole('columnheader', { name: /CGST/ })).toBeNull();
    const rows = within(lines).getAllByRole('row');
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['SMS OTP calls', '998319', '3', '₹0.50', '₹1.27', '₹0.23', '₹1.50']);
    expect(within(lines).getByTestId('invoice-totals')).toHaveTextContent('Total₹255.51₹45.99₹301.50');
    expect(await within(upcoming).findByText('Karnataka (29)')).toBeInTheDocument();
    expect(upcoming).toHaveTextContent('Made out to Bharat Exports Pvt Ltd (GSTIN 29AAGCB7383J1Z4).');

    const table = await screen.findByRole('table', { name: 'Invoices and credit notes' });
    const docs = within(table).getAllByRole('row').slice(1);
    expect(docs[0]).toHaveTextContent('PGC/26-27/000001');
    expect(docs[0]).toHaveTextContent('credit note');
    expect(docs[1]).toHaveTextContent('PG/26-27/000001');
    expect(docs[1]).toHaveTextContent('Oct 2026');
    expect(docs[1]).toHaveTextContent('01 Nov 2026'); // issued at midnight, India time
    expect(docs[1]).toHaveTextContent('IGST ₹45.99');
    expect(docs[1]).toHaveTextContent('₹301.50');
    // A user has no account filter, and no GSTR-1 register (it issues nothing).
    expect(screen.queryByLabelText('User', { selector: 'input' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'GSTR-1 register' })).toBeNull();
    expect(calls.find((c) => c.path === '/api/v1/panel/invoices')!.search).toBe('?page=1&per_page=20');
  });

  it('says so when nothing was billed this month', async () => {
    stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft({ lines: [], totals: { gross: '0.00', taxable: '0.00', cgst: '0.00', sgst: '0.00', igst: '0.00' } })),
      'GET /api/v1/panel/invoices': () => json(200, list([])),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    expect(await screen.findByTestId('upcoming-empty')).toHaveTextContent('Nothing billed in November 2026 yet.');
    expect(await screen.findByText('No invoices yet')).toBeInTheDocument();
  });

  it("downloads a document's PDF from its path with the session's token, under the server's file name", async () => {
    const createObjectURL = vi.fn((_b: Blob) => 'blob:invoice');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicked.push(this.download); });
    const calls = stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft()),
      'GET /api/v1/panel/invoices': () => json(200, list([invoice()])),
      'GET /api/v1/panel/invoices/5/pdf': () => pdfResponse('PG-26-27-000001.pdf'),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Download PDF of PG/26-27/000001' }));
    await waitFor(() => expect(clicked).toEqual(['PG-26-27-000001.pdf']));
    const pdf = calls.find((c) => c.path.endsWith('/pdf'))!;
    expect(pdf.path).toBe('/api/v1/panel/invoices/5/pdf');
    expect(pdf.auth).toBe('Bearer token-u');
    expect(createObjectURL.mock.calls[0]![0].type).toBe('application/pdf');
    // The row's click did not open the drawer.
    expect(screen.queryByRole('dialog')).toBeNull();
    click.mockRestore();
  });

  it('opens a document: parties, place of supply, lines with CGST and SGST, totals, and its PDF', async () => {
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicked.push(this.download); });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const calls = stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft()),
      'GET /api/v1/panel/invoices': () => json(200, list([intraInvoice()])),
      'GET /api/v1/panel/invoices/6': () => json(200, intraInvoice()),
      'GET /api/v1/panel/invoices/6/pdf': () => pdfResponse('PG-26-27-000002.pdf'),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    const { router } = renderWithApp(<Invoices />, { path: '/invoices' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Open invoice PG/26-27/000002' }));
    const drawer = await screen.findByRole('dialog', { name: 'Invoice PG/26-27/000002' });
    expect(router.state.location.search).toBe('?invoice=6');
    expect(await within(drawer).findByTestId('place-of-supply')).toHaveTextContent('Maharashtra (27)');
    expect(within(drawer).getByTestId('invoice-supplier')).toHaveTextContent('GSTIN: 27AAPFU0939F1ZV');
    expect(within(drawer).getByTestId('invoice-recipient')).toHaveTextContent('GSTIN: unregistered');
    const lines = within(drawer).getByRole('table', { name: 'Lines of PG/26-27/000002' });
    expect(within(lines).getByRole('columnheader', { name: 'CGST 9%' })).toBeInTheDocument();
    expect(within(lines).getByRole('columnheader', { name: 'SGST 9%' })).toBeInTheDocument();
    expect(within(lines).queryByRole('columnheader', { name: /IGST/ })).toBeNull();
    expect(within(lines).getByTestId('invoice-totals')).toHaveTextContent('Total₹1.28₹0.11₹0.11₹1.50');
    expect(within(drawer).queryByTestId('corrects')).toBeNull();
    await u.click(within(drawer).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(clicked).toEqual(['PG-26-27-000002.pdf']));
    expect(calls.some((c) => c.path === '/api/v1/panel/invoices/6/pdf')).toBe(true);
    click.mockRestore();
  });

  it('shows the invoice a credit note corrects', async () => {
    stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft()),
      'GET /api/v1/panel/invoices': () => json(200, list([creditNote()])),
      'GET /api/v1/panel/invoices/9': () => json(200, creditNote()),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices', url: '/invoices?invoice=9' });
    const drawer = await screen.findByRole('dialog', { name: 'Credit note PGC/26-27/000001' });
    expect(await within(drawer).findByTestId('corrects')).toHaveTextContent('Corrects invoice PG/26-27/000001');
    expect(within(drawer).getByTestId('corrects')).toHaveTextContent('Refund of a call to SMS OTP.');
    expect(within(drawer).getByTestId('invoice-gross')).toHaveTextContent('₹0.50');
  });
});

describe('Invoices (an admin)', () => {
  beforeEach(signInAsAdmin);

  it("lists every account's documents with their account, and filters by user, month and kind", async () => {
    const calls = stubApi({
      'GET /api/v1/panel/invoices': () => json(200, list([invoice(), intraInvoice({ user_id: 8 })])),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/users/8': () => json(200, user({ id: 8, name: 'Ravi Kumar', email: 'ravi@example.com' })),
      'GET /api/v1/panel/users': () => json(200, list([user({ status: 'active' }), admin])),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    const { router } = renderWithApp(<Invoices />, { path: '/invoices', url: '/invoices?month=2026-10' });
    const table = await screen.findByRole('table', { name: 'Invoices and credit notes' });
    // No draft of the admin's own month.
    expect(screen.queryByRole('region', { name: 'This month so far' })).toBeNull();
    expect(calls.some((c) => c.path.endsWith('/upcoming'))).toBe(false);
    expect(await within(table).findByRole('link', { name: 'ravi@example.com' })).toHaveAttribute('href', '/admin/users/8');
    expect(within(table).getAllByText('Bharat Exports Pvt Ltd')).toHaveLength(2);
    expect(calls.filter((c) => c.path === '/api/v1/panel/invoices')[0]!.search).toBe('?page=1&per_page=20&month=2026-10');
    expect(screen.getByLabelText('Month')).toHaveTextContent('October 2026');

    const u = userEvent.setup();
    await u.click(screen.getByLabelText('User', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Rao <asha@example.com>', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?month=2026-10&user_id=7'));
    expect(await screen.findByText('Invoices of')).toBeInTheDocument();

    await u.click(screen.getByLabelText('Kind', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Credit notes', hidden: true }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/panel/invoices').at(-1)!.search)
      .toBe('?page=1&per_page=20&user_id=7&month=2026-10&kind=credit_note'));
  });
});

describe('Invoices: the GSTR-1 register', () => {
  const csv = (name: string) => new Response('record,section\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${name}"` } });

  it("an admin downloads the platform's register of this month, then of a month picked, as CSV", async () => {
    signInAsAdmin();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-07T10:00:00Z'));
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:register'), revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicked.push(this.download); });
    const calls = stubApi({
      'GET /api/v1/panel/invoices': () => json(200, list([invoice()])),
      'GET /api/v1/panel/invoices/register': (c) => csv(`gstr1-register-${new URLSearchParams(c.search).get('month')}-2026-12-07.csv`),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    const reg = await screen.findByRole('region', { name: 'GSTR-1 register' });
    expect(reg).toHaveTextContent("The platform's invoices and credit notes dated in a month");
    const u = userEvent.setup();
    await u.click(within(reg).getByRole('button', { name: 'Download register (CSV)' }));
    await waitFor(() => expect(clicked).toEqual(['gstr1-register-2026-12-2026-12-07.csv']));
    const first = calls.find((c) => c.path === '/api/v1/panel/invoices/register')!;
    expect(first.search).toBe('?month=2026-12&format=csv');
    expect(first.auth).toBe('Bearer token-a');

    await u.click(within(reg).getByLabelText('Register month'));
    await u.click(await screen.findByRole('button', { name: 'Nov' }));
    await u.click(within(reg).getByRole('button', { name: 'Download register (CSV)' }));
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(calls.filter((c) => c.path === '/api/v1/panel/invoices/register').at(-1)!.search).toBe('?month=2026-11&format=csv');
    click.mockRestore();
    vi.useRealTimers();
  });

  it('a reseller downloads the register of the documents it issued', async () => {
    session.signIn({ access_token: 'token-r', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ role: 'reseller', status: 'active' }) });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:register'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const calls = stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft()),
      'GET /api/v1/panel/invoices': () => json(200, list([])),
      'GET /api/v1/panel/invoices/register': () => csv('gstr1-register.csv'),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    const reg = await screen.findByRole('region', { name: 'GSTR-1 register' });
    expect(reg).toHaveTextContent('The invoices and credit notes you issued to your customers dated in a month');
    await userEvent.setup().click(within(reg).getByRole('button', { name: 'Download register (CSV)' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/v1/panel/invoices/register' && c.auth === 'Bearer token-r')).toBe(true));
    click.mockRestore();
  });
});
