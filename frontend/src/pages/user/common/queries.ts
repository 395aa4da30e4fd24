// Small lists several user screens need (service names, the caller's keys).
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api/client';

export const SERVICES_PATH = '/api/v1/panel/services';
export const KEYS_PATH = '/api/v1/panel/api-keys';
const ALL = { page: 1, per_page: 100 };

/** The first 100 services the caller may see (active ones for users), for names and pickers. */
export function useAllServices() {
  return useQuery({
    queryKey: [SERVICES_PATH, ALL],
    queryFn: () => call(api.GET(SERVICES_PATH, { params: { query: ALL } })),
    staleTime: 60_000,
  });
}

/** The caller's first 100 API keys, for pickers. */
export function useAllKeys() {
  return useQuery({
    queryKey: [KEYS_PATH, ALL],
    queryFn: () => call(api.GET(KEYS_PATH, { params: { query: ALL } })),
  });
}
