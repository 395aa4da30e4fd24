// Prices and limits the caller sees: the catalog's and the service page's
// price per call, the try-it console's cost line and the key's calls left
// after a call (RateLimit-* headers).
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TryIt } from './TryIt';
import { fieldsFromSpecs } from './paramForm';
import Services from '../Services';
import ServiceDetail from '../ServiceDetail';
import ApiKeys from '../ApiKeys';
import { json, renderWithApp } from '../../../test/render';
import { forgetSecrets, rememberSecret } from '../common/recentSecrets';
import { rateLimitOf } from '../../../features/services/api';

const svc = (id: number, name: string, price: string | null, minimum: string | null) => ({
  id, name, slug: `svc-${id}`, endpoint: `/api/v1/svc-${id}`, description: `${name} service`, category: 'test', method: 'POST' as const,
  parameters: {}, status: 'active', builtin: false, price, minimum_hit_charge: minimum,
  created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
});
const KEYS = {
  data: [{ id: 1, name: 'Server', key: 'rk_live_AAA', allowed_services: [], allowed_ips: '', daily_limit: 1000, hits_today: 0, last_used_at: null,
    status: 'active', created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z' }],
  meta: { page: 1, per_page: 100, total: 1 },
};
const fields = fieldsFromSpecs({ phone: { type: 'string', required: true } });

describe('prices and limits', () => {
  it('lists each service’s price per call, and says which ones are not priced', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, {
      data: [svc(1, 'SMS', '1234.50', '0.00'), svc(2, 'Unpriced', null, null)], meta: { page: 1, per_page: 20, total: 2 },
    })));
    renderWithApp(<Services />, { path: '/services', url: '/services' });
    const table = await screen.findByRole('table', { name: 'Services' });
    expect(within(table).getByRole('columnheader', { name: 'Per call' })).toBeInTheDocument();
    expect(within(table).getByTestId('price-1')).toHaveTextContent('₹1,234.50');
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Not priced');
  });

  it('shows the price and minimum on the service page and the cost in the console', async () => {
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/v1/panel/services/1') return json(200, svc(1, 'SMS', '0.50', '0.25'));
      if (path === '/api/v1/panel/services/1/docs') return json(404, { success: false, message: 'Docs not found', error: 'docs_not_found' });
      return json(200, KEYS);
    }));
    renderWithApp(<ServiceDetail />, { path: '/services/:id', url: '/services/1' });
    const price = await screen.findByTestId('service-price');
    expect(price).toHaveTextContent('₹0.50 per call');
    expect(price).toHaveTextContent('(minimum ₹0.25)');
    expect(screen.getByTestId('try-it-cost')).toHaveTextContent('This call costs ₹0.50');
  });

  it('warns in the console when the service is not priced for the caller', () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, KEYS)));
    renderWithApp(<TryIt service={{ ...svc(2, 'Unpriced', null, null) }} fields={fields} />);
    expect(screen.getByTestId('try-it-cost')).toHaveTextContent('no price for you');
  });

  it('shows the key’s calls left today from the answer’s RateLimit headers', async () => {
    vi.stubGlobal('fetch', vi.fn(async (input: Request | string, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(new URL(input, location.origin), init);
      if (new URL(req.url).pathname === '/api/v1/panel/api-keys') return json(200, KEYS);
      return new Response(JSON.stringify({ success: false, message: 'Daily limit exceeded', error: 'daily_limit_exceeded' }), {
        status: 429,
        headers: { 'Content-Type': 'application/json', 'RateLimit-Limit': '1000', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '3600', 'Retry-After': '3600' },
      });
    }));
    forgetSecrets();
    rememberSecret('rk_live_AAA', 'rs_remembered');
    renderWithApp(<TryIt service={svc(1, 'SMS', '0.50', '0.00')} fields={fields} />);
    const u = userEvent.setup();
    await u.click(screen.getByLabelText(/API key/, { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: /Server · rk_live_AAA/, hidden: true }));
    await u.type(screen.getByRole('textbox', { name: /^phone/ }), '9876543210');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-ratelimit')).toHaveTextContent('0 of 1,000 calls left today on this key');
    expect(screen.getByTestId('try-it-status')).toHaveTextContent('429');
  });

  it('reads the RateLimit headers only when both are whole numbers', () => {
    expect(rateLimitOf(new Headers({ 'RateLimit-Limit': '5', 'RateLimit-Remaining': '2' }))).toEqual({ limit: 5, remaining: 2 });
    expect(rateLimitOf(new Headers({ 'RateLimit-Limit': '5' }))).toBeNull();
    expect(rateLimitOf(new Headers({ 'RateLimit-Limit': '5', 'RateLimit-Remaining': '-1' }))).toBeNull();
  });
});

describe('the keys screen', () => {
  it('shows today’s calls against each key’s limit', async () => {
    const key = (id: number, used: number, limit: number) => ({ ...KEYS.data[0], id, name: `Key ${id}`, key: `rk_live_${id}`, hits_today: used, daily_limit: limit });
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      if (new URL(req.url).pathname === '/api/v1/panel/api-keys') return json(200, { data: [key(1, 1234, 5000), key(2, 950, 1000)], meta: { page: 1, per_page: 20, total: 2 } });
      return json(200, { data: [], meta: { page: 1, per_page: 100, total: 0 } });
    }));
    renderWithApp(<ApiKeys />, { path: '/api-keys', url: '/api-keys' });
    const usage = await screen.findAllByTestId('key-usage');
    expect(usage[0]).toHaveTextContent('1,234 / 5,000');
    expect(within(usage[0]).getByRole('progressbar', { name: '1,234 of 5,000 calls used today' })).toHaveAttribute('aria-valuenow', '24.68');
    expect(usage[1]).toHaveTextContent('950 / 1,000');
  });
});
