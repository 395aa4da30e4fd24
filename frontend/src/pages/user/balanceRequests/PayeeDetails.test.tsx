import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { PayeeDetails } from './PayeeDetails';
import { json, renderWithApp } from '../../../test/render';

const saved = {
  legal_name: 'Paygate Technologies Private Limited', bank_name: 'HDFC Bank', account_name: 'Paygate Technologies',
  account_number: '50200012345678', ifsc: 'HDFC0000240', upi: 'paygate@hdfcbank',
};
const none = { legal_name: '', bank_name: '', account_name: '', account_number: '', ifsc: '', upi: '' };

function serve(payee: typeof saved, seen: string[] = []) {
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
});
