import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import BrandPage from './Brand';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { fill, stubApi, user } from '../admin/test/fixtures';

const pending = {
  host: 'brand.example', state: 'pending', txt_name: '_paygate-verify.brand.example', txt_value: 'pgv_0123456789abcdef0123456789abcdef',
  challenge_url: 'https://brand.example/.well-known/paygate-verification/pgv_0123456789abcdef0123456789abcdef',
  verified_at: null, checked_at: null, problem: null,
};
const saved = {
  brand_name: 'Acme Recharge', support_email: 'help@acme.example', support_phone: '+919876543210', domains: ['brand.example'],
  domain_states: [pending], logo_url: null,
};

beforeEach(() => {
  session.signIn({ access_token: 'token-r', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ role: 'reseller', status: 'active' }) });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:logo'), revokeObjectURL: vi.fn() }));
});
afterEach(async () => {
  vi.restoreAllMocks();
  cleanup();
  await session.signOut();
});

describe('Brand (a reseller)', () => {
  it('saves the name, contacts and domains (lower-cased)', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/brand': () => json(200, { ...saved, brand_name: '', support_email: '', support_phone: '', domains: [], domain_states: [] }),
      'PUT /api/v1/panel/brand': (c) => json(200, { ...saved, ...(c.body as object) }),
    });
    renderWithApp(<BrandPage />, { path: '/brand' });
    const u = userEvent.setup();
    await fill(u, await screen.findByLabelText(/Brand name/), 'Acme Recharge');
    await fill(u, screen.getByLabelText('Support email'), 'help@acme.example');
    await fill(u, screen.getByLabelText('Support phone'), '+919876543210');
    await u.type(screen.getByRole('combobox', { name: 'Domains' }), 'Brand.Example{Enter}');
    await u.click(screen.getByRole('button', { name: 'Save brand' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      brand_name: 'Acme Recharge', support_email: 'help@acme.example', support_phone: '+919876543210', domains: ['brand.example'],
    });
  });

  it("shows the server's domain_taken on the domains field", async () => {
    stubApi({
      'GET /api/v1/panel/brand': () => json(200, saved),
      'PUT /api/v1/panel/brand': () => json(409, { success: false, message: 'A domain is already used by another account', error: 'domain_taken',
        errors: { domains: ['brand.example is already used by another account'] } }),
    });
    renderWithApp(<BrandPage />, { path: '/brand' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Save brand' }));
    expect(await screen.findByText(/brand\.example is already used by another account/)).toBeInTheDocument();
  });

  it('previews a chosen logo, refuses one over 512 KB before sending it, and uploads it as the multipart field logo', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/brand': () => json(200, saved),
      'PUT /api/v1/panel/brand/logo': () => json(200, { ...saved, logo_url: '/api/v1/panel/brand/logo?v=2' }),
      'GET /api/v1/panel/brand/logo': () => new Response(new Blob(['x'], { type: 'image/png' }), { status: 200, headers: { 'Content-Type': 'image/png' } }),
    });
    renderWithApp(<BrandPage />, { path: '/brand' });
    const u = userEvent.setup();
    expect(await screen.findByTestId('no-logo')).toBeInTheDocument();
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await u.upload(input, new File([new Uint8Array(513 * 1024)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be at most 512 KB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload logo' })).toBeDisabled();
    await u.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'New logo preview' })).toHaveAttribute('src', 'blob:logo');
    await u.click(screen.getByRole('button', { name: 'Upload logo' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/v1/panel/brand/logo')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.headers.get('Content-Type')).toMatch(/^multipart\/form-data/);
    expect(String(put.body)).toContain('name="logo"');
    expect(await screen.findByRole('img', { name: 'Current logo' })).toBeInTheDocument();
  });

  it('shows each domain\'s proof to publish, checks it, and says what failed or that another account won', async () => {
    let checks = 0;
    const calls = stubApi({
      'GET /api/v1/panel/brand': () => json(200, {
        ...saved, domains: ['brand.example', 'taken.example'],
        domain_states: [pending, { ...pending, host: 'taken.example', state: 'lost', txt_name: '_paygate-verify.taken.example' }],
      }),
      'POST /api/v1/panel/brand/domains/brand.example/verify': () => (++checks === 1
        ? json(422, { success: false, error: 'domain_not_verified', message: 'The domain could not be verified: no TXT record _paygate-verify.brand.example holds this domain\'s token',
          errors: { domain: ['no TXT record _paygate-verify.brand.example holds this domain\'s token'] } })
        : json(200, { ...saved, domain_states: [{ ...pending, state: 'verified', verified_at: '2026-12-07T10:00:00Z' }] })),
    });
    renderWithApp(<BrandPage />, { path: '/brand' });
    const u = userEvent.setup();
    const row = await screen.findByTestId('domain-brand.example');
    expect(row).toHaveTextContent('pending');
    expect(row).toHaveTextContent('_paygate-verify.brand.example');
    expect(row).toHaveTextContent(pending.txt_value);
    expect(screen.getByTestId('domain-taken.example')).toHaveTextContent(/lost.*Another account proved this domain first/);
    expect(screen.queryByRole('button', { name: 'Check taken.example' })).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Check brand.example' }));
    expect(await screen.findByText(/no TXT record _paygate-verify\.brand\.example/)).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Check brand.example' }));
    await waitFor(() => expect(screen.getByTestId('domain-brand.example')).toHaveTextContent('verified'));
    expect(screen.queryByRole('button', { name: 'Check brand.example' })).toBeNull();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2);
  });
});
