import { lazy, Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { publicScreens, screens } from './routes';
import { Landing, RequireAuth, RequireRole } from './guards';
import { ScreenPage } from './ScreenPage';
import { Loading } from '../components/States';

const Shell = lazy(() => import('./Shell'));
const NotFound = lazy(() => import('../pages/NotFound'));

export const routeObjects: RouteObject[] = [
  ...publicScreens.map((s) => ({ path: s.path, element: <ScreenPage screen={s} /> })),
  {
    element: (
      <RequireAuth>
        <Suspense fallback={<Loading />}>
          <Shell />
        </Suspense>
      </RequireAuth>
    ),
    children: [
      { path: '/', element: <Landing /> },
      ...screens.map((s) => ({
        path: s.path,
        element: (
          <RequireRole roles={s.roles}>
            <ScreenPage screen={s} />
          </RequireRole>
        ),
      })),
      { path: '*', element: <Suspense fallback={<Loading />}><NotFound /></Suspense> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routeObjects);
}
