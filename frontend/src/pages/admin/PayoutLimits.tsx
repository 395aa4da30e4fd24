// Every account's daily payout limit and what it has paid out today, most
// used first; an admin changes one account's limit in a dialog (PATCH
// /users/{id}, as on the user's page).
import { useState } from 'react';
import { Anchor, Button, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { usePayoutLimits } from '../../features/payouts/api';
import { useListParams } from '../../lib/listParams';
import { compareDecimal } from '../../lib/money';
import { PayoutLimitForm } from './users/PayoutLimitForm';

type Limit = Schemas['PayoutLimit'];

export default function PayoutLimits() {
  const list = useListParams({});
  const { tableProps } = usePayoutLimits(list);
  const [editing, setEditing] = useState<Limit | null>(null);
  const columns: Column<Limit>[] = [
    {
      key: 'user', header: 'User',
      render: (l) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/admin/users/${l.user_id}`} size="sm">{l.name}</Anchor>
          <Text size="xs" c="dimmed">{l.email}</Text>
        </Stack>
      ),
    },
    {
      key: 'used', header: 'Paid out today', align: 'right',
      render: (l) => <Money value={l.used_today} fw={500} c={compareDecimal(l.used_today, l.daily_payout_limit) === 0 && l.used_today !== '0.00' ? 'red' : undefined} />,
    },
    { key: 'limit', header: 'Daily limit', align: 'right', render: (l) => <Money value={l.daily_payout_limit} /> },
    {
      key: 'edit', header: '', align: 'right', pinRight: true,
      render: (l) => <Button size="compact-sm" variant="light" aria-label={`Edit the limit of ${l.email}`} onClick={() => setEditing(l)}>Edit</Button>,
    },
  ];
  return (
    <>
      <PageHeader title="Payout limits" description="What each account may pay out in one day, and what it has paid out today (pending, processing and successful payouts)." />
      <DataTable<Limit> caption="Payout limits" columns={columns} rowKey={(l) => l.user_id} {...tableProps} emptyTitle="No accounts" />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing ? `Daily payout limit of ${editing.name}` : ''}>
        {editing && (
          <Stack gap="sm">
            <Text size="sm">{editing.email} has paid out <Money value={editing.used_today} fw={600} /> today.</Text>
            <PayoutLimitForm userId={editing.user_id} limit={editing.daily_payout_limit} onSaved={() => setEditing(null)} />
          </Stack>
        )}
      </Modal>
    </>
  );
}
