// The typed API client. Every call goes through authFetch: it adds the
// access token, refreshes it once on a 401 and retries; when the refresh
// fails too, the session expires and the app returns to /login?next=…
import createClient from 'openapi-fetch';
import type { paths } from './schema.gen';
import { ApiError } from './errors';
import { session } from '../auth/session';

const AUTH_PATHS = ['/api/v1/panel/auth/login', '/api/v1/panel/auth/refresh', '/api/v1/panel/auth/register'];

function origin(): string {
  return globalThis.location?.origin ?? 'http://localhost';
}

/** fetch with the panel's bearer token, one refresh-and-retry on 401. */
export async function authFetch(input: Request): Promise<Response> {
  const retry = input.clone();
  const token = await session.accessToken();
  if (token) input.headers.set('Authorization', `Bearer ${token}`);
  let res: Response;
  try {
    res = await globalThis.fetch(input);
  } catch (err) {
    throw ApiError.network(err);
  }
  const path = new URL(input.url).pathname;
  if (res.status !== 401 || !token || AUTH_PATHS.includes(path)) return res;
  const fresh = await session.refresh(token);
  if (!fresh) return res; // the session has expired: the app goes to /login
  retry.headers.set('Authorization', `Bearer ${fresh}`);
  try {
    res = await globalThis.fetch(retry);
  } catch (err) {
    throw ApiError.network(err);
  }
  if (res.status === 401) session.expire();
  return res;
}

/** The API client: `await call(api.GET('/api/v1/panel/auth/me'))`. */
export const api = createClient<paths>({ baseUrl: origin(), fetch: authFetch });

/**
 * The typed client for the gateway's own endpoints, called with an API key's
 * secret (`headers: { Authorization: 'Bearer <secret>' }`), never with the
 * panel's token: a panel session alone cannot move money out.
 */
export const gatewayApi = createClient<paths>({
  baseUrl: origin(),
  fetch: async (input: Request) => {
    try {
      return await globalThis.fetch(input);
    } catch (err) {
      throw ApiError.network(err);
    }
  },
});

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * Unwraps an openapi-fetch result: the data, or an ApiError thrown with the
 * error body's message, code and field errors. Use it in queryFn/mutationFn.
 */
export async function call<T>(p: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await p;
  if (!response.ok || error !== undefined) throw ApiError.from(response.status, error);
  return data as T;
}

/**
 * call() for the endpoints that answer JSON or, on request, text/csv (the
 * history lists: transactions, hit logs): openapi-fetch types their data as
 * `string | List`. This gives the JSON type, and an ApiError if a CSV came.
 */
export async function callJSON<T>(p: Promise<Result<T>>): Promise<Exclude<T, string>> {
  const data = await call(p);
  if (typeof data === 'string') throw new ApiError(0, 'unexpected_csv', 'The server answered CSV where the panel expected JSON');
  return data as Exclude<T, string>;
}

/** GET a path with authFetch as a Blob (CSV exports, screenshots). */
export async function fetchBlob(path: string, query?: Record<string, QueryValue>): Promise<{ blob: Blob; filename?: string }> {
  const res = await authFetch(new Request(withQuery(new URL(path, origin()).toString(), query)));
  if (!res.ok) {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    throw ApiError.from(res.status, body);
  }
  const cd = res.headers.get('Content-Disposition') ?? '';
  const m = /filename="?([^";]+)"?/i.exec(cd);
  return { blob: await res.blob(), filename: m?.[1] };
}

export type QueryValue = string | number | boolean | null | undefined;

/** Appends the non-empty values of query to url. */
export function withQuery(url: string, query?: Record<string, QueryValue>): string {
  if (!query) return url;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    qs.set(k, String(v));
  }
  const s = qs.toString();
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url;
}
