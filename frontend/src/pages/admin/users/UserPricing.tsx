import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import type { User } from '../../../api/types';
import { Money } from '../../../components/Money';
import { ErrorState, Loading } from '../../../components/States';
import { useDeletePrice, useServiceChoices, useServicePricing } from '../../../features/services/api';
import { ActiveBadge } from '../shared/badges';
import { PriceModal, type PriceTarget } from '../shared/PriceModal';

/**
 * A user's own prices for one service (the API keeps pricing per service:
 * choose the service, then add, edit or delete this user's row).
 */
export function UserPricing({ user }: { user: User }) {
  const [serviceId, setServiceId] = useState<string | null>(null);
  const [target, setTarget] = useState<PriceTarget | null>(null);
  const services = useServiceChoices();
  const sid = serviceId ? parseInt(serviceId, 10) : null; // not money: an id
  const pricing = useServicePricing(sid, { per_page: 100 });
  const own = pricing.data?.data.find((p) => p.user_id === user.id);
  const fallback = pricing.data?.data.find((p) => p.user_id === null);
  const service = services.data?.data.find((s) => s.id === sid);

  const remove = useDeletePrice(sid ?? 0, {
    onSuccess: () => notifications.show({ color: 'teal', message: 'The user pays the default price again.' }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not delete the price', message: errorMessage(err) }),
  });

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">Prices for this user</Title>
        <Text size="sm" c="dimmed">A user's own row replaces the service's default price for them.</Text>
        {services.isError ? (
          <ErrorState error={services.error} onRetry={() => void services.refetch()} />
        ) : (
          <Select label="Service" placeholder={services.isPending ? 'Loading services…' : 'Choose a service'} searchable
            data={(services.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            value={serviceId} onChange={setServiceId} nothingFoundMessage="No service" />
        )}
        {sid !== null && (pricing.isPending ? <Loading /> : pricing.isError ? (
          <ErrorState error={pricing.error} onRetry={() => void pricing.refetch()} />
        ) : (
          <>
            <Table aria-label="Prices for this user and service" withTableBorder>
              <Table.Thead>
                <Table.Tr><Table.Th>Row</Table.Th><Table.Th ta="right">User price</Table.Th><Table.Th ta="right">Reseller price</Table.Th><Table.Th>Status</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {own && (
                  <Table.Tr><Table.Td>This user</Table.Td><Table.Td ta="right"><Money value={own.user_price} /></Table.Td>
                    <Table.Td ta="right"><Money value={own.reseller_price} /></Table.Td><Table.Td><ActiveBadge status={own.status} /></Table.Td></Table.Tr>
                )}
                <Table.Tr c={own ? 'dimmed' : undefined}><Table.Td>Default</Table.Td>
                  <Table.Td ta="right">{fallback ? <Money value={fallback.user_price} /> : 'none'}</Table.Td>
                  <Table.Td ta="right">{fallback ? <Money value={fallback.reseller_price} /> : 'none'}</Table.Td>
                  <Table.Td>{fallback ? <ActiveBadge status={fallback.status} /> : '—'}</Table.Td></Table.Tr>
              </Table.Tbody>
            </Table>
            <Group justify="space-between" wrap="wrap">
              <Anchor component={Link} to={`/admin/services/${sid}`} size="sm">All prices of {service?.name ?? 'this service'}</Anchor>
              <Group gap="xs">
                {own ? (
                  <>
                    <Button variant="light" onClick={() => setTarget({ serviceId: sid, row: own, label: user.name })}>Edit price</Button>
                    <Button variant="subtle" color="red" loading={remove.isPending}
                      onClick={() => modals.openConfirmModal({
                        title: 'Delete this user\'s price?',
                        children: <Text size="sm">{user.name} then pays the default price of {service?.name}.</Text>,
                        labels: { confirm: 'Delete', cancel: 'Cancel' }, confirmProps: { color: 'red' },
                        onConfirm: () => remove.mutate(own.id),
                      })}>Delete</Button>
                  </>
                ) : (
                  <Button variant="light" onClick={() => setTarget({ serviceId: sid, userId: user.id, label: user.name })}>Add a price for this user</Button>
                )}
              </Group>
            </Group>
          </>
        ))}
      </Stack>
      <PriceModal target={target} onClose={() => setTarget(null)} />
    </Paper>
  );
}
