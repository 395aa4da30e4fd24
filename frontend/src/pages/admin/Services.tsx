import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { PageHeader } from '../../components/PageHeader';
import { useServices } from '../../features/services/api';
import { formatDate } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { ActiveBadge } from './shared/badges';

type Service = Schemas['Service'];

export default function Services() {
  const navigate = useNavigate();
  const list = useListParams({ q: '', status: '', category: '' });
  const [search, setSearch] = useState(list.filters.q);
  const [q] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (q !== list.filters.q) list.setFilter('q', q);
  }, [q]);
  const { tableProps } = useServices(list);
  const filtered = !!(list.filters.q || list.filters.status || list.filters.category);

  const columns: Column<Service>[] = [
    {
      key: 'name', header: 'Service',
      render: (s) => (
        <Stack gap={0}>
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={`/admin/services/${s.id}`} fw={500} onClick={(e) => e.stopPropagation()}>{s.name}</Anchor>
            {s.builtin && <Badge size="xs" variant="outline">built-in</Badge>}
          </Group>
          <Text size="xs" c="dimmed"><Code>{s.method} {s.endpoint}</Code></Text>
        </Stack>
      ),
    },
    { key: 'category', header: 'Category', render: (s) => s.category, hiddenOnMobile: true },
    { key: 'params', header: 'Parameters', render: (s) => Object.keys(s.parameters).length || '—', hiddenOnMobile: true, align: 'right' },
    {
      key: 'key', header: 'Provider key', hiddenOnMobile: true,
      render: (s) => <Badge variant="light" color={s.has_provider_key ? 'teal' : 'gray'}>{s.has_provider_key ? 'set' : 'not set'}</Badge>,
    },
    { key: 'status', header: 'Status', render: (s) => <ActiveBadge status={s.status} /> },
    { key: 'updated', header: 'Updated', render: (s) => formatDate(s.updated_at), hiddenOnMobile: true },
  ];

  return (
    <>
      <PageHeader
        title="Manage services"
        description="The APIs you resell: upstream, parameters, docs and prices."
        actions={<Button component={Link} to="/admin/services/new" leftSection={<IconPlus size={16} aria-hidden />}>New service</Button>}
      />
      <DataTable
        caption="Services"
        columns={columns}
        rowKey={(s) => s.id}
        {...tableProps}
        onRowClick={(s) => navigate(`/admin/services/${s.id}`)}
        emptyTitle={filtered ? 'No service matches these filters' : 'No services yet'}
        emptyDescription={filtered
          ? <Button variant="subtle" size="xs" onClick={() => { setSearch(''); list.reset(); }}>Clear the filters</Button>
          : <Button component={Link} to="/admin/services/new" size="xs">Create the first service</Button>}
        filters={
          <>
            <TextInput label="Search" placeholder="Name or slug" leftSection={<IconSearch size={16} aria-hidden />}
              value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={{ base: '100%', xs: 240 }} />
            <TextInput label="Category" placeholder="Any" value={list.filters.category}
              onChange={(e) => list.setFilter('category', e.currentTarget.value)} w={150} />
            <FilterSelect list={list} name="status" label="Status" data={['active', 'inactive']} w={130} />
          </>
        }
      />
    </>
  );
}
