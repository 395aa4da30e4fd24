import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import Register from './Register';
import ForgotPassword from './ForgotPassword';
import Login from './Login';
import { json, renderWithApp } from '../../test/render';

const resellerBrand = {
  brand_name: 'Acme Recharge', logo_url: '/api/v1/brand/logo?v=1', support_email: 'help@acme.example', support_phone: '+919876543210', reseller: true,
};

function brandFetch(body: unknown) {
  return vi.fn(async (req: Request) => {
    expect(new URL(req.url).pathname).toBe('/api/v1/brand');
    return json(200, body);
  });
}

describe('the signed-out pages show the host brand', () => {
  it("shows a reseller's name, logo and support contacts on login", async () => {
    vi.stubGlobal('fetch', brandFetch(resellerBrand));
    renderWithApp(<Login />, { path: '/login' });
    await waitFor(() => expect(screen.getByTestId('brand-name')).toHaveTextContent('Acme Recharge'));
    expect(screen.getByTestId('brand-logo')).toHaveAttribute('src', '/api/v1/brand/logo?v=1');
    expect(screen.getByTestId('brand-support')).toHaveTextContent('help@acme.example');
    expect(screen.getByTestId('brand-support')).toHaveTextContent('+919876543210');
    expect(await screen.findByText('to the Acme Recharge panel')).toBeInTheDocument();
    expect(screen.queryByText(/Paygate/)).not.toBeInTheDocument();
  });

  it("names the reseller on register and forgot-password", async () => {
    vi.stubGlobal('fetch', brandFetch(resellerBrand));
    renderWithApp(<Register />, { path: '/register' });
    expect(await screen.findByText('Resell APIs and accept payments with Acme Recharge')).toBeInTheDocument();
  });

  it('shows the brand on forgot-password', async () => {
    vi.stubGlobal('fetch', brandFetch(resellerBrand));
    renderWithApp(<ForgotPassword />, { path: '/forgot-password' });
    await waitFor(() => expect(screen.getByTestId('brand-name')).toHaveTextContent('Acme Recharge'));
  });

  it("shows the platform's name, and no logo or contacts, on the platform's host", async () => {
    vi.stubGlobal('fetch', brandFetch({ brand_name: 'Paygate', logo_url: null, support_email: '', support_phone: '', reseller: false }));
    renderWithApp(<Login />, { path: '/login' });
    await waitFor(() => expect(screen.getByTestId('brand-name')).toHaveTextContent('Paygate'));
    expect(screen.queryByTestId('brand-logo')).not.toBeInTheDocument();
    expect(screen.queryByTestId('brand-support')).not.toBeInTheDocument();
  });
});
