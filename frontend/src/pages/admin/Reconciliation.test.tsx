import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Reconciliation from './Reconciliation';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import type { Schemas } from '../../api/types';
import { list, signInAsAdmin, stubApi } from './test/fixtures';

beforeEach(() => signInAsAdmin());
afterEach(async () => {
  cleanup();
  await session.signOut();
});

function line(over: Partial<Schemas['ReconciliationLine']> = {}): Schemas['ReconciliationLine'] {
  return {
    id: 11, statement_id: 3, line_no: 6, date: '2024-04-03', narration: 'UPI/411111111111/UNKNOWN PAYER', ref_no: '411111111111',
    utr: '411111111111', amount: '100000.00', balance: '222499.00', status: 'unmatched', reason: 'no_match', payment_id: null,
    balance_request_id: null, decided_by: null, decided_at: null, note: null, created_at: '2024-04-04T10:00:00Z', ...over,
  };
}

const imported: Schemas['ReconciliationStatement'] = {
  id: 3, file_name: 'april.csv', sha256: 'ab', credit_lines: 5, new_lines: 5, duplicate_lines: 0, debit_lines: 1, skipped_lines: 3,
  matched: 2, unmatched: 3, imported_by: 1, created_at: '2024-04-04T10:00:00Z',
};

describe('the reconciliation screen', () => {
  it('imports a statement with a column mapping and shows what it matched', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/held-collections': () => json(200, list([])),
      'GET /api/v1/panel/reconciliation/lines': () => json(200, list([line()])),
      'POST /api/v1/panel/reconciliation/statements': () => json(201, imported),
    });
    const u = userEvent.setup();
    renderWithApp(<Reconciliation />, { path: '/admin/reconciliation' });
    expect(await screen.findByText('No payment or request has this UTR')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/v1/panel/reconciliation/lines')!.search).toContain('status=unmatched');

    const form = screen.getByRole('form', { name: 'Import a statement' });
    await u.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByText('Choose the statement file (CSV)')).toBeInTheDocument();

    const input = form.querySelector('input[type="file"]') as HTMLInputElement;
    await u.upload(input, new File(['Date,Narration,Ref No,Debit,Credit,Balance\n'], 'april.csv', { type: 'text/csv' }));
    await u.click(within(form).getByRole('button', { name: 'Column names' }));
    await u.type(within(form).getByLabelText('Credit column'), 'Deposit Amt');
    await u.click(within(form).getByRole('button', { name: 'Import' }));
    const result = await screen.findByTestId('import-result');
    expect(result).toHaveTextContent('2 matched, 3 to resolve');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(String(post.body)).toContain('name="credit_column"');
    expect(String(post.body)).toContain('Deposit Amt');
    expect(String(post.body)).toContain('name="file"');
  });

  it('matches a line to a payment and dismisses another with a required note', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/held-collections': () => json(200, list([])),
      'GET /api/v1/panel/reconciliation/lines': () => json(200, list([line(), line({ id: 12, utr: '409999999999', amount: '250.00' })])),
      'POST /api/v1/panel/reconciliation/lines/11/match': () => json(200, line({ status: 'matched', reason: null, payment_id: 'pay_X' })),
      'POST /api/v1/panel/reconciliation/lines/12/dismiss': () => json(200, line({ id: 12, status: 'dismissed', reason: null, note: 'Vendor refund' })),
    });
    const u = userEvent.setup();
    renderWithApp(<Reconciliation />, { path: '/admin/reconciliation' });
    await u.click(await screen.findByRole('button', { name: 'Resolve the line of 100000.00 on 03 Apr 2024' }));
    let dialog = await screen.findByRole('dialog', { name: 'Statement line #11' });
    await u.type(within(dialog).getByLabelText(/Payment id/), 'pay_X');
    await u.click(within(dialog).getByRole('button', { name: 'Match' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path.endsWith('/11/match'))!.body).toEqual({ payment_id: 'pay_X' });

    await u.click(screen.getByRole('button', { name: 'Resolve the line of 250.00 on 03 Apr 2024' }));
    dialog = await screen.findByRole('dialog', { name: 'Statement line #12' });
    await u.click(within(dialog).getByRole('radio', { name: 'Dismiss' }));
    await u.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(await within(dialog).findByText('Say why this credit needs no match')).toBeInTheDocument();
    expect(calls.some((c) => c.path.endsWith('/dismiss'))).toBe(false);
    await u.type(within(dialog).getByLabelText(/Note/), 'Vendor refund');
    await u.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/12/dismiss'))).toBe(true));
    expect(calls.find((c) => c.path.endsWith('/12/dismiss'))!.body).toEqual({ note: 'Vendor refund' });
  });

  it('shows held collections and retries one: still held, then credited', async () => {
    const held: Schemas['HeldCollection'] = {
      payment_id: 'pay_HELD', user_id: 7, amount: '1500.00', purpose: 'collection', status: 'pending', utr: '412345678901',
      livemode: true, credit_held_at: '2024-04-04T10:00:00Z', created_at: '2024-04-04T09:00:00Z',
    };
    let tries = 0;
    const calls = stubApi({
      'GET /api/v1/panel/held-collections': () => json(200, list(tries < 2 ? [held] : [])),
      'GET /api/v1/panel/reconciliation/lines': () => json(200, list([line({ reason: 'credit_held' })])),
      'POST /api/v1/panel/held-collections/pay_HELD/retry': () => (++tries === 1
        ? json(409, { success: false, error: 'collection_held', message: "The merchant's balance cannot hold this payment's credit; its confirmation is delayed" })
        : json(200, { payment_id: 'pay_HELD', status: 'success' })),
    });
    const u = userEvent.setup();
    renderWithApp(<Reconciliation />, { path: '/admin/reconciliation' });
    const region = await screen.findByRole('region', { name: 'Held collections' });
    expect(within(region).getByText('pay_HELD')).toBeInTheDocument();
    expect(screen.getByText("The merchant's balance cannot hold it yet: match it again once it can")).toBeInTheDocument();

    await u.click(within(region).getByRole('button', { name: 'Retry the credit of pay_HELD' }));
    expect(await screen.findByText('Still held')).toBeInTheDocument();
    await u.click(within(region).getByRole('button', { name: 'Retry the credit of pay_HELD' }));
    expect(await screen.findByText('Credited')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Held collections' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path.endsWith('/retry')).length).toBe(2);
  });
});
