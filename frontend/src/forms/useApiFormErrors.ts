import { useCallback, useState } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import { ApiError, errorMessage } from '../api/errors';

function hasPath(values: unknown, path: string): boolean {
  let cur: unknown = values;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in (cur as Record<string, unknown>))) return false;
    cur = (cur as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * Puts an API error's field errors (the 422 `errors` object) on the form's
 * fields of the same name (or the name `aliases` maps it to), and returns
 * what is left to show above the form: the message, plus any field errors
 * that have no field in the form. Null when every error found its field.
 */
export function applyApiErrors<V>(
  form: UseFormReturnType<V>,
  err: unknown,
  aliases: Record<string, string> = {},
): string | null {
  if (!(err instanceof ApiError)) return errorMessage(err);
  const fields = Object.entries(err.fieldErrors);
  if (fields.length === 0) return err.message;
  const leftover: string[] = [];
  const values = form.getValues();
  for (const [field, messages] of fields) {
    const path = aliases[field] ?? field;
    const text = messages.join(' ');
    if (hasPath(values, path)) form.setFieldError(path, text);
    else leftover.push(`${field}: ${text}`);
  }
  return leftover.length ? `${err.message}: ${leftover.join('; ')}` : null;
}

/**
 * The form-level half of applyApiErrors as a hook:
 *   const { formError, onApiError } = useApiFormErrors(form);
 *   useMutation({ ..., onError: onApiError });
 *   <FormError message={formError} />
 */
export function useApiFormErrors<V>(form: UseFormReturnType<V>, aliases?: Record<string, string>) {
  const [formError, setFormError] = useState<string | null>(null);
  const onApiError = useCallback(
    (err: unknown) => setFormError(applyApiErrors(form, err, aliases)),
    [form],
  );
  const clearFormError = useCallback(() => setFormError(null), []);
  return { formError, onApiError, clearFormError };
}
