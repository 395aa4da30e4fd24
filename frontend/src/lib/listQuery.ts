import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api, callJSON } from '../api/client';
import type { GetQuery, paths } from '../api/types';
import type { ListParams } from './listParams';

/** The JSON answer of GET `P` (without the text/csv of the history lists). */
type GetJSON<P extends keyof paths> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': infer B } } } } } ? B : never;

interface ListBody {
  data: unknown[];
  meta: { total: number; total_capped?: boolean };
}

/** The panel's list endpoints: GET answers {data: [...], meta: {total, ...}} and takes no path parameter. */
export type ListPath = {
  [P in keyof paths]: GetJSON<P> extends ListBody ? (paths[P] extends { get: { parameters: { path?: never } } } ? P : never) : never;
}[keyof paths];

export type ListOf<P extends ListPath> = GetJSON<P>;
type Row<P extends ListPath> = ListOf<P> extends { data: (infer R)[] } ? R : never;

export interface ListQueryOptions<P extends ListPath> {
  /** The query sent (and the key's second part); list.query by default. */
  query?: GetQuery<P>;
  refetchInterval?: number | false | ((data: ListOf<P> | undefined) => number | false);
}

/** The DataTable props a list query and its useListParams give. */
export interface ListTableProps<T> {
  rows: T[] | undefined;
  total: number | undefined;
  totalCapped: boolean | undefined;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
}

// openapi-fetch cannot check a call on a generic path; the types above
// give the answer's type instead.
const get = api.GET as unknown as (path: string, init: { params: { query: unknown } }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * A page of a panel list, the query key `[path, query]`, the previous page
 * kept on screen while the next loads, and the DataTable props to spread.
 * A feature's api.ts wraps it with its path; the screen calls the wrapper:
 *   export const usePayments = (list) => useListQuery(PAYMENTS_PATH, list);  // features/payments/api.ts
 *   const list = useListParams({ status: '', from: '', to: '' });
 *   const { query, tableProps } = usePayments(list);
 *   <DataTable caption="Payments" columns={columns} rowKey={(p) => p.id} {...tableProps} />
 */
export function useListQuery<P extends ListPath, F extends Record<string, string>>(
  path: P,
  list: ListParams<F>,
  opts: ListQueryOptions<P> = {},
): { query: UseQueryResult<ListOf<P>>; tableProps: ListTableProps<Row<P>> } {
  const params = opts.query ?? (list.query as GetQuery<P>);
  const { refetchInterval: every } = opts;
  const query = useQuery<ListOf<P>>({
    queryKey: [path, params],
    queryFn: () => callJSON(get(path, { params: { query: params } })) as Promise<ListOf<P>>,
    placeholderData: keepPreviousData,
    ...(every !== undefined && { refetchInterval: typeof every === 'function' ? (q) => every(q.state.data) : every }),
  });
  const body = query.data as ListBody | undefined;
  return {
    query,
    tableProps: {
      rows: body?.data as Row<P>[] | undefined,
      total: body?.meta.total,
      totalCapped: body?.meta.total_capped,
      page: list.page,
      perPage: list.perPage,
      onPageChange: list.setPage,
      onPerPageChange: list.setPerPage,
      isLoading: query.isFetching,
      error: query.error,
      onRetry: () => void query.refetch(),
    },
  };
}
