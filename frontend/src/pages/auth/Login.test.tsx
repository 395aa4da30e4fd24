import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Login from './Login';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';

/** Answers GET /api/v1/brand (the page's brand) with the platform's; the rest goes to fn. */
function withPlatformBrand(fn: (req: Request) => Promise<Response>) {
  return async (req: Request) => (new URL(req.url).pathname === '/api/v1/brand'
    ? json(200, { brand_name: 'Paygate', logo_url: null, support_email: '', support_phone: '', reseller: false })
    : fn(req));
}

const user = {
  id: 7, name: 'Asha', email: 'asha@example.com', phone: '9876543210', role: 'user', status: 'active', plan: 'starter',
  balance: '100.00', total_spent: '0.00', api_key: null, webhook_url: null, low_balance_alert: null, collection_fee_percent: '0.00', daily_payout_limit: '200000.00',
  email_verified_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
};

async function fillAndSubmit(email: string, password: string) {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText(/email/i), email);
  await u.type(screen.getByLabelText(/password/i, { selector: 'input' }), password);
  await u.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('Login', () => {
  it('signs in and returns to ?next=', async () => {
    const fetch = vi.fn(async (req: Request) => {
      expect(new URL(req.url).pathname).toBe('/api/v1/panel/auth/login');
      expect(await req.json()).toEqual({ email: 'asha@example.com', password: 'secret-pass' });
      return json(200, { access_token: 'a1', refresh_token: 'r1', token_type: 'Bearer', expires_in: 900, user });
    });
    vi.stubGlobal('fetch', withPlatformBrand(fetch));
    const { router } = renderWithApp(<Login />, { path: '/login', url: '/login?next=%2Fapi-keys%3Fpage%3D2' });
    await fillAndSubmit(' asha@example.com ', 'secret-pass');
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/api-keys?page=2'));
    expect(session.getState()).toMatchObject({ status: 'signedIn', user: { email: 'asha@example.com' } });
    expect(fetch).toHaveBeenCalledTimes(1);
    await session.signOut();
  });

  it('tells a pending account what happens next instead of only "Account is not active"', async () => {
    vi.stubGlobal('fetch', withPlatformBrand(vi.fn(async () => json(403, { success: false, message: 'Account is not active', error: 'account_not_active' }))));
    renderWithApp(<Login />, { path: '/login' });
    await fillAndSubmit('asha@example.com', 'secret-pass');
    const box = await screen.findByTestId('account-not-active');
    expect(screen.getByRole('heading', { name: 'Your account is not active yet' })).toBeInTheDocument();
    expect(box).toHaveTextContent(/administrator reviews new accounts/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows field errors next to their fields and the message above the form', async () => {
    vi.stubGlobal('fetch', withPlatformBrand(vi.fn(async () =>
      json(422, { success: false, message: 'Validation failed', error: 'validation_failed', errors: { email: ['is not a valid email address'] } }),
    )));
    renderWithApp(<Login />, { path: '/login' });
    await fillAndSubmit('a@b', 'x');
    const email = screen.getByLabelText(/email/i);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('is not a valid email address')).toBeInTheDocument();
    expect(email.getAttribute('aria-describedby')).toContain(screen.getByText('is not a valid email address').id);
  });

  it('shows a refused sign-in and an expired session', async () => {
    vi.stubGlobal('fetch', withPlatformBrand(vi.fn(async () =>
      json(401, { success: false, message: 'Invalid email or password', error: 'invalid_credentials' }),
    )));
    renderWithApp(<Login />, { path: '/login', url: '/login?next=/dashboard&expired=1' });
    expect(screen.getByText(/session has expired/i)).toBeInTheDocument();
    await fillAndSubmit('asha@example.com', 'wrong-pass');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(session.getState().status).toBe('signedOut');
  });

  it('checks the fields before calling the API', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', withPlatformBrand(fetch));
    renderWithApp(<Login />, { path: '/login' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter your email address')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
