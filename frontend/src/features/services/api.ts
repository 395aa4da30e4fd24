// Services: the catalog and a service (GET /services, /services/{id}), their
// documentation (GET/PUT /services/{id}/docs), code samples (GET
// /services/{id}/samples), pricing (/services/{id}/pricing,
// /pricing/{id}), the admin's create, edit and delete, and the try-it call to
// a service's own endpoint (/api/v1/<slug>, with an API key).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { ApiError, errorMessage } from '../../api/errors';
import type { GetQuery, Schemas } from '../../api/types';
import { ME_KEY } from '../../auth/useMe';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';
import { dashboardKeys } from '../dashboard/api';
import { hitLogKeys } from '../hitLogs/api';
import { keyKeys } from '../keys/api';
import { transactionKeys } from '../transactions/api';

const SERVICES_PATH = '/api/v1/panel/services';
const SERVICE_PATH = '/api/v1/panel/services/{id}';
const DOCS_PATH = '/api/v1/panel/services/{id}/docs';
const SAMPLES_PATH = '/api/v1/panel/services/{id}/samples';
const PRICING_PATH = '/api/v1/panel/services/{id}/pricing';
const PRICE_PATH = '/api/v1/panel/pricing/{id}';

type Service = Schemas['Service'];
type ServiceDoc = Schemas['ServiceDoc'];
type Price = Schemas['Price'];
type ServicesQuery = GetQuery<typeof SERVICES_PATH>;
type PricingQuery = GetQuery<typeof PRICING_PATH>;

/** Where calls to a service go: the gateway's endpoint for its slug. */
export const serviceEndpoint = (slug: string) => `/api/v1/${slug}`;

export const serviceKeys = {
  /** Every list of services (the catalog, the pickers). */
  all: [SERVICES_PATH] as const,
  list: (query: ServicesQuery) => [SERVICES_PATH, query] as const,
  detail: (id: number | null) => [SERVICE_PATH, id] as const,
  docs: (id: number | null) => [DOCS_PATH, id] as const,
  samples: (id: number | null) => [SAMPLES_PATH, id] as const,
  /** Every page of a service's pricing. */
  pricing: (serviceId: number) => [PRICING_PATH, serviceId] as const,
  pricingPage: (serviceId: number, query: PricingQuery) => [PRICING_PATH, serviceId, query] as const,
};

export const servicesQuery = (query: ServicesQuery) => queryOptions({
  queryKey: serviceKeys.list(query),
  queryFn: () => call(api.GET(SERVICES_PATH, { params: { query } })),
});

/** The catalog's page (the admin's list too). */
export function useServices<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(SERVICES_PATH, list);
}

/** The first 100 services the caller may see (active ones for users), for names and pickers. */
export function useAllServices() {
  return useQuery({ ...servicesQuery({ page: 1, per_page: 100 }), staleTime: 60_000 });
}

/** The first 100 services, for the admin's service picker. */
export function useServiceChoices() {
  return useQuery(servicesQuery({ per_page: 100 }));
}

export function useService(id: number | null) {
  return useQuery({
    queryKey: serviceKeys.detail(id),
    queryFn: () => call(api.GET(SERVICE_PATH, { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

/** The service's documentation record; null when it has none (404 docs_not_found). */
export function useServiceDocs(id: number | null) {
  return useQuery({
    queryKey: serviceKeys.docs(id),
    queryFn: async (): Promise<ServiceDoc | null> => {
      try {
        return await call(api.GET(DOCS_PATH, { params: { path: { id: id! } } }));
      } catch (err) {
        if (err instanceof ApiError && err.code === 'docs_not_found') return null;
        throw err;
      }
    },
    enabled: id !== null,
  });
}

export type ServiceSamples = Schemas['ServiceSamples'];

/** The service's call in curl, Python, Node.js, PHP and Go, with placeholders for the key and secret. */
export function useServiceSamples(id: number | null) {
  return useQuery({
    queryKey: serviceKeys.samples(id),
    queryFn: () => call(api.GET(SAMPLES_PATH, { params: { path: { id: id! } } })),
    enabled: id !== null,
  });
}

export type SaveStep = 'service' | 'docs' | 'price';

/** A failed save, with the call that failed (the earlier ones were saved). */
export class SaveServiceError extends Error {
  constructor(readonly step: SaveStep, readonly inner: unknown) {
    super(errorMessage(inner));
  }
}

export interface SaveServiceInput {
  /** The service to edit; null to create one. */
  id: number | null;
  service: Schemas['ServiceCreateRequest'] | Schemas['ServicePatchRequest'];
  docs: Schemas['ServiceDocInput'];
  /** Also add this default price (after the docs). */
  price?: Schemas['PriceCreateRequest'];
}

/**
 * Saves a service in up to three calls: create or edit it, put its docs,
 * add its default price. A failure throws SaveServiceError naming the call;
 * `onCreated` hears of a created service at once, so that a retry edits it.
 */
export function useSaveService({ onCreated, ...config }: MutationConfig<{ saved: Service; doc: ServiceDoc }, SaveServiceInput> & {
  onCreated?: (s: Service) => void;
} = {}) {
  return useFeatureMutation({
    mutationFn: async (v: SaveServiceInput) => {
      let step: SaveStep = 'service';
      try {
        let saved: Service;
        if (v.id === null) {
          saved = await call(api.POST(SERVICES_PATH, { body: v.service as Schemas['ServiceCreateRequest'] }));
          onCreated?.(saved);
        } else {
          saved = await call(api.PATCH(SERVICE_PATH, { params: { path: { id: v.id } }, body: v.service }));
        }
        step = 'docs';
        const doc = await call(api.PUT(DOCS_PATH, { params: { path: { id: saved.id } }, body: v.docs }));
        if (v.price) {
          step = 'price';
          await call(api.POST(PRICING_PATH, { params: { path: { id: saved.id } }, body: v.price }));
        }
        return { saved, doc };
      } catch (err) {
        throw new SaveServiceError(step, err);
      }
    },
    onSuccess: (qc, { saved, doc }) => {
      // The docs first: the editor remounts with both when the service's updated_at changes.
      qc.setQueryData(serviceKeys.docs(saved.id), doc);
      qc.setQueryData(serviceKeys.detail(saved.id), saved);
      void qc.invalidateQueries({ queryKey: serviceKeys.samples(saved.id) });
      void qc.invalidateQueries({ queryKey: serviceKeys.all });
      void qc.invalidateQueries({ queryKey: serviceKeys.pricing(saved.id) });
    },
  }, config);
}

export function useDeleteService(config?: MutationConfig<unknown, Service>) {
  return useFeatureMutation({
    mutationFn: (s: Service) => call(api.DELETE(SERVICE_PATH, { params: { path: { id: s.id } } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: serviceKeys.all }),
  }, config);
}

/** A page of the service's pricing rows (the default row first); none while serviceId is null. */
export function useServicePricing(serviceId: number | null, query: PricingQuery) {
  return useQuery({
    queryKey: serviceKeys.pricingPage(serviceId ?? 0, query),
    queryFn: () => call(api.GET(PRICING_PATH, { params: { path: { id: serviceId! }, query } })),
    enabled: serviceId !== null,
  });
}

/** Edits a pricing row (`row`), or adds one to the service. */
export type PriceSave =
  | { row: Price; body: Schemas['PricePatchRequest'] }
  | { row?: undefined; body: Schemas['PriceCreateRequest'] };

export function useSavePrice(serviceId: number, config?: MutationConfig<Price, PriceSave>) {
  return useFeatureMutation({
    mutationFn: (v: PriceSave) => v.row
      ? call(api.PATCH(PRICE_PATH, { params: { path: { id: v.row.id } }, body: v.body }))
      : call(api.POST(PRICING_PATH, { params: { path: { id: serviceId } }, body: v.body })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: serviceKeys.pricing(serviceId) }),
  }, config);
}

/** Deletes a pricing row (by id) of the service. */
export function useDeletePrice(serviceId: number, config?: MutationConfig<unknown, number>) {
  return useFeatureMutation({
    mutationFn: (id: number) => call(api.DELETE(PRICE_PATH, { params: { path: { id } } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: serviceKeys.pricing(serviceId) }),
  }, config);
}

export type Method = Service['method'];

export interface CallResult {
  status: number;
  ok: boolean;
  ms: number;
  requestId: string | null;
  /** The key's daily limit from the RateLimit-* headers; null when the answer has none (the key was not known). */
  rateLimit: { limit: number; remaining: number } | null;
  body: unknown;
}

/** The RateLimit-Limit and RateLimit-Remaining headers as numbers, or null. */
export function rateLimitOf(h: Headers): CallResult['rateLimit'] {
  const limit = h.get('RateLimit-Limit');
  const remaining = h.get('RateLimit-Remaining');
  if (!limit || !remaining || !/^\d+$/.test(limit) || !/^\d+$/.test(remaining)) return null;
  return { limit: Number(limit), remaining: Number(remaining) }; // not money: call counts
}

export interface ServiceCall {
  endpoint: string;
  method: Method;
  call: { query: string; body?: string };
  key: string;
  secret: string;
  /** A built-in gateway service: the secret goes as `Authorization: Bearer <secret>`, the gateway's own form. */
  gateway?: boolean;
}

/** Calls the metered endpoint with the key's credentials (never the panel's token): a gateway service with
 * `Authorization: Bearer <secret>`, any other with the key and secret headers. */
export async function callService({ endpoint, method, call: c, key, secret, gateway }: ServiceCall): Promise<CallResult> {
  const t0 = performance.now();
  const headers: Record<string, string> = gateway
    ? { Authorization: `Bearer ${secret}`, Accept: 'application/json' }
    : { 'X-API-Key': key, 'X-API-Secret': secret, Accept: 'application/json' };
  if (c.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(`${endpoint}${c.query}`, { method, headers, body: c.body });
  } catch (err) {
    throw ApiError.network(err);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: show the text */
  }
  return {
    status: res.status, ok: res.ok, ms: Math.round(performance.now() - t0), requestId: res.headers.get('X-Request-ID'),
    rateLimit: rateLimitOf(res.headers), body,
  };
}

/** The try-it console's call: a real, billed call; whatever it answered, it refreshes what shows money and counters. */
export function useCallService(config?: MutationConfig<CallResult, ServiceCall>) {
  return useFeatureMutation({
    mutationFn: callService,
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: ME_KEY });
      void qc.invalidateQueries({ queryKey: dashboardKeys.all });
      void qc.invalidateQueries({ queryKey: hitLogKeys.all });
      void qc.invalidateQueries({ queryKey: transactionKeys.all });
      void qc.invalidateQueries({ queryKey: keyKeys.all });
    },
  }, config);
}
