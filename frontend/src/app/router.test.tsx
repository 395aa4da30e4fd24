import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { Providers } from './App';
import { createQueryClient } from './queryClient';
import { routeObjects } from './router';

function renderRoutes(url: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [url] });
  render(<Providers queryClient={createQueryClient({ retryDelay: 0 })} env="test"><RouterProvider router={router} /></Providers>);
  return router;
}

describe('the route table', () => {
  it('loads a screen through the router (no Suspense fallback) and guards the signed-in ones', async () => {
    const router = renderRoutes('/api-keys?page=2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?next=%2Fapi-keys%3Fpage%3D2');
    await waitFor(() => expect(document.title).toBe('Sign in · Paygate'));
  });
});
