import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PlanBilling from './PlanBilling';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { setTimeZoneForTests } from '../../lib/dates';
import { stubApi, user } from '../admin/test/fixtures';
import type { Plan, Quote, Subscription } from '../../features/plans/api';

const starter: Plan = {
  code: 'starter', name: 'Starter', monthly_price: '0.00', monthly_calls: 100, public: true, status: 'active',
  features: ['Up to 100 transactions', 'Email support'],
};
const growth: Plan = {
  code: 'growth', name: 'Growth', monthly_price: '300.00', monthly_calls: 1000, public: true, status: 'active',
  features: ['Webhooks', 'Priority support'],
};
const retired: Plan = { ...growth, code: 'old', name: 'Old plan', status: 'retired' };
const enterprise: Plan = {
  code: 'enterprise', name: 'Enterprise', monthly_price: null, monthly_calls: null, public: false, status: 'active', features: ['Unlimited'],
};

function subscription(over: Partial<Subscription> = {}): Subscription {
  return {
    plan: starter, price: '0.00', period: '2026-11', period_start: '2026-10-31T18:30:00Z', period_end: '2026-11-30T18:30:00Z',
    status: 'active', past_due_since: null, grace_ends_at: null, calls_used: 37, calls_allowed: 100, next_charge_at: '2026-11-30T18:30:00Z',
    next_plan_code: 'starter', next_amount: '0.00', ...over,
  };
}

const upgrade: Quote = { plan_code: 'growth', applies: 'now', charge_now: '40.00', next_amount: '300.00', next_charge_at: '2026-11-30T18:30:00Z' };

function signInAsUser(balance = '500.00') {
  session.signIn({ access_token: 'token-u', refresh_token: 'r', token_type: 'Bearer', expires_in: 900, user: user({ status: 'active', balance }) });
}

beforeEach(() => {
  setTimeZoneForTests('Asia/Kolkata');
  signInAsUser();
});
afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('Plan and billing', () => {
  it('shows the plan, its price, features, the allowance used, the next charge and the public plans', async () => {
    stubApi({
      'GET /api/v1/panel/subscription': () => json(200, subscription()),
      // An admin's list has every plan: only the public active ones are offered.
      'GET /api/v1/panel/plans': () => json(200, { data: [starter, growth, retired, enterprise] }),
    });
    renderWithApp(<PlanBilling />, { path: '/plan' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Plan and billing' })).toBeInTheDocument();
    expect(await screen.findByTestId('current-plan')).toHaveTextContent('Starter');
    expect(screen.getByTestId('current-price')).toHaveTextContent('₹0.00 a month');
    expect(screen.getByTestId('calls-used')).toHaveTextContent('37 of 100');
    expect(screen.getByRole('progressbar', { name: 'Calls this month' })).toHaveAttribute('aria-valuenow', '37');
    expect(screen.getByTestId('next-charge')).toHaveTextContent('₹0.00 on 01 Dec 2026');
    expect(within(screen.getByRole('region', { name: 'Starter' })).getByText('Email support')).toBeInTheDocument();

    const offered = await screen.findAllByRole('article');
    expect(offered.map((a) => within(a).getByRole('heading').textContent)).toEqual(['Starter', 'Growth']);
    expect(within(offered[0]!).getByText('Your plan')).toBeInTheDocument();
    expect(within(offered[1]!).getByText('₹300.00')).toBeInTheDocument();
    expect(within(offered[1]!).getByText('1,000 calls a month')).toBeInTheDocument();
    expect(within(offered[1]!).getByRole('button', { name: 'Switch to Growth' })).toBeEnabled();
  });

  it('asks the quote before anything changes, confirms the amount charged now, then switches and refreshes the balance', async () => {
    let sub = subscription();
    const calls = stubApi({
      'GET /api/v1/panel/subscription': () => json(200, sub),
      'GET /api/v1/panel/plans': () => json(200, { data: [starter, growth] }),
      'GET /api/v1/panel/subscription/quote': () => json(200, upgrade),
      'GET /api/v1/panel/auth/me': () => json(200, user({ status: 'active', balance: '460.00' })),
      'POST /api/v1/panel/subscription/change': () => {
        sub = subscription({ plan: growth, price: '300.00', calls_allowed: 1000, next_plan_code: 'growth', next_amount: '300.00' });
        return json(200, sub);
      },
    });
    renderWithApp(<PlanBilling />, { path: '/plan' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Switch to Growth' }));

    const dialog = await screen.findByRole('dialog', { name: 'Switch to Growth?' });
    expect(await within(dialog).findByTestId('quote-charge-now')).toHaveTextContent('₹40.00');
    expect(dialog).toHaveTextContent('Then ₹300.00 a month from 01 Dec 2026.');
    const quoteCall = calls.find((c) => c.path === '/api/v1/panel/subscription/quote')!;
    expect(quoteCall.search).toBe('?plan_code=growth');
    expect(calls.some((c) => c.method === 'POST')).toBe(false); // nothing changed yet

    const meBefore = calls.filter((c) => c.path === '/api/v1/panel/auth/me').length;
    await u.click(within(dialog).getByRole('button', { name: 'Pay ₹40.00 and switch' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ plan_code: 'growth' });
    expect(await screen.findByText('₹40.00 was charged for the rest of this month.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('current-plan')).toHaveTextContent('Growth'));
    expect(screen.getByTestId('calls-used')).toHaveTextContent('37 of 1,000');
    // The balance is asked again after the charge.
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/panel/auth/me').length).toBeGreaterThan(meBefore));
  });

  it('says clearly when the balance cannot cover the charge (402), with the way to add balance', async () => {
    signInAsUser('10.00');
    const calls = stubApi({
      'GET /api/v1/panel/subscription': () => json(200, subscription()),
      'GET /api/v1/panel/plans': () => json(200, { data: [starter, growth] }),
      'GET /api/v1/panel/subscription/quote': () => json(200, upgrade),
      'GET /api/v1/panel/auth/me': () => json(200, user({ status: 'active', balance: '10.00' })),
      'POST /api/v1/panel/subscription/change': () => json(402, {
        success: false, message: 'Insufficient balance', error: 'insufficient_balance', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      }),
    });
    const { router } = renderWithApp(<PlanBilling />, { path: '/plan' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Switch to Growth' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch to Growth?' });
    // The balance known is short: a warning before trying.
    expect(await within(dialog).findByText(/is less than this/)).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Pay ₹40.00 and switch' }));

    const alert = await within(dialog).findByTestId('switch-402');
    expect(alert).toHaveTextContent('Your balance cannot cover this');
    expect(alert).toHaveTextContent('The switch needs ₹40.00 now and your balance is short, so nothing changed.');
    expect(within(dialog).getByRole('button', { name: 'Pay ₹40.00 and switch' })).toBeDisabled();
    expect(screen.getByTestId('current-plan')).toHaveTextContent('Starter');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    await u.click(within(alert).getByRole('link', { name: 'Add balance' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/balance-requests'));
  });

  it('words a move to a cheaper plan as from the next period, nothing charged now, and shows it waiting', async () => {
    let sub = subscription({ plan: growth, price: '300.00', calls_allowed: 1000, next_plan_code: 'growth', next_amount: '300.00' });
    const calls = stubApi({
      'GET /api/v1/panel/subscription': () => json(200, sub),
      'GET /api/v1/panel/plans': () => json(200, { data: [starter, growth] }),
      'GET /api/v1/panel/subscription/quote': () => json(200, { plan_code: 'starter', applies: 'next_period', charge_now: '0.00', next_amount: '0.00', next_charge_at: '2026-11-30T18:30:00Z' }),
      'POST /api/v1/panel/subscription/change': (c) => {
        const code = (c.body as { plan_code: string }).plan_code;
        sub = { ...sub, next_plan_code: code, next_amount: code === 'starter' ? '0.00' : '300.00' };
        return json(200, sub);
      },
    });
    renderWithApp(<PlanBilling />, { path: '/plan' });
    const u = userEvent.setup();
    await u.click(await screen.findByRole('button', { name: 'Switch to Starter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch to Starter?' });
    expect(await within(dialog).findByTestId('quote-applies')).toHaveTextContent('From 01 Dec 2026, nothing charged now.');
    await u.click(within(dialog).getByRole('button', { name: 'Confirm switch' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const waiting = await screen.findByTestId('waiting-change');
    expect(waiting).toHaveTextContent('From 01 Dec 2026 you move to Starter at ₹0.00 a month.');
    expect(screen.getByTestId('current-plan')).toHaveTextContent('Growth');
    expect(within(screen.getByTestId('plan-card-starter')).getByText('From 01 Dec 2026')).toBeInTheDocument();
    // Staying drops the waiting change (the current plan chosen again).
    await u.click(within(waiting).getByRole('button', { name: 'Stay on Growth' }));
    await waitFor(() => expect(screen.queryByTestId('waiting-change')).toBeNull());
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ plan_code: 'starter' }, { plan_code: 'growth' }]);
  });

  it('shows a past-due plan with its grace and holds switching until the fee is paid', async () => {
    stubApi({
      'GET /api/v1/panel/subscription': () => json(200, subscription({
        plan: growth, price: '300.00', status: 'past_due', past_due_since: '2026-11-01T04:30:00Z', grace_ends_at: '2026-11-08T04:30:00Z', calls_used: 1000, calls_allowed: 1000,
        next_plan_code: 'growth', next_amount: '300.00',
      })),
      'GET /api/v1/panel/plans': () => json(200, { data: [starter, growth] }),
    });
    renderWithApp(<PlanBilling />, { path: '/plan' });
    const banner = await screen.findByTestId('past-due');
    expect(banner).toHaveTextContent('Your plan fee is past due');
    expect(banner).toHaveTextContent('The fee of ₹300.00 for November 2026 could not be charged on 01 Nov 2026, 10:00 am');
    expect(banner).toHaveTextContent('Your calls keep working until 08 Nov 2026, 10:00 am (7 days of grace)');
    expect(within(banner).getByRole('link', { name: 'Add balance' })).toHaveAttribute('href', '/balance-requests');
    expect(await screen.findByRole('button', { name: 'Switch to Starter' })).toBeDisabled();
    expect(screen.getByText(/allowance is used up/)).toBeInTheDocument();
  });

  it('shows an unlimited allowance without a bar, and offers no switch from a plan arranged per account', async () => {
    stubApi({
      'GET /api/v1/panel/subscription': () => json(200, subscription({ plan: enterprise, price: '25000.00', calls_used: 5120, calls_allowed: null, next_plan_code: 'enterprise', next_amount: '25000.00' })),
      'GET /api/v1/panel/plans': () => json(200, { data: [starter, growth] }),
    });
    renderWithApp(<PlanBilling />, { path: '/plan' });
    expect(await screen.findByTestId('calls-used')).toHaveTextContent('5,120 used · Unlimited');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('current-price')).toHaveTextContent('₹25,000.00 a month');
    // Enterprise is not public: only public plans switch to and from one another.
    await screen.findByTestId('plan-card-growth');
    expect(screen.getByTestId('plan-arranged')).toHaveTextContent('contact us to move to another plan');
    expect(screen.queryByRole('button', { name: /^Switch to/ })).toBeNull();
  });
});
