import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession, landingPath } from '../auth/useSession';
import type { Role } from '../api/types';
import { ErrorState, Loading } from '../components/States';

/**
 * Signed-in routes. Signed out (never signed in, signed out, or the session
 * expired) → /login?next=<this path>, so that after signing in the user
 * comes back here. While a reload restores the session through the refresh
 * cookie, a loader.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, expired } = useSession();
  const loc = useLocation();
  if (status === 'restoring') return <Loading label="Signing in…" />;
  if (status !== 'signedIn') {
    const here = loc.pathname + loc.search;
    const qs = new URLSearchParams();
    if (here !== '/') qs.set('next', here);
    if (expired) qs.set('expired', '1');
    const s = qs.toString();
    return <Navigate to={s ? `/login?${s}` : '/login'} replace />;
  }
  return <>{children}</>;
}

/** A screen for some roles only: others get a 403 message (the API would refuse them anyway). */
export function RequireRole({ roles, children }: { roles?: Role[]; children: ReactNode }) {
  const { user } = useSession();
  if (roles && user && !roles.includes(user.role)) {
    return <ErrorState title="Not allowed" error={new Error('This page is for administrators.')} />;
  }
  return <>{children}</>;
}

/** "/" → the role's landing page. */
export function Landing() {
  const { user, status } = useSession();
  if (status === 'restoring') return <Loading label="Signing in…" />;
  return <Navigate to={user ? landingPath(user.role) : '/login'} replace />;
}
