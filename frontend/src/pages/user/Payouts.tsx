// Payouts (money out): the list with its filters (status, mode, days, a
// payout id, reference or UTR), the CSV export of what the filters match, a
// drawer per payout with its state history, and the new-payout form (signed
// with an API key's secret). Admins see everyone's payouts, with the user
// and a user filter.
import { useEffect, useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconSend } from '@tabler/icons-react';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/useSession';
import { CsvExportButton } from '../../components/CsvExport';
import { CopyId } from '../../components/CopyId';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { PAYOUT_TRANSFER_ENDPOINT, PAYOUTS_PATH, usePayouts, type PayoutsQuery } from '../../features/payouts/api';
import { formatDateTime } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { useListParams } from '../../lib/listParams';
import { NamedUserRef } from '../admin/shared/badges';
import { UserFilterChip, UserFilterPicker } from '../admin/shared/UserFilter';
import { StatusBadge } from './common/StatusBadge';
import { BeneficiaryCell, TestModeBadge } from './payouts/beneficiary';
import { PayoutDrawer } from './payouts/PayoutDrawer';
import { PayoutForm } from './payouts/PayoutForm';

type Payout = Schemas['Payout'];

const STATUSES = ['pending', 'processing', 'success', 'failed', 'reversed'];
const MODES = ['IMPS', 'NEFT', 'UPI'];

function columns(admin: boolean): Column<Payout>[] {
  return [
    { key: 'created_at', header: 'Created', render: (p) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(p.created_at)}</Text> },
    ...(admin ? [{ key: 'user', header: 'User', render: (p: Payout) => <NamedUserRef id={p.user_id} name={p.user_name} email={p.user_email} /> }] : []),
    { key: 'beneficiary', header: 'Beneficiary', render: (p) => <BeneficiaryCell b={p.beneficiary} /> },
    { key: 'amount', header: 'Amount', align: 'right', render: (p) => <Money value={p.amount} fw={500} /> },
    { key: 'fee', header: 'Fee', align: 'right', hiddenOnMobile: true, render: (p) => <Money value={p.fee} size="sm" /> },
    { key: 'mode', header: 'Mode', hiddenOnMobile: true, render: (p) => <Text size="sm">{p.mode}</Text> },
    {
      key: 'status', header: 'Status',
      render: (p) => (
        <Group gap={6} wrap="nowrap">
          <StatusBadge status={p.status} />
          <TestModeBadge livemode={p.livemode} />
        </Group>
      ),
    },
    {
      key: 'utr', header: 'UTR / reason', hiddenOnMobile: true,
      render: (p) => (p.utr ? <Text size="xs" ff="monospace">{p.utr}</Text>
        : <Text size="sm" c={p.fail_reason ? 'red' : 'dimmed'} lineClamp={2} maw={240}>{p.fail_reason ?? '—'}</Text>),
    },
    { key: 'id', header: 'Payout id', hiddenOnMobile: true, render: (p) => <CopyId value={p.payout_id} label="payout id" /> },
  ];
}

export default function Payouts() {
  const me = useUser();
  const admin = me.role === 'admin';
  const list = useListParams({ status: '', mode: '', q: '', user_id: '', from: '', to: '' });
  const [search, setSearch] = useState(list.filters.q);
  const [q] = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (q !== list.filters.q) list.setFilter('q', q);
  }, [q]);

  const { user_id, ...rest } = list.query;
  const query = { ...rest, user_id: admin ? parseId(String(user_id ?? '')) ?? undefined : undefined } as PayoutsQuery;
  const { query: payouts, tableProps } = usePayouts(list, { query });
  const rows = payouts.data?.data ?? [];
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const { page: _p, per_page: _pp, ...filters } = query;
  const filtered = Object.values(filters).some((x) => x !== undefined && x !== '');

  return (
    <>
      <PageHeader
        title="Payouts"
        description={admin
          ? "All payouts: every user's money sent to bank accounts and UPI addresses."
          : 'Money sent from your balance to bank accounts and UPI addresses, with your API keys.'}
        actions={<Button leftSection={<IconSend size={16} aria-hidden />} onClick={() => setCreating(true)}>New payout</Button>}
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title="New payout" size="lg">
        <PayoutForm onView={(id) => { setCreating(false); setOpen(id); }} />
      </Modal>
      <Stack gap="sm">
        {admin && <UserFilterChip list={list} what="Payouts" />}
        <DataTable<Payout>
          caption="Payouts"
          columns={columns(admin)}
          rowKey={(p) => p.payout_id}
          {...tableProps}
          onRowClick={(p) => setOpen(p.payout_id)}
          emptyTitle={filtered ? 'No payout matches' : 'No payouts yet'}
          emptyDescription={filtered ? 'Nothing matches these filters.' : <>Send one with <b>New payout</b>, or <code>POST {PAYOUT_TRANSFER_ENDPOINT}</code> with your API key.</>}
          filters={
            <>
              {admin && <UserFilterPicker list={list} />}
              <FilterSelect list={list} name="status" label="Status" w={140} data={STATUSES} />
              <FilterSelect list={list} name="mode" label="Mode" w={110} data={MODES} />
              <TextInput label="Search" placeholder="Payout id, reference or UTR" leftSection={<IconSearch size={16} aria-hidden />}
                value={search} onChange={(e) => setSearch(e.currentTarget.value)} maxLength={64} w={{ base: '100%', xs: 240 }} />
              <DateRangeFilter list={list} />
            </>
          }
          actions={<CsvExportButton path={PAYOUTS_PATH} query={filters} />}
        />
      </Stack>
      <PayoutDrawer payoutId={open} onClose={() => setOpen(null)} userLabel={admin ? (id) => {
        const p = rows.find((r) => r.user_id === id);
        return <NamedUserRef id={id} name={p?.user_name} email={p?.user_email} />;
      } : undefined} />
    </>
  );
}
