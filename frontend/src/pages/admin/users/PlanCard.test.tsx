import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UserPlanCard } from './PlanCard';
import { json, renderWithApp } from '../../../test/render';
import { session } from '../../../auth/session';
import { setTimeZoneForTests } from '../../../lib/dates';
import { fill, signInAsAdmin, stubApi, user } from '../test/fixtures';
import type { Plan, Subscription } from '../../../features/plans/api';
import { useUserDetail } from '../../../features/users/api';

/** The card as the user page holds it: the user read by id, the card keyed by their plan. */
function OnUserPage({ id }: { id: number }) {
  const u = useUserDetail(id).data;
  return u ? <UserPlanCard key={u.plan} user={u} /> : null;
}

beforeEach(() => {
  setTimeZoneForTests('Asia/Kolkata');
  signInAsAdmin();
});
afterEach(async () => {
  cleanup();
  await session.signOut();
});

const starter: Plan = { code: 'starter', name: 'Starter', monthly_price: '0.00', monthly_calls: 100, public: true, status: 'active', features: [] };
const growth: Plan = { code: 'growth', name: 'Growth', monthly_price: '300.00', monthly_calls: 1000, public: true, status: 'active', features: [] };
const old: Plan = { ...growth, code: 'old', name: 'Old', status: 'retired' };
const enterprise: Plan = { code: 'enterprise', name: 'Enterprise', monthly_price: null, monthly_calls: null, public: false, status: 'active', features: [] };
const PLANS = { data: [starter, growth, old, enterprise] };

const onEnterprise: Subscription = {
  plan: enterprise, price: '25000.00', period: '2026-11', period_start: '2026-10-31T18:30:00Z', period_end: '2026-11-30T18:30:00Z',
  status: 'active', past_due_since: null, grace_ends_at: null, calls_used: 12, calls_allowed: null, next_charge_at: '2026-11-30T18:30:00Z',
  next_plan_code: 'enterprise', next_amount: '25000.00',
};

async function choosePlan(u: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await u.click(screen.getByLabelText(/^Plan/, { selector: 'input' }));
  await u.click(await screen.findByRole('option', { name, hidden: true }));
}

describe('the user page’s plan card', () => {
  it('requires a price for a plan whose price is agreed per account, then sets it and shows it', async () => {
    let asha = user({ status: 'active' });
    const calls = stubApi({
      'GET /api/v1/panel/plans': () => json(200, PLANS),
      'GET /api/v1/panel/users/7': () => json(200, asha),
      'PATCH /api/v1/panel/users/7/subscription': () => {
        asha = { ...asha, plan: 'enterprise' };
        return json(200, onEnterprise);
      },
    });
    renderWithApp(<OnUserPage id={7} />);
    await waitFor(() => expect(screen.getByTestId('user-plan')).toHaveTextContent('Starter'));
    const u = userEvent.setup();
    // Only active plans are offered, with their price.
    await u.click(screen.getByLabelText(/^Plan/, { selector: 'input' }));
    expect((await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent)).toEqual([
      'Starter: ₹0.00 a month', 'Growth: ₹300.00 a month', 'Enterprise: price agreed per account',
    ]);
    await u.click(screen.getByRole('option', { name: /^Enterprise/, hidden: true }));

    const price = screen.getByRole('textbox', { name: /^Monthly price/ });
    expect(price).toBeRequired();
    await u.click(screen.getByRole('button', { name: 'Set plan' }));
    expect(await screen.findByText('This plan’s price is agreed per account: give the monthly price')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);

    await fill(u, price, '25000.00');
    await u.click(screen.getByRole('button', { name: 'Set plan' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ plan_code: 'enterprise', price: '25000.00' });
    expect(await screen.findByText('Asha Rao is on Enterprise at ₹25,000.00 a month.')).toBeInTheDocument();

    // The page reads the user again (now on enterprise); the card shows the answer's price and next charge.
    await waitFor(() => expect(screen.getByTestId('user-plan')).toHaveTextContent('Enterprise'));
    expect(screen.getByTestId('user-plan-price')).toHaveTextContent('₹25,000.00 a month');
    expect(screen.getByTestId('user-plan-next')).toHaveTextContent('₹25,000.00 on 01 Dec 2026');
  });

  it('shows the agreed price and next charge read from the server', async () => {
    stubApi({
      'GET /api/v1/panel/plans': () => json(200, PLANS),
      'GET /api/v1/panel/users/7/subscription': () => json(200, onEnterprise),
    });
    renderWithApp(<UserPlanCard user={user({ status: 'active', plan: 'enterprise' })} />);
    await waitFor(() => expect(screen.getByTestId('user-plan-price')).toHaveTextContent('₹25,000.00 a month'));
    expect(screen.getByTestId('user-plan')).toHaveTextContent('Enterprise');
    expect(screen.getByTestId('user-plan-next')).toHaveTextContent('₹25,000.00 on 01 Dec 2026');
  });

  it('says clearly when the wallet cannot cover the prorated charge (402)', async () => {
    const asha = user({ status: 'active', balance: '120.00' });
    const calls = stubApi({
      'GET /api/v1/panel/plans': () => json(200, PLANS),
      'PATCH /api/v1/panel/users/7/subscription': () => json(402, {
        success: false, message: 'Insufficient balance', error: 'insufficient_balance', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      }),
    });
    renderWithApp(<UserPlanCard user={asha} />);
    const u = userEvent.setup();
    await screen.findByTestId('user-plan');
    await choosePlan(u, /^Growth/);
    // Not a custom-price plan: the price may stay empty (the plan's).
    expect(screen.getByRole('textbox', { name: /^Monthly price/ })).not.toBeRequired();
    await u.click(screen.getByRole('button', { name: 'Set plan' }));
    const alert = await screen.findByTestId('plan-402');
    expect(alert).toHaveTextContent('The wallet cannot cover the prorated charge');
    expect(alert).toHaveTextContent('their balance (₹120.00) is short. Nothing changed.');
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ plan_code: 'growth' });
    expect(screen.getByTestId('user-plan')).toHaveTextContent('Starter');
    // Choosing again clears it.
    await choosePlan(u, /^Starter/);
    await waitFor(() => expect(screen.queryByTestId('plan-402')).toBeNull());
  });

  it('puts the API’s price_required on the price field', async () => {
    const asha = user({ status: 'active' });
    stubApi({
      // The catalog read earlier still gives Growth a list price; the server's is agreed per account now.
      'GET /api/v1/panel/plans': () => json(200, PLANS),
      'PATCH /api/v1/panel/users/7/subscription': () => json(422, {
        success: false, message: 'This plan\'s price is agreed per account: give a price', error: 'price_required', request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5',
      }),
    });
    renderWithApp(<UserPlanCard user={asha} />);
    const u = userEvent.setup();
    await screen.findByTestId('user-plan');
    await choosePlan(u, /^Growth/);
    await u.click(screen.getByRole('button', { name: 'Set plan' }));
    const field = screen.getByRole('textbox', { name: /^Monthly price/ });
    expect(await screen.findByText('This plan\'s price is agreed per account: give a price')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });
});
