import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Payments from './Payments';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { admin, list, signInAsAdmin, stubApi, user } from '../admin/test/fixtures';
import type { Schemas } from '../../api/types';

const payment = (over: Partial<Schemas['Payment']> = {}): Schemas['Payment'] => ({
  payment_id: 'pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', status: 'created', amount: '20.00', currency: 'INR', customer_id: 'cust-1',
  callback_url: 'https://shop.example/cb', payment_url: 'http://localhost:8080/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', livemode: true, utr: null,
  purpose: 'collection', fee: '0.00', user_id: 9, refunded_amount: '0.00', refundable_amount: '0.00',
  expires_at: '2026-11-21T11:00:00Z', completed_at: null, created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:00:00Z', ...over,
});

afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the payments list', () => {
  it('has no user column for a user', async () => {
    session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
    stubApi({ 'GET /api/v1/panel/payments': () => json(200, list([payment()])) });
    renderWithApp(<Payments />, { path: '/payments' });
    const table = await screen.findByRole('table', { name: 'Payments' });
    expect(within(table).queryByRole('columnheader', { name: 'User' })).toBeNull();
    expect(screen.getByText(/^Payments your customers make/)).toBeInTheDocument();
  });

  it('names each payment’s user for an admin and filters by user', async () => {
    signInAsAdmin();
    const calls = stubApi({
      'GET /api/v1/panel/payments': () => json(200, list([payment({ user_name: 'Ravi Kumar', user_email: 'ravi@example.com' })])),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/users': () => json(200, list([user({ status: 'active' }), admin])),
    });
    const { router } = renderWithApp(<Payments />, { path: '/payments' });
    const table = await screen.findByRole('table', { name: 'Payments' });
    expect(screen.getByText(/^All payments/)).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: /Ravi Kumar/ })).toHaveAttribute('href', '/admin/users/9');

    const u = userEvent.setup();
    await u.click(screen.getByLabelText('User', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Rao <asha@example.com>', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=7'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/panel/payments').at(-1)!.search).toBe('?page=1&per_page=20&user_id=7'));
    expect(await screen.findByText('Payments of')).toBeInTheDocument();
  });
});
