import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import Dashboard from './Dashboard';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { list, signInAsReseller, stubApi } from '../reseller/test/fixtures';
import { user } from '../admin/test/fixtures';

// The charts (recharts) are not what these tests look at.
vi.mock('./dashboard/Charts', () => ({ DashboardCharts: () => <div data-testid="charts" /> }));

afterEach(async () => {
  cleanup();
  await session.signOut();
});

const days = Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, calls: 0, billed_calls: 0, spend: '0.0000' }));
const own = {
  timezone: 'Asia/Kolkata', from: '2026-11-01', to: '2026-11-30', balance: '5000.00', total_spent: '10.00', spend: '1.0000',
  calls: { calls: 2, success: 2, failed: 0, insufficient_balance: 0, pending: 0 }, days, top_services: [],
};
const resellerDashboard = {
  from: '2026-11-01', to: '2026-11-30',
  totals: { customers: 1, calls: 3, spend: '3.0000', cost: '2.4000', commission_accrued: '0.6000', commission_settled: '0.00' },
  customers: [{ customer_id: 21, name: 'Meera Shah', calls: 3, spend: '3.0000', cost: '2.4000', commission: '0.6000' }],
};

describe('the dashboard', () => {
  it("opens a reseller's on its customers, its own account below", async () => {
    signInAsReseller();
    stubApi({
      'GET /api/v1/panel/dashboard': () => json(200, own),
      'GET /api/v1/panel/reseller/dashboard': () => json(200, resellerDashboard),
      'GET /api/v1/panel/commissions': () => json(200, list([])),
    });
    renderWithApp(<Dashboard />, { path: '/dashboard' });
    const customers = await screen.findByRole('heading', { name: 'Your customers' });
    const ownAccount = screen.getByRole('heading', { name: 'Your own account' });
    const balance = await screen.findByTestId('dashboard-balance');
    expect(await screen.findByText('Meera Shah')).toBeInTheDocument();
    // Document order: the customers' section, then the reseller's own figures.
    expect(customers.compareDocumentPosition(ownAccount) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(ownAccount.compareDocumentPosition(balance) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText(/Your customers' calls and your commission/)).toBeInTheDocument();
  });

  it("shows a user only its own figures", async () => {
    session.signIn({ access_token: 't', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
    const calls = stubApi({ 'GET /api/v1/panel/dashboard': () => json(200, own) });
    renderWithApp(<Dashboard />, { path: '/dashboard' });
    expect(await screen.findByTestId('dashboard-balance')).toHaveTextContent('₹5,000.00');
    expect(screen.queryByRole('heading', { name: 'Your customers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your own account' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/v1/panel/reseller/dashboard')).toBe(false);
  });
});
