import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Statements from './Statements';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { setTimeZoneForTests } from '../../lib/dates';
import { admin, list, signInAsAdmin, stubApi, user } from '../admin/test/fixtures';
import { pdfResponse } from './test/invoices';

const october = {
  user_id: 7, month: '2026-10', from: '2026-09-30T18:30:00Z', to: '2026-10-31T18:30:00Z',
  opening_balance: '1000.00', closing_balance: '698.50', credits: '0.50', debits: '302.00', entries: 4,
};

function signInAsUser() {
  session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
}

let clicked: string[] = [];
beforeEach(() => {
  setTimeZoneForTests('Asia/Kolkata');
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { clicked.push(this.download); });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:statement'), revokeObjectURL: vi.fn() }));
});
afterEach(async () => {
  vi.restoreAllMocks();
  cleanup();
  await session.signOut();
});

describe('Statements (a user)', () => {
  beforeEach(signInAsUser);

  it("shows the month's opening and closing balance, credits, debits and entries, and downloads its PDF and CSV", async () => {
    const calls = stubApi({
      'GET /api/v1/panel/statements': (c) => {
        const f = new URLSearchParams(c.search).get('format');
        if (f === 'pdf') return pdfResponse('statement-2026-10.pdf');
        if (f === 'csv') return new Response('date,description\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="statement-2026-10.csv"' } });
        return json(200, october);
      },
    });
    renderWithApp(<Statements />, { path: '/statements', url: '/statements?month=2026-10' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Statements' })).toBeInTheDocument();
    const st = await screen.findByRole('region', { name: 'Statement for October 2026' });
    expect(within(st).getByTestId('statement-period')).toHaveTextContent('01 Oct 2026 to 31 Oct 2026');
    expect(within(st).getByTestId('statement-opening')).toHaveTextContent('₹1,000.00');
    expect(within(st).getByTestId('statement-credits')).toHaveTextContent('₹0.50');
    expect(within(st).getByTestId('statement-debits')).toHaveTextContent('₹302.00');
    expect(within(st).getByTestId('statement-closing')).toHaveTextContent('₹698.50');
    expect(within(st).getByTestId('statement-entries')).toHaveTextContent('4');
    expect(within(st).getByRole('link', { name: 'See the entries in Transactions' })).toHaveAttribute('href', '/transactions?from=2026-10-01&to=2026-10-31');
    expect(calls[0]!.search).toBe('?month=2026-10');

    const u = userEvent.setup();
    await u.click(within(st).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(clicked).toEqual(['statement-2026-10.pdf']));
    expect(calls.at(-1)!.search).toBe('?month=2026-10&format=pdf');
    expect(calls.at(-1)!.auth).toBe('Bearer token-u');

    await u.click(within(st).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toEqual(['statement-2026-10.pdf', 'statement-2026-10.csv']));
    expect(calls.at(-1)!.search).toBe('?month=2026-10&format=csv');
  });

  it('starts at the current month, and a month picked goes to the URL and the API', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T10:00:00Z'));
    const calls = stubApi({ 'GET /api/v1/panel/statements': (c) => json(200, { ...october, month: new URLSearchParams(c.search).get('month') }) });
    const { router } = renderWithApp(<Statements />, { path: '/statements' });
    expect(await screen.findByRole('region', { name: 'Statement for November 2026' })).toBeInTheDocument();
    expect(calls[0]!.search).toBe('?month=2026-11');
    const u = userEvent.setup();
    await u.click(screen.getByLabelText('Month'));
    await u.click(await screen.findByRole('button', { name: 'Sep' }));
    await waitFor(() => expect(router.state.location.search).toBe('?month=2026-09'));
    expect(await screen.findByRole('region', { name: 'Statement for September 2026' })).toBeInTheDocument();
    expect(calls.at(-1)!.search).toBe('?month=2026-09');
    vi.useRealTimers();
  });

  it('offers the CSV when the month is too long for a PDF (422 statement_too_long)', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/statements': (c) => {
        const f = new URLSearchParams(c.search).get('format');
        if (f === 'pdf') {
          return json(422, { success: false, error: 'statement_too_long', message: 'The month has more than 10000 entries: download the statement as CSV', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
        }
        if (f === 'csv') return new Response('x\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="statement-2026-10.csv"' } });
        return json(200, { ...october, entries: 12001 });
      },
    });
    renderWithApp(<Statements />, { path: '/statements', url: '/statements?month=2026-10' });
    const st = await screen.findByRole('region', { name: 'Statement for October 2026' });
    expect(within(st).getByTestId('statement-entries')).toHaveTextContent('12,001');
    const u = userEvent.setup();
    await u.click(within(st).getByRole('button', { name: 'Download PDF' }));
    const alert = await within(st).findByTestId('statement-too-long');
    expect(alert).toHaveTextContent('The month has more than 10000 entries: download the statement as CSV.');
    expect(clicked).toEqual([]);
    await u.click(within(alert).getByRole('button', { name: 'Download the CSV instead' }));
    await waitFor(() => expect(clicked).toEqual(['statement-2026-10.csv']));
    expect(calls.at(-1)!.search).toBe('?month=2026-10&format=csv');
  });
});

describe('Statements (an admin)', () => {
  beforeEach(signInAsAdmin);

  it("asks for an account first, then reads that account's statement", async () => {
    const calls = stubApi({
      'GET /api/v1/panel/statements': () => json(200, october),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/users': () => json(200, list([user({ status: 'active' }), admin])),
    });
    const { router } = renderWithApp(<Statements />, { path: '/statements', url: '/statements?month=2026-10' });
    expect(await screen.findByText('Choose an account')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/v1/panel/statements')).toBe(false);
    const u = userEvent.setup();
    await u.click(screen.getByLabelText('Account', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Rao <asha@example.com>', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?month=2026-10&user_id=7'));
    const st = await screen.findByRole('region', { name: 'Statement for October 2026' });
    expect(calls.filter((c) => c.path === '/api/v1/panel/statements').at(-1)!.search).toBe('?month=2026-10&user_id=7');
    expect(await screen.findByTestId('statement-user')).toHaveTextContent('Asha Rao <asha@example.com>');
    expect(within(st).getByRole('link', { name: 'See the entries in Transactions' })).toHaveAttribute('href', '/transactions?from=2026-10-01&to=2026-10-31&user_id=7');
  });
});
