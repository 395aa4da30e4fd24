// The caller's own account: details, password, webhook settings and the
// billing profile of their tax invoices (PATCH /auth/me) and the signed-in sessions (GET /auth/sessions, DELETE
// /auth/sessions/{id}). Reading the account is the session's (useMe,
// ME_KEY in src/auth).
import { api, call } from '../../api/client';
import type { Schemas, User } from '../../api/types';
import { session } from '../../auth/session';
import { ME_KEY } from '../../auth/useMe';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { invoiceKeys } from '../invoices/api';

const ME_PATH = '/api/v1/panel/auth/me';
const SESSIONS_PATH = '/api/v1/panel/auth/sessions';

type Session = Schemas['Session'];
type PatchMe = Schemas['PatchMeRequest'];
/** The recipient block of the caller's tax invoices (legal name, address, state, optional GSTIN). */
export type BillingProfileInput = Schemas['BillingProfileInput'];

export const accountKeys = {
  sessions: [SESSIONS_PATH] as const,
};

/** Saves the caller's details or webhook settings; the answer becomes the session's user. */
export function useUpdateMe(config?: MutationConfig<User, PatchMe>) {
  return useFeatureMutation({
    mutationFn: (body: PatchMe) => call(api.PATCH(ME_PATH, { body })),
    onSuccess: (qc, u) => {
      session.setUser(u);
      qc.setQueryData(ME_KEY, u);
    },
  }, config);
}

/**
 * Replaces the caller's billing profile (`null` removes it); its field
 * errors come back as billing.<field>. This month's draft invoice is
 * addressed to it, so the draft is asked again.
 */
export function useUpdateBillingProfile(config?: MutationConfig<User, BillingProfileInput | null>) {
  return useFeatureMutation({
    mutationFn: (billing: BillingProfileInput | null) => call(api.PATCH(ME_PATH, { body: { billing } })),
    onSuccess: (qc, u) => {
      session.setUser(u);
      qc.setQueryData(ME_KEY, u);
      void qc.invalidateQueries({ queryKey: invoiceKeys.upcoming });
    },
  }, config);
}

/** Changes the password; the server ends the other sessions, so their list is refreshed. */
export function useChangePassword(config?: MutationConfig<User, { current_password: string; password: string }>) {
  return useFeatureMutation({
    mutationFn: (body: { current_password: string; password: string }) => call(api.PATCH(ME_PATH, { body })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: accountKeys.sessions }),
  }, config);
}

export function useSessions<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(SESSIONS_PATH, list);
}

/** Ends one session (not this one: signing out does). */
export function useRevokeSession(config?: MutationConfig<unknown, Session>) {
  return useFeatureMutation({
    mutationFn: (s: Session) => call(api.DELETE('/api/v1/panel/auth/sessions/{id}', { params: { path: { id: s.id } } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: accountKeys.sessions }),
  }, config);
}
