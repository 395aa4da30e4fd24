// The calendar of a subscription, as "Plan and billing" words it.

/** Days a past-due fee may wait before the account moves to the default plan (docs/decisions.md, "Plans that bill"). */
export const GRACE_DAYS = 7;

/** "2026-11" (a subscription period) → "November 2026"; anything else as is. */
export function monthOf(period: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(period);
  if (!m) return period;
  return new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(new Date(Date.UTC(+m[1]!, +m[2]! - 1, 1)));
}
