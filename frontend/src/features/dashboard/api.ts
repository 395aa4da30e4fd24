// The dashboard (GET /dashboard): the caller's figures, and for an admin the
// platform's too. Anything that moves money or counts calls invalidates
// dashboardKeys.all.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';

const DASHBOARD_PATH = '/api/v1/panel/dashboard';

export const dashboardKeys = {
  all: [DASHBOARD_PATH] as const,
};

export const dashboardQuery = () => queryOptions({
  queryKey: dashboardKeys.all,
  queryFn: () => call(api.GET(DASHBOARD_PATH)),
});

/** The dashboard; `refetchInterval` for the admin's screen, which stays open. */
export function useDashboard({ refetchInterval }: { refetchInterval?: number } = {}) {
  return useQuery({ ...dashboardQuery(), ...(refetchInterval !== undefined && { refetchInterval }) });
}
