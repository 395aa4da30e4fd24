// The caller's metered calls (GET /hit-logs): a page with filters, and its
// CSV export. A call made from the panel invalidates hitLogKeys.all.
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';

/** Also the CSV export's path (<CsvExportButton path={HIT_LOGS_PATH}>). */
export const HIT_LOGS_PATH = '/api/v1/panel/hit-logs';

export const hitLogKeys = {
  all: [HIT_LOGS_PATH] as const,
};

export function useHitLogs<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(HIT_LOGS_PATH, list);
}
