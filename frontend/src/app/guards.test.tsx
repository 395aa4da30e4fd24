import { describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { RequireAuth, RequireRole } from './guards';
import { json, renderWithApp } from '../test/render';
import { session } from '../auth/session';

const user = {
  id: 7, name: 'Asha', email: 'asha@example.com', phone: '9876543210', role: 'user', status: 'active', plan: 'starter',
  balance: '100.00', total_spent: '0.00', api_key: null, webhook_url: null, low_balance_alert: null, collection_fee_percent: '0.00', daily_payout_limit: '200000.00',
  email_verified_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  parent_id: null, reseller_name: null,
} as const;

describe('RequireAuth', () => {
  it('sends a signed-out visitor to /login?next=<the page>', () => {
    const { router } = renderWithApp(<RequireAuth><p>keys</p></RequireAuth>, { path: '/api-keys', url: '/api-keys?page=2' });
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?next=%2Fapi-keys%3Fpage%3D2');
  });

  it('waits while a reload restores the session through the refresh cookie, then shows the page', async () => {
    let answer: (r: Response) => void = () => {};
    document.cookie = 'paygate_session=1; path=/'; // set with the refresh cookie at sign-in
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => { answer = resolve; })));
    const restored = session.restore();
    const { router } = renderWithApp(<RequireAuth><p>keys</p></RequireAuth>, { path: '/api-keys' });
    expect(screen.getByText('Signing in…')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/api-keys');
    await act(async () => {
      answer(json(200, { access_token: 'a', token_type: 'Bearer', expires_in: 900, user }));
      await restored;
    });
    expect(screen.getByText('keys')).toBeInTheDocument();
  });

  it('sends an expired session to login with expired=1', () => {
    session.signIn({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user });
    const { router } = renderWithApp(<RequireAuth><p>keys</p></RequireAuth>, { path: '/api-keys' });
    expect(screen.getByText('keys')).toBeInTheDocument();
    act(() => session.expire());
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?next=%2Fapi-keys&expired=1');
  });
});

describe('RequireRole', () => {
  it('shows admin screens to admins only', () => {
    session.signIn({ access_token: 'a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user });
    renderWithApp(<RequireRole roles={['admin']}><p>users</p></RequireRole>, { path: '/admin/users' });
    expect(screen.queryByText('users')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('for administrators');
    session.expire();
  });
});
