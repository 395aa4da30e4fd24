import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button } from '@mantine/core';
import { SecretModal } from './SecretModal';
import ApiKeys from '../ApiKeys';
import { json, renderWithApp } from '../../../test/render';
import { forgetSecrets, recentSecret } from '../common/recentSecrets';


const created = {
  id: 3, name: 'Server', key: 'rk_live_abcdefghijklmnopqrstuvwxyz012345', secret: 'rs_SECRETsecretSECRETsecretSECRETsecretSECRETsecre',
  allowed_services: [], allowed_ips: '', daily_limit: 1000, hits_today: 0, last_used_at: null, status: 'active' as const,
  created_at: '2026-11-01T10:00:00Z', updated_at: '2026-11-01T10:00:00Z',
};

function Harness() {
  const [shown, setShown] = useState<typeof created | null>(created);
  return (
    <>
      <SecretModal created={shown} onClose={() => setShown(null)} />
      <Button onClick={() => setShown(created)}>show</Button>
    </>
  );
}

describe('the secret shown once', () => {
  it('shows the key and secret with copy buttons and closes only after the user says it is saved', async () => {
    forgetSecrets();
    renderWithApp(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Key “Server” created' });
    expect(screen.getByTestId('new-key')).toHaveValue(created.key);
    expect(screen.getByTestId('new-secret')).toHaveValue(created.secret);
    expect(dialog).toHaveTextContent('Shown this once');
    const u = userEvent.setup(); // with its own clipboard
    await u.click(screen.getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(created.secret);
    // No way out before confirming: no close button, Escape does nothing, Done is disabled.
    expect(screen.queryByRole('button', { name: /close/i })).toBeNull();
    await u.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Key “Server” created' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Done' })).toBeDisabled();
    await u.click(screen.getByRole('checkbox', { name: 'I have saved the secret' }));
    await u.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('new-secret')).toBeNull());
    // Kept in this tab's memory only, for the try-it console.
    expect(recentSecret(created.key)).toBe(created.secret);
    expect(JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })).not.toContain(created.secret);
  });

  it('is shown after creating a key on the API keys screen, and never again in the list', async () => {
    const list = { data: [] as unknown[], meta: { page: 1, per_page: 20, total: 0 } };
    const fetch = vi.fn(async (req: Request) => {
      const url = new URL(req.url);
      if (url.pathname === '/api/v1/panel/services') return json(200, { data: [], meta: { page: 1, per_page: 100, total: 0 } });
      if (url.pathname === '/api/v1/panel/api-keys' && req.method === 'GET') return json(200, list);
      if (url.pathname === '/api/v1/panel/api-keys' && req.method === 'POST') {
        expect(await req.json()).toEqual({ name: 'Server', allowed_services: [], allowed_ips: '10.0.0.0/8, 203.0.113.7', daily_limit: 1000 });
        const { secret: _s, ...listed } = created;
        list.data = [listed];
        list.meta.total = 1;
        return json(201, created);
      }
      return json(404, { success: false, message: 'Not found', error: 'not_found' });
    });
    vi.stubGlobal('fetch', fetch);
    renderWithApp(<ApiKeys />);
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Create key' }));
    const form = await screen.findByRole('dialog', { name: 'Create an API key' });
    await u.type(screen.getByRole('textbox', { name: /^Name/ }), 'Server');
    await u.type(screen.getByRole('textbox', { name: /Allowed IP addresses/ }), '10.0.0.0/8,203.0.113.7');
    await u.click(screen.getAllByRole('button', { name: 'Create key' }).find((b) => form.contains(b))!);
    expect(await screen.findByTestId('new-secret')).toHaveValue(created.secret);
    await u.click(screen.getByRole('checkbox', { name: 'I have saved the secret' }));
    await u.click(screen.getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'API keys' });
    expect(table).toHaveTextContent(created.key);
    expect(table).not.toHaveTextContent(created.secret);
  });
});
