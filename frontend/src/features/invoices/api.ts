// Tax invoices and credit notes (decisions part 17): the caller's documents
// (admins: every account's, filtered by user, month and kind), one with its
// lines and totals, its PDF, and this month's draft so far. Documents are
// issued by the server (on the 1st, or `server invoices issue`), never from
// the panel, and never change once issued.
import { useQuery } from '@tanstack/react-query';
import { api, call, fetchBlob } from '../../api/client';
import type { GetQuery, Schemas } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';

const INVOICES_PATH = '/api/v1/panel/invoices';
const INVOICE_PATH = '/api/v1/panel/invoices/{id}';
const INVOICE_PDF_PATH = '/api/v1/panel/invoices/{id}/pdf';
const UPCOMING_PATH = '/api/v1/panel/invoices/upcoming';
/** The GSTR-1 register of a month (admins: the platform's documents; resellers: those they issued); its CSV export's path. */
export const REGISTER_PATH = '/api/v1/panel/invoices/register';

export type Invoice = Schemas['Invoice'];
export type InvoiceLine = Schemas['InvoiceLine'];
export type InvoicesQuery = GetQuery<typeof INVOICES_PATH>;
/** An issued document: a draft has no id, number or date. */
export type IssuedInvoice = Invoice & { id: number; number: string; issued_at: string };

export const invoiceKeys = {
  all: [INVOICES_PATH] as const,
  detail: (id: number) => [INVOICE_PATH, id] as const,
  upcoming: [UPCOMING_PATH] as const,
};

/** The invoices screen's page, its filters (user_id for admins, month, kind) in the URL. */
export function useInvoices<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(INVOICES_PATH, list);
}

/** One document with its lines and totals; nothing while id is null. */
export function useInvoice(id: number | null) {
  return useQuery({
    queryKey: invoiceKeys.detail(id ?? 0),
    queryFn: () => call(api.GET(INVOICE_PATH, { params: { path: { id: id! } } })),
    enabled: id !== null,
    staleTime: Infinity, // an issued document never changes
  });
}

/**
 * The caller's invoice for the current month so far (a draft: no number), as
 * it would be issued now; null when the month was already issued (204).
 */
export function useUpcomingInvoice() {
  return useQuery({
    queryKey: invoiceKeys.upcoming,
    queryFn: async (): Promise<Invoice | null> => (await call(api.GET(UPCOMING_PATH))) ?? null,
    staleTime: 15_000,
  });
}

export interface DownloadedFile { blob: Blob; filename: string }

/** Fetches a document's PDF with the session's token (the server names it after the number). */
export function useInvoicePdf(config?: MutationConfig<DownloadedFile, number>) {
  return useFeatureMutation({
    mutationFn: async (id: number) => {
      const { blob, filename } = await fetchBlob(INVOICE_PDF_PATH.replace('{id}', String(id)));
      return { blob, filename: filename ?? `invoice-${id}.pdf` };
    },
  }, config);
}
