// The try-it console's form, generated from a service's request_params
// (ParamSpec: type, required, description, max_length, pattern), checked the
// way the API checks a call (core/catalog/params.go), and turned into the
// call: a query string for GET/DELETE services, a JSON body for POST/PUT.
// Values stay the text the user typed: numbers go into the JSON as written,
// never through a float.
import type { Schemas } from '../../../api/types';

export type ParamSpec = Schemas['ParamSpec'];
export type ParamType = Schemas['ParamType'];

export interface Field {
  name: string;
  type: ParamType;
  required: boolean;
  description?: string;
  maxLength?: number;
  pattern?: string;
  /** When the pattern only lists literal choices (^(a|b|c)$), the choices: the form shows a select. */
  choices?: string[];
}

const LITERAL = /^[A-Za-z0-9_.@ -]+$/;

/** The literal choices of a pattern like ^(upi|imps)$ or ^(?:a|b)$; null for any other pattern. */
export function choicesOf(pattern: string | undefined): string[] | null {
  if (!pattern) return null;
  const m = /^\^\((?:\?:)?([^()]*)\)\$$/.exec(pattern);
  if (!m) return null;
  const parts = m[1]!.split('|');
  if (parts.length < 2 || !parts.every((p) => LITERAL.test(p) && !/[.]/.test(p))) return null;
  return parts;
}

/** The form's fields: required ones first, then by name. */
export function fieldsFromSpecs(specs: Record<string, ParamSpec> | null | undefined): Field[] {
  return Object.entries(specs ?? {})
    .map(([name, s]) => {
      const choices = s.type === 'string' ? choicesOf(s.pattern) : null;
      return {
        name,
        type: s.type,
        required: s.required,
        description: s.description || undefined,
        maxLength: s.max_length,
        pattern: s.pattern,
        ...(choices ? { choices } : {}),
      };
    })
    .sort((a, b) => (a.required === b.required ? a.name.localeCompare(b.name) : a.required ? -1 : 1));
}

/** A service without documented request_params: its parameter list, every entry optional (as the API checks it). */
export function fieldsFromParameters(parameters: Record<string, ParamType> | null | undefined): Field[] {
  return fieldsFromSpecs(Object.fromEntries(Object.entries(parameters ?? {}).map(([n, t]) => [n, { type: t, required: false }])));
}

const INTEGER = /^-?\d+$/;
const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null; // an RE2 feature JS lacks: leave the check to the API
  }
}

/** The message for one value, as the API would give it; null when fine. */
export function checkField(f: Field, raw: string): string | null {
  const v = f.type === 'string' ? raw : raw.trim();
  if (v === '') return f.required ? 'is required' : null;
  switch (f.type) {
    case 'string':
    case 'date': {
      if (f.maxLength !== undefined && [...v].length > f.maxLength) return `must be at most ${f.maxLength} characters`;
      if (f.type === 'date' && (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))) return 'must be a date as YYYY-MM-DD';
      if (f.pattern) {
        const re = compile(f.pattern);
        if (re && !re.test(v)) return 'has an invalid format';
      }
      return null;
    }
    case 'integer':
      return INTEGER.test(v) ? null : 'must be an integer';
    case 'number':
      return JSON_NUMBER.test(v) ? null : 'must be a number';
    case 'boolean':
      return v === 'true' || v === 'false' ? null : 'must be true or false';
    default:
      return null;
  }
}

/** Every field's message (only the fields that have one). */
export function checkAll(fields: Field[], values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const msg = checkField(f, values[f.name] ?? '');
    if (msg) out[f.name] = msg;
  }
  return out;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The call's query string (GET/DELETE, with its leading "?" or "") or JSON body (POST/PUT). Empty optional fields are left out.
 * In a JSON body a dotted name is a member of a nested object: `beneficiary.type` and `beneficiary.name` give
 * `{"beneficiary":{"type":…,"name":…}}` (a query string keeps the dotted names as they are).
 */
export function buildCall(method: Method, fields: Field[], values: Record<string, string>): { query: string; body?: string } {
  const present = fields.filter((f) => (f.type === 'string' ? values[f.name] ?? '' : (values[f.name] ?? '').trim()) !== '');
  if (method === 'GET' || method === 'DELETE') {
    const qs = new URLSearchParams();
    for (const f of present) qs.set(f.name, f.type === 'string' ? values[f.name]! : values[f.name]!.trim());
    const s = qs.toString();
    return { query: s ? `?${s}` : '' };
  }
  const root: JsonObject = new Map();
  for (const f of present) {
    const v = f.type === 'string' ? values[f.name]! : values[f.name]!.trim();
    let json: string;
    if ((f.type === 'integer' && INTEGER.test(v)) || (f.type === 'number' && JSON_NUMBER.test(v))) json = v; // the digits as typed
    else if (f.type === 'boolean' && (v === 'true' || v === 'false')) json = v;
    else json = JSON.stringify(v);
    place(root, f.name, json);
  }
  return { query: '', body: serialize(root) };
}

/** A JSON object being built: member name → its JSON text, or a nested object. Insertion order is kept. */
type JsonObject = Map<string, string | JsonObject>;

/** Puts `json` at the dotted `name`; a name whose path runs into a value already there stays a flat member. */
function place(root: JsonObject, name: string, json: string) {
  const parts = name.split('.');
  if (parts.length > 1 && parts.every((p) => p !== '')) {
    let obj = root;
    let ok = true;
    for (const p of parts.slice(0, -1)) {
      const next = obj.get(p);
      if (next === undefined) {
        const child: JsonObject = new Map();
        obj.set(p, child);
        obj = child;
      } else if (typeof next === 'string') {
        ok = false;
        break;
      } else obj = next;
    }
    const last = parts[parts.length - 1]!;
    if (ok && !obj.has(last)) {
      obj.set(last, json);
      return;
    }
  }
  root.set(name, json);
}

function serialize(obj: JsonObject): string {
  return `{${[...obj].map(([k, v]) => `${JSON.stringify(k)}:${typeof v === 'string' ? v : serialize(v)}`).join(',')}}`;
}

/** A curl command for the call (the secret left as a placeholder). A gateway service takes the key's secret as
 * `Authorization: Bearer`; the key id alone authorizes nothing. */
export function curlFor(origin: string, endpoint: string, method: Method, call: { query: string; body?: string }, key = '<your key>', gateway = false): string {
  const auth = gateway ? [`  -H 'Authorization: Bearer <your secret>'`] : [`  -H 'X-API-Key: ${key}'`, `  -H 'X-API-Secret: <your secret>'`];
  const lines = [`curl -X ${method} '${origin}${endpoint}${call.query}'`, ...auth];
  if (call.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d '${call.body.replace(/'/g, `'\\''`)}'`);
  }
  return lines.join(' \\\n');
}
