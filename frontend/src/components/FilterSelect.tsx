// A list filter as a Select bound to useListParams (the value is in the URL;
// a change goes back to page 1).
import { Select, type SelectProps } from '@mantine/core';
import type { ListParams } from '../lib/listParams';

type FilterSelectProps<F extends Record<string, string>> = Omit<SelectProps, 'value' | 'onChange' | 'name' | 'list'> & {
  list: ListParams<F>;
  /** The filter (and query parameter) it sets. */
  name: keyof F & string;
};

/** A clearable Select of one filter, "Any" when unset. */
export function FilterSelect<F extends Record<string, string>>({ list, name, ...rest }: FilterSelectProps<F>) {
  return <Select placeholder="Any" clearable {...rest} value={list.filters[name] || null} onChange={(v) => list.setFilter(name, v)} />;
}
