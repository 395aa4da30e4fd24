import { Badge, Paper, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../../api/types';
import { DataTable, type Column } from '../../../components/DataTable';
import { Money } from '../../../components/Money';
import { useUserTransactions } from '../../../features/transactions/api';
import { formatDateTime } from '../../../lib/dates';
import { useState } from 'react';

type Txn = Schemas['Transaction'];

/** The user's latest ledger entries. */
export function RecentTransactions({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const txns = useUserTransactions(userId, page, 10);
  const columns: Column<Txn>[] = [
    { key: 'when', header: 'When', render: (t) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(t.created_at)}</Text> },
    {
      key: 'amount', header: 'Amount', align: 'right',
      render: (t) => <Money value={t.type === 'debit' ? `-${t.amount}` : t.amount} colored />,
    },
    { key: 'after', header: 'Balance after', align: 'right', render: (t) => <Money value={t.balance_after} /> },
    { key: 'type', header: 'Type', render: (t) => <Badge variant="light" color={t.type === 'debit' ? 'red' : 'teal'}>{t.type}</Badge>, hiddenOnMobile: true },
    {
      key: 'desc', header: 'Description', hiddenOnMobile: true,
      render: (t) => <Stack gap={0}><Text size="sm">{t.description}</Text><Text size="xs" c="dimmed">{t.txn_id} · {t.reference_type}</Text></Stack>,
    },
  ];
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">Ledger</Title>
        <DataTable caption="Ledger entries" columns={columns} rows={txns.data?.data} rowKey={(t) => t.id}
          total={txns.data?.meta.total} totalCapped={txns.data?.meta.total_capped} page={page} perPage={10} onPageChange={setPage}
          isLoading={txns.isFetching} error={txns.error} onRetry={() => void txns.refetch()} emptyTitle="No ledger entries yet" />
      </Stack>
    </Paper>
  );
}
