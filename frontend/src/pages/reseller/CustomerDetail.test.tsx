import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import CustomerDetail from './CustomerDetail';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { balanceRequest } from '../admin/test/fixtures';
import { customer, list, signInAsReseller, stubApi } from './test/fixtures';

beforeEach(signInAsReseller);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const meera = customer();
const transfer = { id: 9, customer_id: 21, direction: 'to_customer', amount: '100.00', created_at: '2026-11-27T10:00:00Z', reseller_balance: '4900.00', customer_balance: '350.00' };

function base(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/v1/panel/customers/21': () => json(200, meera),
    'GET /api/v1/panel/customers/21/transfers': () => json(200, list([])),
    ...extra,
  });
}

describe("a customer's page", () => {
  it('adds money after a confirmation, with one Idempotency-Key per submission', async () => {
    let balance = '250.00';
    const calls = base({
      'GET /api/v1/panel/customers/21': () => json(200, { ...meera, balance }),
      'POST /api/v1/panel/customers/21/transfers': () => { balance = '350.00'; return json(201, transfer); },
    });
    const u = userEvent.setup();
    renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/21' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Meera Shah' })).toBeInTheDocument();
    expect(screen.getByTestId('customer-detail-balance')).toHaveTextContent('₹250.00');
    const form = screen.getByRole('form', { name: 'Move money' });
    await u.type(within(form).getByLabelText(/^Amount/), '100');
    await u.click(within(form).getByRole('button', { name: 'Add money' }));
    const confirm = await screen.findByTestId('transfer-confirm');
    expect(confirm).toHaveTextContent('Move ₹100.00 from your balance to Meera Shah?');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await u.click(within(confirm).getByRole('button', { name: 'Confirm: add money' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    const first = calls.find((c) => c.method === 'POST')!;
    expect(first.body).toEqual({ amount: '100', direction: 'to_customer' });
    const key1 = first.headers.get('Idempotency-Key');
    expect(key1).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The customer's balance follows.
    await waitFor(() => expect(screen.getByTestId('customer-detail-balance')).toHaveTextContent('₹350.00'));

    // A second submission is a new transfer: a new key; "Take back" sends from_customer.
    const form2 = await screen.findByRole('form', { name: 'Move money' });
    await u.click(within(form2).getByText('Take back'));
    await u.type(within(form2).getByLabelText(/^Amount/), '20.50');
    await u.click(within(form2).getByRole('button', { name: 'Take back' }));
    await u.click(within(await screen.findByTestId('transfer-confirm')).getByRole('button', { name: 'Confirm: take back' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    const second = calls.filter((c) => c.method === 'POST')[1]!;
    expect(second.body).toEqual({ amount: '20.50', direction: 'from_customer' });
    expect(second.headers.get('Idempotency-Key')).not.toBe(key1);
  });

  it('refuses a malformed amount before sending, and says when the balance is short (402)', async () => {
    const calls = base({
      'POST /api/v1/panel/customers/21/transfers': () => json(402, { success: false, message: 'Insufficient balance', error: 'insufficient_balance' }),
    });
    const u = userEvent.setup();
    renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/21' });
    const form = await screen.findByRole('form', { name: 'Move money' });
    await u.type(within(form).getByLabelText(/^Amount/), '1.234');
    await u.click(within(form).getByRole('button', { name: 'Add money' }));
    expect(await within(form).findByText('An amount in rupees above 0, up to 2 decimals')).toBeInTheDocument();
    await u.clear(within(form).getByLabelText(/^Amount/));
    await u.type(within(form).getByLabelText(/^Amount/), '999999');
    await u.click(within(form).getByRole('button', { name: 'Add money' }));
    await u.click(within(await screen.findByTestId('transfer-confirm')).getByRole('button', { name: 'Confirm: add money' }));
    expect(await screen.findByText('Your available balance is short of this amount. Add balance first.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('lists keys without secrets, hits with the commission, and switches tabs through the URL', async () => {
    const hit = {
      id: 1, user_id: 21, api_service_id: 4, api_key_id: 2, request_id: 'req_1', request_payload: null, response_payload: null, charge_amount: '0.6000',
      ip_address: '10.0.0.1', status: 'success', response_time_ms: 40, created_at: '2026-11-27T10:00:00Z', api_service_name: 'SMS', api_key_name: 'prod', commission: '0.2000',
    };
    const key = { id: 2, name: 'prod', key: 'rk_live_abc', allowed_services: [], allowed_ips: '', daily_limit: 0, hits_today: 3, last_used_at: null, status: 'active', created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T10:00:00Z' };
    // A call to a service since deleted: the API names no service.
    const gone = { ...hit, id: 2, api_service_id: 9, request_id: 'req_2', commission: '0.0000', api_service_name: undefined };
    base({
      'GET /api/v1/panel/customers/21/api-keys': () => json(200, list([key])),
      'GET /api/v1/panel/customers/21/hit-logs': () => json(200, list([hit, gone])),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/21?tab=keys' });
    expect(await screen.findByText('rk_live_abc')).toBeInTheDocument();
    expect(screen.queryByText(/secret/i)).not.toBeInTheDocument();
    await u.click(screen.getByRole('tab', { name: 'Hit logs' }));
    expect((await screen.findAllByTestId('hit-commission'))[0]).toHaveTextContent('₹0.20');
    expect(router.state.location.search).toBe('?tab=hits');
    // The service and the key by name, never "Service #4" or "Key #2".
    const table = screen.getByRole('table', { name: "Customer's hit logs" });
    const [named, deleted] = within(table).getAllByRole('row').slice(1);
    expect(within(named!).getByText('SMS')).toBeInTheDocument();
    expect(within(named!).getByText('prod')).toBeInTheDocument();
    expect(within(deleted!).getByText('Deleted service')).toBeInTheDocument();
    expect(table).not.toHaveTextContent(/Service #|Key #/);
  });

  it("approves a customer's balance request after a confirmation", async () => {
    const req = balanceRequest({ id: 5, user_id: 21, amount: '300.00' });
    const calls = base({
      'GET /api/v1/panel/balance-requests': () => json(200, list([req])),
      'POST /api/v1/panel/balance-requests/5/approve': () => json(200, { ...req, status: 'approved' }),
    });
    const u = userEvent.setup();
    renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/21?tab=requests' });
    await u.click(await screen.findByRole('button', { name: 'Approve request 5' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('moves from your balance');
    await u.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/panel/balance-requests/5/approve')).toBe(true));
    const listed = calls.find((c) => c.path === '/api/v1/panel/balance-requests')!;
    expect(new URLSearchParams(listed.search).get('scope')).toBe('customers');
    expect(new URLSearchParams(listed.search).get('user_id')).toBe('21');
  });

  it("shows a customer's payment screenshot, fetched with the reseller's session, before it decides", async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:proof'), revokeObjectURL: vi.fn() }));
    const withShot = balanceRequest({ id: 5, user_id: 21, amount: '300.00' });
    const without = balanceRequest({ id: 6, user_id: 21, amount: '50.00', screenshot_url: null });
    const png = () => new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { status: 200, headers: { 'Content-Type': 'image/png' } });
    const calls = base({
      'GET /api/v1/panel/balance-requests': () => json(200, list([withShot, without])),
      'GET /api/v1/panel/balance-requests/5/screenshot': png,
    });
    const u = userEvent.setup();
    renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/21?tab=requests' });
    expect(screen.queryByRole('button', { name: 'View the screenshot of request 6' })).not.toBeInTheDocument();
    await u.click(await screen.findByRole('button', { name: 'View the screenshot of request 5' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Payment screenshot of request 5');
    expect(await within(dialog).findByTestId('screenshot')).toHaveAttribute('src', 'blob:proof');
    expect(calls.find((c) => c.path.endsWith('/5/screenshot'))!.auth).toMatch(/^Bearer /);
  });

  it("sends the hit logs' status and days from the URL", async () => {
    const calls = base({ 'GET /api/v1/panel/customers/21/hit-logs': () => json(200, list([])) });
    renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/21?tab=hits&status=success&from=2026-11-01&to=2026-11-27' });
    expect(await screen.findByText('No calls yet')).toBeInTheDocument();
    const q = new URLSearchParams(calls.find((c) => c.path === '/api/v1/panel/customers/21/hit-logs')!.search);
    expect([q.get('status'), q.get('from'), q.get('to')]).toEqual(['success', '2026-11-01', '2026-11-27']);
  });

  it('shows a foreign or missing customer as not found', async () => {
    stubApi({ 'GET /api/v1/panel/customers/99': () => json(404, { success: false, message: 'Customer not found', error: 'not_found' }) });
    renderWithApp(<CustomerDetail />, { path: '/customers/:id', url: '/customers/99' });
    expect(await screen.findByText('Customer not found')).toBeInTheDocument();
  });
});
