// Money stays the API's decimal string from end to end: it is formatted,
// never parsed into a float (src/lib/no-float-money.test.ts enforces this).

const DECIMAL = /^-?\d+(\.\d+)?$/;
const formatters = new Map<number, Intl.NumberFormat>();

function formatter(maxFraction: number): Intl.NumberFormat {
  let f = formatters.get(maxFraction);
  if (!f) {
    f = new Intl.NumberFormat('en-IN', {
      style: 'currency',
      currency: 'INR',
      minimumFractionDigits: 2,
      maximumFractionDigits: maxFraction,
    });
    formatters.set(maxFraction, f);
  }
  return f;
}

/**
 * Formats an API amount ("1234567.50", "0.5000", "-0.2500") as INR with
 * Indian digit grouping: "₹12,34,567.50". Keeps up to 4 decimal places the
 * string has ("0.0125" → "₹0.0125"), trims zeros beyond 2 ("0.5000" →
 * "₹0.50"). The string goes to Intl as a string (exact decimal), never
 * through a float. Anything that is not a decimal string is returned as is;
 * null/undefined/"" give "—".
 */
export function formatINR(s: string | null | undefined): string {
  if (s === null || s === undefined || s === '') return '—';
  const v = s.trim();
  if (!DECIMAL.test(v)) return s;
  const places = v.includes('.') ? v.length - v.indexOf('.') - 1 : 0;
  return formatter(Math.min(Math.max(places, 2), 4)).format(v as Intl.StringNumericLiteral);
}

/** True when s is a plain decimal string ("12", "12.50", "-0.25"). */
export function isDecimalString(s: string): boolean {
  return DECIMAL.test(s.trim());
}

/** Sign of a decimal string without parsing it: -1, 0 or 1. */
export function signOf(s: string): -1 | 0 | 1 {
  const v = s.trim();
  if (!DECIMAL.test(v)) return 0;
  if (/^-?0+(\.0+)?$/.test(v)) return 0;
  return v.startsWith('-') ? -1 : 1;
}

/**
 * An amount as a chart coordinate (a bar's height, a line's point): the one
 * place where money becomes a number, and only for geometry. Nothing shown
 * or computed comes from it; every amount a person reads, tooltips included,
 * is formatINR of the API's string. Not a decimal string → 0.
 */
export function chartNumber(s: string | null | undefined): number {
  if (s === null || s === undefined || !DECIMAL.test(s.trim())) return 0;
  return Number(s); // not money: a chart coordinate only (see above)
}

const axisFormatter = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** A chart axis tick for a chartNumber ("₹1.2L"): a scale mark, never an amount read as such. */
export function chartAxisINR(n: number): string {
  return axisFormatter.format(n);
}

/**
 * Compares two non-negative or negative decimal strings exactly (digit by
 * digit, never through a float): -1 when a < b, 0 when equal, 1 when a > b.
 * null when either is not a decimal string.
 */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 | null {
  const x = a.trim();
  const y = b.trim();
  if (!DECIMAL.test(x) || !DECIMAL.test(y)) return null;
  const sx = signOf(x);
  const sy = signOf(y);
  if (sx !== sy) return sx < sy ? -1 : 1;
  if (sx === 0) return 0;
  const abs = compareAbs(x.replace(/^-/, ''), y.replace(/^-/, ''));
  return (sx < 0 ? -abs : abs) as -1 | 0 | 1;
}

function compareAbs(x: string, y: string): -1 | 0 | 1 {
  const [xi = '', xf = ''] = x.split('.');
  const [yi = '', yf = ''] = y.split('.');
  const i1 = xi.replace(/^0+/, '');
  const i2 = yi.replace(/^0+/, '');
  if (i1.length !== i2.length) return i1.length < i2.length ? -1 : 1;
  const places = Math.max(xf.length, yf.length);
  const d1 = i1 + xf.padEnd(places, '0');
  const d2 = i2 + yf.padEnd(places, '0');
  return d1 === d2 ? 0 : d1 < d2 ? -1 : 1;
}
