import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Customers from './Customers';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { customer, list, signInAsReseller, stubApi } from './test/fixtures';

beforeEach(signInAsReseller);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const meera = customer();
const arjun = customer({ id: 22, name: 'Arjun', email: 'arjun@example.com', status: 'blocked', balance: '0.00' });
const rowOf = (email: string) => screen.getByText(email).closest('tr')!;

describe('the customers list', () => {
  it('shows balances and status, filters by status and search through the URL', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/customers': (c) => json(200, c.search.includes('search=') ? list([]) : list([meera, arjun])),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<Customers />, { path: '/customers', url: '/customers?status=active' });
    await screen.findByText('meera@example.com');
    expect(new URLSearchParams(calls[0]!.search).get('status')).toBe('active');
    expect(within(rowOf('meera@example.com')).getByText('₹250.00')).toBeInTheDocument();
    expect(within(rowOf('arjun@example.com')).getByTestId('user-status')).toHaveTextContent('blocked');
    await u.type(screen.getByLabelText('Search'), 'zzz');
    expect(await screen.findByText('No customer matches these filters')).toBeInTheDocument();
    expect(router.state.location.search).toContain('search=zzz');
    expect(new URLSearchParams(calls[calls.length - 1]!.search).get('page')).toBe('1');
  });

  it('creates a customer without a password (the customer is mailed a link) and opens it', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/customers': () => json(200, list([])),
      'POST /api/v1/panel/customers': () => json(201, customer({ id: 30, name: 'Neha', email: 'neha@example.com' })),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<Customers />, { path: '/customers' });
    await u.click(await screen.findByRole('button', { name: 'New customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New customer' });
    await u.type(within(dialog).getByLabelText(/^Name/), 'Neha');
    await u.type(within(dialog).getByLabelText(/^Email/), 'neha@example.com');
    await u.type(within(dialog).getByLabelText(/^Phone/), '+919812345678');
    await u.click(within(dialog).getByRole('button', { name: 'Create customer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers/30'));
    const sent = calls.find((c) => c.method === 'POST')!.body;
    expect(sent).toEqual({ name: 'Neha', email: 'neha@example.com', phone: '+919812345678' });
  });

  it('shows the API field errors beside the fields', async () => {
    stubApi({
      'GET /api/v1/panel/customers': () => json(200, list([])),
      'POST /api/v1/panel/customers': () => json(422, { success: false, message: 'Validation failed', error: 'validation_failed', errors: { email: ['This email is taken'] } }),
    });
    const u = userEvent.setup();
    renderWithApp(<Customers />, { path: '/customers' });
    await u.click(await screen.findByRole('button', { name: 'New customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New customer' });
    await u.type(within(dialog).getByLabelText(/^Name/), 'Neha');
    await u.type(within(dialog).getByLabelText(/^Email/), 'taken@example.com');
    await u.type(within(dialog).getByLabelText(/^Phone/), '9812345678');
    await u.click(within(dialog).getByRole('button', { name: 'Create customer' }));
    expect(await within(dialog).findByText('This email is taken')).toBeInTheDocument();
  });

  it('asks before blocking, and activates a blocked customer', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/customers': () => json(200, list([meera, arjun])),
      'POST /api/v1/panel/customers/21/block': () => json(200, { ...meera, status: 'blocked' }),
      'POST /api/v1/panel/customers/22/activate': () => json(200, { ...arjun, status: 'active' }),
    });
    const u = userEvent.setup();
    renderWithApp(<Customers />, { path: '/customers' });
    await screen.findByText('meera@example.com');
    await u.click(within(rowOf('meera@example.com')).getByRole('button', { name: 'Block meera@example.com' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Block Meera Shah?');
    await u.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/panel/customers/21/block')).toBe(true));
    await u.click(within(rowOf('arjun@example.com')).getByRole('button', { name: 'Activate arjun@example.com' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/panel/customers/22/activate')).toBe(true));
  });
});
