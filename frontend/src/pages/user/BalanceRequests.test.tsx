import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import BalanceRequests from './BalanceRequests';
import { json, renderWithApp } from '../../test/render';
import type { Schemas } from '../../api/types';

type Payee = Schemas['Payee'];

const platform: Payee = {
  payee: 'platform', name: 'Paygate Technologies', support_email: '', support_phone: '', payable: true, checkout: true,
  legal_name: 'Paygate Technologies', bank_name: 'HDFC Bank', account_name: 'Paygate Technologies',
  account_number: '50200012345678', ifsc: 'HDFC0000240', upi: 'paygate@hdfcbank',
};
const reseller: Payee = {
  payee: 'reseller', name: 'Asha Cloud', support_email: 'help@ashacloud.in', support_phone: '', payable: true, checkout: false,
  legal_name: 'Asha Digital Services', bank_name: '', account_name: '', account_number: '', ifsc: '', upi: 'asha@icici',
};

function serve(payee: Payee) {
  vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    if (path === '/api/v1/panel/settings/payee') return json(200, payee);
    if (path === '/api/v1/panel/settings/payee/upi-qr.png') return new Response(new Blob(['png'], { type: 'image/png' }), { status: 200 });
    if (path === '/api/v1/panel/balance-requests') return json(200, { data: [], meta: { page: 1, per_page: 20, total: 0, last_page: 1 } });
    return json(404, { success: false, message: 'Not found', error: 'not_found' });
  }));
}

describe('Add balance', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:upi-qr'), revokeObjectURL: vi.fn() }));
  });

  it('offers the platform’s checkout and bank details to a plain account', async () => {
    serve(platform);
    renderWithApp(<BalanceRequests />);
    expect(await screen.findByRole('form', { name: 'Pay by UPI' })).toBeInTheDocument();
    expect(await screen.findByTestId('payee-upi')).toHaveValue('paygate@hdfcbank');
    expect(screen.getByText(/for an administrator to check/)).toBeInTheDocument();
  });

  it('shows a reseller’s customer its reseller to pay, no platform checkout, and never says an administrator credits it', async () => {
    serve(reseller);
    renderWithApp(<BalanceRequests />);
    expect(await screen.findByRole('heading', { name: 'Pay Asha Cloud by UPI or bank transfer' })).toBeInTheDocument();
    expect(await screen.findByTestId('payee-upi')).toHaveValue('asha@icici');
    expect(screen.getByText(/Asha Cloud checks the payment and credits your balance/)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Pay by UPI' })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/administrator|Paygate|paygate@/);
  });
});
