// The admin's "whose rows" filter of a list: a user picker, and once a user
// is chosen, their name in a chip that clears it. The id stays in the URL
// (user_id), so a shared link keeps the filter.
import { ActionIcon, Badge, Group, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useUserDetail } from '../../../features/users/api';
import { parseId } from '../../../lib/ids';
import type { ListParams } from '../../../lib/listParams';
import { UserPicker } from './UserPicker';

type WithUser = Record<string, string> & { user_id: string };

/** The picker, while no user is chosen (place it among the filters). */
export function UserFilterPicker<F extends WithUser>({ list }: { list: ListParams<F> }) {
  if (parseId(list.filters.user_id) !== null) return null;
  return (
    <UserPicker label="User" placeholder="Any user" clearable w={{ base: '100%', xs: 220 }} value={null}
      onChange={(v) => list.setFilter('user_id', v)} />
  );
}

/** "<what> of <user>" with a button back to everyone's rows, while a user is chosen. */
export function UserFilterChip<F extends WithUser>({ list, what }: { list: ListParams<F>; what: string }) {
  const id = parseId(list.filters.user_id);
  const user = useUserDetail(id);
  if (id === null) return null;
  return (
    <Group gap="xs">
      <Text size="sm">{what} of</Text>
      <Badge variant="light" size="lg" style={{ textTransform: 'none' }} rightSection={
        <ActionIcon size="xs" variant="transparent" aria-label={`Show every user's ${what.toLowerCase()}`} onClick={() => list.setFilter('user_id', '')}>
          <IconX size={12} aria-hidden />
        </ActionIcon>
      }>{user.data ? `${user.data.name} <${user.data.email}>` : `user #${id}`}</Badge>
    </Group>
  );
}
