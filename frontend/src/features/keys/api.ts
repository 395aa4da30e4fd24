// The caller's API keys (GET/POST /api-keys, PATCH/DELETE /api-keys/{id},
// POST /api-keys/{id}/rotate-secret). Every change invalidates keyKeys.all:
// the keys screen, the pickers (useAllKeys) and the try-it console.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { Schemas } from '../../api/types';
import type { ListParams } from '../../lib/listParams';
import { useListQuery } from '../../lib/listQuery';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';

const KEYS_PATH = '/api/v1/panel/api-keys';
const ALL = { page: 1, per_page: 100 };

type Key = Schemas['ApiKey'];
type KeyWithSecret = Schemas['ApiKeyWithSecret'];
export type KeyBody = Schemas['ApiKeyCreateRequest'];
export type KeyPatch = Schemas['ApiKeyPatchRequest'];

export const keyKeys = {
  all: [KEYS_PATH] as const,
  list: (query: object) => [KEYS_PATH, query] as const,
};

export const allKeysQuery = () => queryOptions({
  queryKey: keyKeys.list(ALL),
  queryFn: () => call(api.GET(KEYS_PATH, { params: { query: ALL } })),
});

/** The keys screen's page. */
export function useKeys<F extends Record<string, string>>(list: ListParams<F>) {
  return useListQuery(KEYS_PATH, list);
}

/** The caller's first 100 API keys, for pickers. */
export function useAllKeys() {
  return useQuery(allKeysQuery());
}

/** Creates a key; the answer carries its secret, shown once. */
export function useCreateKey(config?: MutationConfig<KeyWithSecret, KeyBody>) {
  return useFeatureMutation({
    mutationFn: (body: KeyBody) => call(api.POST(KEYS_PATH, { body })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: keyKeys.all }),
  }, config);
}

/** Saves a key's name and restrictions. */
export function useUpdateKey(config?: MutationConfig<Key, { id: number; body: KeyPatch }>) {
  return useFeatureMutation({
    mutationFn: ({ id, body }: { id: number; body: KeyPatch }) => call(api.PATCH('/api/v1/panel/api-keys/{id}', { params: { path: { id } }, body })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: keyKeys.all }),
  }, config);
}

/** A new secret for the key (the old one stops at once); shown once. */
export function useRotateKeySecret(config?: MutationConfig<KeyWithSecret, Key>) {
  return useFeatureMutation({
    mutationFn: (k: Key) => call(api.POST('/api/v1/panel/api-keys/{id}/rotate-secret', { params: { path: { id: k.id } } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: keyKeys.all }),
  }, config);
}

export function useRevokeKey(config?: MutationConfig<Key, Key>) {
  return useFeatureMutation({
    mutationFn: (k: Key) => call(api.DELETE('/api/v1/panel/api-keys/{id}', { params: { path: { id: k.id } } })),
    onSuccess: (qc) => void qc.invalidateQueries({ queryKey: keyKeys.all }),
  }, config);
}
