// A list on a path with parameters (a customer's keys, hits, transactions,
// transfers), which useListQuery does not take (it wants a path without
// parameters), through the panel's client (authFetch: token, refresh); the
// caller types the rows with the generated schemas (./types). Paths are
// spelled only in the features' api.ts files.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { ListParams } from '../../lib/listParams';
import type { ListTableProps } from '../../lib/listQuery';
import type { List } from './types';

type Init = { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> } };
// openapi-fetch cannot check a call on a generic path (as in lib/listQuery).
const get = api.GET as unknown as (path: string, init?: Init) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * A page of a list at `path` (with path parameters), as useListQuery gives
 * one for a typed path: the key `[path, pathParams, query]`, the previous
 * page kept while the next loads, and the DataTable props to spread.
 */
export function useLooseList<T, F extends Record<string, string>>(
  path: string,
  pathParams: Record<string, unknown> | undefined,
  list: ListParams<F>,
  extra: Record<string, string | number> = {},
) {
  const params = { ...list.query, ...extra };
  const query = useQuery<List<T>>({
    queryKey: [path, pathParams ?? {}, params],
    queryFn: () => call(get(path, { params: { path: pathParams, query: params } })) as Promise<List<T>>,
    placeholderData: keepPreviousData,
  });
  const tableProps: ListTableProps<T> = {
    rows: query.data?.data,
    total: query.data?.meta.total,
    totalCapped: query.data?.meta.total_capped,
    page: list.page,
    perPage: list.perPage,
    onPageChange: list.setPage,
    onPerPageChange: list.setPerPage,
    isLoading: query.isFetching,
    error: query.error,
    onRetry: () => void query.refetch(),
  };
  return { query, tableProps };
}
