import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Prices from './Prices';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { fill, price, signInAsReseller, stubApi } from './test/fixtures';

beforeEach(signInAsReseller);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const sms = price();
const kyc = price({ service_id: 5, service_name: 'PAN check', slug: 'pan', cost: '2.0000', price: '3.0000', effective_price: '3.0000', margin: '1.0000', source: 'price' });
const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('the prices screen', () => {
  it('shows cost, selling price, effective price, margin and source per service, and the markup', async () => {
    stubApi({ 'GET /api/v1/panel/customer-prices': () => json(200, { data: [sms, kyc], meta: { default_markup: '25.00' } }) });
    renderWithApp(<Prices />, { path: '/prices' });
    await screen.findByText('PAN check');
    const row = rowOf('PAN check');
    expect(within(row).getByText('₹2.00')).toBeInTheDocument();
    expect(within(row).getByTestId('effective-price')).toHaveTextContent('₹3.00');
    expect(within(row).getByTestId('margin')).toHaveTextContent('₹1.00');
    expect(within(row).getByText('your price')).toBeInTheDocument();
    expect(within(rowOf('SMS')).getByText('not set')).toBeInTheDocument();
    expect(within(rowOf('SMS')).getByText('list price')).toBeInTheDocument();
    expect(screen.getByLabelText('Markup (%)')).toHaveValue('25.00');
  });

  it('sets a price as typed, and shows a 422 below_cost on the field', async () => {
    let answer = 422;
    const calls = stubApi({
      'GET /api/v1/panel/customer-prices': () => json(200, { data: [sms], meta: { default_markup: null } }),
      'PUT /api/v1/panel/customer-prices/4': () => (answer === 422
        ? json(422, { success: false, message: 'Validation failed', error: 'below_cost', errors: { price: ['The price is below your own cost ₹0.40'] } })
        : json(200, { ...sms, price: '0.7500', effective_price: '0.7500', margin: '0.3500', source: 'price' })),
    });
    const u = userEvent.setup();
    renderWithApp(<Prices />, { path: '/prices' });
    await u.click(await screen.findByRole('button', { name: 'Set the price of SMS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Price of SMS' });
    const input = within(dialog).getByRole('textbox', { name: /^Selling price \(/ });
    await fill(u, input, '0.3');
    await u.click(within(dialog).getByRole('button', { name: 'Save price' }));
    expect(await within(dialog).findByText('The price is below your own cost ₹0.40')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    answer = 200;
    await fill(u, input, '0.7500');
    await u.click(within(dialog).getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => c.body)).toEqual([{ price: '0.3' }, { price: '0.7500' }]);
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it('saves the default markup, and clears it with an empty field', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/customer-prices': () => json(200, { data: [sms], meta: { default_markup: null } }),
      'PUT /api/v1/panel/customer-markup': (c) => json(200, c.body),
    });
    const u = userEvent.setup();
    renderWithApp(<Prices />, { path: '/prices' });
    const field = await screen.findByLabelText('Markup (%)');
    await fill(u, field, '12.5');
    await u.click(screen.getByRole('button', { name: 'Save markup' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    await fill(u, await screen.findByLabelText('Markup (%)'), '');
    await u.click(screen.getByRole('button', { name: 'Save markup' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ default_markup: '12.5' }, { default_markup: null }]);
  });

  it('removes a selling price', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/customer-prices': () => json(200, { data: [kyc], meta: { default_markup: null } }),
      'DELETE /api/v1/panel/customer-prices/5': () => new Response(null, { status: 204 }),
    });
    const u = userEvent.setup();
    renderWithApp(<Prices />, { path: '/prices' });
    await u.click(await screen.findByRole('button', { name: 'More for PAN check' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Remove my price' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/panel/customer-prices/5')).toBe(true));
  });
});
