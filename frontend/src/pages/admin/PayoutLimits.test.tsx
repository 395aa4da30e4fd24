import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PayoutLimits from './PayoutLimits';
import { PayoutLimitCard } from './users/PayoutLimitForm';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { fill, list, signInAsAdmin, stubApi, user } from './test/fixtures';

beforeEach(signInAsAdmin);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const limits = [
  { user_id: 7, name: 'Asha Rao', email: 'asha@example.com', daily_payout_limit: '200000.00', used_today: '1505.00' },
  { user_id: 8, name: 'Ravi', email: 'ravi@example.com', daily_payout_limit: '50000.00', used_today: '0.00' },
];

describe('the payout limits screen', () => {
  it('lists each account’s limit and what it used today, and edits one with PATCH /users/{id}', async () => {
    let rows = limits;
    const calls = stubApi({
      'GET /api/v1/panel/payout-limits': () => json(200, list(rows)),
      'PATCH /api/v1/panel/users/7': () => {
        rows = [{ ...limits[0]!, daily_payout_limit: '500000.00' }, limits[1]!];
        return json(200, user({ status: 'active', daily_payout_limit: '500000.00' }));
      },
    });
    renderWithApp(<PayoutLimits />, { path: '/admin/payout-limits' });
    const table = await screen.findByRole('table', { name: 'Payout limits' });
    const asha = within(table).getAllByRole('row')[1]!;
    expect(asha).toHaveTextContent('₹1,505.00');
    expect(asha).toHaveTextContent('₹2,00,000.00');
    expect(within(asha).getByRole('link', { name: 'Asha Rao' })).toHaveAttribute('href', '/admin/users/7');

    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Edit the limit of asha@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Daily payout limit of Asha Rao' });
    const input = within(dialog).getByRole('textbox', { name: /Daily payout limit/ });
    expect(input).toHaveValue('200000.00');
    expect(within(dialog).getByRole('button', { name: 'Save limit' })).toBeDisabled();
    await fill(u, input, '5,00,000');
    await u.click(within(dialog).getByRole('button', { name: 'Save limit' }));
    expect(await within(dialog).findByText(/Rupees, up to 9 digits/)).toBeInTheDocument();
    await fill(u, input, '500000');
    await u.click(within(dialog).getByRole('button', { name: 'Save limit' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ daily_payout_limit: '500000' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list is asked again.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Payout limits' })).getAllByRole('row')[1]).toHaveTextContent('₹5,00,000.00'));
  });
});

describe('the user page’s payout limit', () => {
  it('saves the limit and puts the API’s error on the field', async () => {
    const asha = user({ status: 'active', daily_payout_limit: '200000.00' });
    let answer = json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      errors: { daily_payout_limit: ['must be at most 999999999.99'] } });
    const calls = stubApi({ 'PATCH /api/v1/panel/users/7': () => answer });
    renderWithApp(<PayoutLimitCard user={asha} />);
    const u = userEvent.setup();
    const input = screen.getByRole('textbox', { name: /Daily payout limit/ });
    await fill(u, input, '25000.5');
    await u.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(await screen.findByText('must be at most 999999999.99')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(calls[0]!.body).toEqual({ daily_payout_limit: '25000.5' });

    answer = json(200, { ...asha, daily_payout_limit: '25000.50' });
    await u.click(screen.getByRole('button', { name: 'Save limit' }));
    await waitFor(() => expect(input).toHaveValue('25000.50'));
    expect(screen.getByRole('button', { name: 'Save limit' })).toBeDisabled();
  });
});
