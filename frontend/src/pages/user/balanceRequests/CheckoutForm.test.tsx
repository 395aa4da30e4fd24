import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CheckoutForm } from './CheckoutForm';
import { json, renderWithApp } from '../../../test/render';

const payment = {
  payment_id: 'pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', status: 'created', livemode: false, purpose: 'balance', fee: '0.00',
  amount: '1500.50', currency: 'INR', customer_id: 'balance', callback_url: '', utr: null, refunded_amount: '0.00', refundable_amount: '0.00',
  payment_url: 'http://localhost:8080/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', user_id: 7,
  expires_at: '2026-11-01T10:30:00Z', completed_at: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
};

describe('the pay by UPI form', () => {
  it('checks the amount before sending', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<CheckoutForm onCreated={vi.fn()} />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '12.345');
    await u.click(screen.getByRole('button', { name: 'Pay by UPI' }));
    expect(await screen.findByText('Enter an amount in rupees, e.g. 500 or 500.50')).toBeInTheDocument();
    await u.clear(screen.getByRole('textbox', { name: /Amount/ }));
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '0');
    await u.click(screen.getByRole('button', { name: 'Pay by UPI' }));
    expect(await screen.findByText('Enter an amount above zero')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('creates the checkout payment with the amount as typed and opens its page', async () => {
    let sent: unknown = null;
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      expect(req.method).toBe('POST');
      expect(new URL(req.url).pathname).toBe('/api/v1/panel/balance/checkout');
      sent = await req.json();
      return json(201, payment);
    }));
    const onCreated = vi.fn();
    renderWithApp(<CheckoutForm onCreated={onCreated} />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '1500.50');
    expect(screen.getByText('₹1,500.50')).toBeInTheDocument(); // read back in INR
    await u.click(screen.getByRole('button', { name: 'Pay by UPI' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    expect(sent).toEqual({ amount: '1500.50' }); // the string typed, never a float
    expect(onCreated.mock.calls[0]![0].payment_url).toBe(payment.payment_url);
  });

  it('goes to the payment page by default', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    vi.stubGlobal('fetch', vi.fn(async () => json(201, payment)));
    renderWithApp(<CheckoutForm />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '500');
    await u.click(screen.getByRole('button', { name: 'Pay by UPI' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(payment.payment_url));
    vi.unstubAllGlobals();
  });

  it('shows the API’s amount error on the field', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed',
      request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', errors: { amount: ['must be at most 100000.00'] } })));
    const onCreated = vi.fn();
    renderWithApp(<CheckoutForm onCreated={onCreated} />);
    const u = userEvent.setup();
    await u.type(screen.getByRole('textbox', { name: /Amount/ }), '200000');
    await u.click(screen.getByRole('button', { name: 'Pay by UPI' }));
    expect(await screen.findByText('must be at most 100000.00')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Amount/ })).toHaveAttribute('aria-invalid', 'true');
    expect(onCreated).not.toHaveBeenCalled();
  });
});
