// The invite link of a reseller's new customer (token pi_…) is the account's
// first password: "Choose a password", and nothing about sessions signed
// out; a reset of an existing account keeps its own words.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ResetPassword from './ResetPassword';
import { json, renderWithApp } from '../../test/render';

const platformBrand = { brand_name: 'Paygate', logo_url: null, support_email: '', support_phone: '', reseller: false };

function stub() {
  const bodies: unknown[] = [];
  vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === '/api/v1/brand') return json(200, platformBrand);
    expect(path).toBe('/api/v1/panel/auth/reset-password');
    bodies.push(await req.json());
    return json(200, { message: 'Password changed' });
  }));
  return bodies;
}

afterEach(() => cleanup());

async function choose(button: string) {
  const u = userEvent.setup();
  const [pw, again] = await screen.findAllByLabelText(/password/i, { selector: 'input' });
  await u.type(pw!, 'customer-pass-1');
  await u.type(again!, 'customer-pass-1');
  await u.click(screen.getByRole('button', { name: button }));
}

describe('the set-password page', () => {
  it("asks a reseller's new customer to choose a password, and never speaks of sessions", async () => {
    const bodies = stub();
    renderWithApp(<ResetPassword />, { path: '/reset-password', url: '/reset-password?token=pi_abc&email=meera%40example.com' });
    expect(await screen.findByRole('heading', { name: 'Choose a password' })).toBeInTheDocument();
    expect(screen.queryByText(/new password/i)).not.toBeInTheDocument();
    await choose('Set password');
    const done = await screen.findByRole('status');
    expect(done).toHaveTextContent('your password is set and your account is active');
    expect(document.body).not.toHaveTextContent(/session/i);
    expect(bodies).toEqual([{ email: 'meera@example.com', token: 'pi_abc', password: 'customer-pass-1', stay_with_reseller: false }]);
  });

  it('keeps the words of a reset for an existing account', async () => {
    stub();
    renderWithApp(<ResetPassword />, { path: '/reset-password', url: '/reset-password?token=pr_abc&email=asha%40example.com' });
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    await choose('Change password');
    expect(await screen.findByRole('status')).toHaveTextContent('every session of your account has been signed out');
  });
});
