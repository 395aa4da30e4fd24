import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export interface ListParams<F extends Record<string, string>> {
  page: number;
  perPage: number;
  /** The filters, '' when unset. */
  filters: F;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  /** Sets one filter (and goes back to page 1). */
  setFilter: (name: keyof F & string, value: string | null | undefined) => void;
  /** Clears every filter. */
  reset: () => void;
  /** page, per_page and the non-empty filters: the API's query object. */
  query: Record<string, string | number>;
}

/**
 * A list's page, page size and filters, kept in the URL's search params so
 * a reload, the back button and a shared link keep them:
 *   const list = useListParams({ status: '', from: '', to: '' });
 *   const { tableProps } = useHitLogs(list); // features/hitLogs/api.ts: useListQuery(HIT_LOGS_PATH, list)
 */
export function useListParams<F extends Record<string, string>>(defaults: F, defaultPerPage = 20): ListParams<F> {
  const [sp, setSp] = useSearchParams();
  const page = Math.max(1, parseInt(sp.get('page') ?? '1', 10) || 1); // not money
  const perPage = Math.min(100, Math.max(1, parseInt(sp.get('per_page') ?? String(defaultPerPage), 10) || defaultPerPage)); // not money
  const keys = Object.keys(defaults).join(',');
  const filters = useMemo(() => {
    const f: Record<string, string> = {};
    for (const k of Object.keys(defaults)) f[k] = sp.get(k) ?? defaults[k] ?? '';
    return f as F;
  }, [sp, keys]);

  const update = useCallback(
    (fn: (p: URLSearchParams) => void) => {
      setSp((prev) => {
        const next = new URLSearchParams(prev);
        fn(next);
        return next;
      }, { replace: true });
    },
    [setSp],
  );

  const query = useMemo(() => {
    const q: Record<string, string | number> = { page, per_page: perPage };
    for (const [k, v] of Object.entries(filters)) if (v !== '') q[k] = v;
    return q;
  }, [filters, page, perPage]);

  return {
    page,
    perPage,
    filters,
    query,
    setPage: (p) => update((n) => (p <= 1 ? n.delete('page') : n.set('page', String(p)))),
    setPerPage: (pp) => update((n) => {
      n.set('per_page', String(pp));
      n.delete('page');
    }),
    setFilter: (name, value) =>
      update((n) => {
        if (value === null || value === undefined || value === '') n.delete(name);
        else n.set(name, value);
        n.delete('page');
      }),
    reset: () => update((n) => {
      for (const k of Object.keys(defaults)) n.delete(k);
      n.delete('page');
    }),
  };
}
