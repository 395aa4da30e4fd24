/** Parses a numeric id from a route parameter; null when it is not a positive integer. Ids are not money. */
export function parseId(s: string | undefined | null): number | null {
  if (!s || !/^[1-9]\d{0,15}$/.test(s)) return null;
  return parseInt(s, 10); // not money
}
