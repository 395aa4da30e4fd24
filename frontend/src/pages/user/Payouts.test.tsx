import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Payouts from './Payouts';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { setTimeZoneForTests } from '../../lib/dates';
import { admin, list, signInAsAdmin, stubApi, user } from '../admin/test/fixtures';
import { payout } from './test/payouts';
import type { Schemas } from '../../api/types';

const failed = payout({
  payout_id: 'pout_01J9Z8X4K3M2N1P0Q9R8S7T6V6', reference_id: 'ref-2', status: 'failed', utr: null, fail_reason: 'Account closed',
  beneficiary: { type: 'vpa', name: 'Meera', account_number: null, ifsc: null, vpa: 'meera@okaxis' }, mode: 'UPI', livemode: true,
});

function signInAsUser() {
  session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
}

afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the payouts screen (a user)', () => {
  beforeEach(signInAsUser);

  it('lists payouts with masked beneficiaries, amounts, fees, UTRs and badges, and sends its filters from the URL', async () => {
    setTimeZoneForTests('Asia/Kolkata');
    const calls = stubApi({ 'GET /api/v1/panel/payouts': () => json(200, list([payout(), failed], 42)) });
    const { router } = renderWithApp(<Payouts />, { path: '/payouts', url: '/payouts?status=success&mode=IMPS&from=2026-11-01' });
    const table = await screen.findByRole('table', { name: 'Payouts' });
    expect(calls[0]!.search).toBe('?page=1&per_page=20&status=success&mode=IMPS&from=2026-11-01');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('XXXXXXXX1234 · HDFC0001234');
    expect(rows[1]).toHaveTextContent('₹1,500.00');
    expect(rows[1]).toHaveTextContent('₹5.00');
    expect(rows[1]).toHaveTextContent('412345678901');
    expect(rows[1]).toHaveTextContent('22 Nov 2026');
    expect(within(rows[1]!).getByText('success')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Test mode')).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('meera@okaxis');
    expect(rows[2]).toHaveTextContent('Account closed');
    expect(within(rows[2]!).queryByText('Test mode')).toBeNull();
    expect(within(table).queryByText('User')).toBeNull(); // no user column for a user
    expect(screen.getByText('42 rows')).toBeInTheDocument();

    // The search (debounced) goes to q, back to page 1.
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: 'Search' }), '412345678901');
    await waitFor(() => expect(router.state.location.search).toContain('q=412345678901'));
    await waitFor(() => expect(calls.at(-1)!.search).toBe('?page=1&per_page=20&status=success&mode=IMPS&q=412345678901&from=2026-11-01'));
  });

  it('exports the filtered list as CSV with the session token', async () => {
    const createObjectURL = vi.fn(() => 'blob:payouts');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const calls = stubApi({
      'GET /api/v1/panel/payouts': (c) => (c.search.includes('format=csv')
        ? new Response('payout_id,amount\n', { status: 200, headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="payouts.csv"' } })
        : json(200, list([payout()]))),
    });
    renderWithApp(<Payouts />, { path: '/payouts', url: '/payouts?page=2&status=failed&to=2026-11-20' });
    await screen.findByRole('table', { name: 'Payouts' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const csv = calls.find((c) => c.search.includes('format=csv'))!;
    expect(csv.search).toBe('?status=failed&to=2026-11-20&format=csv');
    expect(csv.auth).toBe('Bearer token-u');
  });

  it('opens a payout’s drawer with its state history', async () => {
    setTimeZoneForTests('Asia/Kolkata');
    const reversed = payout({ status: 'reversed', reversed_at: '2026-11-21T20:01:00Z', fail_reason: 'Beneficiary bank returned the credit' });
    const calls = stubApi({
      'GET /api/v1/panel/payouts': () => json(200, list([reversed])),
      'GET /api/v1/panel/payouts/*': () => json(200, { success: true, data: reversed }),
    });
    renderWithApp(<Payouts />, { path: '/payouts' });
    const table = await screen.findByRole('table', { name: 'Payouts' });
    await userEvent.setup().click(within(table).getByText('Ravi Kumar'));
    const detail = await screen.findByTestId('payout-detail');
    expect(calls.some((c) => c.path === '/api/v1/panel/payouts/pout_01J9Z8X4K3M2N1P0Q9R8S7T6V5')).toBe(true);
    expect(within(detail).getByText('Test mode')).toBeInTheDocument();
    expect(within(detail).getByTestId('payout-utr')).toHaveTextContent('412345678901');
    expect(within(detail).getAllByText('Beneficiary bank returned the credit').length).toBeGreaterThan(0);
    expect(within(detail).getByText(/the amount was given back/)).toBeInTheDocument();
    expect(within(detail).getByTestId('payout-created')).toHaveTextContent('22 Nov 2026, 1:30 am');
    expect(within(detail).getByTestId('payout-processed')).toHaveTextContent('22 Nov 2026, 1:30 am');
    expect(within(detail).getByTestId('payout-reversed')).toHaveTextContent('22 Nov 2026, 1:31 am');
  });
});

describe('a payout settling on screen', () => {
  beforeEach(signInAsUser);

  it('refreshes the balance when a payout it saw in flight fails (the amount and the fee came back)', async () => {
    let status: Schemas['PayoutState'] = 'processing';
    stubApi({
      'GET /api/v1/panel/payouts': () => json(200, list([payout({ status, utr: null, fail_reason: status === 'failed' ? 'Account closed' : null })])),
      'GET /api/v1/panel/auth/me': () => json(200, user({ status: 'active' })),
    });
    const { queryClient } = renderWithApp(<Payouts />, { path: '/payouts' });
    const table = await screen.findByRole('table', { name: 'Payouts' });
    expect(within(table).getByText('processing')).toBeInTheDocument();
    queryClient.setQueryData(['me'], user({ status: 'active' })); // the header's query, observed by no one here
    status = 'failed';
    await waitFor(() => expect(within(table).getByText('failed')).toBeInTheDocument(), { timeout: 6000 });
    await waitFor(() => expect(queryClient.getQueryState(['me'])?.isInvalidated).toBe(true));
  });
});

describe('the payouts screen (an admin)', () => {
  beforeEach(signInAsAdmin);

  it('shows whose payout each is and filters by user', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/payouts': () => json(200, list([payout({ user_name: 'Asha Rao', user_email: 'asha@example.com' })])),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/users': () => json(200, list([user({ status: 'active' }), admin])),
    });
    const { router } = renderWithApp(<Payouts />, { path: '/payouts' });
    const table = await screen.findByRole('table', { name: 'Payouts' });
    expect(within(table).getByRole('columnheader', { name: 'User' })).toBeInTheDocument();
    expect(await within(table).findByRole('link', { name: /Asha Rao/ })).toHaveAttribute('href', '/admin/users/7');
    expect(screen.getByText(/^All payouts/)).toBeInTheDocument();
    // The name came with the page: no lookup per row.
    expect(calls.some((c) => c.path === '/api/v1/panel/users/7')).toBe(false);

    const u = userEvent.setup();
    await u.click(screen.getByLabelText('User', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Rao <asha@example.com>', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=7'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/panel/payouts').at(-1)!.search).toBe('?page=1&per_page=20&user_id=7'));
    expect(await screen.findByText('Payouts of')).toBeInTheDocument();
  });
});
