// Small pieces the admin screens share: status badges and the labels of
// users referred to by id (balance requests, pricing rows, audit entries;
// the users come from useUsersById in features/users).
import { Anchor, Badge, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas, User } from '../../../api/types';

const USER_STATUS_COLOR: Record<Schemas['UserStatus'], string> = { pending: 'yellow', active: 'teal', blocked: 'red' };
const ROLE_COLOR: Record<Schemas['Role'], string> = { admin: 'grape', reseller: 'blue', user: 'gray' };
/** Badges keep their whole word in a narrow table cell (Mantine would cut it with an ellipsis). */
const WHOLE = { root: { minWidth: 'max-content' } };
const REQUEST_STATUS_COLOR: Record<Schemas['BalanceRequestStatus'], string> = { pending: 'yellow', approved: 'teal', rejected: 'red' };

export function UserStatusBadge({ status }: { status: Schemas['UserStatus'] }) {
  return <Badge color={USER_STATUS_COLOR[status]} variant="light" styles={WHOLE} data-testid="user-status">{status}</Badge>;
}

export function RoleBadge({ role }: { role: Schemas['Role'] }) {
  return <Badge color={ROLE_COLOR[role]} variant="outline" styles={WHOLE}>{role}</Badge>;
}

export function RequestStatusBadge({ status }: { status: Schemas['BalanceRequestStatus'] }) {
  return <Badge color={REQUEST_STATUS_COLOR[status]} variant="light" styles={WHOLE} data-testid="request-status">{status}</Badge>;
}

export function ActiveBadge({ status }: { status: 'active' | 'inactive' }) {
  return <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light" styles={WHOLE}>{status}</Badge>;
}

/** A user referred to by id: name and email linking to their page, or "#id" until loaded. */
export function UserRef({ id, users, compact }: { id: number | null | undefined; users: Map<number, User>; compact?: boolean }) {
  if (id === null || id === undefined) return <Text span c="dimmed">—</Text>;
  const u = users.get(id);
  return (
    <Anchor component={Link} to={`/admin/users/${id}`} size="sm" onClick={(e) => e.stopPropagation()}>
      {u ? (compact ? u.email : <>{u.name} <Text span c="dimmed" size="xs">{u.email}</Text></>) : `User #${id}`}
    </Anchor>
  );
}

/**
 * The user a list row names (the API's user_name and user_email beside
 * user_id), linking to their page, with the id in the link's title; "User
 * #id" when the API had no name for it.
 */
export function NamedUserRef({ id, name, email, compact }: { id: number; name?: string | null; email?: string | null; compact?: boolean }) {
  return (
    <Anchor component={Link} to={`/admin/users/${id}`} size="sm" title={`User #${id}`} onClick={(e) => e.stopPropagation()}>
      {name || email
        ? (compact ? email ?? name : <>{name ?? email} {name && email && <Text span c="dimmed" size="xs">{email}</Text>}</>)
        : `User #${id}`}
    </Anchor>
  );
}
