import { useSyncExternalStore } from 'react';
import { session, type SessionState } from './session';
import type { Role, User } from '../api/types';

/** The session state; re-renders on sign-in, refresh of the user, sign-out and expiry. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}

/** The signed-in user; only inside the signed-in part of the app (under RequireAuth). */
export function useUser(): User {
  const { user } = useSession();
  if (!user) throw new Error('useUser outside a signed-in route');
  return user;
}

export function isAdmin(user: Pick<User, 'role'> | null | undefined): boolean {
  return user?.role === 'admin';
}

/** Where a user lands after signing in when no ?next= says otherwise. */
export function landingPath(role: Role): string {
  return role === 'admin' ? '/admin' : '/dashboard';
}

/** A safe ?next= target: a path of this app, never another origin. */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  if (next.startsWith('/login')) return null;
  return next;
}
