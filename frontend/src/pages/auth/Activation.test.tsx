// A pending account is told who activates it: on a reseller's domain the
// reseller by name, never "an administrator"; on the platform's host an
// administrator. Registration result, sign-in refused (account_not_active)
// and verify-email say it alike.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Login from './Login';
import Register from './Register';
import VerifyEmail from './VerifyEmail';
import { json, renderWithApp } from '../../test/render';

const resellerBrand = { brand_name: 'Acme Recharge', logo_url: null, support_email: 'help@acme.example', support_phone: '+919876543210', reseller: true };
const platformBrand = { brand_name: 'Paygate', logo_url: null, support_email: '', support_phone: '', reseller: false };

const pending = {
  id: 9, name: 'Meera', email: 'meera@example.com', phone: '9876500001', role: 'user', status: 'pending', plan: 'starter',
  balance: '0.00', total_spent: '0.00', api_key: null, webhook_url: null, low_balance_alert: null, collection_fee_percent: '0.00',
  daily_payout_limit: '200000.00', email_verified_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  parent_id: 3, reseller_name: 'Acme Recharge',
};

/** The host's brand on GET /api/v1/brand; every other call answers `other`. */
function stub(brand: unknown, other: () => Response) {
  vi.stubGlobal('fetch', vi.fn(async (req: Request) => (new URL(req.url).pathname === '/api/v1/brand' ? json(200, brand) : other())));
}

afterEach(() => cleanup());

async function register() {
  const u = userEvent.setup();
  await u.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Meera');
  await u.type(screen.getByRole('textbox', { name: /^Email/ }), 'meera@example.com');
  await u.type(screen.getByRole('textbox', { name: /^Phone/ }), '9876500001');
  await u.type(screen.getByLabelText(/^Password/, { selector: 'input' }), 'secret-pass-1');
  await u.click(screen.getByRole('button', { name: 'Create account' }));
}

async function signIn() {
  const u = userEvent.setup();
  await u.type(await screen.findByLabelText(/email/i), 'meera@example.com');
  await u.type(screen.getByLabelText(/password/i, { selector: 'input' }), 'secret-pass-1');
  await u.click(screen.getByRole('button', { name: 'Sign in' }));
}

const notActive = () => json(403, { success: false, message: 'Account is not active', error: 'account_not_active' });

describe("on a reseller's domain", () => {
  it('the registration result names the reseller as who activates the account', async () => {
    stub(resellerBrand, () => json(201, pending));
    renderWithApp(<Register />, { path: '/register' });
    await register();
    const next = await screen.findByTestId('activation-next');
    expect(next).toHaveTextContent('Acme Recharge then activates your account as its customer');
    expect(next).not.toHaveTextContent(/administrator/i);
  });

  it('a sign-in refused as not active names the reseller, never an administrator', async () => {
    stub(resellerBrand, notActive);
    renderWithApp(<Login />, { path: '/login' });
    await signIn();
    const box = await screen.findByTestId('account-not-active');
    expect(box).toHaveTextContent('but Acme Recharge has not activated this account yet');
    expect(box).toHaveTextContent('Acme Recharge reviews the accounts of its new customers and activates yours');
    expect(box).toHaveTextContent('If Acme Recharge created the account for you, open the link in its invitation email');
    expect(box).toHaveTextContent('write to Acme Recharge');
    expect(box).not.toHaveTextContent(/administrator/i);
  });

  it('verify-email says the reseller activates a new account', async () => {
    stub(resellerBrand, () => json(200, { message: 'Email address verified' }));
    renderWithApp(<VerifyEmail />, { path: '/verify-email', url: '/verify-email?token=t1' });
    const ok = await screen.findByTestId('verified');
    expect(ok).toHaveTextContent('If your account is new, Acme Recharge activates it as its customer');
    expect(ok).not.toHaveTextContent(/administrator/i);
  });
});

describe("on the platform's host", () => {
  it('an administrator activates: registration, sign-in refused, verify-email', async () => {
    stub(platformBrand, () => json(201, pending));
    renderWithApp(<Register />, { path: '/register' });
    await register();
    expect(await screen.findByTestId('activation-next')).toHaveTextContent('An administrator activates new accounts');
    cleanup();

    stub(platformBrand, notActive);
    renderWithApp(<Login />, { path: '/login' });
    await signIn();
    expect(await screen.findByTestId('account-not-active')).toHaveTextContent('but an administrator has not activated this account yet');
    cleanup();

    stub(platformBrand, () => json(200, { message: 'Email address verified' }));
    renderWithApp(<VerifyEmail />, { path: '/verify-email', url: '/verify-email?token=t1' });
    expect(await screen.findByTestId('verified')).toHaveTextContent('If your account is new, an administrator activates it:');
  });
});
