// The caller's ledger: filters (type, what the entry belongs to, days),
// pagination in the URL, CSV export of every matching row. Admins see
// everyone's entries, with the user and a user filter.
import { Stack, Text } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { useUser } from '../../auth/useSession';
import { CsvExportButton } from '../../components/CsvExport';
import { CopyId } from '../../components/CopyId';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { TRANSACTIONS_PATH, useTransactionsList } from '../../features/transactions/api';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { NamedUserRef } from '../admin/shared/badges';
import { UserFilterChip, UserFilterPicker } from '../admin/shared/UserFilter';
import { StatusBadge } from './common/StatusBadge';

type Txn = Schemas['Transaction'];

const REFERENCES = [
  { value: 'api_hit', label: 'API calls' },
  { value: 'balance_request', label: 'Balance requests' },
  { value: 'adjustment', label: 'Adjustments' },
  { value: 'recharge', label: 'Recharges' },
  { value: 'payment', label: 'Payments' },
  { value: 'plan_fee', label: 'Plan fees' },
];

const columns = (admin: boolean): Column<Txn>[] => [
  { key: 'created_at', header: 'When', render: (t) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(t.created_at)}</Text> },
  ...(admin ? [{ key: 'user', header: 'User', render: (t: Txn) => <NamedUserRef id={t.user_id} name={t.user_name} email={t.user_email} /> }] : []),
  { key: 'type', header: 'Type', render: (t) => <StatusBadge status={t.type} /> },
  {
    key: 'amount', header: 'Amount', align: 'right',
    render: (t) => <Money value={t.type === 'debit' ? `-${t.amount}` : t.amount} colored fw={500} />,
  },
  { key: 'balance_after', header: 'Balance after', align: 'right', render: (t) => <Money value={t.balance_after} /> },
  { key: 'description', header: 'Description', render: (t) => <Text size="sm" lineClamp={2} maw={360} style={{ overflowWrap: 'anywhere' }}>{t.description}</Text> },
  {
    key: 'reference', header: 'Reference', hiddenOnMobile: true,
    render: (t) => <Text size="sm" c="dimmed">{t.reference_type}{t.reference_id != null ? ` #${t.reference_id}` : ''}</Text>,
  },
  { key: 'txn_id', header: 'Transaction id', hiddenOnMobile: true, render: (t) => <CopyId value={t.txn_id} label="transaction id" /> },
];

export default function Transactions() {
  const admin = useUser().role === 'admin';
  const list = useListParams({ user_id: '', type: '', reference_type: '', from: '', to: '' });
  const { tableProps } = useTransactionsList(list);
  const { page: _p, per_page: _pp, ...filters } = list.query;
  return (
    <>
      <PageHeader title="Transactions" description={admin ? "All transactions: every change to every user's balance, newest first." : 'Every change to your balance, newest first.'} />
      <Stack gap="sm">
        {admin && <UserFilterChip list={list} what="Transactions" />}
        <DataTable<Txn>
          caption="Transactions"
          columns={columns(admin)}
          rowKey={(t) => t.id}
          {...tableProps}
          emptyTitle="No transactions"
          emptyDescription={Object.keys(filters).length ? 'Nothing matches these filters.' : 'Top up your balance to get started.'}
          filters={
            <>
              {admin && <UserFilterPicker list={list} />}
              <FilterSelect list={list} name="type" label="Type" w={130} data={['credit', 'debit', 'refund']} />
              <FilterSelect list={list} name="reference_type" label="Belongs to" placeholder="Anything" w={170} data={REFERENCES} />
              <DateRangeFilter list={list} />
            </>
          }
          actions={<CsvExportButton path={TRANSACTIONS_PATH} query={filters} />}
        />
      </Stack>
    </>
  );
}
