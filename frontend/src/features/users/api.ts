// Users, for admins: the list and search (GET /users), a user (GET, PATCH,
// DELETE /users/{id}), activate and block, and balance adjustments. A user's
// own query (userKeys.detail) is not under userKeys.all: changes set it.
import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { GetQuery, Schemas, User } from '../../api/types';
import { ME_KEY } from '../../auth/useMe';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { dashboardKeys } from '../dashboard/api';
import { payoutKeys } from '../payouts/api';
import { transactionKeys } from '../transactions/api';

const USERS_PATH = '/api/v1/panel/users';
const USER_PATH = '/api/v1/panel/users/{id}';

type UsersQuery = GetQuery<typeof USERS_PATH>;

export const userKeys = {
  /** Every list and search of users. */
  all: [USERS_PATH] as const,
  list: (query: UsersQuery) => [USERS_PATH, query] as const,
  detail: (id: number) => [USER_PATH, id] as const,
};

const userQuery = (id: number) => ({
  queryKey: userKeys.detail(id),
  queryFn: () => call(api.GET(USER_PATH, { params: { path: { id } } })),
});

/** The users screen's page. */
export function useUsers<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(USERS_PATH, list);
}

/** The first 20 users matching q (name, email or phone) and role, for a picker. */
export function useUserSearch(q: string, role: Schemas['Role'] | undefined) {
  return useQuery({
    queryKey: userKeys.list({ q, role, per_page: 20 }),
    queryFn: () => call(api.GET(USERS_PATH, { params: { query: { q: q || undefined, role, per_page: 20 } } })),
    staleTime: 30_000,
  });
}

/** One user; none while id is null. */
export function useUserDetail(id: number | null) {
  return useQuery({ ...userQuery(id ?? 0), enabled: id !== null });
}

/** The users with these ids (one cached GET each), for showing who a row belongs to. */
export function useUsersById(ids: (number | null | undefined)[]): Map<number, User> {
  const unique = [...new Set(ids.filter((id): id is number => typeof id === 'number' && id > 0))];
  const results = useQueries({
    queries: unique.map((id) => ({ ...userQuery(id), staleTime: 60_000 })),
  });
  const map = new Map<number, User>();
  results.forEach((r) => {
    if (r.data) map.set(r.data.id, r.data);
  });
  return map;
}

/** Sets the user's role, plan, collection fee or daily payout limit (only what changed is sent). */
export function useUpdateUser(config?: MutationConfig<User, { id: number; body: Schemas['PatchUserRequest'] }>) {
  return useFeatureMutation({
    mutationFn: ({ id, body }: { id: number; body: Schemas['PatchUserRequest'] }) => call(api.PATCH(USER_PATH, { params: { path: { id } }, body })),
    onSuccess: (qc, u, { body }) => {
      qc.setQueryData(userKeys.detail(u.id), u);
      void qc.invalidateQueries({ queryKey: userKeys.all });
      if (body.daily_payout_limit !== undefined) void qc.invalidateQueries({ queryKey: payoutKeys.limits });
    },
  }, config);
}

/** An admin creates an account (POST /users): any role and status; the lists and the platform's counts refresh. */
export function useCreateUser(config?: MutationConfig<User, Schemas['CreateUserRequest']>) {
  return useFeatureMutation({
    mutationFn: (body: Schemas['CreateUserRequest']) => call(api.POST(USERS_PATH, { body })),
    onSuccess: (qc, u) => {
      qc.setQueryData(userKeys.detail(u.id), u);
      void qc.invalidateQueries({ queryKey: userKeys.all });
      void qc.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  }, config);
}

/** After activate or block: the user as answered, the lists and the platform's counts. */
function statusChanged(qc: QueryClient, u: User) {
  qc.setQueryData(userKeys.detail(u.id), u);
  void qc.invalidateQueries({ queryKey: userKeys.all });
  void qc.invalidateQueries({ queryKey: dashboardKeys.all });
}

export function useActivateUser(config?: MutationConfig<User, User>) {
  return useFeatureMutation({
    mutationFn: (u: User) => call(api.POST('/api/v1/panel/users/{id}/activate', { params: { path: { id: u.id } } })),
    onSuccess: statusChanged,
  }, config);
}

/** Blocks a user (it ends their sessions). */
export function useBlockUser(config?: MutationConfig<User, User>) {
  return useFeatureMutation({
    mutationFn: (u: User) => call(api.POST('/api/v1/panel/users/{id}/block', { params: { path: { id: u.id } } })),
    onSuccess: statusChanged,
  }, config);
}

export function useDeleteUser(config?: MutationConfig<unknown, User>) {
  return useFeatureMutation({
    mutationFn: (u: User) => call(api.DELETE(USER_PATH, { params: { path: { id: u.id } } })),
    onSuccess: (qc, _, u) => {
      void qc.invalidateQueries({ queryKey: userKeys.all });
      qc.removeQueries({ queryKey: userKeys.detail(u.id) });
    },
  }, config);
}

/** Credits or debits the user's balance by hand; the answer is the ledger entry. */
export function useAdjustBalance(userId: number, config?: MutationConfig<Schemas['Transaction'], Schemas['BalanceAdjustmentRequest']>) {
  return useFeatureMutation({
    mutationFn: (body: Schemas['BalanceAdjustmentRequest']) =>
      call(api.POST('/api/v1/panel/users/{id}/balance-adjustments', { params: { path: { id: userId } }, body })),
    onSuccess: (qc, txn) => {
      qc.setQueryData<User>(userKeys.detail(userId), (u) => (u ? { ...u, balance: txn.balance_after } : u));
      void qc.invalidateQueries({ queryKey: userKeys.detail(userId) });
      void qc.invalidateQueries({ queryKey: userKeys.all });
      void qc.invalidateQueries({ queryKey: transactionKeys.all });
      void qc.invalidateQueries({ queryKey: ME_KEY });
    },
  }, config);
}
