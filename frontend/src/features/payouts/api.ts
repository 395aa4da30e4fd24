// Payouts (money out): the list (GET /payouts, admins: everyone's or one
// user's; format=csv exports it), one payout (GET /payouts/{id}), the quote
// of a payout's fee against the balance and today's limit (GET
// /payouts/quote), every account's limit for admins (GET /payout-limits),
// and the transfer itself: POST /payouts with the payout credential that
// POST /payouts/authorize mints for the password (kept in memory only,
// until it expires): the panel's token alone sends no money.
import { useEffect, useRef } from 'react';
import { keepPreviousData, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { GetQuery, Schemas } from '../../api/types';
import { ME_KEY } from '../../auth/useMe';
import type { ListParams } from '../../lib/listParams';
import { useListQuery, type ListQueryOptions } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { dashboardKeys } from '../dashboard/api';
import { transactionKeys } from '../transactions/api';

/** Also the CSV export's path (<CsvExportButton path={PAYOUTS_PATH}>). */
export const PAYOUTS_PATH = '/api/v1/panel/payouts';
const PAYOUT_PATH = '/api/v1/panel/payouts/{id}';
const QUOTE_PATH = '/api/v1/panel/payouts/quote';
const LIMITS_PATH = '/api/v1/panel/payout-limits';
const AUTHORIZE_PATH = '/api/v1/panel/payouts/authorize';
const BENEFICIARIES_PATH = '/api/v1/panel/beneficiaries';

export type SavedBeneficiary = Schemas['Beneficiary'];

/** The caller's saved beneficiaries, by name (account numbers masked). */
export function useBeneficiaries() {
  return useQuery({
    queryKey: [BENEFICIARIES_PATH],
    queryFn: () => call(api.GET(BENEFICIARIES_PATH)),
  });
}

/** Forgets a saved beneficiary (payouts already sent keep their payee). */
export function useDeleteBeneficiary(config?: MutationConfig<void, number>) {
  return useFeatureMutation({
    mutationFn: async (id: number) => {
      const { error, response } = await api.DELETE(`${BENEFICIARIES_PATH}/{id}`, { params: { path: { id } } });
      if (!response.ok) throw ApiError.from(response.status, error);
    },
    onSuccess: (qc) => { void qc.invalidateQueries({ queryKey: [BENEFICIARIES_PATH] }); },
  }, config);
}

export interface BeneficiaryToSave {
  body: Schemas['BeneficiaryCreateRequest'];
  credential: string;
}

/**
 * Verifies a payee once (an account verification, billed like any) and saves
 * it when found: a 422 beneficiary_not_verified when not (still billed).
 */
export function useSaveBeneficiary(config?: MutationConfig<SavedBeneficiary, BeneficiaryToSave>) {
  return useFeatureMutation({
    mutationFn: async ({ body, credential }: BeneficiaryToSave): Promise<SavedBeneficiary> => {
      try {
        return await call(api.POST(BENEFICIARIES_PATH, { body, params: { header: { 'X-Payout-Authorization': credential } } }));
      } catch (e) {
        if (e instanceof ApiError && e.code === PAYOUT_AUTHORIZATION_REQUIRED) forgetPayoutCredential();
        throw e;
      }
    },
    onSuccess: (qc) => { void qc.invalidateQueries({ queryKey: [BENEFICIARIES_PATH] }); refreshMoney(qc); },
    onError: (qc) => refreshMoney(qc),
  }, config);
}
/** The gateway endpoint that sends a payout (with an API key's secret). */
export const PAYOUT_TRANSFER_ENDPOINT = '/api/v1/payout/transfer';
/** The gateway endpoint that tells a payout's state (with an API key's secret). */
export const PAYOUT_STATUS_ENDPOINT = '/api/v1/payout/status';

type Payout = Schemas['Payout'];
export type PayoutsQuery = GetQuery<typeof PAYOUTS_PATH>;

export const payoutKeys = {
  all: [PAYOUTS_PATH] as const,
  /** Under payoutKeys.all: a transfer refreshes an open drawer too. */
  detail: (id: string) => [PAYOUTS_PATH, 'detail', id] as const,
  quote: (amount: string) => [QUOTE_PATH, amount] as const,
  limits: [LIMITS_PATH] as const,
};

/** A payout still moving: its list or drawer polls until it settles. */
export const inFlight = (p: Pick<Payout, 'status'>) => p.status === 'pending' || p.status === 'processing';
const POLL_MS = 3000;

/**
 * The payouts screen's page; it polls while a payout on it is pending or
 * processing. When one settles, what shows money is refreshed (a failed
 * payout gave the amount and the fee back).
 */
export function usePayouts<F extends Record<string, string>>(list: ListParams<F>, opts: ListQueryOptions<typeof PAYOUTS_PATH> = {}) {
  const result = useListQuery(PAYOUTS_PATH, list, {
    refetchInterval: (d) => (d?.data.some(inFlight) ? POLL_MS : false),
    ...opts,
  });
  useSettled(result.query.data?.data);
  return result;
}

/** Refreshes the balance and the ledger when a payout seen in flight has settled. */
function useSettled(rows: Payout[] | undefined) {
  const qc = useQueryClient();
  const moving = useRef(new Set<string>());
  useEffect(() => {
    if (!rows) return;
    let settled = false;
    for (const p of rows) {
      if (inFlight(p)) moving.current.add(p.payout_id);
      else if (moving.current.delete(p.payout_id)) settled = true;
    }
    if (settled) refreshMoney(qc);
  }, [rows, qc]);
}

/** One payout by its payout_id (polls while it is in flight); none while id is null. */
export function usePayout(id: string | null) {
  return useQuery({
    queryKey: payoutKeys.detail(id ?? ''),
    queryFn: () => call(api.GET(PAYOUT_PATH, { params: { path: { id: id! } } })),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && inFlight(q.state.data.data) ? POLL_MS : false),
  });
}

/**
 * What a payout of `amount` costs the caller (fee, total) beside their
 * balance and what is left of today's limit. `amount` '' asks for the fee
 * and the limit only.
 */
export function usePayoutQuote(amount: string) {
  return useQuery({
    queryKey: payoutKeys.quote(amount),
    queryFn: () => call(api.GET(QUOTE_PATH, { params: { query: amount ? { amount } : {} } })),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Every account's daily payout limit and what it has used today (admin), most used first. */
export function usePayoutLimits<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(LIMITS_PATH, list);
}

/** The payout credential held in this tab (memory only) and when it stops being used. */
let held: { credential: string; until: number } | null = null;
const MARGIN_MS = 15_000;

/** The live payout credential, if any: none means the password is asked first. */
export function heldPayoutCredential(now = Date.now()): string | null {
  return held && held.until > now ? held.credential : null;
}

/** Drops the payout credential (refused, expired, or signed out). */
export function forgetPayoutCredential() {
  held = null;
}

/** Types the password again for a payout credential (5 minutes, this session only); a wrong one is a 422 on password. */
export function useAuthorizePayouts(config?: MutationConfig<string, string>) {
  return useFeatureMutation({
    mutationFn: async (password: string): Promise<string> => {
      const a = await call(api.POST(AUTHORIZE_PATH, { body: { password } }));
      held = { credential: a.credential, until: Date.now() + a.expires_in * 1000 - MARGIN_MS };
      return a.credential;
    },
  }, config);
}

export interface PayoutTransfer {
  body: Schemas['PanelPayoutRequest'];
  /** From useAuthorizePayouts: the request's X-Payout-Authorization. */
  credential: string;
}

export interface PayoutSent {
  envelope: Schemas['PayoutEnvelope'];
  /** The reference had been used for this same payout: the first one was answered, nothing was debited again. */
  replayed: boolean;
}

/** The code of a payout refused for a missing or expired payout credential (403). */
export const PAYOUT_AUTHORIZATION_REQUIRED = 'payout_authorization_required';

/**
 * Sends a payout with the payout credential. A 402, 409 or 422 throws an
 * ApiError with the body's message and field errors (keyed like
 * `beneficiary.account_number`); a refused credential is forgotten.
 */
export function useSendPayout(config?: MutationConfig<PayoutSent, PayoutTransfer>) {
  return useFeatureMutation({
    mutationFn: async ({ body, credential }: PayoutTransfer): Promise<PayoutSent> => {
      const { data, error, response } = await api.POST(PAYOUTS_PATH, {
        body,
        params: { header: { 'X-Payout-Authorization': credential } },
      });
      if (!response.ok || error !== undefined || !data) {
        const e = ApiError.from(response.status, error);
        if (e.code === PAYOUT_AUTHORIZATION_REQUIRED) forgetPayoutCredential();
        throw e;
      }
      return { envelope: data, replayed: response.headers.get('Idempotent-Replayed') === 'true' };
    },
    // Whatever came back, the balance and the lists may have moved.
    onSuccess: (qc) => refreshAfterPayout(qc),
    onError: (qc) => refreshAfterPayout(qc),
  }, config);
}

function refreshAfterPayout(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: payoutKeys.all });
  refreshMoney(qc);
}

/** The balance, the quote (balance, today's use), the limits, the dashboard and the ledger. */
function refreshMoney(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: [QUOTE_PATH] });
  void qc.invalidateQueries({ queryKey: payoutKeys.limits });
  void qc.invalidateQueries({ queryKey: ME_KEY });
  void qc.invalidateQueries({ queryKey: dashboardKeys.all });
  void qc.invalidateQueries({ queryKey: transactionKeys.all });
}
