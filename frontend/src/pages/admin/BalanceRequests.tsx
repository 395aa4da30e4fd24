import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Button, Code, Group, SegmentedControl, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPaperclip, IconSearch, IconX } from '@tabler/icons-react';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { useBalanceRequests } from '../../features/balanceRequests/api';
import { useUsersById } from '../../features/users/api';
import { formatDateTime } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { useListParams } from '../../lib/listParams';
import { RequestStatusBadge, UserRef } from './shared/badges';
import { UserPicker } from './shared/UserPicker';
import { ReviewModal } from './balanceRequests/ReviewModal';

type BalanceRequest = Schemas['BalanceRequest'];
type Status = Schemas['BalanceRequestStatus'];

/** The top-up queue: pending requests first (the default view), then any status. */
export default function BalanceRequests() {
  const list = useListParams({ status: 'pending', user_id: '', q: '', from: '', to: '' });
  const [search, setSearch] = useState(list.filters.q);
  const [q] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (q !== list.filters.q) list.setFilter('q', q);
  }, [q]);
  const [reviewing, setReviewing] = useState<BalanceRequest | null>(null);

  const { status, user_id, ...rest } = list.query;
  const query = {
    ...rest,
    status: status === 'all' ? undefined : (status as Status | undefined),
    user_id: parseId(String(user_id ?? '')) ?? undefined,
  };
  const { query: requests, tableProps } = useBalanceRequests(list, {
    query,
    refetchInterval: list.filters.status === 'pending' ? 30_000 : false,
  });
  const rows = requests.data?.data;
  const users = useUsersById([...(rows ?? []).map((r) => r.user_id), query.user_id]);
  const filterUser = query.user_id ? users.get(query.user_id) : undefined;

  const columns: Column<BalanceRequest>[] = [
    { key: 'when', header: 'Submitted', render: (r) => formatDateTime(r.created_at), hiddenOnMobile: true },
    { key: 'user', header: 'User', render: (r) => <UserRef id={r.user_id} users={users} /> },
    { key: 'amount', header: 'Amount', align: 'right', render: (r) => <Money value={r.amount} fw={500} /> },
    {
      key: 'utr', header: 'UTR', hiddenOnMobile: true,
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Code>{r.utr_number}</Code>
          {r.screenshot_url && (
            <Tooltip label="Has a screenshot"><IconPaperclip size={14} aria-label="Has a screenshot" /></Tooltip>
          )}
        </Group>
      ),
    },
    { key: 'method', header: 'Method', render: (r) => r.payment_method.toUpperCase(), hiddenOnMobile: true },
    { key: 'status', header: 'Status', render: (r) => <RequestStatusBadge status={r.status} /> },
    {
      key: 'review', header: 'Review', align: 'right',
      render: (r) => (
        <Button size="compact-sm" variant={r.status === 'pending' ? 'filled' : 'default'}
          aria-label={`${r.status === 'pending' ? 'Review' : 'View'} request ${r.id} of ${users.get(r.user_id)?.email ?? `user ${r.user_id}`}`}
          onClick={(e) => { e.stopPropagation(); setReviewing(r); }}>
          {r.status === 'pending' ? 'Review' : 'View'}
        </Button>
      ),
    },
  ];

  const filtered = !!(list.filters.user_id || list.filters.q || list.filters.from || list.filters.to);
  return (
    <>
      <PageHeader title="Balance requests" description="Check each transfer against its screenshot, then approve (credits the balance) or reject." />
      <Stack gap="sm">
        <SegmentedControl
          aria-label="Status"
          value={list.filters.status || 'all'}
          onChange={(v) => list.setFilter('status', v)}
          data={[
            { value: 'pending', label: 'Pending' },
            { value: 'approved', label: 'Approved' },
            { value: 'rejected', label: 'Rejected' },
            { value: 'all', label: 'All' },
          ]}
          style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
        />
        {filterUser || query.user_id ? (
          <Group gap="xs">
            <Text size="sm">Requests of</Text>
            <Badge variant="light" size="lg" rightSection={
              <ActionIcon size="xs" variant="transparent" aria-label="Show every user's requests" onClick={() => list.setFilter('user_id', '')}>
                <IconX size={12} aria-hidden />
              </ActionIcon>
            }>{filterUser ? filterUser.email : `user #${query.user_id}`}</Badge>
          </Group>
        ) : null}
        <DataTable
          caption="Balance requests"
          columns={columns}
          rowKey={(r) => r.id}
          {...tableProps}
          onRowClick={setReviewing}
          emptyTitle={list.filters.status === 'pending' && !filtered ? 'Nothing to review' : 'No request matches'}
          emptyDescription={list.filters.status === 'pending' && !filtered ? 'New top-up requests show here.' : undefined}
          filters={
            <>
              {!query.user_id && (
                <UserPicker label="User" placeholder="Any user" clearable w={{ base: '100%', xs: 240 }} value={null}
                  onChange={(v) => list.setFilter('user_id', v)} />
              )}
              <TextInput label="UTR" placeholder="Part of the UTR" leftSection={<IconSearch size={16} aria-hidden />}
                value={search} onChange={(e) => setSearch(e.currentTarget.value)} maxLength={50} w={{ base: '100%', xs: 180 }} />
              <DateRangeFilter list={list} picker />
            </>
          }
        />
      </Stack>
      <ReviewModal request={reviewing} onClose={() => setReviewing(null)} />
    </>
  );
}
