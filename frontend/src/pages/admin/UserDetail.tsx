import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Code, Grid, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../api/errors';
import type { User } from '../../api/types';
import { useUser } from '../../auth/useSession';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, QueryState } from '../../components/States';
import { useDeleteUser, useUserDetail } from '../../features/users/api';
import { formatDateTime } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { RoleBadge, UserStatusBadge } from './shared/badges';
import { BalanceAdjustment } from './users/BalanceAdjustment';
import { PayoutLimitCard } from './users/PayoutLimitForm';
import { RolePlanCard } from './users/ProfileCard';
import { UserPlanCard } from './users/PlanCard';
import { RecentTransactions } from './users/RecentTransactions';
import { UserPricing } from './users/UserPricing';
import { useUserActions } from './users/useUserActions';

export default function UserDetail() {
  const id = parseId(useParams().id);
  const user = useUserDetail(id);
  const back = (
    <Button component={Link} to="/admin/users" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>All users</Button>
  );
  if (id === null) {
    return (
      <>
        <PageHeader title="User" actions={back} />
        <EmptyState title="No such user" description="The address does not name a user." />
      </>
    );
  }
  return (
    <QueryState query={user} loadingLabel="Loading the user…">
      {(u) => <UserPage user={u} back={back} />}
    </QueryState>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Stack>
  );
}

function UserPage({ user, back }: { user: User; back: ReactNode }) {
  const me = useUser();
  const isSelf = me.id === user.id;
  const navigate = useNavigate();
  const { activate, confirmBlock, busyId } = useUserActions();
  const del = useDeleteUser({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: `${user.name} was deleted.` });
      navigate('/admin/users', { replace: true });
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not delete', message: errorMessage(err) }),
  });
  const deleted = !!user.deleted_at;

  return (
    <>
      <PageHeader title="User" description={<>{user.name} · {user.email}</>} actions={back} />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="md" radius="md">
              <Stack gap="md">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs">
                    <Title order={2} size="h4">{user.name}</Title>
                    <UserStatusBadge status={user.status} />
                    <RoleBadge role={user.role} />
                  </Group>
                  {!isSelf && !deleted && (
                    <Group gap="xs">
                      {user.status !== 'active' && (
                        <Button color="teal" loading={busyId === user.id} onClick={() => activate(user)}>Activate</Button>
                      )}
                      {user.status !== 'blocked' && (
                        <Button color="red" variant="light" loading={busyId === user.id} onClick={() => confirmBlock(user)}>Block</Button>
                      )}
                    </Group>
                  )}
                </Group>
                {deleted && <Text c="red" size="sm">Deleted {formatDateTime(user.deleted_at)}</Text>}
                <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
                  <Field label="Email">{user.email}</Field>
                  <Field label="Phone">{user.phone}</Field>
                  <Field label="Plan">{user.plan}</Field>
                  <Field label="Balance"><Money value={user.balance} fw={600} data-testid="user-balance" /></Field>
                  <Field label="Total spent"><Money value={user.total_spent} /></Field>
                  <Field label="Low balance alert"><Money value={user.low_balance_alert} /></Field>
                  <Field label="Collection fee">{user.collection_fee_percent}%</Field>
                  <Field label="Daily payout limit"><Money value={user.daily_payout_limit} /></Field>
                  <Field label="Email verified">{user.email_verified_at ? formatDateTime(user.email_verified_at) : 'not yet'}</Field>
                  <Field label="Joined">{formatDateTime(user.created_at)}</Field>
                  <Field label="Updated">{formatDateTime(user.updated_at)}</Field>
                  <Field label="Default API key">{user.api_key ? <Code>{user.api_key}</Code> : 'none until active'}</Field>
                  <Field label="Webhook URL">{user.webhook_url ?? '—'}</Field>
                </SimpleGrid>
                <Group gap="md">
                  <Anchor component={Link} to={`/admin/audit-log?target_type=user&target_id=${user.id}`} size="sm">Audit log of this user</Anchor>
                  <Anchor component={Link} to={`/admin/balance-requests?user_id=${user.id}&status=all`} size="sm">Balance requests</Anchor>
                  <Anchor component={Link} to={`/payouts?user_id=${user.id}`} size="sm">Payouts</Anchor>
                </Group>
              </Stack>
            </Paper>
            {!deleted && <UserPricing user={user} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            {!deleted && <UserPlanCard key={user.plan} user={user} />}
            {!deleted && <RolePlanCard key={`${user.role}-${user.collection_fee_percent}`} user={user} isSelf={isSelf} />}
            {!deleted && <PayoutLimitCard key={user.daily_payout_limit} user={user} />}
            {!deleted && <BalanceAdjustment user={user} />}
            {!isSelf && !deleted && (
              <Paper withBorder p="md" radius="md">
                <Stack gap="xs">
                  <Title order={2} size="h4">Delete account</Title>
                  <Text size="sm" c="dimmed">Ends the user's sessions and stops their keys. Their history stays.</Text>
                  <Group justify="flex-end">
                    <Button color="red" variant="outline" loading={del.isPending}
                      onClick={() => modals.openConfirmModal({
                        title: `Delete ${user.name}?`,
                        children: <Text size="sm">{user.email} can no longer sign in and their API keys stop working. This cannot be undone from the panel.</Text>,
                        labels: { confirm: 'Delete user', cancel: 'Cancel' }, confirmProps: { color: 'red' },
                        onConfirm: () => del.mutate(user),
                      })}>Delete user…</Button>
                  </Group>
                </Stack>
              </Paper>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      <Stack mt="md"><RecentTransactions userId={user.id} /></Stack>
    </>
  );
}
