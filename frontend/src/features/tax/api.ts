// GST (decisions part 17): the supplier's billing settings that every tax
// invoice carries (admin: GET/PUT /settings/billing) and the GST state codes
// of the pickers (GET /gst/states). A customer's own billing profile is part
// of their account (PATCH /auth/me, features/account).
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Schemas } from '../../api/types';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { invoiceKeys } from '../invoices/api';

const BILLING_SETTINGS_PATH = '/api/v1/panel/settings/billing';
const GST_STATES_PATH = '/api/v1/panel/gst/states';

export type BillingSettings = Schemas['BillingSettings'];
export type BillingSettingsInput = Schemas['BillingSettingsInput'];
export type GstState = Schemas['GstState'];

export const taxKeys = {
  settings: [BILLING_SETTINGS_PATH] as const,
  states: [GST_STATES_PATH] as const,
};

/** The supplier's details (admin); until saved: prefix PG, SAC 998319, the rest "" and updated_at null. */
export function useBillingSettings() {
  return useQuery({
    queryKey: taxKeys.settings,
    queryFn: () => call(api.GET(BILLING_SETTINGS_PATH)),
  });
}

/** Replaces the supplier's details (admin, audited); 422 names the field. */
export function useSaveBillingSettings(config?: MutationConfig<BillingSettings, BillingSettingsInput>) {
  return useFeatureMutation({
    mutationFn: (body: BillingSettingsInput) => call(api.PUT(BILLING_SETTINGS_PATH, { body })),
    onSuccess: (qc, s) => {
      qc.setQueryData(taxKeys.settings, s);
      // The caller's draft invoice carries the supplier's block.
      void qc.invalidateQueries({ queryKey: invoiceKeys.upcoming });
    },
  }, config);
}

/** The States and Union territories with their GST codes, in code order (they do not change while the panel runs). */
export function useGstStates() {
  return useQuery({
    queryKey: taxKeys.states,
    queryFn: () => call(api.GET(GST_STATES_PATH)).then((r) => r.data),
    staleTime: Infinity,
  });
}

/** "Karnataka (29)": a state code with its name when known. */
export function stateLabel(code: string, states: GstState[] | undefined): string {
  if (!code) return '—';
  const s = states?.find((x) => x.code === code);
  return s ? `${s.name} (${s.code})` : code;
}
