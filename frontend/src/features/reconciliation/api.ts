// Bank-statement reconciliation (admins): import the platform account's
// statement (POST /reconciliation/statements, multipart), list its credit
// lines by status, and resolve the unmatched ones (match to a payment or a
// balance request, or dismiss with a note). Also the held collections:
// confirmed payments whose merchant's balance cannot hold the credit yet
// (GET /held-collections), and their retry.
import { useQuery } from '@tanstack/react-query';
import { api, call, callJSON } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { GetQuery, Schemas } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery, type ListQueryOptions } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { balanceRequestKeys } from '../balanceRequests/api';

const STATEMENTS_PATH = '/api/v1/panel/reconciliation/statements';
const LINES_PATH = '/api/v1/panel/reconciliation/lines';

export type StatementImport = Schemas['ReconciliationStatement'];
export type StatementLine = Schemas['ReconciliationLine'];
export type LinesQuery = GetQuery<typeof LINES_PATH>;

const HELD_PATH = '/api/v1/panel/held-collections';

export type HeldCollection = Schemas['HeldCollection'];

export const reconciliationKeys = {
  /** Every list of statement lines. */
  lines: [LINES_PATH] as const,
  /** The held collections. */
  held: [HELD_PATH] as const,
};

/** The first page of held collections (few: each is an incident), newest first. */
export function useHeldCollections() {
  return useQuery({
    queryKey: reconciliationKeys.held,
    queryFn: () => callJSON(api.GET(HELD_PATH, { params: { query: { per_page: 100 } } })),
  });
}

/**
 * Retries a held collection's credit (its payment_id). A 409 says it is
 * still too large for the balance, or no longer held: the list refreshes.
 */
export function useRetryHeldCollection(config?: MutationConfig<Schemas['Payment'], string>) {
  return useFeatureMutation({
    mutationFn: (id: string) => call(api.POST('/api/v1/panel/held-collections/{id}/retry', { params: { path: { id } } })),
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: reconciliationKeys.held });
    },
    onError: (qc, err) => {
      if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: reconciliationKeys.held });
    },
  }, config);
}

/** A page of statement lines (`opts.query.status`: unmatched, matched or dismissed). */
export function useStatementLines<F extends Record<string, string>>(list: ListParams<F>, opts?: ListQueryOptions<typeof LINES_PATH>) {
  return useListQuery(LINES_PATH, list, opts);
}

/** The optional column names of an import; empty fields take the defaults. */
export interface ColumnMapping {
  date_column?: string;
  narration_column?: string;
  ref_column?: string;
  credit_column?: string;
  debit_column?: string;
  balance_column?: string;
}

export interface NewImport {
  file: File;
  mapping: ColumnMapping;
}

/** Uploads a statement as multipart/form-data (the CSV in field `file`). */
export function useImportStatement(config?: MutationConfig<StatementImport, NewImport>) {
  return useFeatureMutation({
    mutationFn: ({ file, mapping }: NewImport) => {
      const fd = new FormData();
      fd.set('file', file, file.name);
      for (const [k, v] of Object.entries(mapping)) if (v && v.trim()) fd.set(k, v.trim());
      return call(api.POST(STATEMENTS_PATH, { body: fd as never, bodySerializer: () => fd }));
    },
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: reconciliationKeys.lines });
      void qc.invalidateQueries({ queryKey: reconciliationKeys.held });
      void qc.invalidateQueries({ queryKey: balanceRequestKeys.all });
    },
  }, config);
}

/** A manual match: a payment (its payment_id) or a balance request (its id). */
export type MatchTarget = { payment_id: string } | { balance_request_id: number };

export type Resolution = { action: 'match'; target: MatchTarget } | { action: 'dismiss'; note: string };

/**
 * Matches or dismisses an unmatched line. A 409 means the line (or its
 * target) was decided meanwhile, or the amounts differ: the lists refresh.
 */
export function useResolveLine(id: number, config?: MutationConfig<StatementLine, Resolution>) {
  return useFeatureMutation({
    mutationFn: (r: Resolution) => {
      const path = { params: { path: { id } } };
      return r.action === 'match'
        ? call(api.POST('/api/v1/panel/reconciliation/lines/{id}/match', { ...path, body: r.target }))
        : call(api.POST('/api/v1/panel/reconciliation/lines/{id}/dismiss', { ...path, body: { note: r.note } }));
    },
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: reconciliationKeys.lines });
      void qc.invalidateQueries({ queryKey: reconciliationKeys.held });
      void qc.invalidateQueries({ queryKey: balanceRequestKeys.all });
    },
    onError: (qc, err) => {
      if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: reconciliationKeys.lines });
    },
  }, config);
}
