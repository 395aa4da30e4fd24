import { useEffect, useState, type ReactNode } from 'react';
import { RouterProvider } from 'react-router';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createQueryClient } from './queryClient';
import { createRouter } from './router';
import { cssVariablesResolver, theme } from './theme';
import { session } from '../auth/session';

/**
 * Mantine, modals, notifications and TanStack Query: what every screen (and
 * every component test) runs inside. env="test" (component tests) turns off
 * Mantine's transitions and portals.
 */
export function Providers({ children, queryClient, env }: { children: ReactNode; queryClient: QueryClient; env?: 'test' }) {
  useEffect(
    // Signed out or expired: nothing cached for one user may show to the next.
    () => session.subscribe(() => {
      if (session.getState().status === 'signedOut') queryClient.clear();
    }),
    [queryClient],
  );
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light" env={env}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

export function App({ router: given }: { router?: ReturnType<typeof createRouter> } = {}) {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => given ?? createRouter());
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
