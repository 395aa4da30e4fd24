import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AccountOpenings from './AccountOpenings';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { admin, list, signInAsAdmin, stubApi, user } from '../admin/test/fixtures';
import type { Schemas } from '../../api/types';

function opening(over: Partial<Schemas['AccountOpening']> = {}): Schemas['AccountOpening'] {
  return {
    opening_id: 'aco_01J9Z8X4K3M2N1P0Q9R8S7T6V5', user_id: 7, reference_id: 'aco-ref-1', product: 'savings', status: 'opened',
    applicant: { name: 'Asha Rao', dob: '1990-05-17', pan: 'XXXXXX234F', aadhaar: 'XXXXXXXX9012', mobile: '9876543210', email: 'asha@example.com' },
    kyc_url: null, account_number: 'XXXXXXXX4321', ifsc: 'PGSB0000001', reject_reason: null, livemode: false,
    created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:00:10Z', ...over,
  };
}

beforeEach(() => {
  session.signIn({ access_token: 't', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
});
afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the account openings list', () => {
  it('shows masked PAN and Aadhaar, the KYC link while pending, the account once opened, the reason once rejected', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/account-openings': () => json(200, list([
        opening(),
        opening({ opening_id: 'aco_2', reference_id: 'aco-ref-2', status: 'kyc_pending', kyc_url: 'https://kyc.example/s/abc', account_number: null, ifsc: null }),
        opening({ opening_id: 'aco_3', reference_id: 'aco-ref-3', status: 'rejected', account_number: null, ifsc: null, reject_reason: 'PAN does not match the name', livemode: true }),
      ], 3)),
    });
    const { router } = renderWithApp(<AccountOpenings />, { path: '/account-openings', url: '/account-openings?from=2026-11-01' });
    const table = await screen.findByRole('table', { name: 'Account openings' });
    expect(calls[0]!.search).toBe('?page=1&per_page=20&from=2026-11-01');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('XXXXXX234F · XXXXXXXX9012');
    expect(rows[1]).toHaveTextContent('XXXXXXXX4321');
    expect(rows[1]).toHaveTextContent('PGSB0000001');
    expect(rows[1]).toHaveTextContent('born 17 May 1990');
    expect(within(rows[1]!).getByText('Test mode')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('link', { name: 'KYC link' })).toHaveAttribute('href', 'https://kyc.example/s/abc');
    expect(within(rows[2]!).getByText('kyc pending')).toBeInTheDocument();
    expect(rows[3]).toHaveTextContent('PAN does not match the name');
    expect(within(rows[3]!).queryByText('Test mode')).toBeNull();
    expect(document.body.textContent).not.toMatch(/234567890123/); // never a full Aadhaar

    const u = userEvent.setup();
    await u.click(screen.getByLabelText('Status', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'KYC pending', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?from=2026-11-01&status=kyc_pending'));
    await waitFor(() => expect(calls.at(-1)!.search).toBe('?page=1&per_page=20&status=kyc_pending&from=2026-11-01'));
  });

  it('says how to open one when there are none', async () => {
    stubApi({ 'GET /api/v1/panel/account-openings': () => json(200, list([])) });
    renderWithApp(<AccountOpenings />, { path: '/account-openings' });
    expect(await screen.findByText('No account openings')).toBeInTheDocument();
    expect(screen.getByText('POST /api/v1/account/open')).toBeInTheDocument();
  });
});

describe('the account openings list (an admin)', () => {
  it('shows whose opening each is and filters by user', async () => {
    await session.signOut();
    signInAsAdmin();
    const calls = stubApi({
      'GET /api/v1/panel/account-openings': () => json(200, list([opening()])),
      'GET /api/v1/panel/users/7': () => json(200, user({ status: 'active' })),
      'GET /api/v1/panel/users': () => json(200, list([user({ status: 'active' }), admin])),
    });
    const { router } = renderWithApp(<AccountOpenings />, { path: '/account-openings' });
    const table = await screen.findByRole('table', { name: 'Account openings' });
    expect(await within(table).findByRole('link', { name: /Asha Rao/ })).toHaveAttribute('href', '/admin/users/7');
    const u = userEvent.setup();
    await u.click(screen.getByLabelText('User', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'Asha Rao <asha@example.com>', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?user_id=7'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/panel/account-openings').at(-1)!.search).toBe('?page=1&per_page=20&user_id=7'));
    expect(await screen.findByText('Openings of')).toBeInTheDocument();
  });
});
