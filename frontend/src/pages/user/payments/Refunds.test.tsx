import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refunds } from './Refunds';
import { json, renderWithApp } from '../../../test/render';
import type { Schemas } from '../../../api/types';

const payment: Schemas['Payment'] = {
  payment_id: 'pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', status: 'success', amount: '100.00', currency: 'INR', customer_id: 'c1',
  callback_url: 'https://shop.example/cb', payment_url: 'http://localhost:8080/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', livemode: false, purpose: 'collection', fee: '0.00', user_id: 7,
  expires_at: '2026-11-01T10:30:00Z', completed_at: '2026-11-01T10:05:00Z', created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:05:00Z',
  refunded_amount: '40.00', refundable_amount: '60.00',
};

const refund = (over: Partial<Schemas['Refund']>): Schemas['Refund'] => ({
  refund_id: 'rfnd_01J9Z8X4K3M2N1P0Q9R8S7T6V5', payment_id: payment.payment_id, amount: '40.00', currency: 'INR', status: 'processed',
  reason: 'damaged', fail_reason: null, provider_ref: 'sbx_1', livemode: false, created_at: '2026-11-01T11:00:00Z', completed_at: '2026-11-01T11:00:01Z',
  ...over,
});

describe('a payment’s refunds', () => {
  it('lists the refunds and sends a refund with an Idempotency-Key, the amount as typed', async () => {
    const sent: Request[] = [];
    let listed = [refund({})];
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      sent.push(req.clone());
      const url = new URL(req.url);
      expect(url.pathname).toBe(`/api/v1/panel/payments/${payment.payment_id}/refunds`);
      if (req.method === 'GET') {
        const refunded = listed.reduce((s, r) => s + Number(r.amount) * 100, 0) / 100;
        return json(200, { data: listed, refunded_amount: refunded.toFixed(2), refundable_amount: (100 - refunded).toFixed(2) });
      }
      const made = refund({ refund_id: 'rfnd_2', amount: '12.50', reason: 'late' });
      listed = [...listed, made];
      return json(201, { success: true, data: made, payment_refunded_amount: '52.50', payment_refundable_amount: '47.50' });
    }));
    renderWithApp(<Refunds payment={payment} />);
    const table = await screen.findByRole('table', { name: 'Refunds of this payment' });
    expect(within(table).getByText('damaged')).toBeInTheDocument();
    expect(within(table).getByText('₹40.00')).toBeInTheDocument();

    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '12.50');
    await u.type(screen.getByRole('textbox', { name: /Reason/ }), 'late');
    await u.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText(/Refund of ₹12.50 processed/)).toBeInTheDocument();
    const post = sent.find((r) => r.method === 'POST')!;
    expect(post.headers.get('Idempotency-Key')).toMatch(/.{8,}/);
    expect(await post.json()).toEqual({ amount: '12.50', reason: 'late' }); // a string, never a float
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Refunds of this payment' })).getByText('late')).toBeInTheDocument());
  });

  it('checks the amount before sending and shows the API’s refusal on its field', async () => {
    const fetch = vi.fn(async (req: Request) => (req.method === 'GET'
      ? json(200, { data: [], refunded_amount: '0.00', refundable_amount: '100.00' })
      : json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
        errors: { amount: ['must be at most 100.00, what is left to refund of this payment'] } })));
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<Refunds payment={{ ...payment, refunded_amount: '0.00', refundable_amount: '100.00' }} />);
    expect(await screen.findByText('No refunds yet.')).toBeInTheDocument();
    const u = userEvent.setup();
    const amount = screen.getByRole('textbox', { name: /Amount/ });
    await u.type(amount, '1.005');
    await u.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('Enter an amount in rupees, e.g. 500 or 500.50')).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([r]) => (r as Request).method === 'POST')).toHaveLength(0);
    await u.clear(amount);
    await u.type(amount, '150');
    await u.click(screen.getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('must be at most 100.00, what is left to refund of this payment')).toBeInTheDocument();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
  });

  it('offers no refund when nothing is left', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(200, { data: [refund({ amount: '100.00' })], refunded_amount: '100.00', refundable_amount: '0.00' })));
    renderWithApp(<Refunds payment={{ ...payment, refunded_amount: '100.00', refundable_amount: '0.00' }} />);
    await screen.findByRole('table', { name: 'Refunds of this payment' });
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });
});
