import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BalanceRequests from './BalanceRequests';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { admin, balanceRequest, list, signInAsAdmin, stubApi, user } from './test/fixtures';

beforeEach(() => {
  signInAsAdmin();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:screenshot'), revokeObjectURL: vi.fn() }));
});
afterEach(async () => {
  cleanup(); // unmount before signing out: signed-in screens need a user
  await session.signOut();
});

const png = () => new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { status: 200, headers: { 'Content-Type': 'image/png' } });

function routes(extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/v1/panel/balance-requests': () => json(200, list([balanceRequest()])),
    'GET /api/v1/panel/balance-requests/5': () => json(200, balanceRequest()),
    'GET /api/v1/panel/balance-requests/5/screenshot': () => png(),
    'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
    'GET /api/v1/panel/users/1': () => json(200, admin),
    'GET /api/v1/panel/users': () => json(200, list([user()])),
    ...extra,
  });
}

async function openReview() {
  const u = userEvent.setup();
  renderWithApp(<BalanceRequests />, { path: '/admin/balance-requests' });
  const review = await screen.findByRole('button', { name: 'Review request 5 of asha@example.com' });
  await u.click(review);
  const dialog = await screen.findByRole('dialog', { name: 'Balance request #5' });
  return { u, dialog };
}

describe('the balance-request queue', () => {
  it('lists pending requests by default and shows the screenshot fetched with the session token', async () => {
    const calls = routes();
    const { dialog } = await openReview();
    expect(calls.find((c) => c.path === '/api/v1/panel/balance-requests')!.search).toContain('status=pending');
    const img = await within(dialog).findByTestId('screenshot');
    expect(img).toHaveAttribute('src', 'blob:screenshot');
    const shot = calls.find((c) => c.path.endsWith('/screenshot'))!;
    expect(shot.auth).toBe('Bearer token-a');
    expect(within(dialog).getByRole('button', { name: 'Approve and credit ₹100.00' })).toBeInTheDocument();
  });

  it('approves with optional remarks and closes', async () => {
    const calls = routes({
      'POST /api/v1/panel/balance-requests/5/approve': () => json(200, balanceRequest({ status: 'approved', approved_by: 1, approved_at: '2026-11-21T11:00:00Z' })),
    });
    const { u, dialog } = await openReview();
    await u.type(within(dialog).getByLabelText(/Remarks/), 'Matched');
    await u.click(within(dialog).getByRole('button', { name: /Approve and credit/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/v1/panel/balance-requests/5/approve');
    expect(post.body).toEqual({ admin_remarks: 'Matched' });
  });

  it('asks for a reason before rejecting', async () => {
    const calls = routes({
      'POST /api/v1/panel/balance-requests/5/reject': () => json(200, balanceRequest({ status: 'rejected', admin_remarks: 'No such transfer' })),
    });
    const { u, dialog } = await openReview();
    await u.click(within(dialog).getByRole('button', { name: 'Reject' }));
    const remarks = within(dialog).getByLabelText(/Remarks/);
    expect(remarks).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByText(/Say why the request is rejected/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await u.type(remarks, 'No such transfer');
    await u.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!).toMatchObject({ path: '/api/v1/panel/balance-requests/5/reject', body: { admin_remarks: 'No such transfer' } });
  });

  it('shows a 409 as decided by another admin, with the request as it is now', async () => {
    let decided = false;
    routes({
      'GET /api/v1/panel/balance-requests/5': () =>
        json(200, decided ? balanceRequest({ status: 'rejected', approved_by: 1, approved_at: '2026-11-21T11:00:00Z', admin_remarks: 'Duplicate' }) : balanceRequest()),
      'POST /api/v1/panel/balance-requests/5/approve': () => {
        decided = true;
        return json(409, { success: false, message: 'Balance request already decided', error: 'already_decided' });
      },
    });
    const { u, dialog } = await openReview();
    await u.click(within(dialog).getByRole('button', { name: /Approve and credit/ }));
    const alert = await within(dialog).findByTestId('decision-conflict');
    await waitFor(() => expect(alert).toHaveTextContent(/Another admin decided this request first: it is now rejected/));
    expect(alert).toHaveTextContent('Your decision was not applied');
    expect(within(dialog).getByText('Duplicate')).toBeInTheDocument();
    // Nothing left to decide: the buttons are gone, the dialog stays open to read.
    expect(within(dialog).queryByRole('button', { name: /Approve and credit/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });
});
