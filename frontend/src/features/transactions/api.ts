// The ledger (GET /transactions): the caller's entries, or for an admin any
// user's; and the CSV export. Anything that moves money invalidates
// transactionKeys.all.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, callJSON } from '../../api/client';
import type { GetQuery } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';

/** Also the CSV export's path (<CsvExportButton path={TRANSACTIONS_PATH}>). */
export const TRANSACTIONS_PATH = '/api/v1/panel/transactions';

export type TransactionsQuery = GetQuery<typeof TRANSACTIONS_PATH>;

export const transactionKeys = {
  all: [TRANSACTIONS_PATH] as const,
  list: (query: TransactionsQuery) => [TRANSACTIONS_PATH, query] as const,
};

export const transactionsQuery = (query: TransactionsQuery) => queryOptions({
  queryKey: transactionKeys.list(query),
  // Without format=csv the answer is the JSON page (the generated type also allows the CSV text).
  queryFn: () => callJSON(api.GET(TRANSACTIONS_PATH, { params: { query } })),
});

/** The transactions screen's page, its filters in the URL. */
export function useTransactionsList<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(TRANSACTIONS_PATH, list);
}

/** A page of one user's ledger (admin). */
export function useUserTransactions(userId: number, page: number, perPage: number) {
  return useQuery(transactionsQuery({ user_id: userId, page, per_page: perPage }));
}
