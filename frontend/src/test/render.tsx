// Renders a component the way the app does (Mantine, Query, a memory
// router), for component tests:
//   renderWithApp(<Login />, { path: '/login', url: '/login?next=/api-keys' })
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers } from '../app/App';
import { createQueryClient } from '../app/queryClient';

export function renderWithApp(ui: ReactElement, opts: { path?: string; url?: string; routes?: RouteObject[] } = {}) {
  const path = opts.path ?? '/';
  const router = createMemoryRouter(
    [{ path, element: ui }, ...(opts.routes ?? []), { path: '*', element: <div data-testid="location" /> }],
    { initialEntries: [opts.url ?? path] },
  );
  const queryClient = createQueryClient({ retryDelay: 0 });
  const utils = render(
    <Providers queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...utils, router, queryClient };
}

/** A JSON Response for a stubbed fetch. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
