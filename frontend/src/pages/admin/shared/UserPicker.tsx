import { useState } from 'react';
import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { Schemas } from '../../../api/types';
import { optionsError } from '../../../api/errors';
import { useUserSearch } from '../../../features/users/api';

/**
 * A searchable user select that asks the API (GET /users?q=) as the admin
 * types; its value is the user's id as a string.
 */
export function UserPicker({ role, ...props }: Omit<SelectProps, 'data' | 'searchable' | 'filter'> & { role?: Schemas['Role'] }) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const users = useUserSearch(q, role);
  const data = (users.data?.data ?? []).map((u) => ({ value: String(u.id), label: `${u.name} <${u.email}>` }));
  // Keep the chosen option listed when the search no longer returns it.
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  if (chosen && !data.some((d) => d.value === chosen.value)) data.unshift(chosen);
  return (
    <Select
      searchable
      placeholder="Type a name, email or phone"
      nothingFoundMessage={users.isFetching ? 'Searching…' : 'No user found'}
      error={optionsError(users, 'users')}
      onDropdownOpen={() => { if (users.isError) void users.refetch(); }}
      {...props}
      data={data}
      filter={({ options }) => options}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(v, opt) => {
        setChosen(opt ? { value: opt.value, label: opt.label } : null);
        props.onChange?.(v, opt);
      }}
    />
  );
}
