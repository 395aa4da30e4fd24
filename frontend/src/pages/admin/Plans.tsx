// The plan catalog (docs/decisions.md, "Plans that bill"): every plan with its monthly price,
// allowance, features, whether users may switch to it themselves, and its
// status; an admin creates a plan and edits one (retiring or activating it)
// in a dialog.
import { useState } from 'react';
import { Badge, Button, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { usePlans, type Plan } from '../../features/plans/api';
import { formatINR } from '../../lib/money';
import { PlanForm } from './plans/PlanForm';
import { allowanceText, PlanPrice, PlanStatusBadge } from './shared/plans';

const columns = (edit: (p: Plan) => void): Column<Plan>[] => [
  {
    key: 'name', header: 'Plan',
    render: (p) => (
      <Stack gap={0}>
        <Text size="sm" fw={500}>{p.name}</Text>
        <Text size="xs" c="dimmed" ff="monospace">{p.code}</Text>
      </Stack>
    ),
  },
  { key: 'price', header: 'Monthly price', align: 'right', render: (p) => <PlanPrice price={p.monthly_price} size="sm" /> },
  { key: 'calls', header: 'Allowance', align: 'right', render: (p) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{allowanceText(p.monthly_calls)}</Text> },
  {
    key: 'public', header: 'Public',
    render: (p) => <Badge variant="outline" color={p.public ? 'blue' : 'gray'} styles={{ root: { minWidth: 'max-content' } }}>{p.public ? 'public' : 'private'}</Badge>,
  },
  { key: 'status', header: 'Status', render: (p) => <PlanStatusBadge status={p.status} /> },
  {
    key: 'features', header: 'Features', hiddenOnMobile: true,
    render: (p) => p.features.length === 0 ? <Text size="sm" c="dimmed">—</Text> : (
      <List size="xs" spacing={0} maw={320}>
        {p.features.map((f) => <List.Item key={f}>{f}</List.Item>)}
      </List>
    ),
  },
  {
    key: 'edit', header: '', align: 'right', pinRight: true,
    render: (p) => <Button size="compact-sm" variant="light" aria-label={`Edit plan ${p.name}`} onClick={() => edit(p)}>Edit</Button>,
  },
];

export default function Plans() {
  const plans = usePlans();
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const rows = plans.data;
  const close = () => setEditing(null);
  return (
    <>
      <PageHeader
        title="Plans"
        description="The plan catalog: a monthly price charged from the wallet, the calls allowed each month and the features users see. Users may switch to public plans themselves."
        actions={<Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>New plan</Button>}
      />
      <DataTable<Plan>
        caption="Plans"
        columns={columns(setEditing)}
        rows={rows}
        rowKey={(p) => p.code}
        page={1}
        perPage={Math.max(rows?.length ?? 0, 1)}
        onPageChange={() => {}}
        isLoading={plans.isPending}
        error={plans.error}
        onRetry={() => void plans.refetch()}
        emptyTitle="No plans"
      />
      <Modal opened={editing !== null} onClose={close} size="lg"
        title={editing === 'new' ? 'New plan' : editing ? `Edit plan ${editing.name}` : ''}>
        {editing !== null && (
          <PlanForm
            key={editing === 'new' ? 'new' : editing.code}
            plan={editing === 'new' ? undefined : editing}
            onDone={(p) => {
              notifications.show({
                color: 'teal',
                message: editing === 'new'
                  ? `Plan ${p.name} created: ${p.monthly_price === null ? 'price agreed per account' : `${formatINR(p.monthly_price)} a month`}, ${allowanceText(p.monthly_calls).toLowerCase()}.`
                  : `Plan ${p.name} saved${p.status === 'retired' ? ' (retired)' : ''}.`,
              });
              close();
            }}
          />
        )}
      </Modal>
    </>
  );
}
