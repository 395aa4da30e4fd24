// The caller's ledger: filters (type, what the entry belongs to, days),
// pagination in the URL, CSV export of every matching row.
import { Select, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, callJSON } from '../../api/client';
import type { GetQuery, Schemas } from '../../api/types';
import { CsvExportButton } from '../../components/CsvExport';
import { DataTable, type Column } from '../../components/DataTable';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { DateRangeFilters } from './common/DateRange';
import { StatusBadge } from './common/StatusBadge';

type Txn = Schemas['Transaction'];
const PATH = '/api/v1/panel/transactions';

const REFERENCES = [
  { value: 'api_hit', label: 'API calls' },
  { value: 'balance_request', label: 'Balance requests' },
  { value: 'adjustment', label: 'Adjustments' },
  { value: 'recharge', label: 'Recharges' },
  { value: 'payment', label: 'Payments' },
];

const columns: Column<Txn>[] = [
  { key: 'created_at', header: 'When', render: (t) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(t.created_at)}</Text> },
  { key: 'type', header: 'Type', render: (t) => <StatusBadge status={t.type} /> },
  {
    key: 'amount', header: 'Amount', align: 'right',
    render: (t) => <Money value={t.type === 'debit' ? `-${t.amount}` : t.amount} colored fw={500} />,
  },
  { key: 'balance_after', header: 'Balance after', align: 'right', render: (t) => <Money value={t.balance_after} /> },
  { key: 'description', header: 'Description', render: (t) => <Text size="sm" lineClamp={2} maw={360}>{t.description}</Text> },
  {
    key: 'reference', header: 'Reference', hiddenOnMobile: true,
    render: (t) => <Text size="sm" c="dimmed">{t.reference_type}{t.reference_id != null ? ` #${t.reference_id}` : ''}</Text>,
  },
  { key: 'txn_id', header: 'Transaction id', hiddenOnMobile: true, render: (t) => <Text size="xs" ff="monospace">{t.txn_id}</Text> },
];

export default function Transactions() {
  const list = useListParams({ type: '', reference_type: '', from: '', to: '' });
  const q = useQuery({
    queryKey: [PATH, list.query],
    queryFn: () => callJSON(api.GET(PATH, { params: { query: list.query as GetQuery<typeof PATH> } })),
    placeholderData: keepPreviousData,
  });
  const { page: _p, per_page: _pp, ...filters } = list.query;
  return (
    <>
      <PageHeader title="Transactions" description="Every change to your balance, newest first." />
      <DataTable<Txn>
        caption="Transactions"
        columns={columns}
        rows={q.data?.data}
        rowKey={(t) => t.id}
        total={q.data?.meta.total}
        totalCapped={q.data?.meta.total_capped}
        page={list.page}
        perPage={list.perPage}
        onPageChange={list.setPage}
        onPerPageChange={list.setPerPage}
        isLoading={q.isFetching}
        error={q.error}
        onRetry={() => void q.refetch()}
        emptyTitle="No transactions"
        emptyDescription={Object.keys(filters).length ? 'Nothing matches these filters.' : 'Top up your balance to get started.'}
        filters={
          <>
            <Select label="Type" placeholder="Any" clearable w={130} data={['credit', 'debit', 'refund']}
              value={list.filters.type || null} onChange={(v) => list.setFilter('type', v)} />
            <Select label="Belongs to" placeholder="Anything" clearable w={170} data={REFERENCES}
              value={list.filters.reference_type || null} onChange={(v) => list.setFilter('reference_type', v)} />
            <DateRangeFilters list={list} />
          </>
        }
        actions={<CsvExportButton path={PATH} query={filters} />}
      />
    </>
  );
}
