// Metered calls: a user's own, or every user's for an admin (with a user
// column and a user filter); filters (service, key, status, days),
// pagination in the URL, CSV export, a drawer with a call's payloads. Rows
// name their user, key and service (the API sends the names beside the ids).
import { useMemo, useState } from 'react';
import { Button, Drawer, Group, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/useSession';
import { CsvExportButton } from '../../components/CsvExport';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { HIT_LOGS_PATH, useHitLogs } from '../../features/hitLogs/api';
import { useAllKeys } from '../../features/keys/api';
import { useAllServices } from '../../features/services/api';
import { formatDateTime } from '../../lib/dates';
import { formatRetention } from '../../lib/retention';
import { useListParams } from '../../lib/listParams';
import { JsonBlock } from './common/JsonBlock';
import { StatusBadge } from './common/StatusBadge';
import { optionsError } from '../../api/errors';
import { NamedUserRef } from '../admin/shared/badges';
import { UserFilterChip, UserFilterPicker } from '../admin/shared/UserFilter';

type Hit = Schemas['HitLog'];
const STATUSES = ['success', 'failed', 'insufficient_balance', 'pending'].map((s) => ({ value: s, label: s.replace(/_/g, ' ') }));

export default function HitLogs() {
  const admin = useUser().role === 'admin';
  const list = useListParams({ user_id: '', service_id: '', api_key_id: '', status: '', from: '', to: '' });
  const { query, tableProps } = useHitLogs(list);
  const retention = query.data ? formatRetention(query.data.payload_retention_seconds) : null;
  const services = useAllServices();
  const keys = useAllKeys();
  const serviceName = useMemo(() => {
    const m = new Map<number, string>();
    for (const s of services.data?.data ?? []) m.set(s.id, s.name);
    return (h: Hit) => h.api_service_name ?? m.get(h.api_service_id) ?? `Service #${h.api_service_id}`;
  }, [services.data]);
  const keyName = useMemo(() => {
    const m = new Map<number, string>();
    for (const k of keys.data?.data ?? []) m.set(k.id, k.name);
    return (h: Hit) => h.api_key_name ?? m.get(h.api_key_id) ?? `Key #${h.api_key_id}`;
  }, [keys.data]);
  const [open, setOpen] = useState<Hit | null>(null);
  const { page: _p, per_page: _pp, ...filters } = list.query;

  const columns: Column<Hit>[] = [
    { key: 'created_at', header: 'When', render: (h) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(h.created_at)}</Text> },
    ...(admin ? [{ key: 'user', header: 'User', render: (h: Hit) => <NamedUserRef id={h.user_id} name={h.user_name} email={h.user_email} /> }] : []),
    { key: 'service', header: 'Service', render: (h) => <Text size="sm" fw={500}>{serviceName(h)}</Text> },
    { key: 'status', header: 'Status', render: (h) => <StatusBadge status={h.status} /> },
    { key: 'charge', header: 'Charge', align: 'right', render: (h) => <Money value={h.charge_amount} /> },
    { key: 'time', header: 'Time', align: 'right', hiddenOnMobile: true, render: (h) => <Text size="sm">{h.response_time_ms} ms</Text> },
    { key: 'key', header: 'Key', hiddenOnMobile: true, render: (h) => <Text size="sm">{keyName(h)}</Text> },
    { key: 'ip', header: 'IP', hiddenOnMobile: true, render: (h) => <Text size="xs" ff="monospace">{h.ip_address}</Text> },
    {
      key: 'open', header: <VisuallyHidden>Details</VisuallyHidden>, align: 'right', pinRight: true,
      render: (h) => <Button size="compact-xs" variant="subtle" onClick={() => setOpen(h)} aria-label={`Details of call ${h.request_id}`}>Details</Button>,
    },
  ];

  return (
    <>
      <PageHeader title="Hit logs" description={admin
        ? "All calls: every user's API calls, what they were charged and what the service answered."
        : 'Your API calls, what they were charged and what the service answered.'} />
      {admin && <UserFilterChip list={list} what="Calls" />}
      {retention && (
        <Text size="sm" c="dimmed" mb="sm">
          Payloads are kept for {retention}; older calls keep their row and charge, without their request and response.
        </Text>
      )}
      <DataTable<Hit>
        caption="Hit logs"
        columns={columns}
        rowKey={(h) => h.id}
        {...tableProps}
        emptyTitle="No calls"
        emptyDescription={Object.keys(filters).length ? 'Nothing matches these filters.' : 'Call a service (try it from the Services page) and it shows here.'}
        filters={
          <>
            <FilterSelect list={list} name="service_id" label="Service" searchable w={190}
              data={(services.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))} error={optionsError(services, 'the services')} />
            {admin ? <UserFilterPicker list={list} /> : (
              <FilterSelect list={list} name="api_key_id" label="Key" w={160}
                data={(keys.data?.data ?? []).map((k) => ({ value: String(k.id), label: k.name }))} error={optionsError(keys, 'your keys')} />
            )}
            <FilterSelect list={list} name="status" label="Status" w={170} data={STATUSES} />
            <DateRangeFilter list={list} />
          </>
        }
        actions={<CsvExportButton path={HIT_LOGS_PATH} query={filters} />}
      />
      <Drawer opened={open !== null} onClose={() => setOpen(null)} position="right" size="lg" title="Call details">
        {open && (
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap">
              <Title order={3} size="h4">{serviceName(open)}</Title>
              <StatusBadge status={open.status} />
            </Group>
            <Text size="sm">Request id: <Text span ff="monospace" size="sm">{open.request_id}</Text></Text>
            <Text size="sm">When: {formatDateTime(open.created_at)} · {open.response_time_ms} ms · from {open.ip_address}</Text>
            {admin && <Text size="sm">User: <NamedUserRef id={open.user_id} name={open.user_name} email={open.user_email} /> (#{open.user_id})</Text>}
            <Text size="sm">Charged: <Money value={open.charge_amount} fw={600} /> · Key: {keyName(open)} (#{open.api_key_id})</Text>
            <Title order={4} size="h5">Request</Title>
            {open.request_payload === '' && open.response_payload === null ? (
              <Text size="sm" c="dimmed">Removed: payloads are kept for {retention ?? 'a limited time'}.</Text>
            ) : (
              <>
                <JsonBlock value={open.request_payload} label="Request payload" />
                <Title order={4} size="h5">Response</Title>
                <JsonBlock value={open.response_payload ?? '(no answer yet)'} label="Response payload" />
              </>
            )}
          </Stack>
        )}
      </Drawer>
    </>
  );
}
