// The mutations of src/features/*/api.ts: the feature owns the call and the
// cache updates that follow it (invalidations, setQueryData); the screen adds
// what it shows (notifications, navigation, form state) through `config`:
//   const revoke = useRevokeKey({ onSuccess: (k) => notifications.show(…), onError: … });
import { useMutation, useQueryClient, type QueryClient, type UseMutationOptions } from '@tanstack/react-query';

/** What a screen may pass to a feature's mutation hook: its own callbacks and options, not the call. */
export type MutationConfig<TData, TVars> = Omit<UseMutationOptions<TData, Error, TVars>, 'mutationFn'>;

export interface FeatureMutation<TData, TVars> {
  mutationFn: (vars: TVars) => Promise<TData>;
  /** The feature's cache updates, run before the screen's onSuccess. */
  onSuccess?: (qc: QueryClient, data: TData, vars: TVars) => void;
  /** The feature's cache updates after a failure, run before the screen's onError. */
  onError?: (qc: QueryClient, err: Error, vars: TVars) => void;
}

/** useMutation with the feature's call and cache updates first, then the screen's callbacks. */
export function useFeatureMutation<TData, TVars = void>(feature: FeatureMutation<TData, TVars>, config: MutationConfig<TData, TVars> = {}) {
  const qc = useQueryClient();
  return useMutation<TData, Error, TVars>({
    ...config,
    mutationFn: feature.mutationFn,
    onSuccess: (...args) => {
      feature.onSuccess?.(qc, args[0], args[1]);
      return config.onSuccess?.(...args);
    },
    onError: (...args) => {
      feature.onError?.(qc, args[0], args[1]);
      return config.onError?.(...args);
    },
  });
}
