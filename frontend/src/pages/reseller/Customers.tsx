// A reseller's customers (issue 34): search, status filter, pages; balance
// and status per customer; "New customer"; block and activate.
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ActionIcon, Anchor, Box, Button, Group, Menu, Modal, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDotsVertical, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { useCustomers } from '../../features/customers/api';
import type { Customer } from '../../features/customers/types';
import { formatDate } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { UserStatusBadge } from '../admin/shared/badges';
import { NewCustomerForm } from './customers/NewCustomerForm';
import { useCustomerActions } from './customers/useCustomerActions';

const STATUSES = ['active', 'pending', 'blocked'];

export default function Customers() {
  const navigate = useNavigate();
  const list = useListParams({ search: '', status: '' });
  const [search, setSearch] = useState(list.filters.search);
  const [creating, setCreating] = useState(false);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (debounced !== list.filters.search) list.setFilter('search', debounced);
  }, [debounced]);
  const { tableProps } = useCustomers(list);
  const { activate, confirmBlock, busyId } = useCustomerActions();
  const filtered = !!(list.filters.search || list.filters.status);

  const columns: Column<Customer>[] = [
    {
      key: 'name',
      header: 'Customer',
      render: (c) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/customers/${c.id}`} fw={500} onClick={(e) => e.stopPropagation()}>{c.name}</Anchor>
          <Text size="xs" c="dimmed" data-testid="customer-email">{c.email}</Text>
        </Stack>
      ),
    },
    { key: 'phone', header: 'Phone', render: (c) => c.phone, hiddenOnMobile: true },
    { key: 'status', header: 'Status', render: (c) => <UserStatusBadge status={c.status} /> },
    { key: 'balance', header: 'Balance', align: 'right', render: (c) => <Money value={c.balance} data-testid="customer-balance" /> },
    { key: 'spent', header: 'Spent', align: 'right', hiddenOnMobile: true, render: (c) => <Money value={c.total_spent} /> },
    { key: 'created', header: 'Joined', render: (c) => formatDate(c.created_at), hiddenOnMobile: true },
    {
      key: 'actions',
      pinRight: true,
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      align: 'right',
      render: (c) => (
        <Box onClick={(e) => e.stopPropagation()}>
          <Group gap={4} justify="flex-end" wrap="nowrap" visibleFrom="sm">
            {c.status !== 'active' && (
              <Button size="compact-sm" variant="light" color="teal" loading={busyId === c.id}
                onClick={() => activate(c)} aria-label={`Activate ${c.email}`}>Activate</Button>
            )}
            {c.status !== 'blocked' && (
              <Button size="compact-sm" variant="subtle" color="red" loading={busyId === c.id}
                onClick={() => confirmBlock(c)} aria-label={`Block ${c.email}`}>Block</Button>
            )}
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" hiddenFrom="sm" loading={busyId === c.id} aria-label={`Actions for ${c.email}`}>
                <IconDotsVertical size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {c.status !== 'active' && <Menu.Item color="teal" onClick={() => activate(c)}>Activate</Menu.Item>}
              {c.status !== 'blocked' && <Menu.Item color="red" onClick={() => confirmBlock(c)}>Block</Menu.Item>}
              <Menu.Item component={Link} to={`/customers/${c.id}`}>Open</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Box>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Customers" description="Your customers: their balances and status. Open one to fund it, see its calls and decide its top-ups."
        actions={<Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>New customer</Button>} />
      <Modal opened={creating} onClose={() => setCreating(false)} title="New customer">
        <NewCustomerForm onCancel={() => setCreating(false)} onCreated={(c) => { setCreating(false); navigate(`/customers/${c.id}`); }} />
      </Modal>
      <DataTable
        caption="Customers"
        columns={columns}
        rowKey={(c) => c.id}
        {...tableProps}
        onRowClick={(c) => navigate(`/customers/${c.id}`)}
        emptyTitle={filtered ? 'No customer matches these filters' : 'No customers yet'}
        emptyDescription={filtered ? (
          <Button variant="subtle" size="xs" onClick={() => { setSearch(''); list.reset(); }}>Clear the filters</Button>
        ) : 'Create one with "New customer"; it can sign in at once.'}
        filters={
          <>
            <TextInput label="Search" placeholder="Name, email or phone" leftSection={<IconSearch size={16} aria-hidden />}
              value={search} onChange={(e) => setSearch(e.currentTarget.value)} maxLength={255} w={{ base: '100%', xs: 260 }} />
            <FilterSelect list={list} name="status" label="Status" data={STATUSES} w={130} />
          </>
        }
      />
    </>
  );
}
