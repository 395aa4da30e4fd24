import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import AuditLog from './AuditLog';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { list, signInAsAdmin, stubApi } from './test/fixtures';
import type { Schemas } from '../../api/types';

const entry = (over: Partial<Schemas['AuditLog']> = {}): Schemas['AuditLog'] => ({
  id: 31, actor_id: 2, action: 'user.activate', target_type: 'user', target_id: 7, before: null, after: null,
  ip_address: '198.51.100.4', request_id: 'req_X', created_at: '2026-11-21T10:00:00Z',
  actor_name: 'Meera Ops', actor_email: 'meera@example.com', target_name: 'Asha Rao', target_email: 'asha@example.com', ...over,
});

afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the audit log', () => {
  beforeEach(signInAsAdmin);

  it('names the admin and the target from the page, not "user #2"', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/audit-logs': () => json(200, list([
        entry(),
        entry({ id: 30, action: 'service.update', target_type: 'service', target_id: 4, target_name: 'PAN verification', target_email: undefined }),
      ])),
      'GET /api/v1/panel/users': () => json(200, list([])), // the admin picker's search
    });
    renderWithApp(<AuditLog />, { path: '/admin/audit-logs' });
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByRole('link', { name: 'meera@example.com' })).toHaveAttribute('href', '/admin/users/2');
    expect(within(rows[1]!).getByRole('link', { name: 'Asha Rao (user #7)' })).toHaveAttribute('href', '/admin/users/7');
    expect(within(rows[2]!).getByRole('link', { name: 'PAN verification (service #4)' })).toHaveAttribute('href', '/admin/services/4');
    expect(table).not.toHaveTextContent(/user #2\b/i);
    expect(calls.some((c) => c.path.startsWith('/api/v1/panel/users/'))).toBe(false); // no lookup per row

    await userEvent.setup().click(within(rows[1]!).getByRole('button', { name: 'Details of entry 31' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('link', { name: /Meera Ops/ })).toHaveAttribute('href', '/admin/users/2');
    expect(dialog).toHaveTextContent('user #7 · Asha Rao');
  });
});
