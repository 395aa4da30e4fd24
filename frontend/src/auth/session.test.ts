import { describe, expect, it, vi } from 'vitest';
import { session } from './session';
import { json } from '../test/render';

const user = {
  id: 7, name: 'Asha', email: 'asha@example.com', phone: '9876543210', role: 'user', status: 'active', plan: 'starter',
  balance: '100.00', total_spent: '0.00', api_key: null, webhook_url: null, low_balance_alert: null, collection_fee_percent: '0.00', daily_payout_limit: '200000.00',
  email_verified_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  parent_id: null, reseller_name: null,
} as const;

/** Every key and value written to web storage. */
function webStorage(): string {
  return [localStorage, sessionStorage].flatMap((st) => Object.keys(st).map((k) => `${k}=${st.getItem(k)}`)).join('\n');
}

describe('session', () => {
  it('keeps the tokens in memory only, never in web storage', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    session.signIn({ access_token: 'eyJaccess', refresh_token: 'rt_secret', token_type: 'Bearer', expires_in: 900, user });
    expect(session.getState()).toMatchObject({ status: 'signedIn', user: { email: 'asha@example.com' } });
    expect(await session.accessToken()).toBe('eyJaccess');
    expect(setItem).not.toHaveBeenCalled();
    expect(webStorage()).toBe('');
    setItem.mockRestore();
  });

  it('asks nothing after a reload without the session hint cookie', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    await session.restore();
    expect(fetch).not.toHaveBeenCalled();
    expect(session.getState()).toMatchObject({ status: 'signedOut', expired: false });
  });

  it('restores a session after a reload through the refresh cookie', async () => {
    document.cookie = 'paygate_session=1; path=/';
    const fetch = vi.fn(async (req: Request) => {
      expect(new URL(req.url).pathname).toBe('/api/v1/panel/auth/refresh');
      expect(req.credentials).toBe('same-origin');
      expect(await req.text()).toBe('');
      return json(200, { access_token: 'fresh', token_type: 'Bearer', expires_in: 900, user });
    });
    vi.stubGlobal('fetch', fetch);
    const restored = session.restore();
    expect(session.getState().status).toBe('restoring');
    await restored;
    expect(session.getState()).toMatchObject({ status: 'signedIn', user: { id: 7 } });
    expect(await session.accessToken()).toBe('fresh');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(webStorage()).toBe('');
  });

  it('is signed out after a reload without a cookie, and expired when the cookie is refused', async () => {
    document.cookie = 'paygate_session=1; path=/';
    vi.stubGlobal('fetch', vi.fn(async () => json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed' })));
    await session.restore();
    expect(session.getState()).toMatchObject({ status: 'signedOut', expired: false });
    vi.stubGlobal('fetch', vi.fn(async () => json(401, { success: false, message: 'Refresh token is invalid or expired', error: 'invalid_refresh_token' })));
    await session.restore();
    expect(session.getState()).toMatchObject({ status: 'signedOut', expired: true });
  });

  it('signs out on the server with the access token, sending no refresh token', async () => {
    session.signIn({ access_token: 'acc', token_type: 'Bearer', expires_in: 900, user });
    const fetch = vi.fn(async (req: Request) => {
      expect(new URL(req.url).pathname).toBe('/api/v1/panel/auth/logout');
      expect(req.headers.get('Authorization')).toBe('Bearer acc');
      expect(await req.text()).toBe('');
      return new Response(null, { status: 204 });
    });
    vi.stubGlobal('fetch', fetch);
    await session.signOut();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(session.getState()).toMatchObject({ status: 'signedOut', expired: false });
  });
});
