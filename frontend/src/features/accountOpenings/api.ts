// Digital account openings made with the caller's keys (GET
// /account-openings; admins: everyone's or one user's).
import type { GetQuery } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';

const OPENINGS_PATH = '/api/v1/panel/account-openings';
export type AccountOpeningsQuery = GetQuery<typeof OPENINGS_PATH>;
/** The gateway endpoint that opens an account (called with an API key’s secret, not from the panel). */
export const ACCOUNT_OPEN_ENDPOINT = '/api/v1/account/open';

export const accountOpeningKeys = {
  all: [OPENINGS_PATH] as const,
};

const POLL_MS = 5000;

/** The account openings screen's page (`query`: list.query by default); it polls while an opening on it is still on its way (initiated, kyc_pending). */
export function useAccountOpenings<F extends Record<string, string>>(list: ListParams<F>, query?: AccountOpeningsQuery) {
  return useListQuery(OPENINGS_PATH, list, {
    query,
    refetchInterval: (d) => (d?.data.some((o) => o.status === 'initiated' || o.status === 'kyc_pending') ? POLL_MS : false),
  });
}
