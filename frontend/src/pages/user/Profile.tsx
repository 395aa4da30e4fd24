// Profile and sessions: the account, details, password, the billing details
// of tax invoices, and the signed-in sessions (end any but this one; "Sign out" ends this one).
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';
import { useMe } from '../../auth/useMe';
import { DataTable, type Column } from '../../components/DataTable';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/States';
import { useRevokeSession, useSessions } from '../../features/account/api';
import { formatDate, formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';
import { StatusBadge } from './common/StatusBadge';
import { BillingProfileForm } from './profile/BillingProfileForm';
import { DetailsForm, PasswordForm } from './profile/Forms';

type Session = Schemas['Session'];

/** A short name for a User-Agent: browser and system. */
export function deviceName(ua: string): string {
  const browser = /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox' : /Safari\//.test(ua) ? 'Safari' : null;
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows' : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : null;
  return browser && os ? `${browser} on ${os}` : ua || 'Unknown client';
}

function Sessions() {
  const list = useListParams({}, 10);
  const { tableProps } = useSessions(list);
  const revoke = useRevokeSession({
    onSuccess: () => notifications.show({ color: 'teal', message: 'Session ended' }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not end the session', message: errorMessage(err) }),
  });
  const columns: Column<Session>[] = [
    {
      key: 'name', header: 'Device',
      render: (s) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" title={s.name}>{deviceName(s.name)}</Text>
          {s.current && <Badge size="sm" color="teal" variant="light">this one</Badge>}
        </Group>
      ),
    },
    { key: 'created', header: 'Signed in', hiddenOnMobile: true, render: (s) => <Text size="sm">{formatDateTime(s.created_at)}</Text> },
    { key: 'used', header: 'Last active', render: (s) => <Text size="sm">{formatDateTime(s.last_used_at ?? s.created_at)}</Text> },
    { key: 'expires', header: 'Expires', hiddenOnMobile: true, render: (s) => <Text size="sm">{formatDate(s.expires_at)}</Text> },
    {
      key: 'end', header: 'Actions', align: 'right',
      render: (s) => s.current ? <Text size="xs" c="dimmed">Sign out to end</Text> : (
        <Button size="compact-xs" variant="subtle" color="red" aria-label={`End the session ${deviceName(s.name)} from ${formatDateTime(s.created_at)}`}
          onClick={() => modals.openConfirmModal({
            title: 'End this session?',
            children: <Text size="sm">{deviceName(s.name)} is signed out at once.</Text>,
            labels: { confirm: 'End session', cancel: 'Cancel' },
            confirmProps: { color: 'red' },
            onConfirm: () => revoke.mutate(s),
          })}>
          End
        </Button>
      ),
    },
  ];
  return (
    <DataTable<Session>
      caption="Signed-in sessions"
      columns={columns}
      rowKey={(s) => s.id}
      {...tableProps}
      onPerPageChange={undefined} // ten a page, no choice
      emptyTitle="No other sessions"
    />
  );
}

export default function Profile() {
  const me = useMe();
  return (
    <>
      <PageHeader title="Profile and sessions" />
      <QueryState query={me}>
        {(u) => (
          <Stack gap="lg">
            <Paper withBorder p="md" radius="md">
              <Group gap="lg" wrap="wrap">
                <div><Text size="xs" c="dimmed">Account</Text><Text fw={600}>{u.email}</Text></div>
                <div><Text size="xs" c="dimmed">Role · plan</Text><Text tt="capitalize">{u.role} · {u.plan}</Text></div>
                <div><Text size="xs" c="dimmed">Status</Text><StatusBadge status={u.status} /></div>
                <div><Text size="xs" c="dimmed">Balance</Text><Money value={u.balance} fw={600} /></div>
                <div><Text size="xs" c="dimmed">Spent in all</Text><Money value={u.total_spent} /></div>
                <div><Text size="xs" c="dimmed">Member since</Text><Text>{formatDate(u.created_at)}</Text></div>
              </Group>
            </Paper>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">Your details</Title>
                <DetailsForm me={u} />
              </Paper>
              <Paper withBorder p="md" radius="md">
                <Title order={2} size="h4" mb="sm">Password</Title>
                <PasswordForm />
              </Paper>
            </SimpleGrid>
            <Paper withBorder p="md" radius="md" component="section" aria-labelledby="billing-details" data-testid="billing-details">
              <Title order={2} size="h4" mb="xs" id="billing-details">Billing details (for tax invoices)</Title>
              <BillingProfileForm me={u} />
            </Paper>
            <div>
              <Title order={2} size="h4" mb="sm">Sessions</Title>
              <Sessions />
            </div>
          </Stack>
        )}
      </QueryState>
    </>
  );
}
