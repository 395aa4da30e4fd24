// The admins' audit log (GET /audit-logs).
import type { GetQuery } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';

const AUDIT_LOGS_PATH = '/api/v1/panel/audit-logs';

export type AuditQuery = GetQuery<typeof AUDIT_LOGS_PATH>;

export const auditKeys = {
  all: [AUDIT_LOGS_PATH] as const,
};

/** A page of the audit log; `query` is list.query with the ids and target type typed for the API. */
export function useAuditLogs<F extends Record<string, string>>(list: ListParams<F>, query: AuditQuery) {
  return useListQuery(AUDIT_LOGS_PATH, list, { query });
}
