import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import BillingDetails from './BillingDetails';
import { json, renderWithApp } from '../../test/render';
import { stubApi } from '../admin/test/fixtures';
import { states } from '../user/test/invoices';
import type { BillingSettings as Settings } from '../../features/tax/api';

const fresh: Settings = {
  legal_name: '', address: '', state: '', state_name: null, gstin: '', pan: '', invoice_prefix: 'IN', sac_code: '998319',
  bank_name: '', account_name: '', account_number: '', ifsc: '', upi: '', updated_at: null,
  gst_rate: '0.00', missing: ['legal_name', 'address', 'state'],
};

describe("A reseller's billing and payment details", () => {
  it('says its customers cannot pay it until it sets a UPI address or account, with its own prefix IN', async () => {
    stubApi({
      'GET /api/v1/panel/settings/billing': () => json(200, fresh),
      'GET /api/v1/panel/gst/states': () => json(200, { data: states }),
    });
    renderWithApp(<BillingDetails />);
    expect(await screen.findByText('Your customers cannot pay you yet')).toBeInTheDocument();
    expect(screen.getByText(/Invoices IN\//)).toBeInTheDocument();
    expect(screen.queryByText(/GSTIN is required/)).not.toBeInTheDocument();
  });

  it('shows no warning once its customers can pay it', async () => {
    stubApi({
      'GET /api/v1/panel/settings/billing': () => json(200, { ...fresh, legal_name: 'Asha Digital', address: 'Pune', state: '27',
        state_name: 'Maharashtra', upi: 'asha@icici', missing: [], updated_at: '2026-11-27T10:00:00Z' }),
      'GET /api/v1/panel/gst/states': () => json(200, { data: states }),
    });
    renderWithApp(<BillingDetails />);
    expect(await screen.findByRole('form', { name: 'Billing settings' })).toBeInTheDocument();
    expect(screen.queryByTestId('payee-missing')).not.toBeInTheDocument();
  });
});
