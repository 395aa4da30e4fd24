// Plans that bill (docs/decisions.md, "Plans that bill"): the plan catalog (GET /plans: users
// the public active plans, admins all; admins create and edit plans), the
// caller's subscription, what a switch would do (the quote) and the switch,
// and an admin putting an account on a plan at a price. Anything that may
// charge the wallet invalidates the balance (ME_KEY), the ledger and the
// dashboard.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { paths, Schemas } from '../../api/types';
import { ME_KEY } from '../../auth/useMe';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { dashboardKeys } from '../dashboard/api';
import { transactionKeys } from '../transactions/api';
import { userKeys } from '../users/api';

const PLANS_PATH = '/api/v1/panel/plans';
const PLAN_PATH = '/api/v1/panel/plans/{code}';
const SUBSCRIPTION_PATH = '/api/v1/panel/subscription';
const QUOTE_PATH = '/api/v1/panel/subscription/quote';
const CHANGE_PATH = '/api/v1/panel/subscription/change';
const USER_SUBSCRIPTION_PATH = '/api/v1/panel/users/{id}/subscription';

export type Plan = Schemas['BillingPlan'];
export type Subscription = Schemas['Subscription'];
/** PATCH /plans/{code}: the fields given change. */
export type PlanPatch = NonNullable<paths[typeof PLAN_PATH]['patch']['requestBody']>['content']['application/json'];
/** POST /plans. */
export type NewPlan = NonNullable<paths[typeof PLANS_PATH]['post']['requestBody']>['content']['application/json'];
/** GET /subscription/quote: what a switch would do now, changing nothing. */
export type Quote = paths[typeof QUOTE_PATH]['get']['responses'][200]['content']['application/json'];

export const planKeys = {
  /** The catalog (one list: GET /plans is not paged). */
  all: [PLANS_PATH] as const,
  /** The caller's subscription. */
  subscription: [SUBSCRIPTION_PATH] as const,
  quotes: [QUOTE_PATH] as const,
  quote: (code: string) => [QUOTE_PATH, code] as const,
  /** A user's subscription, as an admin reads it. */
  userSubscription: (id: number) => [USER_SUBSCRIPTION_PATH, id] as const,
};

/** The plans the caller may see: users the public active ones, admins every plan. */
export function usePlans() {
  return useQuery({
    queryKey: planKeys.all,
    queryFn: () => call(api.GET(PLANS_PATH)).then((r) => r.data),
  });
}

/** The caller's subscription: plan, price, period, status, calls used and allowed, next charge. */
export function useSubscription() {
  return useQuery({
    queryKey: planKeys.subscription,
    queryFn: () => call(api.GET(SUBSCRIPTION_PATH)),
    staleTime: 15_000,
  });
}

/**
 * What switching to `code` would do now (charged now, from when, the next
 * amount), asked afresh each time it is shown (the amount depends on the
 * day); nothing while code is null.
 */
export function useSubscriptionQuote(code: string | null) {
  return useQuery({
    queryKey: planKeys.quote(code ?? ''),
    queryFn: () => call(api.GET(QUOTE_PATH, { params: { query: { plan_code: code! } } })),
    enabled: code !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** A subscription changed: the caller's own or, for an admin, another account's; money may have moved. */
function subscriptionChanged(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: planKeys.subscription });
  qc.removeQueries({ queryKey: planKeys.quotes });
  void qc.invalidateQueries({ queryKey: ME_KEY });
  void qc.invalidateQueries({ queryKey: transactionKeys.all });
  void qc.invalidateQueries({ queryKey: dashboardKeys.all });
}

/** Switches the caller to a public plan (402 insufficient_balance when the wallet cannot cover the prorated charge). */
export function useChangePlan(config?: MutationConfig<Subscription, string>) {
  return useFeatureMutation({
    mutationFn: (planCode: string) => call(api.POST(CHANGE_PATH, { body: { plan_code: planCode } })),
    onSuccess: (qc, sub) => {
      qc.setQueryData(planKeys.subscription, sub);
      subscriptionChanged(qc);
    },
  }, config);
}

/** Creates a plan (admin), active; 409 plan_code_taken when the code exists. */
export function useCreatePlan(config?: MutationConfig<Plan, NewPlan>) {
  return useFeatureMutation({
    mutationFn: (body: NewPlan) => call(api.POST(PLANS_PATH, { body })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: planKeys.all }),
  }, config);
}

/** Edits a plan (admin): only the fields given change; status retires or activates it. */
export function useUpdatePlan(config?: MutationConfig<Plan, { code: string; body: PlanPatch }>) {
  return useFeatureMutation({
    mutationFn: ({ code, body }: { code: string; body: PlanPatch }) => call(api.PATCH(PLAN_PATH, { params: { path: { code } }, body })),
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: planKeys.all });
      void qc.invalidateQueries({ queryKey: planKeys.subscription });
    },
  }, config);
}

/** A user's subscription as an admin reads it (plan, agreed price, status, grace). */
export function useUserSubscription(userId: number) {
  return useQuery({
    queryKey: planKeys.userSubscription(userId),
    queryFn: () => call(api.GET(USER_SUBSCRIPTION_PATH, { params: { path: { id: userId } } })),
  });
}

export interface SetUserSubscription { plan_code: string; price?: string }

/**
 * Puts a user on a plan at once (admin), with `price` for a custom-price
 * plan; a rising price debits the prorated difference from their wallet
 * (402 when it cannot cover it).
 */
export function useSetUserSubscription(userId: number, config?: MutationConfig<Subscription, SetUserSubscription>) {
  return useFeatureMutation({
    mutationFn: (body: SetUserSubscription) => call(api.PATCH(USER_SUBSCRIPTION_PATH, { params: { path: { id: userId } }, body })),
    onSuccess: (qc, sub) => {
      qc.setQueryData(planKeys.userSubscription(userId), sub);
      void qc.invalidateQueries({ queryKey: userKeys.detail(userId) });
      void qc.invalidateQueries({ queryKey: userKeys.all });
      subscriptionChanged(qc);
    },
  }, config);
}
