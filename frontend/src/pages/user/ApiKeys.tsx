// The caller's API keys: create (secret shown once), edit restrictions,
// rotate the secret (shown once), revoke after confirming.
import { useState } from 'react';
import { ActionIcon, Button, CopyButton, Group, Menu, Modal, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconDots, IconKey, IconPencil, IconRefresh, IconTrash } from '@tabler/icons-react';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { useKeys, useRevokeKey, useRotateKeySecret } from '../../features/keys/api';
import { useAllServices } from '../../features/services/api';
import { formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { KeyForm } from './apiKeys/KeyForm';
import { SecretModal } from './apiKeys/SecretModal';
import { StatusBadge } from './common/StatusBadge';

/** Today's calls against the key's daily limit (hits_today is 0 once the counter's day has passed). */
function DailyUse({ used, limit }: { used: number; limit: number }) {
  const share = limit > 0 ? Math.min(100, (used * 100) / limit) : 0; // not money: a bar's width
  const label = `${used.toLocaleString('en-IN')} of ${limit.toLocaleString('en-IN')} calls used today`;
  return (
    <Stack gap={2} align="flex-end" data-testid="key-usage">
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{used.toLocaleString('en-IN')} / {limit.toLocaleString('en-IN')}</Text>
      <Progress value={share} w={90} size="xs" color={share >= 90 ? 'red' : share >= 75 ? 'orange' : 'teal'} aria-label={label} title={label} />
    </Stack>
  );
}

type Key = Schemas['ApiKey'];
type KeyWithSecret = Schemas['ApiKeyWithSecret'];

function KeyText({ value }: { value: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" ff="monospace" truncate maw={170} title={value}>{value}</Text>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy key'} withArrow>
            <ActionIcon size="sm" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copy key">
              {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

export default function ApiKeys() {
  const list = useListParams({});
  const { tableProps } = useKeys(list);
  const services = useAllServices();
  const serviceName = (id: number) => services.data?.data.find((s) => s.id === id)?.name ?? `#${id}`;
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Key | null>(null);
  const [secret, setSecret] = useState<{ key: KeyWithSecret; rotated: boolean } | null>(null);

  const rotate = useRotateKeySecret({
    onSuccess: (k) => setSecret({ key: k, rotated: true }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not rotate the secret', message: errorMessage(err) }),
  });
  const revoke = useRevokeKey({
    onSuccess: (k) => notifications.show({ color: 'teal', message: `Key “${k.name}” revoked` }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not revoke the key', message: errorMessage(err) }),
  });

  const confirmRotate = (k: Key) =>
    modals.openConfirmModal({
      title: `Rotate the secret of “${k.name}”?`,
      children: <Text size="sm">The current secret stops working at once. Programs using it fail until you give them the new one.</Text>,
      labels: { confirm: 'Rotate secret', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: () => rotate.mutate(k),
    });
  const confirmRevoke = (k: Key) =>
    modals.openConfirmModal({
      title: `Revoke “${k.name}”?`,
      children: <Text size="sm">Calls with this key are refused from now on. This cannot be undone.</Text>,
      labels: { confirm: 'Revoke key', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(k),
    });

  const columns: Column<Key>[] = [
    { key: 'name', header: 'Name', render: (k) => <Text size="sm" fw={500}>{k.name}</Text> },
    { key: 'key', header: 'Key', render: (k) => <KeyText value={k.key} /> },
    { key: 'status', header: 'Status', render: (k) => <StatusBadge status={k.status} /> },
    {
      key: 'restrictions', header: 'Restrictions', hiddenOnMobile: true,
      render: (k) => (
        <Stack gap={0}>
          <Text size="xs">{k.allowed_services.length ? `Services: ${k.allowed_services.map(serviceName).join(', ')}` : 'Every service'}</Text>
          <Text size="xs" c="dimmed">{k.allowed_ips ? `IPs: ${k.allowed_ips}` : 'Any address'}</Text>
        </Stack>
      ),
    },
    { key: 'usage', header: 'Today', align: 'right', render: (k) => <DailyUse used={k.hits_today} limit={k.daily_limit} /> },
    { key: 'last_used', header: 'Last used', hiddenOnMobile: true, render: (k) => <Text size="sm">{k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}</Text> },
    {
      key: 'actions', header: 'Actions', align: 'right', pinRight: true,
      render: (k) =>
        k.status === 'revoked' ? null : (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`Actions for ${k.name}`}><IconDots size={16} aria-hidden /></ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={14} aria-hidden />} onClick={() => setEditing(k)}>Edit restrictions</Menu.Item>
              <Menu.Item leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => confirmRotate(k)}>Rotate secret</Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => confirmRevoke(k)}>Revoke</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ),
    },
  ];

  return (
    <>
      <PageHeader
        title="API keys"
        description="Call services with a key and its secret. Secrets are shown once, when a key is created or rotated."
        actions={<Button leftSection={<IconKey size={16} aria-hidden />} onClick={() => setCreating(true)}>Create key</Button>}
      />
      <DataTable<Key>
        caption="API keys"
        columns={columns}
        rowKey={(k) => k.id}
        {...tableProps}
        emptyTitle="No API keys yet"
        emptyDescription={<Button variant="light" onClick={() => setCreating(true)}>Create your first key</Button>}
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create an API key" size="lg">
        <KeyForm onCancel={() => setCreating(false)} onCreated={(k) => { setCreating(false); setSecret({ key: k, rotated: false }); }} />
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={`Restrictions of “${editing?.name ?? ''}”`} size="lg">
        {editing && (
          <KeyForm existing={editing} onCancel={() => setEditing(null)}
            onSaved={(k) => { setEditing(null); notifications.show({ color: 'teal', message: `Key “${k.name}” saved` }); }} />
        )}
      </Modal>
      <SecretModal created={secret?.key ?? null} rotated={secret?.rotated} onClose={() => setSecret(null)} />
    </>
  );
}
