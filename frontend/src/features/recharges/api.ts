// Mobile recharges made with the caller's keys (GET /recharges).
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';

const RECHARGES_PATH = '/api/v1/panel/recharges';
/** The gateway endpoint that recharges a number (called with an API key’s secret, not from the panel). */
export const RECHARGE_ENDPOINT = '/api/v1/recharge/mobile';

export const rechargeKeys = {
  all: [RECHARGES_PATH] as const,
};

export function useRecharges<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(RECHARGES_PATH, list);
}
