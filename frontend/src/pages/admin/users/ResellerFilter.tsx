// Resellers and their customers on the admin's users list (issue 34): a
// customer's row names its reseller (a link to it), a reseller's row links
// to its customers, and the list filters by reseller (reseller_id in the URL).
import { ActionIcon, Anchor, Badge, Group, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { User } from '../../../api/types';
import { useUserDetail } from '../../../features/users/api';
import { parseId } from '../../../lib/ids';
import type { ListParams } from '../../../lib/listParams';
import { UserPicker } from '../shared/UserPicker';

/** The user JSON with issue 34's fields (parent_id, reseller_name). */
type WithReseller = User;

export function ResellerCell({ user }: { user: User }) {
  const u = user as WithReseller;
  if (u.parent_id) {
    return (
      <Anchor component={Link} to={`/admin/users/${u.parent_id}`} size="sm" onClick={(e) => e.stopPropagation()} data-testid="user-reseller">
        {u.reseller_name || `User #${u.parent_id}`}
      </Anchor>
    );
  }
  if (u.role === 'reseller') {
    return (
      <Anchor component={Link} to={`/admin/users?reseller_id=${u.id}`} size="sm" onClick={(e) => e.stopPropagation()}>
        Its customers
      </Anchor>
    );
  }
  return <Text span c="dimmed" size="sm">—</Text>;
}

/** A reseller picker, or once one is chosen its name in a chip that clears the filter. */
export function ResellerFilter<F extends Record<string, string> & { reseller_id: string }>({ list }: { list: ListParams<F> }) {
  const id = parseId(list.filters.reseller_id);
  const reseller = useUserDetail(id);
  if (id === null) {
    return (
      <UserPicker role="reseller" label="Reseller" placeholder="Any reseller" clearable w={{ base: '100%', xs: 220 }} value={null}
        onChange={(v) => list.setFilter('reseller_id', v)} />
    );
  }
  return (
    <Group gap="xs" align="center" mb={4}>
      <Text size="sm">Customers of</Text>
      <Badge variant="light" size="lg" style={{ textTransform: 'none' }} data-testid="reseller-filter" rightSection={
        <ActionIcon size="xs" variant="transparent" aria-label="Show every reseller's customers" onClick={() => list.setFilter('reseller_id', '')}>
          <IconX size={12} aria-hidden />
        </ActionIcon>
      }>{reseller.data ? reseller.data.name : `reseller #${id}`}</Badge>
    </Group>
  );
}
