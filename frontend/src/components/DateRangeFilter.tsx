import '@mantine/dates/styles.css'; // with the date pickers' chunk, not the first page's CSS
import { DateInput, DatePickerInput } from '@mantine/dates';
import type { ListParams } from '../lib/listParams';

/**
 * From/to filters of a list bound to useListParams: local days, YYYY-MM-DD,
 * as the API takes them (a change goes back to page 1).
 * By default typed dates (DateInput) where From is at most To; `picker`
 * gives calendar pickers instead (DatePickerInput, the admin screens).
 */
export function DateRangeFilter<F extends { from: string; to: string }>({ list, picker = false }: { list: ListParams<F>; picker?: boolean }) {
  const { from, to } = list.filters;
  const field = (name: 'from' | 'to', label: string) => ({
    label,
    placeholder: 'Any day',
    valueFormat: 'DD MMM YYYY',
    clearable: true,
    w: 150,
    value: list.filters[name] || null,
    onChange: (v: string | null) => list.setFilter(name, v),
  });
  if (picker)
    return (
      <>
        <DatePickerInput {...field('from', 'From')} />
        <DatePickerInput {...field('to', 'To')} />
      </>
    );
  return (
    <>
      <DateInput {...field('from', 'From')} maxDate={to || undefined} />
      <DateInput {...field('to', 'To')} minDate={from || undefined} />
    </>
  );
}
