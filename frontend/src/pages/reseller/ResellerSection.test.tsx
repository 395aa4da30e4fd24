import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { ResellerSection } from './ResellerSection';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { list, signInAsReseller, stubApi } from './test/fixtures';

beforeEach(signInAsReseller);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const dashboard = {
  from: '2026-11-01', to: '2026-11-27',
  totals: { customers: 2, calls: 1234, spend: '617.0000', cost: '493.6000', commission_accrued: '123.4000', commission_settled: '100.00' },
  customers: [{ customer_id: 21, name: 'Meera Shah', calls: 1200, spend: '600.0000', cost: '480.0000', commission: '120.0000' }],
};

describe("the reseller's dashboard section", () => {
  it('shows the totals, the figures per customer and the settlements for the days in the URL', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/reseller/dashboard': () => json(200, dashboard),
      'GET /api/v1/panel/commissions': () => json(200, list([{ id: 1, hour_start: '2026-11-27T04:00:00Z', hits: 12, amount: '2.40',
        reversed: '1.00', reversal_taken: '0.25', reversal_due: '0.75', created_at: '2026-11-27T05:02:00Z' }])),
    });
    renderWithApp(<ResellerSection />, { path: '/dashboard', url: '/dashboard?from=2026-11-01&to=2026-11-27' });
    expect(await screen.findByTestId('reseller-commission-accrued')).toHaveTextContent('₹123.40');
    expect(screen.getByTestId('reseller-commission-settled')).toHaveTextContent('₹100.00');
    expect(screen.getByTestId('reseller-calls')).toHaveTextContent('1,234');
    expect(screen.getByTestId('reseller-spend')).toHaveTextContent('₹617.00');
    expect(screen.getByTestId('reseller-cost')).toHaveTextContent('₹493.60');
    const row = within(screen.getByTestId('reseller-customers')).getByText('Meera Shah').closest('tr')!;
    expect(within(row).getByText('₹120.00')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Meera Shah' })).toHaveAttribute('href', '/customers/21');
    expect(await screen.findByTestId('settlement-amount')).toHaveTextContent('₹2.40');
    expect(screen.getByTestId('settlement-reversal-taken')).toHaveTextContent('₹0.25');
    expect(screen.getByTestId('settlement-reversal-due')).toHaveTextContent('₹0.75');
    const dash = calls.find((c) => c.path === '/api/v1/panel/reseller/dashboard')!;
    expect(Object.fromEntries(new URLSearchParams(dash.search))).toEqual({ from: '2026-11-01', to: '2026-11-27' });
    const comm = calls.find((c) => c.path === '/api/v1/panel/commissions')!;
    expect(new URLSearchParams(comm.search).get('from')).toBe('2026-11-01');
  });

  it('says when nothing is settled yet', async () => {
    stubApi({
      'GET /api/v1/panel/reseller/dashboard': () => json(200, { ...dashboard, customers: [] }),
      'GET /api/v1/panel/commissions': () => json(200, list([])),
    });
    renderWithApp(<ResellerSection />, { path: '/dashboard' });
    expect(await screen.findByText('No commission settled yet')).toBeInTheDocument();
    expect(await screen.findByText('No customer calls in this period')).toBeInTheDocument();
  });
});
