// The service catalog: search and category filter; each service opens its
// docs and try-it console.
import { useEffect, useState } from 'react';
import { Anchor, Badge, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { useAllServices, useServices } from '../../features/services/api';
import { useListParams } from '../../lib/listParams';

type Service = Schemas['Service'];

const columns: Column<Service>[] = [
  {
    key: 'name', header: 'Service',
    render: (s) => <Anchor component={Link} to={`/services/${s.id}`} fw={500} size="sm">{s.name}</Anchor>,
  },
  { key: 'category', header: 'Category', render: (s) => <Badge variant="light">{s.category}</Badge> },
  { key: 'description', header: 'What it does', hiddenOnMobile: true, render: (s) => <Text size="sm" lineClamp={2} maw={420}>{s.description ?? '—'}</Text> },
  {
    key: 'price', header: 'Per call', align: 'right',
    render: (s) => s.price === null
      ? <Text size="sm" c="dimmed">Not priced</Text>
      : <Money value={s.price} size="sm" data-testid={`price-${s.id}`} />,
  },
  { key: 'endpoint', header: 'Endpoint', hiddenOnMobile: true, render: (s) => <Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{s.method} {s.endpoint}</Text> },
];

export default function Services() {
  const list = useListParams({ q: '', category: '' });
  const navigate = useNavigate();
  const [search, setSearch] = useState(list.filters.q);
  const applySearch = useDebouncedCallback((v: string) => list.setFilter('q', v.trim()), 300);
  useEffect(() => setSearch(list.filters.q), [list.filters.q]);
  const { tableProps } = useServices(list);
  const all = useAllServices();
  const categories = [...new Set((all.data?.data ?? []).map((s) => s.category))].sort();
  return (
    <>
      <PageHeader title="Services" description="APIs you can call with your keys. Open one for its documentation and to try it." />
      <DataTable<Service>
        caption="Services"
        columns={columns}
        rowKey={(s) => s.id}
        {...tableProps}
        onRowClick={(s) => navigate(`/services/${s.id}`)}
        emptyTitle="No services"
        emptyDescription={list.filters.q || list.filters.category ? 'Nothing matches; clear the search.' : 'No service is offered yet.'}
        filters={
          <>
            <TextInput label="Search" placeholder="Name or description" leftSection={<IconSearch size={14} aria-hidden />} w={220}
              value={search} onChange={(e) => { setSearch(e.currentTarget.value); applySearch(e.currentTarget.value); }} />
            <FilterSelect list={list} name="category" label="Category" w={170} data={categories} />
          </>
        }
      />
    </>
  );
}
