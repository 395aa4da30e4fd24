// The panel session: the access token (15 min) and the signed-in user, in
// memory only. No token is ever written to localStorage or sessionStorage:
// the refresh token is an HttpOnly cookie (Path=/api/v1/panel/auth) that
// POST /auth/login and /auth/refresh set and /auth/logout clears, which no
// script can read. After a reload, restore() gets a new access token through
// that cookie. A small external store read with useSyncExternalStore
// (useSession).
import type { TokenResponse, User } from '../api/types';

const REFRESH_PATH = '/api/v1/panel/auth/refresh';
const LOGOUT_PATH = '/api/v1/panel/auth/logout';
/** Refresh an access token this long before it expires. */
const EARLY_MS = 20_000;
/** Tabs of one browser share the cookie: their refreshes take turns under this lock. */
const REFRESH_LOCK = 'paygate.refresh';
/** Tabs tell each other about a sign-out on this channel. */
const CHANNEL = 'paygate.session';

interface Current {
  access: string;
  /** ms since epoch */
  accessExpiresAt: number;
  user: User;
}

/** restoring: a reload is asking the server (through the cookie) whether the browser is still signed in. */
export type SessionStatus = 'restoring' | 'signedIn' | 'signedOut';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** True when the session ended by itself (refresh refused), not by signing out. */
  expired: boolean;
}

/**
 * The server sets a secret-free, script-readable `paygate_session=1` beside
 * the HttpOnly refresh cookie (and clears both together): without it a page
 * load knows nobody is signed in and sends no refresh that can only fail.
 */
function mayHaveSession(): boolean {
  const cookie = globalThis.document?.cookie;
  return cookie === undefined || /(?:^|;\s*)paygate_session=1(?:;|$)/.test(cookie);
}

function url(path: string): URL {
  return new URL(path, globalThis.location?.origin ?? 'http://localhost');
}

/**
 * Runs fn under the browser-wide refresh lock (Web Locks), so two tabs never
 * present one refresh token at once: the server treats a second
 * presentation of a rotated token as theft and ends the session.
 */
function underRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? (locks.request(REFRESH_LOCK, fn) as Promise<T>) : fn();
}

class Session {
  private current: Current | null = null;
  private restoring = false;
  private state: SessionState = this.snapshot(false);
  private listeners = new Set<() => void>();
  private refreshing: Promise<string | null> | null = null;
  private channel: BroadcastChannel | null = null;

  constructor() {
    try {
      this.channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
    } catch {
      this.channel = null;
    }
    // Node's channel (tests) would keep the process alive.
    (this.channel as unknown as { unref?: () => void } | null)?.unref?.();
    this.channel?.addEventListener('message', (e: MessageEvent) => {
      // Another tab signed out: the session (and the cookie) are gone.
      if (e.data === 'signed-out' && this.current) {
        this.current = null;
        this.emit(false);
      }
    });
  }

  private snapshot(expired: boolean): SessionState {
    if (this.current) return { status: 'signedIn', user: this.current.user, expired: false };
    if (this.restoring) return { status: 'restoring', user: null, expired: false };
    return { status: 'signedOut', user: null, expired };
  }

  private emit(expired: boolean) {
    this.state = this.snapshot(expired);
    for (const l of this.listeners) l();
  }

  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };

  getState = (): SessionState => this.state;

  /** Keeps the answer of login or refresh; its refresh_token (if any) is ignored: the cookie carries it. */
  signIn(t: TokenResponse) {
    this.current = { access: t.access_token, accessExpiresAt: Date.now() + t.expires_in * 1000, user: t.user };
    this.restoring = false;
    this.emit(false);
  }

  /** Replaces the user (after GET or PATCH /auth/me). */
  setUser(user: User) {
    if (!this.current) return;
    this.current = { ...this.current, user };
    this.emit(false);
  }

  /**
   * After a page load: asks for an access token with the refresh cookie.
   * Until it answers the state is 'restoring'; then signed in, or signed
   * out (expired when a cookie was there but refused).
   */
  async restore(): Promise<void> {
    if (this.current || this.restoring) return;
    if (!mayHaveSession()) {
      this.emit(false); // signed out, nothing asked
      return;
    }
    this.restoring = true;
    this.emit(false);
    await this.refresh('');
    if (this.restoring) {
      this.restoring = false;
      this.emit(this.state.expired);
    }
  }

  /** The access token to send, refreshed first when it is about to expire; null when signed out. */
  async accessToken(): Promise<string | null> {
    const s = this.current;
    if (!s) return this.refreshing ?? null;
    if (s.accessExpiresAt - EARLY_MS > Date.now()) return s.access;
    return this.refresh(s.access);
  }

  /**
   * Exchanges the refresh cookie for a new access token, once for any number
   * of concurrent callers. `stale` is the access token that was refused: when
   * another caller has refreshed since, its token is returned at once.
   * Null (and the session expired) when the refresh is refused.
   */
  refresh(stale: string): Promise<string | null> {
    const s = this.current;
    if (!s && !this.restoring) return Promise.resolve(null);
    if (s && s.access !== stale && s.accessExpiresAt - EARLY_MS > Date.now()) return Promise.resolve(s.access);
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<string | null> {
    let res: Response;
    try {
      // No body: the server reads the HttpOnly cookie. keepalive: a reload
      // while this is in flight must not drop the answer, whose cookie
      // carries the rotated token (the old one, presented again, would end
      // the session as a stolen copy).
      res = await underRefreshLock(() =>
        globalThis.fetch(new Request(url(REFRESH_PATH), { method: 'POST', credentials: 'same-origin', keepalive: true })),
      );
    } catch {
      return null; // offline: keep the session, the call fails with its own error
    }
    if (res.ok) {
      this.signIn((await res.json()) as TokenResponse);
      return this.current!.access;
    }
    // 401: the cookie was refused (expired, revoked, or a rotated copy);
    // 422: there is none.
    if (res.status === 401) this.expire();
    else if (res.status === 422) this.end(false);
    return null;
  }

  private end(expired: boolean) {
    this.current = null;
    this.restoring = false;
    this.emit(expired);
  }

  /** Ends the session because the server refused it: the app shows /login?next=… */
  expire() {
    this.end(true);
  }

  /** For tests: signed out, not expired, no call to the API. */
  resetForTests() {
    this.refreshing = null;
    this.end(false);
  }

  /** Signs out: ends the session on the server (which clears the cookie), then forgets it here and in other tabs. */
  async signOut() {
    const token = this.current ? await this.accessToken() : null;
    this.end(false);
    this.channel?.postMessage('signed-out');
    if (!token) return;
    try {
      await globalThis.fetch(new Request(url(LOGOUT_PATH), {
        method: 'POST',
        credentials: 'same-origin',
        keepalive: true, // the app navigates to /login at once
        headers: { Authorization: `Bearer ${token}` },
      }));
    } catch {
      /* the refresh token expires by itself */
    }
  }
}

export const session = new Session();
