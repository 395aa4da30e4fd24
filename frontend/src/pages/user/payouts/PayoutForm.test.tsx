import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PayoutForm } from './PayoutForm';
import { json, renderWithApp } from '../../../test/render';
import { session } from '../../../auth/session';
import { list, stubApi, user, type Call } from '../../admin/test/fixtures';
import { forgetPayoutCredential } from '../../../features/payouts/api';
import { payout } from '../test/payouts';

const key = (id: number, name: string, k: string, status = 'active') => ({
  id, name, key: k, allowed_services: [], allowed_ips: '', daily_limit: 1000, hits_today: 0, last_used_at: null, status,
  created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
});

/** The quote the API gives for ?amount= (fee 5.00; balance and today's limit as given). */
function quote(c: Call, { balance = '1000.00', remaining = '200000.00' } = {}) {
  const amount = new URLSearchParams(c.search).get('amount') ?? '0.00';
  const a = amount.includes('.') ? amount : `${amount}.00`;
  const totals: Record<string, string> = { '0.00': '5.0000', '100.00': '105.0000', '995.50': '1000.5000', '300000.00': '300005.0000' };
  return json(200, { amount: a, fee: '5.0000', total: totals[a] ?? '0.0000', balance, daily_limit: '200000.00', used_today: '0.00', remaining_today: remaining });
}

const saved = (id: number, name: string) => ({
  id, type: 'bank_account', name, account_number: 'XXXXXXXX5678', ifsc: 'ICIC0004321', vpa: null, name_at_source: name.toUpperCase(),
  verified_at: '2026-11-20T10:00:00Z', created_at: '2026-11-20T10:00:00Z',
});

/** The password is 'right-password'; each authorization mints cred-1, cred-2, … */
function routes(transfer: (c: Call) => Response, q: (c: Call) => Response = (c) => quote(c), beneficiaries: ReturnType<typeof saved>[] = []) {
  let minted = 0;
  return stubApi({
    'GET /api/v1/panel/beneficiaries': () => json(200, { data: beneficiaries }),
    'DELETE /api/v1/panel/beneficiaries/*': (c) => {
      const id = Number(c.path.split('/').pop());
      beneficiaries.splice(beneficiaries.findIndex((b) => b.id === id), 1);
      return new Response(null, { status: 204 });
    },
    'POST /api/v1/panel/beneficiaries': (c) => {
      const b = { ...saved(50 + beneficiaries.length, (c.body as { name: string }).name), account_number: 'XXXXXXXX1234', ifsc: 'HDFC0001234' };
      beneficiaries.push(b);
      return json(201, b);
    },
    'GET /api/v1/panel/api-keys': () => json(200, list([key(1, 'Server', 'rk_live_AAA'), key(2, 'Old', 'rk_live_OLD', 'revoked')])),
    'GET /api/v1/panel/payouts/quote': q,
    'POST /api/v1/panel/payouts/authorize': (c) => ((c.body as { password: string }).password === 'right-password'
      ? json(200, { credential: `cred-${++minted}`, expires_in: 300 })
      : json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', errors: { password: ['is incorrect'] } })),
    'POST /api/v1/panel/payouts': transfer,
  });
}

const SENT = '/api/v1/panel/payouts';
const sentCalls = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.path === SENT);

async function chooseKey(u: ReturnType<typeof userEvent.setup>) {
  await u.click(screen.getByLabelText(/API key/, { selector: 'input' }));
  await u.click(await screen.findByRole('option', { name: /Server · rk_live_AAA/, hidden: true }));
}

async function fillBank(u: ReturnType<typeof userEvent.setup>, amount = '100') {
  await u.type(screen.getByRole('textbox', { name: /^Account number/ }), '123456781234');
  await u.type(screen.getByRole('textbox', { name: /^IFSC/ }), 'hdfc0001234');
  await u.type(screen.getByRole('textbox', { name: /^Account holder/ }), 'Ravi Kumar');
  await u.type(screen.getByRole('textbox', { name: /^Amount/ }), amount);
  await u.type(screen.getByRole('textbox', { name: /^Narration/ }), 'Invoice 42');
}

beforeEach(() => {
  forgetPayoutCredential();
  session.signIn({ access_token: 'panel-token', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
});
afterEach(async () => {
  cleanup();
  await session.signOut();
});

/** Review, then confirm: nothing is sent before the confirmation step's "Send payout"; the password when asked. */
async function sendPayout(u: ReturnType<typeof userEvent.setup>, password: string | null = 'right-password') {
  await u.click(screen.getByRole('button', { name: 'Review payout' }));
  const confirm = await screen.findByTestId('payout-confirm');
  await u.click(within(confirm).getByRole('button', { name: 'Send payout' }));
  if (password === null) return;
  const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
  await u.type(within(dialog).getByLabelText(/^Password/), password);
  await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
}

describe('the new-payout form', () => {
  it('shows the fee and the total from the quote, asks the password once, and sends the body with the payout credential (no secret)', async () => {
    const calls = routes(() => json(200, {
      success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', charged: '5.0000', balance_left: '895.00',
      data: payout({ status: 'pending', utr: null, processed_at: null, amount: '100.00', livemode: false }),
    }));
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    // Before an amount: the fee alone.
    expect(await screen.findByTestId('quote-fee')).toHaveTextContent('₹5.00');
    await chooseKey(u);
    expect(screen.queryByLabelText(/Secret/)).toBeNull();
    await fillBank(u);
    expect(await screen.findByTestId('quote-total')).toHaveTextContent('₹105.00');
    expect(screen.getByTestId('quote-balance')).toHaveTextContent('₹1,000.00');
    expect(screen.queryByTestId('quote-warning')).toBeNull();
    expect(calls.filter((c) => c.path === '/api/v1/panel/payouts/quote').at(-1)!.search).toBe('?amount=100');
    const ref = (screen.getByRole('textbox', { name: /^Reference id/ }) as HTMLInputElement).value;
    expect(ref).toMatch(/^po_[0-9a-z]{8,}$/);

    await sendPayout(u);
    const result = await screen.findByTestId('payout-result');
    expect(within(result).getByTestId('payout-id')).toHaveTextContent('pout_01J9Z8X4K3M2N1P0Q9R8S7T6V5');
    expect(within(result).getByText('pending')).toBeInTheDocument();
    expect(within(result).getByText('₹895.00')).toBeInTheDocument();
    expect(sentCalls(calls)).toHaveLength(1);
    const sent = sentCalls(calls)[0]!;
    expect(sent.auth).toBe('Bearer panel-token');
    expect(sent.headers.get('X-Payout-Authorization')).toBe('cred-1');
    expect(calls.find((c) => c.path === '/api/v1/panel/payouts/authorize')!.body).toEqual({ password: 'right-password' });
    expect(sent.body).toEqual({
      api_key_id: 1,
      beneficiary: { type: 'bank_account', name: 'Ravi Kumar', account_number: '123456781234', ifsc: 'HDFC0001234' },
      amount: '100', mode: 'IMPS', reference_id: ref, narration: 'Invoice 42',
    });

    // Another payout gets a new reference, and the credential is used again without asking.
    await u.click(screen.getByRole('button', { name: 'New payout' }));
    expect((screen.getByRole('textbox', { name: /^Reference id/ }) as HTMLInputElement).value).not.toBe(ref);
    await u.type(screen.getByRole('textbox', { name: /^Amount/ }), '100');
    await sendPayout(u, null);
    await screen.findByTestId('payout-result');
    expect(sentCalls(calls).map((c) => c.headers.get('X-Payout-Authorization'))).toEqual(['cred-1', 'cred-1']);
    expect(calls.filter((c) => c.path === '/api/v1/panel/payouts/authorize')).toHaveLength(1);
  });

  it('sends nothing on a wrong password, and asks again when the credential has expired', async () => {
    let first = true;
    const calls = routes(() => {
      if (first) {
        first = false;
        return json(403, { success: false, message: 'Confirm your password to send payouts', error: 'payout_authorization_required', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
      }
      return json(200, {
        success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', charged: '5.0000', balance_left: '895.00',
        data: payout({ status: 'pending', amount: '100.00' }),
      });
    });
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await chooseKey(u);
    await fillBank(u);
    await sendPayout(u, 'wrong-password');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(await within(dialog).findByText('The password is incorrect')).toBeInTheDocument();
    expect(sentCalls(calls)).toHaveLength(0);
    const input = within(dialog).getByLabelText(/^Password/);
    await u.clear(input);
    await u.type(input, 'right-password');
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    // The first credential is refused (expired): the password is asked again and the payout goes with the new one.
    const again = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await waitFor(() => expect(sentCalls(calls)).toHaveLength(1));
    await u.type(within(again).getByLabelText(/^Password/), 'right-password');
    await u.click(within(again).getByRole('button', { name: 'Confirm' }));
    await screen.findByTestId('payout-result');
    expect(sentCalls(calls).map((c) => c.headers.get('X-Payout-Authorization'))).toEqual(['cred-1', 'cred-2']);
  });

  it('warns when the total is more than the balance or the amount more than today’s limit', async () => {
    routes(() => json(500, {}), (c) => quote(c, { balance: '1000.00', remaining: '500.00' }));
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /^Amount/ }), '995.50');
    expect(await screen.findByTestId('quote-total')).toHaveTextContent('₹1,000.50');
    const warnings = await screen.findAllByTestId('quote-warning');
    expect(warnings.map((w) => w.textContent)).toEqual([
      'The total is more than your balance: the payout would be refused (402).',
      'The amount is more than what is left of today’s payout limit (₹2,00,000.00 a day): the payout would be refused.',
    ]);
  });

  it('checks the fields before sending', async () => {
    const calls = routes(() => json(500, {}));
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /^Account number/ }), '12');
    await u.type(screen.getByRole('textbox', { name: /^Amount/ }), '0.50');
    await u.type(screen.getByRole('textbox', { name: /^Narration/ }), 'x'.repeat(31));
    await u.click(screen.getByRole('button', { name: 'Review payout' }));
    expect(await screen.findByText('Choose a key')).toBeInTheDocument();
    expect(screen.getByText('9 to 18 digits')).toBeInTheDocument();
    expect(screen.getByText('An IFSC like HDFC0001234')).toBeInTheDocument();
    expect(screen.getByText('At least ₹1.00')).toBeInTheDocument();
    expect(screen.getByText('At most 30 characters')).toBeInTheDocument();
    expect(sentCalls(calls)).toHaveLength(0);
  });

  it('sends a VPA payout by UPI', async () => {
    const calls = routes(() => json(200, {
      success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', charged: '5.0000', balance_left: '895.00',
      data: payout({ status: 'pending', mode: 'UPI', beneficiary: { type: 'vpa', name: 'Meera', vpa: 'meera@okaxis', account_number: null, ifsc: null } }),
    }));
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.click(screen.getByText('UPI address (VPA)'));
    expect(screen.getByLabelText(/^Mode/, { selector: 'input' })).toHaveValue('UPI');
    await u.type(screen.getByRole('textbox', { name: /^VPA/ }), 'meera@okaxis');
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), 'Meera');
    await u.type(screen.getByRole('textbox', { name: /^Amount/ }), '100.00');
    await sendPayout(u);
    await screen.findByTestId('payout-result');
    const sent = sentCalls(calls)[0]!;
    expect(sent.headers.get('X-Payout-Authorization')).toBe('cred-1');
    expect(sent.body).toMatchObject({ api_key_id: 1, beneficiary: { type: 'vpa', name: 'Meera', vpa: 'meera@okaxis' }, amount: '100.00', mode: 'UPI' });
  });

  it('puts 422 errors on nested fields under their inputs, and says what a 402 or 409 means', async () => {
    let answer = json(422, {
      success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      errors: { 'beneficiary.account_number': ['must be 9 to 18 digits'], 'beneficiary.vpa': ['not for a bank account'], amount: ['must be at most 500000.00'] },
    });
    routes(() => answer);
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await chooseKey(u);
    await fillBank(u);
    await sendPayout(u);
    const account = screen.getByRole('textbox', { name: /^Account number/ });
    await waitFor(() => expect(account).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('must be 9 to 18 digits')).toBeInTheDocument();
    expect(screen.getByText('must be at most 500000.00')).toBeInTheDocument();
    const alert = screen.getByTestId('payout-error');
    expect(alert).toHaveTextContent('The payout was refused');
    expect(alert).toHaveTextContent('(422 validation_failed)');
    expect(alert).toHaveTextContent('beneficiary.vpa: not for a bank account'); // no such field on screen

    answer = json(402, { success: false, message: 'Insufficient balance: the payout needs ₹105.00', error: 'insufficient_balance', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
    await sendPayout(u, null);
    await waitFor(() => expect(screen.getByTestId('payout-error')).toHaveTextContent('Not enough balance'));
    expect(screen.getByTestId('payout-error')).toHaveTextContent('Insufficient balance: the payout needs ₹105.00 (402 insufficient_balance)');

    answer = json(409, { success: false, message: 'reference_id was used for another payout', error: 'reference_id_reused', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
    await sendPayout(u, null);
    await waitFor(() => expect(screen.getByTestId('payout-error')).toHaveTextContent('This reference was used for another payout'));
    expect(screen.getByText('Used for another payout: use a new reference')).toBeInTheDocument();
  });

  it('pays a saved beneficiary chosen from the list, by its id', async () => {
    const calls = routes(() => json(200, {
      success: true, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', charged: '5.0000', balance_left: '895.00',
      data: payout({ status: 'pending', amount: '100.00' }),
    }), (c) => quote(c), [saved(7, 'Asha Traders')]);
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.click(screen.getByLabelText(/^Pay to/, { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Traders · XXXXXXXX5678 · ICIC0004321', hidden: true }));
    expect(screen.queryByRole('textbox', { name: /^Account number/ })).toBeNull();
    expect(screen.getByTestId('saved-beneficiary')).toHaveTextContent('Verified as “ASHA TRADERS” on 2026-11-20');
    await u.type(screen.getByRole('textbox', { name: /^Amount/ }), '100');
    await sendPayout(u);
    expect(screen.queryByTestId('payout-confirm')).toBeNull();
    await screen.findByTestId('payout-result');
    expect(sentCalls(calls)[0]!.body).toEqual({ api_key_id: 1, beneficiary_id: 7, amount: '100', mode: 'IMPS', reference_id: expect.stringMatching(/^po_/) });
  });

  it('adds a beneficiary once verified (with the password), then picks it', async () => {
    const calls = routes(() => json(500, {}));
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await chooseKey(u);
    await u.type(screen.getByRole('textbox', { name: /^Account number/ }), '123456781234');
    await u.type(screen.getByRole('textbox', { name: /^IFSC/ }), 'hdfc0001234');
    await u.type(screen.getByRole('textbox', { name: /^Account holder/ }), 'Ravi Kumar');
    expect(screen.getByText(/charged like any verification/)).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Add beneficiary' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await u.type(within(dialog).getByLabelText(/^Password/), 'right-password');
    await u.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('saved-beneficiary')).toBeInTheDocument());
    const add = calls.find((c) => c.method === 'POST' && c.path === '/api/v1/panel/beneficiaries')!;
    expect(add.headers.get('X-Payout-Authorization')).toBe('cred-1');
    expect(add.body).toEqual({ api_key_id: 1, type: 'bank_account', name: 'Ravi Kumar', account_number: '123456781234', ifsc: 'HDFC0001234' });
    expect(screen.getByLabelText(/^Pay to/, { selector: 'input' })).toHaveValue('Ravi Kumar · XXXXXXXX1234 · HDFC0001234');
    expect(sentCalls(calls)).toHaveLength(0);
  });

  it('removes a saved beneficiary from the list', async () => {
    const calls = routes(() => json(500, {}), (c) => quote(c), [saved(7, 'Asha Traders')]);
    renderWithApp(<PayoutForm />);
    const u = userEvent.setup();
    await u.click(screen.getByLabelText(/^Pay to/, { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Traders · XXXXXXXX5678 · ICIC0004321', hidden: true }));
    await u.click(screen.getByRole('button', { name: 'Remove from saved' }));
    await screen.findByRole('textbox', { name: /^Account number/ });
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/panel/beneficiaries/7']);
    expect(screen.getByLabelText(/^Pay to/, { selector: 'input' })).toHaveValue('A new beneficiary: enter the details');
  });
});
