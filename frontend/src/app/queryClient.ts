import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/** The app's query client; tests pass `retryDelay: 0` (same retries, no waiting). */
export function createQueryClient({ retryDelay }: { retryDelay?: number } = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Offline, a request is tried and fails at once ("could not be
        // reached"): TanStack Query's default ('online') would pause it, spin
        // for ever and send it later on its own.
        networkMode: 'always',
        // Retry only what may pass on a second try: no answer, or a 5xx.
        retry: (count, err) => count < 2 && (!(err instanceof ApiError) || err.status === 0 || err.status >= 500),
        ...(retryDelay !== undefined && { retryDelay }),
      },
      // A mutation is never sent on its own later: offline it fails now and
      // the user decides to send it again.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
