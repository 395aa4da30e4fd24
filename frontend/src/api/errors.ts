// ApiError is every failed API call: the error body of docs/decisions.md, "Order of checks and the error body"
// ({success: false, message, error, request_id, errors?}) plus the status.
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  /** Stable snake_case code (`validation_failed`, `not_found`, ...); `network_error` when no answer came. */
  readonly code: string;
  readonly requestId?: string;
  /** Per-field messages (422 only), keyed by the API's field name. */
  readonly fieldErrors: FieldErrors;

  constructor(status: number, code: string, message: string, fieldErrors: FieldErrors = {}, requestId?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.requestId = requestId;
  }

  /** Builds the error from a response status and its (parsed) body, whatever its shape. */
  static from(status: number, body: unknown): ApiError {
    if (body && typeof body === 'object') {
      const b = body as { message?: unknown; error?: unknown; errors?: unknown; request_id?: unknown };
      const fields: FieldErrors = {};
      if (b.errors && typeof b.errors === 'object') {
        for (const [k, v] of Object.entries(b.errors as Record<string, unknown>)) {
          fields[k] = Array.isArray(v) ? v.map(String) : [String(v)];
        }
      }
      return new ApiError(
        status,
        typeof b.error === 'string' ? b.error : `http_${status}`,
        typeof b.message === 'string' ? b.message : `Request failed (${status})`,
        fields,
        typeof b.request_id === 'string' ? b.request_id : undefined,
      );
    }
    const text = typeof body === 'string' && body.length < 200 ? body : '';
    return new ApiError(status, `http_${status}`, text || `Request failed (${status})`);
  }

  static network(cause: unknown): ApiError {
    const e = new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
    (e as { cause?: unknown }).cause = cause;
    return e;
  }
}

/** A message safe to show for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return 'Something went wrong.';
}

/**
 * The error line of a select or picker whose options come from a query:
 * "Could not load the keys: …" when it failed (with a retry on focus), so a
 * failed load never looks like an empty list.
 */
export function optionsError(q: { isError: boolean; error: unknown }, what: string): string | undefined {
  return q.isError ? `Could not load ${what}: ${errorMessage(q.error)}` : undefined;
}
