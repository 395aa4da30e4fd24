// Digital account openings made with the caller's keys (the gateway's
// account/open): status, days, pagination; the applicant's PAN and Aadhaar
// masked as the API gives them, the KYC link while KYC is pending, the
// account once opened, the reason once rejected. Admins see everyone's.
import { ActionIcon, Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/useSession';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { PageHeader } from '../../components/PageHeader';
import { ACCOUNT_OPEN_ENDPOINT, useAccountOpenings, type AccountOpeningsQuery } from '../../features/accountOpenings/api';
import { useUsersById } from '../../features/users/api';
import { formatDate, formatDateTime } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { useListParams } from '../../lib/listParams';
import { UserRef } from '../admin/shared/badges';
import { UserPicker } from '../admin/shared/UserPicker';
import { StatusBadge } from './common/StatusBadge';
import { TestModeBadge } from './payouts/beneficiary';

type Opening = Schemas['AccountOpening'];

const STATUSES = [
  { value: 'initiated', label: 'initiated' },
  { value: 'kyc_pending', label: 'KYC pending' },
  { value: 'opened', label: 'opened' },
  { value: 'rejected', label: 'rejected' },
];

/** What the opening has come to: the KYC link, the account, or why it was rejected. */
function Outcome({ o }: { o: Opening }) {
  switch (o.status) {
    case 'kyc_pending':
      return o.kyc_url
        ? <Anchor href={o.kyc_url} target="_blank" rel="noreferrer" size="sm">KYC link</Anchor>
        : <Text size="sm" c="dimmed">waiting for the KYC link</Text>;
    case 'opened':
      return (
        <Stack gap={0}>
          <Text size="sm" ff="monospace">{o.account_number ?? '—'}</Text>
          <Text size="xs" ff="monospace" c="dimmed">{o.ifsc ?? ''}</Text>
        </Stack>
      );
    case 'rejected':
      return <Text size="sm" c="red" lineClamp={2} maw={260}>{o.reject_reason ?? 'rejected'}</Text>;
    default:
      return <Text size="sm" c="dimmed">—</Text>;
  }
}

function columns(admin: boolean, users: Map<number, Schemas['User']>): Column<Opening>[] {
  return [
    { key: 'created_at', header: 'Created', render: (o) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(o.created_at)}</Text> },
    ...(admin ? [{ key: 'user', header: 'User', render: (o: Opening) => <UserRef id={o.user_id} users={users} /> }] : []),
    {
      key: 'applicant', header: 'Applicant',
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm">{o.applicant.name}</Text>
          <Text size="xs" c="dimmed">born {formatDate(o.applicant.dob)} · {o.applicant.mobile}</Text>
        </Stack>
      ),
    },
    {
      key: 'ids', header: 'PAN · Aadhaar', hiddenOnMobile: true,
      render: (o) => <Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>{o.applicant.pan} · {o.applicant.aadhaar}</Text>,
    },
    { key: 'product', header: 'Product', hiddenOnMobile: true, render: (o) => <Text size="sm" tt="capitalize">{o.product}</Text> },
    {
      key: 'status', header: 'Status',
      render: (o) => (
        <Group gap={6} wrap="nowrap">
          <StatusBadge status={o.status} />
          <TestModeBadge livemode={o.livemode} />
        </Group>
      ),
    },
    { key: 'outcome', header: 'KYC / account / reason', render: (o) => <Outcome o={o} /> },
    { key: 'ref', header: 'Your reference', hiddenOnMobile: true, render: (o) => <Text size="xs" ff="monospace">{o.reference_id}</Text> },
  ];
}

export default function AccountOpenings() {
  const admin = useUser().role === 'admin';
  const list = useListParams({ status: '', user_id: '', from: '', to: '' });
  const { user_id, ...rest } = list.query;
  const q = { ...rest, user_id: admin ? parseId(String(user_id ?? '')) ?? undefined : undefined } as AccountOpeningsQuery;
  const { query, tableProps } = useAccountOpenings(list, q);
  const users = useUsersById(admin ? [...(query.data?.data ?? []).map((o) => o.user_id), q.user_id] : []);
  const filterUser = q.user_id ? users.get(q.user_id) : undefined;
  const filtered = !!(list.filters.status || list.filters.from || list.filters.to || q.user_id);
  return (
    <>
      <PageHeader title="Account openings" description="Savings accounts opened for your applicants through the gateway API with your keys." />
      <Stack gap="sm">
        {admin && q.user_id ? (
          <Group gap="xs">
            <Text size="sm">Openings of</Text>
            <Badge variant="light" size="lg" rightSection={
              <ActionIcon size="xs" variant="transparent" aria-label="Show every user's openings" onClick={() => list.setFilter('user_id', '')}>
                <IconX size={12} aria-hidden />
              </ActionIcon>
            }>{filterUser ? filterUser.email : `user #${q.user_id}`}</Badge>
          </Group>
        ) : null}
        <DataTable<Opening>
          caption="Account openings"
          columns={columns(admin, users)}
          rowKey={(o) => o.opening_id}
          {...tableProps}
          emptyTitle={filtered ? 'No opening matches' : 'No account openings'}
          emptyDescription={filtered ? 'Nothing matches these filters.' : <>Open one with <code>POST {ACCOUNT_OPEN_ENDPOINT}</code> and your API key (or from the service’s Try it).</>}
          filters={
            <>
              {admin && !q.user_id && (
                <UserPicker label="User" placeholder="Any user" clearable w={{ base: '100%', xs: 220 }} value={null}
                  onChange={(v) => list.setFilter('user_id', v)} />
              )}
              <FilterSelect list={list} name="status" label="Status" w={160} data={STATUSES} />
              <DateRangeFilter list={list} />
            </>
          }
        />
      </Stack>
    </>
  );
}
