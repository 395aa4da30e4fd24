import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/errors';

/** The app's query client; tests pass `retryDelay: 0` (same retries, no waiting). */
export function createQueryClient({ retryDelay }: { retryDelay?: number } = {}) {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Retry only what may pass on a second try: no answer, or a 5xx.
        retry: (count, err) => count < 2 && (!(err instanceof ApiError) || err.status === 0 || err.status >= 500),
        ...(retryDelay !== undefined && { retryDelay }),
      },
      mutations: { retry: false },
    },
  });
}
