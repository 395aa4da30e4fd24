import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Users from './Users';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { admin, list, signInAsAdmin, stubApi, user, type Call } from './test/fixtures';

beforeEach(signInAsAdmin);
afterEach(async () => {
  cleanup(); // unmount before signing out: signed-in screens need a user
  await session.signOut();
});

const asha = user();
const ravi = user({ id: 8, name: 'Ravi', email: 'ravi@example.com', status: 'active', role: 'reseller', balance: '0.50' });

/** The list's own requests (the reseller filter's picker searches resellers on the same path). */
const listCalls = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/panel/users' && !c.search.includes('role=reseller&per_page=20'));

function rowOf(email: string) {
  return screen.getByText(email).closest('tr')!;
}

describe('the users list', () => {
  it('shows users with INR balances, status and role, and activates a pending user', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/users': () => json(200, list([admin, asha, ravi])),
      'POST /api/v1/panel/users/7/activate': () => json(200, { ...asha, status: 'active' }),
    });
    const u = userEvent.setup();
    renderWithApp(<Users />, { path: '/admin/users' });
    await screen.findByText('asha@example.com');
    const row = rowOf('asha@example.com');
    expect(within(row).getByText('₹12,34,567.50')).toBeInTheDocument();
    expect(within(row).getByTestId('user-status')).toHaveTextContent('pending');
    // No actions on one's own row.
    expect(within(rowOf('admin@example.com')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf('admin@example.com')).getByText('you')).toBeInTheDocument();
    // An active user can be blocked, not activated.
    expect(within(rowOf('ravi@example.com')).queryByRole('button', { name: /Activate/ })).not.toBeInTheDocument();

    await u.click(within(row).getByRole('button', { name: 'Activate asha@example.com' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/panel/users/7/activate')).toBe(true));
    // The list is read again after the change.
    await waitFor(() => expect(listCalls(calls).length).toBe(2));
  });

  it('creates a user from "New user", shows the first password once, then opens the account', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/users': () => json(200, list([admin])),
      'POST /api/v1/panel/users': () => json(201, user({ id: 9, name: 'Neha', email: 'neha@example.com', status: 'active' })),
      'GET /api/v1/panel/users/9': () => json(200, user({ id: 9, name: 'Neha', email: 'neha@example.com', status: 'active' })),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<Users />, { path: '/admin/users' });
    await u.click(await screen.findByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    await u.type(within(dialog).getByLabelText(/^Name/), 'Neha');
    await u.type(within(dialog).getByLabelText(/^Email/), 'neha@example.com');
    await u.type(within(dialog).getByLabelText(/^Phone/), '+919812345678');
    await u.click(within(dialog).getByRole('button', { name: 'Create user' }));
    const done = await screen.findByTestId('new-user-created');
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/api/v1/panel/users')!.body as Record<string, string>;
    expect(sent).toMatchObject({ name: 'Neha', email: 'neha@example.com', phone: '+919812345678', role: 'user', status: 'active' });
    expect(sent.password).toHaveLength(16);
    expect(within(done).getByTestId('new-user-password')).toHaveTextContent(sent.password!);
    await u.click(within(done).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/users/9'));
  });

  it('asks before blocking', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/users': () => json(200, list([ravi])),
      'POST /api/v1/panel/users/8/block': () => json(200, { ...ravi, status: 'blocked' }),
    });
    const u = userEvent.setup();
    renderWithApp(<Users />, { path: '/admin/users' });
    await screen.findByText('ravi@example.com');
    await u.click(within(rowOf('ravi@example.com')).getByRole('button', { name: 'Block ravi@example.com' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Block Ravi?');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await u.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/panel/users/8/block')).toBe(true));
  });

  it('offers the row actions in one menu on a phone (the buttons are hidden below "sm")', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/users': () => json(200, list([asha, ravi])),
      'POST /api/v1/panel/users/7/activate': () => json(200, { ...asha, status: 'active' }),
    });
    const u = userEvent.setup();
    renderWithApp(<Users />, { path: '/admin/users' });
    await screen.findByText('asha@example.com');
    await u.click(within(rowOf('ravi@example.com')).getByRole('button', { name: 'Actions for ravi@example.com' }));
    expect(screen.queryByRole('menuitem', { name: 'Activate' })).not.toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Block' })).toBeInTheDocument();
    await u.keyboard('{Escape}');
    await u.click(within(rowOf('asha@example.com')).getByRole('button', { name: 'Actions for asha@example.com' }));
    await u.click(await screen.findByRole('menuitem', { name: 'Activate' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/v1/panel/users/7/activate')).toBe(true));
  });

  it('searches and filters through the URL, and says when nothing matches', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/users': (c) => json(200, c.search.includes('q=') ? list([]) : list([asha])),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<Users />, { path: '/admin/users', url: '/admin/users?status=pending' });
    await screen.findByText('asha@example.com');
    expect(listCalls(calls)[0]!.search).toContain('status=pending');
    await u.type(screen.getByLabelText('Search'), 'nobody');
    expect(await screen.findByText('No user matches these filters')).toBeInTheDocument();
    expect(router.state.location.search).toContain('q=nobody');
    const last = listCalls(calls).at(-1)!;
    expect(new URLSearchParams(last.search).get('q')).toBe('nobody');
    expect(new URLSearchParams(last.search).get('status')).toBe('pending');
    await u.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await screen.findByText('asha@example.com');
    expect(router.state.location.search).toBe('');
  });

  it("names each customer's reseller (a link) and filters by reseller through the URL", async () => {
    const meera = user({ id: 21, name: 'Meera', email: 'meera@example.com', status: 'active', parent_id: 8, reseller_name: 'Ravi' } as Partial<typeof asha>);
    const calls = stubApi({
      'GET /api/v1/panel/users': (c) => json(200, list(c.search.includes('reseller_id=8') ? [meera] : [ravi, meera, asha])),
      'GET /api/v1/panel/users/8': () => json(200, ravi),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<Users />, { path: '/admin/users' });
    await screen.findByText('meera@example.com');
    const link = within(rowOf('meera@example.com')).getByTestId('user-reseller');
    expect(link).toHaveTextContent('Ravi');
    expect(link).toHaveAttribute('href', '/admin/users/8');
    expect(within(rowOf('asha@example.com')).queryByTestId('user-reseller')).not.toBeInTheDocument();
    // A reseller's row links to its customers: the list filtered by it.
    await u.click(within(rowOf('ravi@example.com')).getByRole('link', { name: 'Its customers' }));
    await waitFor(() => expect(router.state.location.search).toBe('?reseller_id=8'));
    expect(await screen.findByTestId('reseller-filter')).toHaveTextContent('Ravi');
    await waitFor(() => expect(screen.queryByText('asha@example.com')).not.toBeInTheDocument());
    expect(new URLSearchParams(listCalls(calls).at(-1)!.search).get('reseller_id')).toBe('8');
    await u.click(screen.getByRole('button', { name: "Show every reseller's customers" }));
    await screen.findByText('asha@example.com');
    expect(router.state.location.search).toBe('');
  });

  it('shows a failed load with a retry', async () => {
    stubApi({ 'GET /api/v1/panel/users': () => json(500, { success: false, message: 'Database unavailable', error: 'internal_error', request_id: 'req_X' }) });
    renderWithApp(<Users />, { path: '/admin/users' });
    expect(await screen.findByText('Database unavailable')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
