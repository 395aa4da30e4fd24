// Dates in the service's configured time zone (TIMEZONE, default
// Asia/Kolkata). The Go server writes it into index.html as
// <meta name="paygate-timezone" content="…">; the dev server has no such tag
// and falls back to Asia/Kolkata.

export const DEFAULT_TIME_ZONE = 'Asia/Kolkata';

let cached: string | null = null;

export function getTimeZone(): string {
  if (cached) return cached;
  const meta = globalThis.document?.querySelector<HTMLMetaElement>('meta[name="paygate-timezone"]');
  const tz = meta?.content?.trim();
  cached = tz && isValidTimeZone(tz) ? tz : DEFAULT_TIME_ZONE;
  return cached;
}

/** For tests: forget the cached zone (or force one). */
export function setTimeZoneForTests(tz: string | null) {
  cached = tz;
}

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-IN', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

type Input = string | Date | null | undefined;

function toDate(v: Input): Date | null {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

const fmt = (opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-IN', { timeZone: getTimeZone(), ...opts });

/** "21 Nov 2026, 3:30 pm" in the service's zone; "—" for null. */
export function formatDateTime(v: Input): string {
  const d = toDate(v);
  if (!d) return '—';
  return fmt({ day: '2-digit', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }).format(d);
}

/** "21 Nov 2026" in the service's zone. A bare "YYYY-MM-DD" (a local day of the API) is shown as is. */
export function formatDate(v: Input): string {
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const [y, m, d] = v.split('-');
    return new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', day: '2-digit', month: 'short', year: 'numeric' }).format(
      new Date(Date.UTC(+y!, +m! - 1, +d!)),
    );
  }
  const d = toDate(v);
  return d ? fmt({ day: '2-digit', month: 'short', year: 'numeric' }).format(d) : '—';
}

/** A local day ("YYYY-MM-DD") of the service's zone: today, or the day of v. For the API's from/to filters. */
export function localDay(v: Input = new Date()): string {
  const d = toDate(v) ?? new Date();
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: getTimeZone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
}
