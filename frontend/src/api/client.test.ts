import { describe, expect, it, vi } from 'vitest';
import { api, call, callJSON } from './client';
import { ApiError } from './errors';
import { session } from '../auth/session';
import { json } from '../test/render';

const user = {
  id: 7, name: 'Asha', email: 'asha@example.com', phone: '9876543210', role: 'user', status: 'active', plan: 'starter',
  balance: '100.00', total_spent: '0.00', api_key: null, webhook_url: null, low_balance_alert: null, collection_fee_percent: '0.00', daily_payout_limit: '200000.00',
  email_verified_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  parent_id: null, reseller_name: null,
} as const;
const unauthorized = { success: false, message: 'Unauthenticated', error: 'unauthenticated' };

function signIn(access: string) {
  session.signIn({ access_token: access, refresh_token: 'r-' + access, token_type: 'Bearer', expires_in: 900, user });
}

describe('authFetch', () => {
  it('refreshes once on a 401 and retries with the new token', async () => {
    signIn('old');
    const seen: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      const path = new URL(req.url).pathname;
      seen.push(`${path} ${req.headers.get('Authorization') ?? ''}`);
      if (path.endsWith('/auth/refresh')) {
        // No token in the body: the HttpOnly cookie carries it.
        expect(await req.text()).toBe('');
        expect(req.credentials).toBe('same-origin');
        return json(200, { access_token: 'new', token_type: 'Bearer', expires_in: 900, user });
      }
      return req.headers.get('Authorization') === 'Bearer new' ? json(200, user) : json(401, unauthorized);
    }));
    const me = await call(api.GET('/api/v1/panel/auth/me'));
    expect(me.email).toBe('asha@example.com');
    expect(seen).toEqual([
      '/api/v1/panel/auth/me Bearer old',
      '/api/v1/panel/auth/refresh ',
      '/api/v1/panel/auth/me Bearer new',
    ]);
    expect(session.getState().status).toBe('signedIn');
    session.expire();
  });

  it('expires the session when the refresh is refused', async () => {
    signIn('old');
    vi.stubGlobal('fetch', vi.fn(async () => json(401, unauthorized)));
    const err = await call(api.GET('/api/v1/panel/auth/me')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
    expect(session.getState()).toMatchObject({ status: 'signedOut', expired: true });
  });

  it('shares one refresh among concurrent calls', async () => {
    signIn('old');
    let refreshes = 0;
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      if (new URL(req.url).pathname.endsWith('/auth/refresh')) {
        refreshes++;
        return json(200, { access_token: 'new', refresh_token: 'r-new', token_type: 'Bearer', expires_in: 900, user });
      }
      return req.headers.get('Authorization') === 'Bearer new' ? json(200, user) : json(401, unauthorized);
    }));
    await Promise.all([1, 2, 3].map(() => call(api.GET('/api/v1/panel/auth/me'))));
    expect(refreshes).toBe(1);
    session.expire();
  });
});

describe('callJSON', () => {
  it('gives the JSON list of an endpoint that can also answer CSV, and never passes a CSV body on as data', async () => {
    signIn('t');
    const page = { data: [], meta: { page: 1, per_page: 20, total: 0, total_capped: false } };
    vi.stubGlobal('fetch', vi.fn(async () => json(200, page)));
    const list = await callJSON(api.GET('/api/v1/panel/transactions', { params: { query: { page: 1 } } }));
    expect(list.meta.total).toBe(0); // typed as TransactionList, not string | TransactionList
    vi.stubGlobal('fetch', vi.fn(async () => new Response('id,amount\n', { status: 200, headers: { 'Content-Type': 'text/csv' } })));
    await expect(callJSON(api.GET('/api/v1/panel/transactions'))).rejects.toThrow();
    session.expire();
  });
});
