// Balance requests (top-ups by bank transfer or UPI): a user sends one with
// a screenshot (POST /balance-requests, multipart) and follows its status;
// an admin reviews the queue and approves (credits the balance) or rejects.
import { useQuery } from '@tanstack/react-query';
import { api, call, fetchBlob } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { GetQuery, Schemas } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery, type ListQueryOptions } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { dashboardKeys } from '../dashboard/api';
import { paymentKeys } from '../payments/api';
import { userKeys } from '../users/api';

const BALANCE_REQUESTS_PATH = '/api/v1/panel/balance-requests';
const REQUEST_PATH = '/api/v1/panel/balance-requests/{id}';

type BalanceRequest = Schemas['BalanceRequest'];

export const balanceRequestKeys = {
  /** Every list of requests (the user's, the admin's queue). */
  all: [BALANCE_REQUESTS_PATH] as const,
  detail: (id: number) => [REQUEST_PATH, id] as const,
  /** A request's screenshot on the user's screen. */
  screenshot: (id: number | undefined) => ['/api/v1/panel/balance-requests/{id}/screenshot', id] as const,
};

/** A page of requests: the caller's, or for an admin anyone's (`opts.query` with the typed filters). */
export function useBalanceRequests<F extends Record<string, string>>(list: ListParams<F>, opts?: ListQueryOptions<typeof BALANCE_REQUESTS_PATH>) {
  return useListQuery(BALANCE_REQUESTS_PATH, list, opts);
}

/**
 * A reseller's customers' requests (scope=customers; of one customer with
 * `userId`), which the reseller decides with useDecideBalanceRequest. Issue 34.
 */
export function useCustomersBalanceRequests<F extends Record<string, string>>(list: ListParams<F>, userId?: number) {
  const query = { ...list.query, scope: 'customers', ...(userId ? { user_id: userId } : {}) } as GetQuery<typeof BALANCE_REQUESTS_PATH>;
  return useListQuery(BALANCE_REQUESTS_PATH, list, { query });
}

/** The request as it is now (the list row may be old), shown at once from `initial`. */
export function useBalanceRequest(initial: BalanceRequest) {
  return useQuery({
    queryKey: balanceRequestKeys.detail(initial.id),
    queryFn: () => call(api.GET(REQUEST_PATH, { params: { path: { id: initial.id } } })),
    initialData: initial,
    staleTime: 0,
  });
}

export interface NewBalanceRequest {
  amount: string;
  utr_number: string;
  payment_method: string;
  remarks?: string;
  screenshot?: File | null;
}

/** Sends a top-up request as multipart/form-data (the screenshot is a file). */
export function useCreateBalanceRequest(config?: MutationConfig<BalanceRequest, NewBalanceRequest>) {
  return useFeatureMutation({
    mutationFn: (v: NewBalanceRequest) => {
      const fd = new FormData();
      fd.set('amount', v.amount);
      fd.set('utr_number', v.utr_number);
      fd.set('payment_method', v.payment_method);
      if (v.remarks) fd.set('remarks', v.remarks);
      if (v.screenshot) fd.set('screenshot', v.screenshot, v.screenshot.name);
      return call(api.POST(BALANCE_REQUESTS_PATH, { body: fd as never, bodySerializer: () => fd }));
    },
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: balanceRequestKeys.all }),
  }, config);
}

export interface Decision {
  action: 'approve' | 'reject';
  remarks: string;
}

/**
 * Approves (credits the balance) or rejects a pending request. A 409 means
 * another admin decided first: the lists are refreshed to show it.
 */
export function useDecideBalanceRequest(id: number, config?: MutationConfig<BalanceRequest, Decision>) {
  return useFeatureMutation({
    mutationFn: ({ action, remarks }: Decision) => {
      const opts = { params: { path: { id } }, body: remarks ? { admin_remarks: remarks } : {} };
      return action === 'approve'
        ? call(api.POST('/api/v1/panel/balance-requests/{id}/approve', opts))
        : call(api.POST('/api/v1/panel/balance-requests/{id}/reject', opts));
    },
    onSuccess: (qc, decided) => {
      qc.setQueryData(balanceRequestKeys.detail(decided.id), decided);
      void qc.invalidateQueries({ queryKey: balanceRequestKeys.all });
      void qc.invalidateQueries({ queryKey: dashboardKeys.all });
      void qc.invalidateQueries({ queryKey: userKeys.detail(decided.user_id) });
    },
    onError: (qc, err) => {
      if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: balanceRequestKeys.all });
    },
  }, config);
}

/** The screenshot of the caller's request, fetched with the session's token; none while req is null. */
export function useRequestScreenshot(req: BalanceRequest | null) {
  return useQuery({
    queryKey: balanceRequestKeys.screenshot(req?.id),
    queryFn: () => fetchBlob(req!.screenshot_url!),
    enabled: !!req?.screenshot_url,
    staleTime: Infinity,
  });
}

/** A request's screenshot by its screenshot_url (the admin's review). */
export function useScreenshotFile(path: string) {
  return useQuery({
    queryKey: [path],
    queryFn: () => fetchBlob(path),
    staleTime: Infinity,
  });
}

const BALANCE_CHECKOUT_PATH = '/api/v1/panel/balance/checkout';

/**
 * Add balance by paying through the checkout: creates a payment to the
 * platform (purpose `balance`) for the amount; the caller then opens its
 * `payment_url`. Its success credits the caller's balance with no fee.
 */
export function useBalanceCheckout(config?: MutationConfig<Schemas['Payment'], string>) {
  return useFeatureMutation({
    mutationFn: (amount: string) => call(api.POST(BALANCE_CHECKOUT_PATH, { body: { amount } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: paymentKeys.all }), // a balance checkout is one of the caller's payments
  }, config);
}

const PAYEE_PATH = '/api/v1/panel/settings/payee';

/** Where to pay in: the platform's bank account and UPI address ("" when the admin has not set them). */
export function usePayee() {
  return useQuery({ queryKey: [PAYEE_PATH], queryFn: () => call(api.GET(PAYEE_PATH)), staleTime: 5 * 60_000 });
}

/** The QR code of the payee's UPI address (a customer's reseller's) (a PNG, fetched with the session's token); none while upi is "". */
export function usePayeeQR(upi: string | undefined) {
  return useQuery({
    queryKey: [`${PAYEE_PATH}/upi-qr.png`, upi],
    queryFn: () => fetchBlob(`${PAYEE_PATH}/upi-qr.png`),
    enabled: !!upi,
    staleTime: Infinity,
  });
}

/** How a checkout payment stands (the checkout page's own status; `paymentId` is `pay_…`). */
export function useCheckoutStatus(paymentId: string | null) {
  const id = paymentId?.startsWith('pay_') ? paymentId.slice(4) : '';
  return useQuery({
    queryKey: ['/pay_{id}/status', id],
    queryFn: () => call(api.GET('/pay_{id}/status', { params: { path: { id } } })),
    enabled: id !== '',
  });
}
