import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Anchor, Box, Button, Group, Menu, Modal, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDotsVertical, IconSearch, IconUserPlus } from '@tabler/icons-react';
import type { Schemas, User } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { useUsers } from '../../features/users/api';
import { formatDate } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { useUser } from '../../auth/useSession';
import { RoleBadge, UserStatusBadge } from './shared/badges';
import { useUserActions } from './users/useUserActions';
import { NewUserCreated, NewUserForm } from './users/NewUserForm';
import { ResellerCell, ResellerFilter } from './users/ResellerFilter';

const STATUSES: Schemas['UserStatus'][] = ['pending', 'active', 'blocked'];
const ROLES: Schemas['Role'][] = ['user', 'reseller', 'admin'];

export default function Users() {
  const me = useUser();
  const navigate = useNavigate();
  const list = useListParams({ q: '', role: '', status: '', reseller_id: '' });
  const [search, setSearch] = useState(list.filters.q);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ user: User; password: string } | null>(null);
  const closeNew = () => { setCreating(false); setCreated(null); };
  const [debounced] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (debounced !== list.filters.q) list.setFilter('q', debounced);
  }, [debounced]);

  const { tableProps } = useUsers(list);
  const { activate, confirmBlock, busyId } = useUserActions();

  const columns: Column<User>[] = [
    {
      key: 'name',
      header: 'User',
      render: (u) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/admin/users/${u.id}`} fw={500} onClick={(e) => e.stopPropagation()}>{u.name}</Anchor>
          <Text size="xs" c="dimmed" data-testid="user-email">{u.email}</Text>
        </Stack>
      ),
    },
    { key: 'phone', header: 'Phone', render: (u) => u.phone, hiddenOnMobile: true },
    { key: 'role', header: 'Role', render: (u) => <RoleBadge role={u.role} />, hiddenOnMobile: true },
    { key: 'plan', header: 'Plan', render: (u) => u.plan, hiddenOnMobile: true },
    { key: 'reseller', header: 'Reseller', render: (u) => <ResellerCell user={u} />, hiddenOnMobile: true },
    { key: 'status', header: 'Status', render: (u) => <UserStatusBadge status={u.status} /> },
    { key: 'balance', header: 'Balance', align: 'right', render: (u) => <Money value={u.balance} /> },
    { key: 'created', header: 'Joined', render: (u) => formatDate(u.created_at), hiddenOnMobile: true },
    {
      key: 'actions',
      pinRight: true,
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      align: 'right',
      render: (u) =>
        u.id === me.id ? (
          <Text size="xs" c="dimmed">you</Text>
        ) : (
          // Buttons from "sm" up; on a phone one menu button, so the row's
          // actions stay on screen at 375 px without sideways scrolling.
          <Box onClick={(e) => e.stopPropagation()}>
            <Group gap={4} justify="flex-end" wrap="nowrap" visibleFrom="sm">
              {u.status !== 'active' && (
                <Button size="compact-sm" variant="light" color="teal" loading={busyId === u.id}
                  onClick={() => activate(u)} aria-label={`Activate ${u.email}`}>Activate</Button>
              )}
              {u.status !== 'blocked' && (
                <Button size="compact-sm" variant="subtle" color="red" loading={busyId === u.id}
                  onClick={() => confirmBlock(u)} aria-label={`Block ${u.email}`}>Block</Button>
              )}
            </Group>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" hiddenFrom="sm" loading={busyId === u.id} aria-label={`Actions for ${u.email}`}>
                  <IconDotsVertical size={18} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                {u.status !== 'active' && <Menu.Item color="teal" onClick={() => activate(u)}>Activate</Menu.Item>}
                {u.status !== 'blocked' && <Menu.Item color="red" onClick={() => confirmBlock(u)}>Block</Menu.Item>}
                <Menu.Item component={Link} to={`/admin/users/${u.id}`}>Open</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Box>
        ),
    },
  ];

  return (
    <>
      <PageHeader title="Users" description="Search accounts, activate new ones, block, change role and plan."
        actions={<Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>New user</Button>} />
      <Modal opened={creating} onClose={closeNew} title={created ? 'User created' : 'New user'}>
        {created
          ? <NewUserCreated user={created.user} password={created.password} onDone={() => { const id = created.user.id; closeNew(); navigate(`/admin/users/${id}`); }} />
          : <NewUserForm onCancel={closeNew} onCreated={(user, password) => setCreated({ user, password })} />}
      </Modal>
      <DataTable
        caption="Users"
        columns={columns}
        rowKey={(u) => u.id}
        {...tableProps}
        onRowClick={(u) => navigate(`/admin/users/${u.id}`)}
        emptyTitle={list.filters.q || list.filters.role || list.filters.status || list.filters.reseller_id ? 'No user matches these filters' : 'No users yet'}
        emptyDescription={list.filters.q || list.filters.role || list.filters.status || list.filters.reseller_id ? (
          <Button variant="subtle" size="xs" onClick={() => { setSearch(''); list.reset(); }}>Clear the filters</Button>
        ) : undefined}
        filters={
          <>
            <TextInput
              label="Search"
              placeholder="Name, email or phone"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              maxLength={255}
              w={{ base: '100%', xs: 260 }}
            />
            <FilterSelect list={list} name="status" label="Status" data={STATUSES} w={130} />
            <FilterSelect list={list} name="role" label="Role" data={ROLES} w={130} />
            <ResellerFilter list={list} />
          </>
        }
      />
    </>
  );
}
