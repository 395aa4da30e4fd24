// Webhooks: the deliveries of the caller's events (GET /webhooks/deliveries,
// /webhooks/deliveries/{id}), sending one again, and the signing secret's
// rotation. The URL and the low-balance threshold are the account's
// (useUpdateMe in features/account).
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Schemas } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery, type ListQueryOptions } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';

const DELIVERIES_PATH = '/api/v1/panel/webhooks/deliveries';
const DELIVERY_PATH = '/api/v1/panel/webhooks/deliveries/{id}';

export const webhookKeys = {
  /** Every page of deliveries. */
  deliveries: [DELIVERIES_PATH] as const,
  delivery: (id: number | null) => [DELIVERY_PATH, id] as const,
};

export function useDeliveries<F extends Record<string, string>>(list: ListParams<F>, opts?: ListQueryOptions<typeof DELIVERIES_PATH>) {
  return useListQuery(DELIVERIES_PATH, list, opts);
}

/** One delivery with its attempts; none while id is null. */
export function useDelivery(id: number | null) {
  return useQuery({
    queryKey: webhookKeys.delivery(id),
    queryFn: () => call(api.GET(DELIVERY_PATH, { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

/** Queues the delivery to be sent again. */
export function useRedeliver(id: number | null, config?: MutationConfig<unknown, void>) {
  return useFeatureMutation({
    mutationFn: () => call(api.POST('/api/v1/panel/webhooks/deliveries/{id}/redeliver', { params: { path: { id: id! } } })),
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: webhookKeys.deliveries });
      void qc.invalidateQueries({ queryKey: webhookKeys.delivery(id) });
    },
  }, config);
}

/** A new signing secret (the old one stops at once); shown once. */
export function useRotateWebhookSecret(config?: MutationConfig<Schemas['WebhookSecret'], void>) {
  return useFeatureMutation({
    mutationFn: () => call(api.POST('/api/v1/panel/webhooks/rotate-secret')),
  }, config);
}
