// The panel session: the access token (15 min) and the refresh token (30
// days) of POST /auth/login, kept in localStorage so a reload or a second
// tab stays signed in, and the signed-in user. A small external store read
// with useSyncExternalStore (useSession).
import type { TokenResponse, User } from '../api/types';

const STORAGE_KEY = 'paygate.session';
const REFRESH_PATH = '/api/v1/panel/auth/refresh';
const LOGOUT_PATH = '/api/v1/panel/auth/logout';
/** Refresh an access token this long before it expires. */
const EARLY_MS = 20_000;

interface Stored {
  access: string;
  refresh: string;
  /** ms since epoch */
  accessExpiresAt: number;
  user: User;
}

export type SessionStatus = 'signedIn' | 'signedOut';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** True when the session ended by itself (refresh refused), not by signing out. */
  expired: boolean;
}

function read(): Stored | null {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return null;
    const s = JSON.parse(raw) as Stored;
    return s && typeof s.refresh === 'string' && s.user ? s : null;
  } catch {
    return null;
  }
}

function write(s: Stored | null) {
  try {
    if (s) globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(s));
    else globalThis.localStorage?.removeItem(STORAGE_KEY);
  } catch {
    /* private mode: the session lives in memory only */
  }
}

class Session {
  private stored: Stored | null = read();
  private state: SessionState = this.snapshot(false);
  private listeners = new Set<() => void>();
  private refreshing: Promise<string | null> | null = null;

  constructor() {
    globalThis.addEventListener?.('storage', (e: StorageEvent) => {
      if (e.key !== STORAGE_KEY) return;
      // Another tab signed in, refreshed or signed out.
      this.stored = read();
      this.emit(false);
    });
  }

  private snapshot(expired: boolean): SessionState {
    return this.stored
      ? { status: 'signedIn', user: this.stored.user, expired: false }
      : { status: 'signedOut', user: null, expired };
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

  /** Stores the answer of login or refresh. */
  signIn(t: TokenResponse) {
    this.stored = {
      access: t.access_token,
      refresh: t.refresh_token,
      accessExpiresAt: Date.now() + t.expires_in * 1000,
      user: t.user,
    };
    write(this.stored);
    this.emit(false);
  }

  /** Replaces the stored user (after GET or PATCH /auth/me). */
  setUser(user: User) {
    if (!this.stored) return;
    this.stored = { ...this.stored, user };
    write(this.stored);
    this.emit(false);
  }

  /** The access token to send, refreshed first when it is about to expire; null when signed out. */
  async accessToken(): Promise<string | null> {
    const s = this.stored;
    if (!s) return null;
    if (s.accessExpiresAt - EARLY_MS > Date.now()) return s.access;
    return this.refresh(s.access);
  }

  /**
   * Exchanges the refresh token for a new pair, once for any number of
   * concurrent callers. `stale` is the access token that was refused: when
   * another caller has refreshed since, its token is returned at once.
   * Null (and the session expired) when the refresh token is refused.
   */
  refresh(stale: string): Promise<string | null> {
    const s = this.stored;
    if (!s) return Promise.resolve(null);
    if (s.access !== stale && s.accessExpiresAt - EARLY_MS > Date.now()) return Promise.resolve(s.access);
    if (!this.refreshing) {
      this.refreshing = this.doRefresh(s.refresh).finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async doRefresh(refreshToken: string): Promise<string | null> {
    let res: Response;
    try {
      res = await globalThis.fetch(new Request(new URL(REFRESH_PATH, globalThis.location?.origin ?? 'http://localhost'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      }));
    } catch {
      return null; // offline: keep the session, the call fails with its own error
    }
    if (res.ok) {
      this.signIn((await res.json()) as TokenResponse);
      return this.stored!.access;
    }
    // Another tab may have rotated the token a moment ago: adopt its pair.
    const other = read();
    if (other && other.refresh !== refreshToken) {
      this.stored = other;
      this.emit(false);
      return other.access;
    }
    if (res.status === 401 || res.status === 422) this.expire();
    return null;
  }

  /** Ends the session because the server refused it: the app shows /login?next=… */
  expire() {
    this.stored = null;
    write(null);
    this.emit(true);
  }

  /** For tests: signed out, not expired, no call to the API. */
  resetForTests() {
    this.stored = null;
    this.refreshing = null;
    write(null);
    this.emit(false);
  }

  /** Signs out: revokes the refresh token (best effort) and forgets the session. */
  async signOut() {
    const s = this.stored;
    this.stored = null;
    write(null);
    this.emit(false);
    if (!s) return;
    try {
      await globalThis.fetch(new Request(new URL(LOGOUT_PATH, globalThis.location?.origin ?? 'http://localhost'), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${s.access}` },
        body: JSON.stringify({ refresh_token: s.refresh }),
      }));
    } catch {
      /* the refresh token expires by itself */
    }
  }
}

export const session = new Session();
