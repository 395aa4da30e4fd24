// Monthly account statements (decisions part 17): the opening balance, the
// month's credits and debits, the closing balance and the number of ledger
// entries (JSON), the statement with every entry as PDF (at most 10,000
// entries: 422 statement_too_long beyond, when the CSV is the way), and the
// entries as CSV (<CsvExportButton path={STATEMENTS_PATH}>). Admins read any
// account's with user_id.
import { useQuery } from '@tanstack/react-query';
import { api, callJSON, fetchBlob } from '../../api/client';
import type { GetQuery } from '../../api/types';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import type { DownloadedFile } from '../invoices/api';

/** Also the CSV export's path (format=csv). */
export const STATEMENTS_PATH = '/api/v1/panel/statements';

export type StatementQuery = Omit<GetQuery<typeof STATEMENTS_PATH>, 'format'>;

export const statementKeys = {
  all: [STATEMENTS_PATH] as const,
  summary: (q: StatementQuery) => [STATEMENTS_PATH, q] as const,
};

/** A month's figures (user_id: an admin reading another account); nothing while month is empty. */
export function useStatement(q: StatementQuery) {
  return useQuery({
    queryKey: statementKeys.summary(q),
    queryFn: () => callJSON(api.GET(STATEMENTS_PATH, { params: { query: q } })),
    enabled: q.month !== '',
    staleTime: 15_000,
  });
}

/** The month's statement as PDF (422 statement_too_long past 10,000 entries: offer the CSV). */
export function useStatementPdf(config?: MutationConfig<DownloadedFile, StatementQuery>) {
  return useFeatureMutation({
    mutationFn: async (q: StatementQuery) => {
      const { blob, filename } = await fetchBlob(STATEMENTS_PATH, { ...q, format: 'pdf' });
      return { blob, filename: filename ?? `statement-${q.month}.pdf` };
    },
  }, config);
}
