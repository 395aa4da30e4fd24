// From/to filters of a list (local days, YYYY-MM-DD, as the API takes them).
import { DateInput } from '@mantine/dates';
import type { ListParams } from '../../../lib/listParams';

export function DateRangeFilters<F extends { from: string; to: string }>({ list }: { list: ListParams<F> }) {
  return (
    <>
      <DateInput
        label="From"
        placeholder="Any day"
        valueFormat="DD MMM YYYY"
        clearable
        w={150}
        value={list.filters.from || null}
        maxDate={list.filters.to || undefined}
        onChange={(v) => list.setFilter('from', v ?? '')}
      />
      <DateInput
        label="To"
        placeholder="Any day"
        valueFormat="DD MMM YYYY"
        clearable
        w={150}
        value={list.filters.to || null}
        minDate={list.filters.from || undefined}
        onChange={(v) => list.setFilter('to', v ?? '')}
      />
    </>
  );
}
