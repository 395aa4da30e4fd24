import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BillingProfileForm } from './BillingProfileForm';
import { json, renderWithApp } from '../../../test/render';
import { session } from '../../../auth/session';
import { fill, stubApi, user } from '../../admin/test/fixtures';
import { states } from '../test/invoices';
import type { User } from '../../../api/types';
import { useMe } from '../../../auth/useMe';

/** The card as Profile shows it: the form of the account GET /auth/me answers (and PATCH refreshes). */
function Card() {
  const me = useMe();
  return me.data ? <BillingProfileForm me={me.data} /> : null;
}

const profile = {
  legal_name: 'Bharat Exports Pvt Ltd', address: '4 Residency Road\nBengaluru 560025', state: '29', state_name: 'Karnataka',
  gstin: '29AAGCB7383J1Z4', updated_at: '2026-11-27T10:00:00Z',
};

beforeEach(() => {
  session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active' }) });
});
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`), { selector: 'input, textarea' });

describe('Billing details (for tax invoices)', () => {
  it('saves the profile as billing on PATCH /auth/me, the GSTIN upper-cased', async () => {
    const me: User = { ...user({ status: 'active' }), billing: null };
    const calls = stubApi({
      'GET /api/v1/panel/gst/states': () => json(200, states),
      'PATCH /api/v1/panel/auth/me': () => json(200, { ...me, billing: profile }),
      'GET /api/v1/panel/invoices/upcoming': () => json(200, {}),
    });
    renderWithApp(<BillingProfileForm me={me} />, { path: '/profile' });
    expect(screen.getByTestId('billing-profile-saved')).toHaveTextContent('Not set');
    const u = userEvent.setup();
    await fill(u, field('Legal name'), 'Bharat Exports Pvt Ltd');
    await fill(u, field('Billing address'), '4 Residency Road\nBengaluru 560025\n');
    await u.click(field('State'));
    await u.click(await screen.findByRole('option', { name: 'Karnataka (29)', hidden: true }));
    await fill(u, field('GSTIN (optional)'), ' 29aagcb7383j1z4 ');
    await u.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      billing: { legal_name: 'Bharat Exports Pvt Ltd', address: '4 Residency Road\nBengaluru 560025', state: '29', gstin: '29AAGCB7383J1Z4' },
    });
    expect(await screen.findByText('Your billing details are saved: your next invoices are made out to them')).toBeInTheDocument();
    expect(field('GSTIN (optional)')).toHaveValue('29AAGCB7383J1Z4');
  });

  it('shows billing.gstin from the API beside the GSTIN field', async () => {
    const me: User = { ...user({ status: 'active' }), billing: profile };
    stubApi({
      'GET /api/v1/panel/gst/states': () => json(200, states),
      'PATCH /api/v1/panel/auth/me': () => json(422, {
        success: false, error: 'validation_failed', message: 'Validation failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
        errors: { 'billing.gstin': ['The GSTIN’s check character is wrong: check it for a typo'] },
      }),
    });
    renderWithApp(<BillingProfileForm me={me} />, { path: '/profile' });
    expect(field('Legal name')).toHaveValue('Bharat Exports Pvt Ltd');
    const u = userEvent.setup();
    await fill(u, field('GSTIN (optional)'), '29AAGCB7383J1Z5');
    await u.click(screen.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() => expect(field('GSTIN (optional)')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('The GSTIN’s check character is wrong: check it for a typo')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('removes the profile with billing: null after a confirmation', async () => {
    const me: User = { ...user({ status: 'active' }), billing: profile };
    const calls = stubApi({
      'GET /api/v1/panel/auth/me': () => json(200, me),
      'GET /api/v1/panel/gst/states': () => json(200, states),
      'PATCH /api/v1/panel/auth/me': () => json(200, { ...me, billing: null }),
      'GET /api/v1/panel/invoices/upcoming': () => json(200, {}),
    });
    renderWithApp(<Card />, { path: '/profile' });
    expect(await screen.findByTestId('billing-profile-saved')).toHaveTextContent('Saved 27 Nov 2026');
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove your billing details?' });
    await u.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ billing: null });
    expect(await screen.findByText('Your billing details are removed')).toBeInTheDocument();
    await waitFor(() => expect(field('Legal name')).toHaveValue(''));
    expect(screen.getByTestId('billing-profile-saved')).toHaveTextContent('Not set');
  });
});
