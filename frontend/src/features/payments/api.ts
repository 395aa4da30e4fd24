// Gateway payments created with the caller's keys (GET /payments).
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';

const PAYMENTS_PATH = '/api/v1/panel/payments';
/** The gateway endpoint that creates a payment (called with an API key’s secret, not from the panel). */
export const PAYMENT_CREATE_ENDPOINT = '/api/v1/payment/create';

export const paymentKeys = {
  all: [PAYMENTS_PATH] as const,
};

export function usePayments<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(PAYMENTS_PATH, list);
}
