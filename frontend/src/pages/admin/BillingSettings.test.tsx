import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BillingSettings from './BillingSettings';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { fill, signInAsAdmin, stubApi } from './test/fixtures';
import { states } from '../user/test/invoices';
import type { BillingSettings as Settings } from '../../features/tax/api';

const unset: Settings = {
  legal_name: '', address: '', state: '', state_name: null, gstin: '', pan: '', invoice_prefix: 'PG', sac_code: '998319',
  bank_name: '', account_name: '', account_number: '', ifsc: '', upi: '', updated_at: null,
  gst_rate: '18.00', missing: ['legal_name', 'address', 'state', 'gstin'],
};

const saved: Settings = {
  ...unset, legal_name: 'Paygate Technologies LLP', address: '12 MG Road\nPune 411001', state: '27', state_name: 'Maharashtra',
  gstin: '27AAPFU0939F1ZV', pan: 'AAPFU0939F', updated_at: '2026-11-27T10:00:00Z', missing: [],
};

beforeEach(signInAsAdmin);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

/** The input labelled `label` (a required one's label ends with " *"). */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}( \\*)?$`), { selector: 'input, textarea' });

describe('Billing settings', () => {
  it('says invoices cannot be issued until the supplier is set, then saves the whole record', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T10:00:00Z')); // financial year 2026-27
    let current = unset;
    const calls = stubApi({
      'GET /api/v1/panel/settings/billing': () => json(200, current),
      'PUT /api/v1/panel/settings/billing': () => {
        current = saved;
        return json(200, saved);
      },
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<BillingSettings />, { path: '/admin/billing-settings' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing settings' })).toBeInTheDocument();
    const notice = await screen.findByTestId('billing-incomplete');
    expect(notice).toHaveTextContent('Invoices cannot be issued yet');
    // The server's list of what is missing at its rate, in words.
    expect(notice).toHaveTextContent('Set the legal name, the address, the state and the GSTIN');
    expect(notice).toHaveTextContent("At the GST rate of 18.00% a tax invoice needs the supplier's GSTIN");
    expect(field('Invoice prefix')).toHaveValue('PG');
    expect(screen.getByText('Invoices PG/26-27/000001, credit notes PGC/26-27/000001', { exact: false })).toBeInTheDocument();
    // Where the default SAC applies, and where 997158 does instead.
    expect(screen.getByText(/^Plan fees, and calls of services without a SAC code of their own/)).toBeInTheDocument();
    expect(screen.getByTestId('sac-note')).toHaveTextContent('Collection fees, and the payment, recharge and payout services');
    expect(screen.getByTestId('sac-note')).toHaveTextContent('997158 (financial transaction processing), not this default');

    const u = userEvent.setup();
    // Required fields are checked before sending.
    await u.click(screen.getByRole('button', { name: 'Save billing settings' }));
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await fill(u, field('Legal name'), 'Paygate Technologies LLP');
    await fill(u, field('Address'), ' 12 MG Road \n\nPune 411001');
    await u.click(field('State'));
    await u.click(await screen.findByRole('option', { name: 'Maharashtra (27)', hidden: true }));
    await fill(u, field('GSTIN'), '27aapfu0939f1zv');
    // A bank account is all four fields or none.
    await fill(u, field('Bank name'), 'HDFC Bank');
    await u.click(screen.getByRole('button', { name: 'Save billing settings' }));
    expect(await screen.findAllByText('Give all four bank details, or none')).toHaveLength(3);
    await fill(u, field('Bank name'), '');
    await u.click(screen.getByRole('button', { name: 'Save billing settings' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      legal_name: 'Paygate Technologies LLP', address: '12 MG Road\nPune 411001', state: '27', gstin: '27AAPFU0939F1ZV', pan: '',
      invoice_prefix: 'PG', sac_code: '998319', bank_name: '', account_name: '', account_number: '', ifsc: '', upi: '',
    });
    expect(await screen.findByText('Billing settings saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('billing-incomplete')).toBeNull());
    expect(screen.getByTestId('billing-settings-saved')).toHaveTextContent('Last saved 27 Nov 2026');
    vi.useRealTimers();
  });

  it("shows the API's GSTIN error beside the field", async () => {
    const calls = stubApi({
      'GET /api/v1/panel/settings/billing': () => json(200, saved),
      'PUT /api/v1/panel/settings/billing': () => json(422, {
        success: false, error: 'validation_failed', message: 'Validation failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
        errors: { gstin: ['The GSTIN’s check character is wrong: check it for a typo'] },
      }),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<BillingSettings />, { path: '/admin/billing-settings' });
    await screen.findByRole('form', { name: 'Billing settings' });
    expect(screen.queryByTestId('billing-incomplete')).toBeNull();
    const u = userEvent.setup();
    await fill(u, field('GSTIN'), '27AAPFU0939F1ZA');
    await u.click(screen.getByRole('button', { name: 'Save billing settings' }));
    await waitFor(() => expect(field('GSTIN')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('The GSTIN’s check character is wrong: check it for a typo')).toBeInTheDocument();
    // Every error found its field: nothing above the form.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  });

  it('checks a GSTIN typed against the state chosen before sending', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/settings/billing': () => json(200, saved),
      'GET /api/v1/panel/gst/states': () => json(200, states),
    });
    renderWithApp(<BillingSettings />, { path: '/admin/billing-settings' });
    await screen.findByRole('form', { name: 'Billing settings' });
    const u = userEvent.setup();
    await fill(u, field('GSTIN'), '29AAGCB7383J1Z4');
    await u.click(screen.getByRole('button', { name: 'Save billing settings' }));
    expect(await screen.findByText('This GSTIN is registered in state 29, not in the state chosen (27)')).toBeInTheDocument();
    await fill(u, field('GSTIN'), '27AAPFU0939F');
    await u.click(screen.getByRole('button', { name: 'Save billing settings' }));
    expect(await screen.findByText('A GSTIN has 15 characters (this has 12)')).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Billing settings' })).getByLabelText('GSTIN')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
