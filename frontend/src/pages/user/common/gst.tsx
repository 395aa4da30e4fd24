// GST inputs shared by the supplier's billing settings (admin) and a
// customer's billing profile: the state picker (GST state codes from the
// API) and a first check of a GSTIN typed (its shape and its state code;
// the server checks the check character and answers 422 beside the field).
import { Select, type SelectProps } from '@mantine/core';
import { optionsError } from '../../../api/errors';
import { useGstStates } from '../../../features/tax/api';

/** A searchable select of the GST states; its value is the two-digit code. */
export function StateSelect(props: Omit<SelectProps, 'data' | 'searchable'>) {
  const states = useGstStates();
  const data = (states.data ?? []).map((s) => ({ value: s.code, label: `${s.name} (${s.code})` }));
  return (
    <Select
      searchable
      placeholder={states.isPending ? 'Loading the states…' : 'Choose the state'}
      nothingFoundMessage="No such state"
      error={optionsError(states, 'the states')}
      onDropdownOpen={() => { if (states.isError) void states.refetch(); }}
      {...props}
      data={data}
    />
  );
}

const GSTIN = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** A GSTIN as the server stores it: trimmed, upper-case. */
export function normalizeGstin(v: string): string {
  return v.trim().toUpperCase();
}

/**
 * What is wrong with a typed GSTIN before sending it: null when empty (none)
 * or well shaped and of `state`. The check character is the server's to check.
 */
export function gstinError(v: string, state: string | null | undefined): string | null {
  const g = normalizeGstin(v);
  if (!g) return null;
  if (g.length !== 15) return `A GSTIN has 15 characters (this has ${g.length})`;
  if (!GSTIN.test(g)) return 'Not a GSTIN: 2 digits of the state, the 10 characters of the PAN, the entity number, Z and a check character';
  if (state && g.slice(0, 2) !== state) return `This GSTIN is registered in state ${g.slice(0, 2)}, not in the state chosen (${state})`;
  return null;
}

/** Address lines as the server keeps them: trimmed, without blank lines. */
export function normalizeAddress(v: string): string {
  return v.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
}
