// Fixtures and a fetch stub for the admin screens' component tests.
import { vi } from 'vitest';
import { json } from '../../../test/render';
import { session } from '../../../auth/session';
import type { Schemas, User } from '../../../api/types';

export const admin: User = {
  id: 1, name: 'Administrator', email: 'admin@example.com', phone: '9000000000', role: 'admin', status: 'active', plan: 'enterprise',
  balance: '0.00', total_spent: '0.00', api_key: 'rk_live_admin', webhook_url: null, low_balance_alert: null, collection_fee_percent: '0.00', daily_payout_limit: '200000.00',
  email_verified_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
  parent_id: null, reseller_name: null,
};

export function user(over: Partial<User> = {}): User {
  return {
    ...admin, id: 7, name: 'Asha Rao', email: 'asha@example.com', phone: '9876543210', role: 'user', status: 'pending', plan: 'starter',
    balance: '1234567.50', api_key: null, ...over,
  };
}

export function balanceRequest(over: Partial<Schemas['BalanceRequest']> = {}): Schemas['BalanceRequest'] {
  return {
    id: 5, user_id: 7, amount: '100.00', utr_number: 'UTR123456789', payment_method: 'upi',
    screenshot_url: '/api/v1/panel/balance-requests/5/screenshot', remarks: null, status: 'pending', approved_by: null,
    approved_at: null, admin_remarks: null, created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:00:00Z', ...over,
  };
}

export function signInAsAdmin() {
  session.signIn({ access_token: 'token-a', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: admin });
}

export interface Call { method: string; path: string; search: string; body: unknown; auth: string | null; headers: Headers }
type Handler = (c: Call) => Response | Promise<Response>;

/**
 * Stubs fetch with routes "METHOD /path" (a path segment `*` matches any);
 * returns the calls made. An unrouted call fails the test with a 599.
 */
export function stubApi(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (req: Request) => {
    const url = new URL(req.url);
    const text = req.method === 'GET' || req.method === 'DELETE' ? '' : await req.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    const c: Call = { method: req.method, path: url.pathname, search: url.search, body, auth: req.headers.get('Authorization'), headers: req.headers };
    calls.push(c);
    for (const [k, h] of Object.entries(routes)) {
      const [m, p] = k.split(' ');
      const re = new RegExp(`^${p!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`);
      if (m === req.method && re.test(url.pathname)) return h(c);
    }
    return json(599, { success: false, message: `unrouted ${req.method} ${url.pathname}`, error: 'unrouted' });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

export const list = <T,>(data: T[], total = data.length) => ({ data, meta: { page: 1, per_page: 20, total } });

/** Replaces an input's text as a paste (fast, and no userEvent key syntax for "[" or "{"). */
export async function fill(u: { clear: (e: Element) => Promise<void>; paste: (t: string) => Promise<void> }, el: HTMLElement, text: string) {
  await u.clear(el);
  el.focus();
  await u.paste(text);
}
