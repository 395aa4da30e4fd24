import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import HitLogs from './HitLogs';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { admin, list, signInAsAdmin, stubApi, user } from '../admin/test/fixtures';
import type { Schemas } from '../../api/types';

function hit(over: Partial<Schemas['HitLog']> = {}): Schemas['HitLog'] {
  return {
    id: 11, user_id: 7, api_service_id: 4, api_key_id: 3, request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', request_payload: {}, response_payload: { ok: true },
    charge_amount: '0.5000', ip_address: '203.0.113.9', status: 'failed', response_time_ms: 120, created_at: '2026-11-21T10:00:00Z',
    user_name: 'Asha Rao', user_email: 'asha@example.com', api_key_name: 'shop backend', api_service_name: 'PAN verification', ...over,
  };
}

const page = (rows: Schemas['HitLog'][]) => ({ ...list(rows), payload_retention_seconds: 0 });

afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the hit logs (a user)', () => {
  it('says they are the user’s calls and names the key and service, with no user column', async () => {
    session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
    stubApi({
      'GET /api/v1/panel/hit-logs': () => json(200, page([hit()])),
      'GET /api/v1/panel/services': () => json(200, list([])),
      'GET /api/v1/panel/api-keys': () => json(200, list([])),
    });
    renderWithApp(<HitLogs />, { path: '/hit-logs' });
    const table = await screen.findByRole('table', { name: 'Hit logs' });
    expect(screen.getByText(/^Your API calls/)).toBeInTheDocument();
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('PAN verification');
    expect(row).toHaveTextContent('shop backend');
    expect(row).not.toHaveTextContent('Key #3');
    expect(within(table).queryByRole('columnheader', { name: 'User' })).toBeNull();
    expect(screen.getByLabelText('Key', { selector: 'input' })).toBeInTheDocument();
  });
});

describe('the hit logs (an admin)', () => {
  it('shows all calls with whose each is, and filters by user', async () => {
    signInAsAdmin();
    const calls = stubApi({
      'GET /api/v1/panel/hit-logs': () => json(200, page([hit(), hit({ id: 12, user_id: 9, user_name: 'Ravi Kumar', user_email: 'ravi@example.com', api_key_id: 5, api_key_name: 'cron' })])),
      'GET /api/v1/panel/services': () => json(200, list([])),
      'GET /api/v1/panel/api-keys': () => json(200, list([])),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/users': () => json(200, list([user({ status: 'active' }), admin])),
    });
    const { router } = renderWithApp(<HitLogs />, { path: '/hit-logs' });
    const table = await screen.findByRole('table', { name: 'Hit logs' });
    expect(screen.getByText(/^All calls/)).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'User' })).toBeInTheDocument();
    const asha = within(table).getByRole('link', { name: /Asha Rao/ });
    expect(asha).toHaveAttribute('href', '/admin/users/7');
    expect(asha).toHaveAttribute('title', 'User #7');
    expect(within(table).getByRole('link', { name: /Ravi Kumar/ })).toHaveAttribute('href', '/admin/users/9');
    expect(within(table).getByText('cron')).toBeInTheDocument();
    // The names came with the page: no lookup per row.
    expect(calls.some((c) => c.path.startsWith('/api/v1/panel/users/'))).toBe(false);

    const u = userEvent.setup();
    await u.click(screen.getByLabelText('User', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Rao <asha@example.com>', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=7'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/panel/hit-logs').at(-1)!.search).toBe('?page=1&per_page=20&user_id=7'));
    expect(await screen.findByText('Calls of')).toBeInTheDocument();
    expect(await screen.findByText('Asha Rao <asha@example.com>')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: "Show every user's calls" }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
