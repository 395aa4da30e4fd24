import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';
import { session } from './session';

export const ME_KEY = ['me'] as const;

/**
 * GET /auth/me: the caller with a fresh balance. Keeps the session's copy
 * of the user in step. Invalidate ME_KEY after anything that moves money.
 */
export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => {
      const me = await call(api.GET('/api/v1/panel/auth/me'));
      session.setUser(me);
      return me;
    },
    staleTime: 15_000,
  });
}
