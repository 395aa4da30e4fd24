import { useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { DataTable, type Column } from '../../../components/DataTable';
import { Money } from '../../../components/Money';
import { useDeletePrice, useServicePricing } from '../../../features/services/api';
import { useUsersById } from '../../../features/users/api';
import { ActiveBadge, UserRef } from '../shared/badges';
import { PriceModal, type PriceTarget } from '../shared/PriceModal';

type Price = Schemas['Price'];

/** The service's pricing: its default row first, then per-user rows; add, edit, delete. */
export function PricingTable({ serviceId, serviceName }: { serviceId: number; serviceName: string }) {
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<PriceTarget | null>(null);
  const prices = useServicePricing(serviceId, { page, per_page: 20 });
  const rows = prices.data?.data;
  const users = useUsersById((rows ?? []).map((r) => r.user_id));
  // The API lists the default row first, so page 1 tells whether there is one.
  const hasDefault = page === 1 ? rows?.some((r) => r.user_id === null) : true;

  const remove = useDeletePrice(serviceId, {
    onSuccess: () => notifications.show({ color: 'teal', message: 'Price deleted.' }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not delete the price', message: errorMessage(err) }),
  });
  const confirmDelete = (p: Price) =>
    modals.openConfirmModal({
      title: p.user_id === null ? 'Delete the default price?' : 'Delete this user\'s price?',
      children: (
        <Text size="sm">
          {p.user_id === null
            ? 'Calls by users without their own price can no longer be billed until a default price is added again.'
            : 'This user then pays the default price.'}
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(p.id),
    });

  const columns: Column<Price>[] = [
    {
      key: 'who', header: 'For',
      render: (p) => (p.user_id === null ? <Badge variant="light" styles={{ root: { minWidth: 'max-content' } }}>Default</Badge> : <UserRef id={p.user_id} users={users} />),
    },
    { key: 'admin_cost', header: 'Admin cost', align: 'right', render: (p) => <Money value={p.admin_cost} /> },
    { key: 'reseller', header: 'Reseller', align: 'right', render: (p) => <Money value={p.reseller_price} />, hiddenOnMobile: true },
    { key: 'user', header: 'User', align: 'right', render: (p) => <Money value={p.user_price} /> },
    { key: 'min', header: 'Minimum', align: 'right', render: (p) => <Money value={p.minimum_hit_charge} />, hiddenOnMobile: true },
    { key: 'status', header: 'Status', render: (p) => <ActiveBadge status={p.status} />, hiddenOnMobile: true },
    {
      key: 'actions', header: 'Actions', align: 'right', pinRight: true,
      render: (p) => {
        const who = p.user_id === null ? 'default price' : `price of ${users.get(p.user_id)?.email ?? `user #${p.user_id}`}`;
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Button size="compact-sm" variant="light" aria-label={`Edit ${who}`}
              onClick={() => setTarget({ serviceId, row: p, label: serviceName })}>Edit</Button>
            <Button size="compact-sm" variant="subtle" color="red" aria-label={`Delete ${who}`} onClick={() => confirmDelete(p)}>Delete</Button>
          </Group>
        );
      },
    },
  ];

  return (
    <Paper withBorder p="md" radius="md" data-testid="pricing">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={0}>
            <Title order={2} size="h4">Pricing</Title>
            <Text size="sm" c="dimmed">The default row prices every call; a user's own row overrides it for them.</Text>
          </Stack>
          <Group gap="xs">
            {hasDefault === false && (
              <Button onClick={() => setTarget({ serviceId, userId: null, label: serviceName })}>Add default price</Button>
            )}
            <Button variant="light" onClick={() => setTarget({ serviceId, label: serviceName })}>Add user price</Button>
          </Group>
        </Group>
        <DataTable caption="Pricing rows" columns={columns} rows={rows} rowKey={(p) => p.id} total={prices.data?.meta.total}
          page={page} perPage={20} onPageChange={setPage} isLoading={prices.isFetching} error={prices.error}
          onRetry={() => void prices.refetch()} emptyTitle="No prices yet"
          emptyDescription="Calls cannot be billed until the service has a default price." />
      </Stack>
      <PriceModal target={target} onClose={() => setTarget(null)} />
    </Paper>
  );
}
