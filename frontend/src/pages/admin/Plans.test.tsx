import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Plans from './Plans';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { fill, signInAsAdmin, stubApi } from './test/fixtures';
import type { Plan } from '../../features/plans/api';

beforeEach(signInAsAdmin);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const starter: Plan = {
  code: 'starter', name: 'Starter', monthly_price: '0.00', monthly_calls: 100, public: true, status: 'active',
  features: ['Up to 100 transactions', 'Email support'],
};
const enterprise: Plan = {
  code: 'enterprise', name: 'Enterprise', monthly_price: null, monthly_calls: null, public: false, status: 'active',
  features: ['Unlimited transactions', 'Dedicated manager'],
};
const invalid = (errors: Record<string, string[]>) => json(422, {
  success: false, message: 'Invalid parameters', error: 'validation_failed', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', errors,
});

describe('the plans screen', () => {
  it('lists every plan: price or "Agreed per account", allowance or "Unlimited", public, status, features', async () => {
    stubApi({ 'GET /api/v1/panel/plans': () => json(200, { data: [starter, enterprise] }) });
    renderWithApp(<Plans />, { path: '/admin/plans' });
    expect(screen.getByRole('heading', { level: 1, name: 'Plans' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Plans' });
    const [, s, e] = within(table).getAllByRole('row');
    expect(s).toHaveTextContent('Starter');
    expect(s).toHaveTextContent('starter');
    expect(s).toHaveTextContent('₹0.00');
    expect(s).toHaveTextContent('100 calls a month');
    expect(s).toHaveTextContent('public');
    expect(s).toHaveTextContent('Email support');
    expect(e).toHaveTextContent('Agreed per account');
    expect(e).toHaveTextContent('Unlimited');
    expect(e).toHaveTextContent('private');
    expect(within(e!).getByRole('button', { name: 'Edit plan Enterprise' })).toBeInTheDocument();
  });

  it('creates a plan: sends the strings typed, and shows the API’s errors beside their fields', async () => {
    let plans = [starter, enterprise];
    let answer: () => Response = () => json(409, { success: false, message: 'A plan with this code exists', error: 'plan_code_taken', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5' });
    const calls = stubApi({
      'GET /api/v1/panel/plans': () => json(200, { data: plans }),
      'POST /api/v1/panel/plans': () => answer(),
    });
    renderWithApp(<Plans />, { path: '/admin/plans' });
    const u = userEvent.setup();
    await screen.findByRole('table', { name: 'Plans' });
    await u.click(screen.getByRole('button', { name: 'New plan' }));
    const dialog = await screen.findByRole('dialog', { name: 'New plan' });
    const d = within(dialog);

    // The form's own checks first: nothing is sent.
    await fill(u, d.getByRole('textbox', { name: /^Code/ }), 'Growth Plan');
    await u.click(d.getByRole('button', { name: 'Create plan' }));
    expect(await d.findByText(/Lowercase letters, digits and dashes/)).toBeInTheDocument();
    expect(d.getByText('Give the plan a name')).toBeInTheDocument();
    expect(d.getByText('Enter an amount')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await fill(u, d.getByRole('textbox', { name: /^Code/ }), 'starter');
    await fill(u, d.getByRole('textbox', { name: /^Name/ }), 'Growth');
    await fill(u, d.getByRole('textbox', { name: /^Monthly price/ }), '300');
    await fill(u, d.getByRole('textbox', { name: /^Calls a month/ }), '1000');
    await fill(u, d.getByRole('textbox', { name: 'Features' }), 'Webhooks\n\n  Priority support  ');
    await u.click(d.getByRole('button', { name: 'Create plan' }));
    // The code is taken (409): said beside the code.
    expect(await d.findByText('A plan with the code “starter” exists already: choose another code')).toBeInTheDocument();
    expect(d.getByRole('textbox', { name: /^Code/ })).toHaveAttribute('aria-invalid', 'true');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      code: 'starter', name: 'Growth', monthly_price: '300', monthly_calls: 1000, features: ['Webhooks', 'Priority support'], public: true,
    });

    // A 422: each message on its field.
    answer = () => invalid({ monthly_price: ['must be at most 9999999999.99'], 'features.1': ['is too long'] });
    await fill(u, d.getByRole('textbox', { name: /^Code/ }), 'growth');
    await u.click(d.getByRole('button', { name: 'Create plan' }));
    expect(await d.findByText('must be at most 9999999999.99')).toBeInTheDocument();
    expect(d.getByRole('textbox', { name: /^Monthly price/ })).toHaveAttribute('aria-invalid', 'true');
    expect(d.getByText('is too long')).toBeInTheDocument();

    // Agreed per account and unlimited: both sent as null.
    const growth: Plan = { code: 'growth', name: 'Growth', monthly_price: null, monthly_calls: null, features: ['Webhooks', 'Priority support'], public: true, status: 'active' };
    answer = () => {
      plans = [starter, growth, enterprise];
      return json(201, growth);
    };
    await u.click(d.getByRole('checkbox', { name: 'Price agreed per account' }));
    await u.click(d.getByRole('checkbox', { name: 'Unlimited calls' }));
    await u.click(d.getByRole('button', { name: 'Create plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      code: 'growth', name: 'Growth', monthly_price: null, monthly_calls: null, features: ['Webhooks', 'Priority support'], public: true,
    });
    expect(await screen.findByText('Plan Growth created: price agreed per account, unlimited.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Plans' })).getAllByRole('row')).toHaveLength(4));
  });

  it('edits a plan, sending only what changed, and retires it', async () => {
    let plans = [starter, enterprise];
    const calls = stubApi({
      'GET /api/v1/panel/plans': () => json(200, { data: plans }),
      'PATCH /api/v1/panel/plans/starter': () => {
        plans = [{ ...starter, monthly_calls: 200, status: 'retired' }, enterprise];
        return json(200, plans[0]);
      },
    });
    renderWithApp(<Plans />, { path: '/admin/plans' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Edit plan Starter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit plan Starter' });
    const d = within(dialog);
    expect(d.getByRole('textbox', { name: /^Code/ })).toBeDisabled();
    expect(d.getByRole('textbox', { name: /^Monthly price/ })).toHaveValue('0.00');
    expect(d.getByRole('textbox', { name: 'Features' })).toHaveValue('Up to 100 transactions\nEmail support');
    expect(d.getByRole('button', { name: 'Save plan' })).toBeDisabled();
    // The same price written otherwise is no change.
    await fill(u, d.getByRole('textbox', { name: /^Monthly price/ }), '0');
    expect(d.getByRole('button', { name: 'Save plan' })).toBeDisabled();

    await fill(u, d.getByRole('textbox', { name: /^Calls a month/ }), '200');
    await u.click(d.getByLabelText('Status', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: /^Retired/, hidden: true }));
    await u.click(d.getByRole('button', { name: 'Save plan' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ monthly_calls: 200, status: 'retired' });
    expect(await screen.findByText('Plan Starter saved (retired).')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Plans' })).getAllByRole('row')[1]).toHaveTextContent('retired'));
  });

  it('puts a refusal to retire the default plan beside the status', async () => {
    stubApi({
      'GET /api/v1/panel/plans': () => json(200, { data: [starter] }),
      'PATCH /api/v1/panel/plans/starter': () => json(409, {
        success: false, message: 'The default plan cannot be retired', error: 'conflict', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      }),
    });
    renderWithApp(<Plans />, { path: '/admin/plans' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Edit plan Starter' }));
    const d = within(await screen.findByRole('dialog', { name: 'Edit plan Starter' }));
    await u.click(d.getByLabelText('Status', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: /^Retired/, hidden: true }));
    await u.click(d.getByRole('button', { name: 'Save plan' }));
    expect(await d.findByText('The default plan cannot be retired')).toBeInTheDocument();
    expect(d.getByLabelText('Status', { selector: 'input' })).toHaveAttribute('aria-invalid', 'true');
  });
});
