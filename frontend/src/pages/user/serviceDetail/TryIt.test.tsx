import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TryIt } from './TryIt';
import { fieldsFromSpecs } from './paramForm';
import { json, renderWithApp } from '../../../test/render';
import { rememberSecret, forgetSecrets } from '../common/recentSecrets';


const key = (id: number, name: string, k: string, status = 'active') => ({
  id, name, key: k, allowed_services: [], allowed_ips: '', daily_limit: 1000, hits_today: 0, last_used_at: null, status,
  created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
});
const KEYS = { data: [key(1, 'Server', 'rk_live_AAA'), key(2, 'Old', 'rk_live_OLD', 'revoked')], meta: { page: 1, per_page: 100, total: 2 } };
const service = { name: 'SMS', slug: 'sms-gateway-api', endpoint: '/api/v1/sms-gateway-api', method: 'POST' as const };
const fields = fieldsFromSpecs({
  phone: { type: 'string', required: true, pattern: '^[0-9]{10}$', description: '10-digit mobile' },
  message: { type: 'string', required: true, max_length: 160 },
  priority: { type: 'integer', required: false },
  channel: { type: 'string', required: false, pattern: '^(sms|flash)$' },
});

function stubFetch(answer: (req: Request) => Response | Promise<Response>) {
  const calls: Request[] = [];
  const fetch = vi.fn(async (input: Request | string, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(new URL(input, location.origin), init);
    calls.push(req.clone());
    if (new URL(req.url).pathname === '/api/v1/panel/api-keys') return json(200, KEYS);
    return answer(req);
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

async function chooseKey(u: ReturnType<typeof userEvent.setup>) {
  await u.click(screen.getByLabelText(/API key/, { selector: 'input' }));
  await u.click(await screen.findByRole('option', { name: /Server · rk_live_AAA/, hidden: true }));
}

describe('TryIt', () => {
  it('generates its form from request_params: a field per parameter with its type, rules and required mark', async () => {
    stubFetch(() => json(500, {}));
    renderWithApp(<TryIt service={service} fields={fields} />);
    const phone = screen.getByRole('textbox', { name: /^phone/ });
    expect(phone).toBeRequired();
    expect(screen.getByText('10-digit mobile')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^message/ })).toBeRequired();
    const priority = screen.getByRole('textbox', { name: /^priority/ });
    expect(priority).not.toBeRequired();
    expect(priority).toHaveAttribute('inputmode', 'numeric');
    // A pattern listing choices becomes a select.
    expect(screen.getByLabelText(/^channel/, { selector: 'input' })).toHaveAttribute('aria-haspopup', 'listbox');
    // Only active keys are offered.
    const u = userEvent.setup();
    await u.click(screen.getByLabelText(/API key/, { selector: 'input' }));
    expect(await screen.findByRole('option', { name: /rk_live_AAA/, hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /rk_live_OLD/, hidden: true })).toBeNull();
  });

  it('says so next to the key picker when the keys cannot be loaded (not an empty list)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(503, { success: false, message: 'Database unavailable', error: 'unavailable' })));
    renderWithApp(<TryIt service={service} fields={fields} />);
    const picker = screen.getByLabelText(/API key/, { selector: 'input' });
    await waitFor(() => expect(picker).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('Could not load your keys: Database unavailable')).toBeInTheDocument();
  });

  it('checks the fields before calling', async () => {
    const calls = stubFetch(() => json(500, {}));
    renderWithApp(<TryIt service={service} fields={fields} />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /^phone/ }), '123');
    await u.type(screen.getByRole('textbox', { name: /^priority/ }), '1.5');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('has an invalid format')).toBeInTheDocument();
    expect(screen.getByText('is required')).toBeInTheDocument(); // message
    expect(screen.getByText('must be an integer')).toBeInTheDocument();
    expect(screen.getByText('Choose a key')).toBeInTheDocument();
    expect(calls.filter((r) => r.url.includes('/api/v1/sms-gateway-api'))).toHaveLength(0);
  });

  it('calls the real endpoint with the key and secret and shows status, charge and body', async () => {
    const calls = stubFetch(() =>
      new Response(JSON.stringify({ success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', data: { message_id: 'MSG1' }, charged: '0.5000', balance_left: '99.50' }),
        { status: 200, headers: { 'Content-Type': 'application/json', 'X-Request-ID': 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' } }));
    forgetSecrets();
    rememberSecret('rk_live_AAA', 'rs_remembered');
    renderWithApp(<TryIt service={service} fields={fields} />);
    const u = userEvent.setup();
    await chooseKey(u);
    // The secret of a key created in this tab is prefilled.
    expect(screen.getByLabelText(/Secret/, { selector: 'input' })).toHaveValue('rs_remembered');
    await u.type(screen.getByRole('textbox', { name: /^phone/ }), '9876543210');
    await u.type(screen.getByRole('textbox', { name: /^message/ }), 'Hello');
    await u.type(screen.getByRole('textbox', { name: /^priority/ }), '2');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    const result = await screen.findByTestId('try-it-result');
    expect(within(result).getByTestId('try-it-status')).toHaveTextContent('200');
    expect(within(result).getByTestId('try-it-charged')).toHaveTextContent('₹0.50');
    expect(within(result).getByTestId('try-it-balance')).toHaveTextContent('₹99.50');
    expect(within(result).getByText('req_01J9Z8X4K3M2N1P0Q9R8S7T6V5')).toBeInTheDocument();
    expect(within(result).getByLabelText('Response body')).toHaveTextContent('MSG1');
    const call = calls.find((r) => r.url.endsWith('/api/v1/sms-gateway-api'))!;
    expect(call.method).toBe('POST');
    expect(call.headers.get('X-API-Key')).toBe('rk_live_AAA');
    expect(call.headers.get('X-API-Secret')).toBe('rs_remembered');
    expect(call.headers.get('Authorization')).toBeNull(); // never the panel's token
    expect(await call.text()).toBe('{"message":"Hello","phone":"9876543210","priority":2}');
  });

  it('calls a built-in gateway service with the secret as Bearer and shows that form in curl', async () => {
    const calls = stubFetch(() => json(200, { success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', data: { verified: true }, charged: '1.0000', balance_left: '99.00' }));
    forgetSecrets();
    rememberSecret('rk_live_AAA', 'rs_remembered');
    const gw = { name: 'Account verification', slug: 'account-verify', endpoint: '/api/v1/account/verify', method: 'POST' as const, builtin: true };
    renderWithApp(<TryIt service={gw} fields={fieldsFromSpecs({ type: { type: 'string', required: true } })} />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.type(screen.getByRole('textbox', { name: /^type/ }), 'upi');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-status')).toHaveTextContent('200');
    const call = calls.find((r) => r.url.endsWith('/api/v1/account/verify'))!;
    expect(call.headers.get('Authorization')).toBe('Bearer rs_remembered');
    expect(call.headers.get('X-API-Key')).toBeNull(); // the key id is no credential
    const curl = screen.getByLabelText('curl command').textContent ?? '';
    expect(curl).toContain("Authorization: Bearer <your secret>");
    expect(curl).not.toContain('rk_live_AAA');
  });

  it('offers Add balance when the call is refused for the balance (402)', async () => {
    stubFetch(() => json(402, { success: false, message: 'Insufficient balance', error: 'insufficient_balance', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' }));
    renderWithApp(<TryIt service={service} fields={fields} />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.type(screen.getByLabelText(/Secret/, { selector: 'input' }), 'rs_x');
    await u.type(screen.getByRole('textbox', { name: /^phone/ }), '9876543210');
    await u.type(screen.getByRole('textbox', { name: /^message/ }), 'hello');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-status')).toHaveTextContent('402');
    expect(screen.getByRole('link', { name: 'Add balance' })).toHaveAttribute('href', '/balance-requests');
  });

  it('offers no Add balance link on other refusals', async () => {
    stubFetch(() => json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', errors: {} }));
    renderWithApp(<TryIt service={service} fields={fields} />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.type(screen.getByLabelText(/Secret/, { selector: 'input' }), 'rs_x');
    await u.type(screen.getByRole('textbox', { name: /^phone/ }), '9876543210');
    await u.type(screen.getByRole('textbox', { name: /^message/ }), 'hello');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-status')).toHaveTextContent('422');
    expect(screen.queryByRole('link', { name: 'Add balance' })).not.toBeInTheDocument();
  });

  it('puts the API’s parameter errors next to the generated fields', async () => {
    stubFetch(() => json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', errors: { message: ['must not contain a link'] } }));
    renderWithApp(<TryIt service={service} fields={fields} />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.type(screen.getByLabelText(/Secret/, { selector: 'input' }), 'rs_x');
    await u.type(screen.getByRole('textbox', { name: /^phone/ }), '9876543210');
    await u.type(screen.getByRole('textbox', { name: /^message/ }), 'http://x');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-status')).toHaveTextContent('422');
    const message = screen.getByRole('textbox', { name: /^message/ });
    await waitFor(() => expect(message).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('must not contain a link')).toBeInTheDocument();
  });

  it('sends payout-transfer’s dotted parameters as a nested beneficiary and puts beneficiary.* errors on their fields', async () => {
    const calls = stubFetch(() => json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      errors: { 'beneficiary.account_number': ['must be 9 to 18 digits'] } }));
    forgetSecrets();
    rememberSecret('rk_live_AAA', 'rs_remembered');
    const payout = { name: 'Payout', slug: 'payout-transfer', endpoint: '/api/v1/payout/transfer', method: 'POST' as const, builtin: true };
    const payoutFields = fieldsFromSpecs({
      amount: { type: 'number', required: true },
      'beneficiary.type': { type: 'string', required: true, pattern: '^(bank_account|vpa)$' },
      'beneficiary.name': { type: 'string', required: true },
      'beneficiary.account_number': { type: 'string', required: false },
      'beneficiary.ifsc': { type: 'string', required: false },
      'beneficiary.vpa': { type: 'string', required: false },
      reference_id: { type: 'string', required: true },
      narration: { type: 'string', required: false, max_length: 30 },
    });
    renderWithApp(<TryIt service={payout} fields={payoutFields} />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.type(screen.getByRole('textbox', { name: /^amount/ }), '100.00');
    await u.click(screen.getByLabelText(/^beneficiary\.type/, { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'bank_account', hidden: true }));
    await u.type(screen.getByRole('textbox', { name: /^beneficiary\.name/ }), 'Ravi Kumar');
    const account = screen.getByRole('textbox', { name: /^beneficiary\.account_number/ });
    await u.type(account, '12345');
    await u.type(screen.getByRole('textbox', { name: /^beneficiary\.ifsc/ }), 'HDFC0001234');
    await u.type(screen.getByRole('textbox', { name: /^reference_id/ }), 'ref-1');
    // The preview and the curl command show the nested body.
    const nested = '{"amount":100.00,"beneficiary":{"name":"Ravi Kumar","type":"bank_account","account_number":"12345","ifsc":"HDFC0001234"},"reference_id":"ref-1"}';
    expect(screen.getByTestId('try-it-preview')).toHaveTextContent(nested);
    expect(screen.getByLabelText('curl command').textContent).toContain(nested);
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-status')).toHaveTextContent('422');
    const call = calls.find((r) => r.url.endsWith('/api/v1/payout/transfer'))!;
    expect(call.headers.get('Authorization')).toBe('Bearer rs_remembered');
    expect(JSON.parse(await call.text())).toEqual({
      amount: 100, reference_id: 'ref-1', beneficiary: { type: 'bank_account', name: 'Ravi Kumar', account_number: '12345', ifsc: 'HDFC0001234' },
    });
    await waitFor(() => expect(account).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('must be 9 to 18 digits')).toBeInTheDocument();
  });

  it('calls account-open with its flat parameters as they are', async () => {
    const calls = stubFetch(() => json(200, { success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', data: { opening_id: 'aco_1', status: 'initiated' }, charged: '0.0000', balance_left: '10.00' }));
    forgetSecrets();
    rememberSecret('rk_live_AAA', 'rs_remembered');
    const open = { name: 'Account opening', slug: 'account-open', endpoint: '/api/v1/account/open', method: 'POST' as const, builtin: true };
    const params = { name: 'Asha Rao', dob: '1990-05-17', pan: 'ABCDE1234F', aadhaar: '234567890123', mobile: '9876543210', email: 'asha@example.com', address: '1 MG Road, Bengaluru', product: 'savings', reference_id: 'aco-ref-1' };
    const openFields = fieldsFromSpecs(Object.fromEntries(Object.keys(params).map((n) => [n, { type: n === 'dob' ? 'date' as const : 'string' as const, required: true }])));
    renderWithApp(<TryIt service={open} fields={openFields} />);
    const u = userEvent.setup();
    await chooseKey(u);
    for (const [n, v] of Object.entries(params)) {
      const el = document.querySelector<HTMLInputElement>(`[data-param="${n}"]`)!;
      await u.type(el, v);
    }
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByTestId('try-it-status')).toHaveTextContent('200');
    const call = calls.find((r) => r.url.endsWith('/api/v1/account/open'))!;
    expect(JSON.parse(await call.text())).toEqual(params);
  });
});
