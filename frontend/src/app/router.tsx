import { Outlet, createBrowserRouter, useRouteError, type RouteObject } from 'react-router';
import { publicScreens, screens, type Screen } from './routes';
import { Landing, RequireAuth, RequireRole } from './guards';
import { ScreenPage } from './ScreenPage';
import { ErrorState, Loading } from '../components/States';

// Screens and the shell are loaded by the router (route `lazy`) before it
// renders them: the first screen appears with its data's loading state, not
// after a Suspense fallback that React holds for ~300 ms; a link keeps the
// current screen until the next one's chunk is in (the header shows a loader).

function screenRoute(s: Screen, guarded: boolean): RouteObject {
  return {
    path: s.path,
    lazy: async () => {
      const { default: Page } = await s.load();
      const Component = guarded
        ? () => <RequireRole roles={s.roles}><ScreenPage screen={s} Page={Page} /></RequireRole>
        : () => <ScreenPage screen={s} Page={Page} />;
      return { Component };
    },
  };
}

/** A route that failed to load (a chunk of an older build, no network) or threw. */
function RouteError() {
  const err = useRouteError();
  return <ErrorState title="This page could not be shown" error={err} onRetry={() => window.location.reload()} />;
}

export const routeObjects: RouteObject[] = [
  {
    element: <Outlet />,
    hydrateFallbackElement: <Loading />,
    errorElement: <RouteError />,
    children: [
      ...publicScreens.map((s) => screenRoute(s, false)),
      {
        element: <RequireAuth><Outlet /></RequireAuth>,
        children: [
          {
            lazy: async () => ({ Component: (await import('./Shell')).default }),
            children: [
              { path: '/', element: <Landing /> },
              ...screens.map((s) => screenRoute(s, true)),
              { path: '*', lazy: async () => ({ Component: (await import('../pages/NotFound')).default }) },
            ],
          },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routeObjects);
}
