import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Transactions from './Transactions';
import { json, renderWithApp } from '../../test/render';
import { setTimeZoneForTests } from '../../lib/dates';
import { session } from '../../auth/session';
import { signInAsAdmin, stubApi, user } from '../admin/test/fixtures';

const txn = (id: number, type: 'credit' | 'debit', amount: string, after: string, ref: string) => ({
  id, user_id: 7, txn_id: `TXN${id}000`, type, amount, balance_before: '0.00', balance_after: after, reference_type: ref,
  reference_id: id, description: `${ref} ${id}`, status: 'completed', created_at: '2026-11-21T20:00:00Z',
});

afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the transactions list', () => {
  beforeEach(() => {
    session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
  });

  it('shows amounts in INR, dates in the zone, and sends filters and pages to the API from the URL', async () => {
    setTimeZoneForTests('Asia/Kolkata');
    const queries: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      const url = new URL(req.url);
      queries.push(url.search);
      if (url.searchParams.get('type') === 'refund') return json(200, { data: [], meta: { page: 1, per_page: 20, total: 0 } });
      return json(200, { data: [txn(2, 'debit', '0.50', '1234567.00', 'api_hit'), txn(1, 'credit', '1234567.50', '1234567.50', 'balance_request')],
        meta: { page: 2, per_page: 20, total: 42 } });
    }));
    const { router } = renderWithApp(<Transactions />, { path: '/transactions', url: '/transactions?page=2&reference_type=api_hit' });
    const table = await screen.findByRole('table', { name: 'Transactions' });
    expect(queries[0]).toBe('?page=2&per_page=20&reference_type=api_hit');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('-₹0.50');
    expect(rows[1]).toHaveTextContent('₹12,34,567.00');
    expect(rows[2]).toHaveTextContent('₹12,34,567.50');
    expect(rows[1]).toHaveTextContent('22 Nov 2026'); // 20:00 UTC is the next day in India
    expect(screen.getByText('42 rows')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();

    // A filter goes to the URL and back to page 1.
    const u = userEvent.setup();
    await u.click(screen.getByLabelText('Type', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'refund', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?reference_type=api_hit&type=refund'));
    expect(await screen.findByText('No transactions')).toBeInTheDocument();
    expect(screen.getByText('Nothing matches these filters.')).toBeInTheDocument();
    expect(queries.at(-1)).toBe('?page=1&per_page=20&type=refund&reference_type=api_hit');
  });

  it('shows the API’s error with a retry', async () => {
    const fetch = vi.fn(async () => json(422, { success: false, message: 'page is beyond the newest 10,000 rows', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' }));
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<Transactions />, { path: '/transactions', url: '/transactions?page=999' });
    expect(await screen.findByRole('alert')).toHaveTextContent('page is beyond the newest 10,000 rows');
    expect(screen.getByText('Request id: req_01J9Z8X4K3M2N1P0Q9R8S7T6V5')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });
});

describe('the transactions list (an admin)', () => {
  beforeEach(signInAsAdmin);

  it('names whose entry each is and filters by user', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/transactions': () => json(200, { data: [{ ...txn(1, 'credit', '10.00', '10.00', 'adjustment'), user_name: 'Asha Rao', user_email: 'asha@example.com' }],
        meta: { page: 1, per_page: 20, total: 1 } }),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
    });
    renderWithApp(<Transactions />, { path: '/transactions', url: '/transactions?user_id=7' });
    const table = await screen.findByRole('table', { name: 'Transactions' });
    expect(calls.find((c) => c.path === '/api/v1/panel/transactions')!.search).toBe('?page=1&per_page=20&user_id=7');
    expect(within(table).getByRole('link', { name: /Asha Rao/ })).toHaveAttribute('href', '/admin/users/7');
    expect(screen.getByText(/^All transactions/)).toBeInTheDocument();
    expect(await screen.findByText('Asha Rao <asha@example.com>')).toBeInTheDocument();
    expect(screen.getByText('Transactions of')).toBeInTheDocument();
  });
});
