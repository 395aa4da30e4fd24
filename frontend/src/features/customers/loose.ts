// Calls to the resellers' endpoints through the panel's client (authFetch:
// token, refresh) on paths with parameters, for lists that useListQuery does
// not take (it wants a path without parameters): the answers are typed by
// the caller with the generated schemas (./types). Paths are spelled only in
// the features' api.ts files.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { ListParams } from '../../lib/listParams';
import type { ListTableProps } from '../../lib/listQuery';
import type { List } from './types';

type Init = { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown; headers?: Record<string, string> };
type Fn = (path: string, init?: Init) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const m = api as unknown as { GET: Fn; POST: Fn; PUT: Fn; DELETE: Fn };

export const loose = {
  get: <T>(path: string, init?: Init) => call(m.GET(path, init)) as Promise<T>,
  post: <T>(path: string, init?: Init) => call(m.POST(path, init)) as Promise<T>,
  put: <T>(path: string, init?: Init) => call(m.PUT(path, init)) as Promise<T>,
  del: (path: string, init?: Init) => call(m.DELETE(path, init)) as Promise<unknown>,
};

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
    queryFn: () => loose.get<List<T>>(path, { params: { path: pathParams, query: params } }),
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
