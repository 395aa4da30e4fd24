import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import Invoices from '../Invoices';
import { json, renderWithApp } from '../../../test/render';
import { session } from '../../../auth/session';
import { setTimeZoneForTests } from '../../../lib/dates';
import { list, stubApi, user } from '../../admin/test/fixtures';
import { draft, invoice, states } from '../test/invoices';

beforeEach(() => {
  setTimeZoneForTests('Asia/Kolkata');
  session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
});
afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('This month so far', () => {
  it('shows no draft card once the month is issued (the API answers 204)', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => new Response(null, { status: 204 }),
      'GET /api/v1/panel/invoices': () => json(200, list([invoice()])),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    expect(await screen.findByRole('button', { name: 'Open invoice PG/26-27/000001' })).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/v1/panel/invoices/upcoming')).toBe(true);
    expect(screen.queryByRole('region', { name: 'This month so far' })).toBeNull();
    expect(screen.queryByTestId('upcoming')).toBeNull();
    expect(screen.queryByText('draft')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull(); // no error in its place
  });

  it('shows the draft card while the month is open', async () => {
    stubApi({
      'GET /api/v1/panel/invoices/upcoming': () => json(200, draft()),
      'GET /api/v1/panel/invoices': () => json(200, list([invoice()])),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<Invoices />, { path: '/invoices' });
    expect(await screen.findByRole('region', { name: 'This month so far' })).toHaveTextContent('draft');
  });
});
