// Gateway payments created with the caller's keys (GET /payments), and their
// refunds: the list of a payment's refunds and the merchant's "Refund"
// (POST /payments/{id}/refunds, with an Idempotency-Key per attempt so a
// double submit never refunds twice).
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ME_KEY } from '../../auth/useMe';
import type { Schemas } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { dashboardKeys } from '../dashboard/api';

const PAYMENTS_PATH = '/api/v1/panel/payments';
const REFUNDS_PATH = '/api/v1/panel/payments/{id}/refunds';
/** The gateway endpoint that creates a payment (called with an API key’s secret, not from the panel). */
export const PAYMENT_CREATE_ENDPOINT = '/api/v1/payment/create';
/** The gateway endpoint that refunds a payment (called with an API key’s secret). */
export const PAYMENT_REFUND_ENDPOINT = '/api/v1/payment/refund';

export const paymentKeys = {
  all: [PAYMENTS_PATH] as const,
  refunds: (paymentId: string) => [REFUNDS_PATH, paymentId] as const,
};

export function usePayments<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(PAYMENTS_PATH, list);
}

/** A payment's refunds, oldest first, with its refunded total and what is left. */
export function usePaymentRefunds(paymentId: string) {
  return useQuery({
    queryKey: paymentKeys.refunds(paymentId),
    queryFn: () => call(api.GET(REFUNDS_PATH, { params: { path: { id: paymentId } } })),
  });
}

export interface NewRefund {
  amount: string;
  reason: string;
  /** One key per refund the merchant means: a retry of the same submit sends it again. */
  idempotencyKey: string;
}

/** Refunds part or all of the payment from the merchant's balance. */
export function useRefundPayment(paymentId: string, config?: MutationConfig<Schemas['RefundCreated'], NewRefund>) {
  return useFeatureMutation({
    mutationFn: (v: NewRefund) => call(api.POST(REFUNDS_PATH, {
      params: { path: { id: paymentId }, header: { 'Idempotency-Key': v.idempotencyKey } },
      body: v.reason ? { amount: v.amount, reason: v.reason } : { amount: v.amount },
    })),
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: paymentKeys.refunds(paymentId) });
      void qc.invalidateQueries({ queryKey: paymentKeys.all });
      void qc.invalidateQueries({ queryKey: dashboardKeys.all });
      void qc.invalidateQueries({ queryKey: ME_KEY }); // the balance paid it
    },
  }, config);
}
