import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RequestForm } from './RequestForm';
import { json, renderWithApp } from '../../../test/render';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'receipt.png', { type: 'image/png' });

async function fill(u: ReturnType<typeof userEvent.setup>, amount: string, utr: string, file?: File) {
  if (amount) await u.type(screen.getByRole('textbox', { name: /Amount/ }), amount);
  if (utr) await u.type(screen.getByRole('textbox', { name: /UTR number/ }), utr);
  if (file) await u.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, file);
}

describe('the balance request form', () => {
  it('checks the fields before sending', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<RequestForm />);
    const u = userEvent.setup();
    await fill(u, '12.345', 'ab');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Enter an amount in rupees, e.g. 500 or 500.50')).toBeInTheDocument();
    expect(screen.getByText('The UTR number: 6 to 50 letters and digits')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Amount/ })).toHaveAttribute('aria-invalid', 'true');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('previews the screenshot and sends multipart form data', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:preview');
    URL.revokeObjectURL = vi.fn();
    let sent: FormData | null = null;
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      expect(req.method).toBe('POST');
      expect(req.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
      sent = await req.formData();
      return json(201, {
        id: 1, user_id: 7, amount: '1500.50', utr_number: 'UTR123456', payment_method: 'upi', screenshot_url: '/api/v1/panel/balance-requests/1/screenshot',
        remarks: null, status: 'pending', approved_by: null, approved_at: null, admin_remarks: null, created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
      });
    }));
    const onCreated = vi.fn();
    renderWithApp(<RequestForm onCreated={onCreated} />);
    const u = userEvent.setup();
    await fill(u, '1500.50', 'utr123456', png());
    expect(screen.getByText('₹1,500.50')).toBeInTheDocument(); // the amount read back in INR
    expect(await screen.findByRole('img', { name: 'Preview of the screenshot' })).toHaveAttribute('src', 'blob:preview');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const fd = sent as unknown as FormData;
    expect(fd.get('amount')).toBe('1500.50'); // the string typed, never a float
    expect(fd.get('utr_number')).toBe('utr123456');
    expect(fd.get('payment_method')).toBe('upi');
    expect((fd.get('screenshot') as File).size).toBe(8); // the file itself (jsdom's FormData round trip drops its name)
    expect(fd.has('remarks')).toBe(false);
  });

  it('shows the API’s field errors next to their fields, and a taken UTR on its field', async () => {
    const answers = [
      json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
        errors: { amount: ['must be at most 500000.00'], screenshot: ['must be a PNG, JPEG, WebP or PDF file'] } }),
      json(409, { success: false, message: 'This UTR number has already been submitted', error: 'utr_taken', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' }),
    ];
    vi.stubGlobal('fetch', vi.fn(async () => answers.shift()!));
    renderWithApp(<RequestForm />);
    const u = userEvent.setup();
    await fill(u, '900000', 'UTR123456', png());
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    const amount = screen.getByRole('textbox', { name: /Amount/ });
    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(amount.getAttribute('aria-describedby')).toContain(screen.getByText('must be at most 500000.00').id);
    expect(screen.getByText('must be a PNG, JPEG, WebP or PDF file')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull(); // every error found its field

    await u.clear(amount);
    await u.type(amount, '500');
    await u.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('This UTR number has already been submitted')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /UTR number/ })).toHaveAttribute('aria-invalid', 'true');
  });
});
