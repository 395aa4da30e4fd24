// Checks of the amounts an admin types, as the API's input patterns
// (Money2Input, Money4Input). The string is sent as typed: never a float.
export const MONEY2 = /^[0-9]+(\.[0-9]{1,2})?$/;
export const MONEY4 = /^[0-9]+(\.[0-9]{1,4})?$/;

/** A form validator for an amount with at most `places` decimals; `positive` refuses 0. */
export function amountError(v: string, places: 2 | 4, { positive = false, optional = false } = {}): string | null {
  const s = v.trim();
  if (!s) return optional ? null : 'Enter an amount';
  if (!(places === 2 ? MONEY2 : MONEY4).test(s)) return `Enter an amount like 10${places === 2 ? '.50' : '.2500'} (at most ${places} decimals)`;
  if (positive && /^0+(\.0+)?$/.test(s)) return 'Enter an amount above 0';
  return null;
}
