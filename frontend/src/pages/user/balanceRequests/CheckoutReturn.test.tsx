import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CheckoutReturn } from './CheckoutReturn';
import { json, renderWithApp } from '../../../test/render';

function serve(status: string) {
  const seen: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
    seen.push(new URL(req.url).pathname);
    return json(200, { payment_id: 'pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5', status, amount: '1500.50' });
  }));
  return seen;
}

describe('back from the checkout of a top-up', () => {
  it('says the balance was credited after a successful payment, and closes', async () => {
    const seen = serve('success');
    renderWithApp(<CheckoutReturn />, { path: '/balance-requests', url: '/balance-requests?payment=pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
    expect(await screen.findByText('Payment received')).toBeInTheDocument();
    expect(screen.getByText(/Your balance was credited with ₹1,500\.50\./)).toBeInTheDocument();
    expect(seen).toEqual(['/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5/status']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('checkout-return')).not.toBeInTheDocument();
  });

  it('says a pending payment is credited once confirmed, and a failed one that nothing was', async () => {
    serve('pending');
    const { unmount } = renderWithApp(<CheckoutReturn />, { path: '/balance-requests', url: '/balance-requests?payment=pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
    expect(await screen.findByText('Waiting for the payment')).toBeInTheDocument();
    unmount();
    serve('failed');
    renderWithApp(<CheckoutReturn />, { path: '/balance-requests', url: '/balance-requests?payment=pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
    expect(await screen.findByText('Payment not completed')).toBeInTheDocument();
  });

  it('shows nothing and asks nothing without a payment', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<CheckoutReturn />, { path: '/balance-requests' });
    expect(screen.queryByTestId('checkout-return')).not.toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
