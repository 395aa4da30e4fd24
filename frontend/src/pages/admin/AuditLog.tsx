import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Text, TextInput } from '@mantine/core';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { DateRangeFilter } from '../../components/DateRangeFilter';
import { FilterSelect } from '../../components/FilterSelect';
import { PageHeader } from '../../components/PageHeader';
import { useAuditLogs } from '../../features/audit/api';
import { formatDateTime } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { useListParams } from '../../lib/listParams';
import { NamedUserRef } from './shared/badges';
import { UserPicker } from './shared/UserPicker';
import { AuditDetail } from './auditLog/AuditDetail';

type Entry = Schemas['AuditLog'];
type TargetType = Entry['target_type'];

const ACTIONS = [
  'user.create', 'user.update', 'user.activate', 'user.block', 'user.delete', 'user.balance_adjust',
  'service.create', 'service.update', 'service.delete', 'service.docs_put',
  'pricing.create', 'pricing.update', 'pricing.delete',
  'balance_request.approve', 'balance_request.reject',
  'reconciliation.import', 'reconciliation.match', 'reconciliation.dismiss',
  'payment.utr_correct', 'payment.credit_retry',
  'plan.create', 'plan.update', 'subscription.set', 'billing_settings.update', 'invoice.irn_record',
  // resellers' own actions
  'customer.create', 'customer.block', 'customer.activate', 'customer.limits', 'customer.confirm',
  'customer.detach', 'transfer.create',
  'brand.update', 'brand.logo_set', 'brand.logo_delete', 'brand.domain_verify',
  'customer_price.set', 'customer_price.delete', 'customer_markup.set',
];
const TARGETS: TargetType[] = ['user', 'service', 'pricing', 'balance_request', 'plan', 'payment', 'transfer',
  'reconciliation_statement', 'reconciliation_line', 'billing_settings', 'invoice'];

function actionColor(action: string): string {
  if (/delete|block|reject/.test(action)) return 'red';
  if (/create|activate|approve/.test(action)) return 'teal';
  if (/balance_adjust/.test(action)) return 'orange';
  return 'blue';
}

/** The target by name when the API names it (a user or a service), with its type and id. */
function TargetLink({ e }: { e: Entry }) {
  const kind = e.target_type.replace('_', ' ');
  const id = e.target_id !== null ? ` #${e.target_id}` : '';
  const label = e.target_name ? `${e.target_name} (${kind}${id})` : `${kind}${id}`;
  if (e.target_id === null) return <Text size="sm">{label}</Text>;
  const to = e.target_type === 'user' ? `/admin/users/${e.target_id}` : e.target_type === 'service' ? `/admin/services/${e.target_id}` : null;
  return to ? <Anchor component={Link} to={to} size="sm" onClick={(ev) => ev.stopPropagation()}>{label}</Anchor> : <Text size="sm">{label}</Text>;
}

export default function AuditLog() {
  const list = useListParams({ actor_id: '', action: '', target_type: '', target_id: '', from: '', to: '' });
  const [open, setOpen] = useState<Entry | null>(null);
  const [targetId, setTargetId] = useState(list.filters.target_id);
  const { actor_id, target_id, target_type, ...rest } = list.query;
  const query = {
    ...rest,
    actor_id: parseId(String(actor_id ?? '')) ?? undefined,
    target_id: parseId(String(target_id ?? '')) ?? undefined,
    target_type: (target_type || undefined) as TargetType | undefined,
  };
  const { tableProps } = useAuditLogs(list, query);
  const filtered = Object.values(list.filters).some(Boolean);

  const columns: Column<Entry>[] = [
    { key: 'when', header: 'When', render: (e) => formatDateTime(e.created_at) },
    { key: 'actor', header: 'Admin', render: (e) => <NamedUserRef id={e.actor_id} name={e.actor_name} email={e.actor_email} compact />, hiddenOnMobile: true },
    { key: 'action', header: 'Action', render: (e) => <Badge variant="light" color={actionColor(e.action)} style={{ textTransform: 'none' }}>{e.action}</Badge> },
    { key: 'target', header: 'Target', render: (e) => <TargetLink e={e} /> },
    { key: 'ip', header: 'Address', render: (e) => e.ip_address, hiddenOnMobile: true },
    {
      key: 'view', header: 'Details', align: 'right', pinRight: true,
      render: (e) => <Button size="compact-sm" variant="default" aria-label={`Details of entry ${e.id}`}
        onClick={(ev) => { ev.stopPropagation(); setOpen(e); }}>Details</Button>,
    },
  ];

  return (
    <>
      <PageHeader title="Audit log" description="Every change an admin made, with the target before and after (secrets are never recorded)." />
      <DataTable
        caption="Audit log"
        columns={columns}
        rowKey={(e) => e.id}
        {...tableProps}
        onRowClick={setOpen}
        emptyTitle={filtered ? 'No entry matches these filters' : 'No actions recorded yet'}
        emptyDescription={filtered ? <Button variant="subtle" size="xs" onClick={() => { setTargetId(''); list.reset(); }}>Clear the filters</Button> : undefined}
        filters={
          <>
            <UserPicker label="Admin" role="admin" placeholder="Anyone" clearable w={{ base: '100%', xs: 220 }}
              value={list.filters.actor_id || null} onChange={(v) => list.setFilter('actor_id', v)} />
            <FilterSelect list={list} name="action" label="Action" data={ACTIONS} searchable w={{ base: '100%', xs: 210 }} />
            <FilterSelect list={list} name="target_type" label="Target" data={TARGETS.map((t) => ({ value: t, label: t.replace('_', ' ') }))} w={150} />
            <TextInput label="Target id" inputMode="numeric" placeholder="Any" w={100} value={targetId}
              error={targetId && parseId(targetId) === null ? 'A number' : undefined}
              onChange={(e) => {
                const v = e.currentTarget.value.trim();
                setTargetId(v);
                if (!v || parseId(v) !== null) list.setFilter('target_id', v);
              }} />
            <DateRangeFilter list={list} picker />
          </>
        }
      />
      <AuditDetail entry={open} onClose={() => setOpen(null)} />
    </>
  );
}
