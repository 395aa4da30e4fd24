import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { PayeeDetails } from './PayeeDetails';
import { json, renderWithApp } from '../../../test/render';
import type { Schemas } from '../../../api/types';

type Payee = Schemas['Payee'];

const saved: Payee = {
  payee: 'platform', name: 'Paygate Technologies Private Limited', support_email: '', support_phone: '', payable: true, checkout: true,
  legal_name: 'Paygate Technologies Private Limited', bank_name: 'HDFC Bank', account_name: 'Paygate Technologies',
  account_number: '50200012345678', ifsc: 'HDFC0000240', upi: 'paygate@hdfcbank',
};
const none: Payee = { ...saved, name: '', legal_name: '', bank_name: '', account_name: '', account_number: '', ifsc: '', upi: '', payable: false };
/** A reseller's customer: its reseller (brand Asha Cloud) is the payee. */
const resellerPayee: Payee = {
  payee: 'reseller', name: 'Asha Cloud', support_email: 'help@ashacloud.in', support_phone: '+91 98123 45678', payable: true, checkout: false,
  legal_name: 'Asha Digital Services', bank_name: 'ICICI Bank', account_name: 'Asha Digital Services',
  account_number: '123456789012', ifsc: 'ICIC0000123', upi: 'asha@icici',
};
const resellerWithout: Payee = { ...resellerPayee, legal_name: 'Asha Cloud', bank_name: '', account_name: '', account_number: '', ifsc: '', upi: '', payable: false };

function serve(payee: Payee, seen: string[] = []) {
  vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    seen.push(`${path} ${req.headers.get('Authorization') ?? ''}`);
    if (path === '/api/v1/panel/settings/payee') return json(200, payee);
    if (path === '/api/v1/panel/settings/payee/upi-qr.png') return new Response(new Blob(['png'], { type: 'image/png' }), { status: 200 });
    return json(404, { error: { code: 'not_found', message: 'Not found' } });
  }));
}

describe('where to pay by bank transfer', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:upi-qr'), revokeObjectURL: vi.fn() }));
  });

  it('shows the bank account and UPI address to copy, the QR code and the UTR note', async () => {
    const seen: string[] = [];
    serve(saved, seen);
    renderWithApp(<PayeeDetails />);
    expect(await screen.findByTestId('payee-account-number')).toHaveValue('50200012345678');
    expect(screen.getByRole('textbox', { name: 'IFSC' })).toHaveValue('HDFC0000240');
    expect(screen.getByRole('textbox', { name: 'Account name' })).toHaveValue('Paygate Technologies');
    expect(screen.getByRole('textbox', { name: 'Bank' })).toHaveValue('HDFC Bank');
    expect(screen.getByTestId('payee-upi')).toHaveValue('paygate@hdfcbank');
    expect(screen.getByRole('button', { name: 'Copy account number' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy upi address' })).toBeInTheDocument();
    const qr = await screen.findByRole('img', { name: 'QR code for the UPI address paygate@hdfcbank' });
    expect(qr).toHaveAttribute('src', 'blob:upi-qr');
    expect(seen.some((s) => s.startsWith('/api/v1/panel/settings/payee/upi-qr.png'))).toBe(true);
    expect(screen.getByText(/enter the transfer’s UTR number below/)).toBeInTheDocument();
  });

  it('says so when the admin has set nothing, and fetches no QR code', async () => {
    const seen: string[] = [];
    serve(none, seen);
    renderWithApp(<PayeeDetails />);
    expect(await screen.findByText('No payment details yet')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(seen.every((s) => !s.includes('upi-qr'))).toBe(true);
  });

  it('shows a customer its reseller, named, with the reseller’s own account and UPI address, never the platform’s', async () => {
    const seen: string[] = [];
    serve(resellerPayee, seen);
    renderWithApp(<PayeeDetails />);
    expect(await screen.findByTestId('payee-account-number')).toHaveValue('123456789012');
    expect(screen.getByTestId('payee-upi')).toHaveValue('asha@icici');
    expect(await screen.findByRole('img', { name: 'QR code for the UPI address asha@icici' })).toBeInTheDocument();
    expect(screen.getByText('Asha Digital Services', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText(/so Asha Cloud can credit your balance/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'help@ashacloud.in' })).toHaveAttribute('href', 'mailto:help@ashacloud.in');
    expect(document.body.textContent).not.toMatch(/administrator|Paygate/);
  });

  it('tells a customer whose reseller has no details to ask the reseller, named, with its support contacts', async () => {
    const seen: string[] = [];
    serve(resellerWithout, seen);
    renderWithApp(<PayeeDetails />);
    expect(await screen.findByText('Ask Asha Cloud how to pay')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'help@ashacloud.in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '+91 98123 45678' })).toHaveAttribute('href', 'tel:+919812345678');
    expect(document.body.textContent).not.toMatch(/administrator/);
    expect(seen.every((s) => !s.includes('upi-qr'))).toBe(true);
  });
});
