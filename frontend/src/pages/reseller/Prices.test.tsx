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
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/panel/customer-prices')).toHaveLength(2));
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

  it('marks a service whose customers pay less than the list price', async () => {
    const gst = price({ service_id: 7, service_name: 'GST lookup', slug: 'gst', cost: '0.60', effective_price: '0.72', margin: '0.12', source: 'markup', list_price: '1.00', below_list: true });
    stubApi({ 'GET /api/v1/panel/customer-prices': () => json(200, { data: [sms, gst], meta: { default_markup: '20.00' } }) });
    renderWithApp(<Prices />, { path: '/prices' });
    await screen.findByText('GST lookup');
    expect(within(rowOf('GST lookup')).getByTestId('list-price')).toHaveTextContent('₹1.00');
    expect(within(rowOf('GST lookup')).getByTestId('below-list')).toHaveTextContent('below list price');
    expect(within(rowOf('SMS')).queryByTestId('below-list')).toBeNull();
  });

  it('previews a markup before saving it, from the server, and warns when customers would pay less than the list price', async () => {
    const row = (over: Record<string, unknown>) => ({ service_id: 7, service_name: 'GST lookup', slug: 'gst', cost: '0.60', list_price: '1.00',
      current_price: '1.00', customer_price: '0.72', source: 'markup', below_list: true, ...over });
    const calls = stubApi({
      'GET /api/v1/panel/customer-prices': () => json(200, { data: [sms], meta: { default_markup: null } }),
      'GET /api/v1/panel/customer-prices/preview': (c) => (new URLSearchParams(c.search).get('markup') === '20'
        ? json(200, { data: [row({}), row({ service_id: 8, service_name: 'PAN check', cost: '2.00', list_price: '2.00', current_price: '2.00', customer_price: '3.00', source: 'price', below_list: false })],
          meta: { default_markup: '20.00', below_list: 1 } })
        : json(200, { data: [row({ customer_price: '1.20', below_list: false })], meta: { default_markup: '100.00', below_list: 0 } })),
    });
    const u = userEvent.setup();
    renderWithApp(<Prices />, { path: '/prices' });
    await fill(u, await screen.findByLabelText('Markup (%)'), '20');
    const preview = await screen.findByTestId('markup-preview');
    expect(within(preview).getByText('Below the list price')).toBeInTheDocument();
    expect(within(preview).getByText(/less than the list price for 1 service\./)).toBeInTheDocument();
    const table = within(preview).getByRole('table', { name: 'Customer prices with this markup' });
    const gstRow = within(table).getByText('GST lookup').closest('tr')!;
    expect(within(gstRow).getByText('₹0.60')).toBeInTheDocument();
    expect(within(gstRow).getByTestId('preview-list')).toHaveTextContent('₹1.00');
    expect(within(gstRow).getByTestId('preview-price')).toHaveTextContent('₹0.72');
    expect(within(gstRow).getByTestId('below-list')).toBeInTheDocument();
    expect(within(table).queryByText('PAN check')).toBeNull(); // its own price: the markup does not touch it
    // Nothing saved by the preview.
    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
    // A markup that keeps customers at or over the list price: no warning.
    await fill(u, screen.getByLabelText('Markup (%)'), '100');
    await waitFor(() => expect(within(screen.getByTestId('markup-preview')).getByTestId('preview-price')).toHaveTextContent('₹1.20'));
    expect(within(screen.getByTestId('markup-preview')).queryByText('Below the list price')).toBeNull();
    expect(screen.getByText('No customer would pay less than the list price.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path.endsWith('/preview')).map((c) => c.search)).toEqual(['?markup=20', '?markup=100']);
  });

  it('previews a selling price in its dialog, with the list price and a warning below it', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/customer-prices': () => json(200, { data: [sms], meta: { default_markup: null } }),
      'GET /api/v1/panel/customer-prices/preview': (c) => {
        const p = new URLSearchParams(c.search).get('price');
        return json(200, { data: [{ service_id: 4, service_name: 'SMS', slug: 'sms', cost: '0.40', list_price: '0.50', current_price: '0.50',
          customer_price: p === '0.45' ? '0.45' : '0.60', source: 'price', below_list: p === '0.45' }], meta: { default_markup: null, below_list: p === '0.45' ? 1 : 0 } });
      },
    });
    const u = userEvent.setup();
    renderWithApp(<Prices />, { path: '/prices' });
    await u.click(await screen.findByRole('button', { name: 'Set the price of SMS' }));
    const dialog = await screen.findByRole('dialog', { name: 'Price of SMS' });
    await fill(u, within(dialog).getByRole('textbox', { name: /^Selling price \(/ }), '0.45');
    const shown = await within(dialog).findByTestId('price-preview');
    await waitFor(() => expect(shown).toHaveTextContent('would pay ₹0.45 a call'));
    expect(shown).toHaveTextContent('List price ₹0.50');
    expect(within(dialog).getByText('Below the list price')).toBeInTheDocument();
    await fill(u, within(dialog).getByRole('textbox', { name: /^Selling price \(/ }), '0.6');
    await waitFor(() => expect(within(dialog).getByTestId('price-preview')).toHaveTextContent('would pay ₹0.60 a call'));
    expect(within(dialog).queryByText('Below the list price')).toBeNull();
    expect(calls.filter((c) => c.path.endsWith('/preview')).map((c) => c.search)).toContain('?service_id=4&price=0.45');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
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
