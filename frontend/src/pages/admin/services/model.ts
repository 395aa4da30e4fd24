// The service editor's form model and its conversion to and from the API:
// the service (POST/PATCH /services: headers, parameters name → type) and
// its documentation record (PUT /services/{id}/docs: request_params
// name → ParamSpec, response_example, error_codes).
import type { Schemas } from '../../../api/types';
import { serviceEndpoint } from '../../../features/services/api';

export type ParamType = Schemas['ParamType'];
export type ParamSpec = Schemas['ParamSpec'];
export type Method = Schemas['Service']['method'];
export const PARAM_TYPES: ParamType[] = ['string', 'integer', 'number', 'boolean', 'date'];
export const METHODS: Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

export interface HeaderRow { key: string; value: string }
export interface ParamRow {
  name: string;
  type: ParamType;
  required: boolean;
  description: string;
  /** Digits, '' for none. */
  max_length: string;
  pattern: string;
  /** Stored and shown masked (all but the last 4 characters as X); sent upstream in full. */
  sensitive: boolean;
}
export interface CodeRow { code: string; meaning: string }

export interface ServiceValues {
  name: string;
  slug: string;
  category: string;
  description: string;
  method: Method;
  active: boolean;
  /** The SAC code of the service's invoice lines; '' for the supplier's default (sent as null). */
  sac_code: string;
  provider_url: string;
  /** Typed to set or replace the key; '' keeps it. Never filled from the API (it never sends it). */
  provider_key: string;
  clear_provider_key: boolean;
  headers: HeaderRow[];
  params: ParamRow[];
  endpoint: string;
  doc_description: string;
  response_example: string;
  error_codes: CodeRow[];
  sort_order: string;
  /** The default price, asked when creating a service. */
  price: { admin_cost: string; reseller_price: string; user_price: string; minimum_hit_charge: string };
}

export const emptyParam = (): ParamRow => ({ name: '', type: 'string', required: false, description: '', max_length: '', pattern: '', sensitive: false });

export function emptyValues(): ServiceValues {
  return {
    name: '', slug: '', category: '', description: '', method: 'POST', active: true, sac_code: '',
    provider_url: '', provider_key: '', clear_provider_key: false,
    headers: [], params: [],
    endpoint: '', doc_description: '', response_example: '{\n  "status": "success"\n}', error_codes: [], sort_order: '0',
    price: { admin_cost: '', reseller_price: '', user_price: '', minimum_hit_charge: '0.00' },
  };
}

/** The form's values for a stored service and its docs (null: none yet). */
export function valuesFrom(s: Schemas['Service'], doc: Schemas['ServiceDoc'] | null): ServiceValues {
  const specs = doc?.request_params ?? {};
  // Documented parameters first (with their specs), then any the service lists without docs.
  const names = [...Object.keys(specs), ...Object.keys(s.parameters).filter((n) => !(n in specs))];
  return {
    ...emptyValues(),
    name: s.name, slug: s.slug, category: s.category, description: s.description ?? '', method: s.method,
    active: s.status === 'active', sac_code: s.sac_code ?? '', provider_url: s.provider_url ?? '',
    headers: Object.entries(s.headers ?? {}).map(([key, value]) => ({ key, value })),
    params: names.map((name) => paramRow(name, specs[name], s.parameters[name])),
    endpoint: doc?.endpoint ?? s.endpoint,
    doc_description: doc?.description ?? '',
    response_example: doc?.response_example ? JSON.stringify(doc.response_example, null, 2) : emptyValues().response_example,
    error_codes: Object.entries(doc?.error_codes ?? {}).map(([code, meaning]) => ({ code, meaning })),
    sort_order: String(doc?.sort_order ?? 0),
  };
}

function paramRow(name: string, spec: ParamSpec | undefined, type: ParamType | undefined): ParamRow {
  return {
    name,
    type: spec?.type ?? type ?? 'string',
    required: spec?.required ?? false,
    description: spec?.description ?? '',
    max_length: spec?.max_length !== undefined ? String(spec.max_length) : '',
    pattern: spec?.pattern ?? '',
    sensitive: spec?.sensitive ?? false,
  };
}

/** The docs' request_params: name → {type, required, description?, max_length?, pattern?, sensitive?}. */
export function toRequestParams(rows: ParamRow[]): Record<string, ParamSpec> {
  const out: Record<string, ParamSpec> = {};
  for (const r of rows) {
    const name = r.name.trim();
    if (!name) continue;
    const spec: ParamSpec = { type: r.type, required: r.required };
    if (r.description.trim()) spec.description = r.description.trim();
    if (/^\d+$/.test(r.max_length.trim())) spec.max_length = parseInt(r.max_length.trim(), 10); // not money: a length
    if (r.type === 'string' && r.pattern.trim()) spec.pattern = r.pattern.trim();
    if (r.sensitive) spec.sensitive = true;
    out[name] = spec;
  }
  return out;
}

/** The service's parameters: name → type. */
export function toParameters(rows: ParamRow[]): Record<string, ParamType> {
  const out: Record<string, ParamType> = {};
  for (const r of rows) if (r.name.trim()) out[r.name.trim()] = r.type;
  return out;
}

export function toHeaders(rows: HeaderRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of rows) if (r.key.trim()) out[r.key.trim()] = r.value;
  return out;
}

/** The service's body for POST /services and PATCH /services/{id}. */
export function toServiceBody(v: ServiceValues, { builtin = false, editing = false } = {}): Schemas['ServiceCreateRequest'] | Schemas['ServicePatchRequest'] {
  const body: Schemas['ServicePatchRequest'] = {
    name: v.name.trim(),
    category: v.category.trim(),
    description: v.description.trim(),
    provider_url: v.provider_url.trim(),
    headers: toHeaders(v.headers),
    parameters: toParameters(v.params),
    status: v.active ? 'active' : 'inactive',
    // Built-in services too: an admin sets each one's SAC (null: the supplier's default).
    sac_code: v.sac_code.trim() || null,
  };
  // Built-in gateway services keep their slug and method.
  if (!builtin) {
    body.slug = v.slug.trim();
    body.method = v.method;
  }
  if (v.provider_key) body.provider_key = v.provider_key;
  else if (editing && v.clear_provider_key) body.provider_key = '';
  return body;
}

/** The docs record for PUT /services/{id}/docs. response_example must be a JSON object (checked by validate). */
export function toDocBody(v: ServiceValues): Schemas['ServiceDocInput'] {
  const codes: Record<string, string> = {};
  for (const r of v.error_codes) if (r.code.trim()) codes[r.code.trim()] = r.meaning.trim();
  return {
    endpoint: v.endpoint.trim() || serviceEndpoint(v.slug.trim()),
    method: v.method,
    description: v.doc_description.trim(),
    request_params: toRequestParams(v.params),
    response_example: JSON.parse(v.response_example || '{}') as Record<string, unknown>,
    error_codes: codes,
    sort_order: /^-?\d+$/.test(v.sort_order.trim()) ? parseInt(v.sort_order.trim(), 10) : 0, // not money: an order
  };
}

/** A client-side check of the JSON the admin typed as the response example. */
export function jsonObjectError(s: string): string | null {
  try {
    const v: unknown = JSON.parse(s || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? null : 'Enter a JSON object, e.g. {"status": "success"}';
  } catch (e) {
    return `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/**
 * Where a field error of the API goes in the form. The API names whole maps
 * ("headers", "parameters", "request_params") and says which entry in the
 * message ("parameter phone has an invalid pattern"): such an error goes to
 * that row's field. `step` says which call answered (the docs' `method` and
 * `description` are the form's `method` and `doc_description`).
 */
export function fieldFor(v: ServiceValues, step: 'service' | 'docs' | 'price', field: string, message: string): string | null {
  const row = (prefix: string, list: { name?: string; key?: string }[]) => {
    const m = new RegExp(`^${prefix} (\\S+)`).exec(message);
    if (!m) return -1;
    return list.findIndex((r) => (r.name ?? r.key ?? '').trim() === m[1]);
  };
  if (field === 'headers') {
    const i = row('header', v.headers);
    return i >= 0 ? `headers.${i}.key` : null;
  }
  if (field === 'parameters' || field === 'request_params') {
    const i = row('parameter', v.params);
    if (i < 0) return null;
    if (/type/.test(message)) return `params.${i}.type`;
    if (/max_length/.test(message)) return `params.${i}.max_length`;
    if (/pattern/.test(message)) return `params.${i}.pattern`;
    return `params.${i}.name`;
  }
  if (step === 'docs') {
    const map: Record<string, string> = { description: 'doc_description', method: 'method', endpoint: 'endpoint', response_example: 'response_example', sort_order: 'sort_order' };
    return map[field] ?? null;
  }
  if (step === 'price') {
    return ['admin_cost', 'reseller_price', 'user_price', 'minimum_hit_charge'].includes(field) ? `price.${field}` : null;
  }
  const direct = ['name', 'slug', 'category', 'description', 'method', 'provider_url', 'provider_key', 'sac_code'];
  if (direct.includes(field)) return field;
  if (field === 'status') return 'active';
  return null;
}
