// One delivery: its event's body, its latest attempts, and "Send again".
import { Button, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import { ErrorState, Loading } from '../../../components/States';
import { useDelivery, useRedeliver } from '../../../features/webhooks/api';
import { formatDateTime } from '../../../lib/dates';
import { JsonBlock } from '../common/JsonBlock';
import { StatusBadge } from '../common/StatusBadge';

export function DeliveryDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const q = useDelivery(id);
  const redeliver = useRedeliver(id, {
    onSuccess: () => notifications.show({ color: 'teal', message: 'Queued: it is sent again within a few seconds' }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not send it again', message: errorMessage(err) }),
  });
  const d = q.data;
  return (
    <Drawer opened={id !== null} onClose={onClose} position="right" size="xl" title="Delivery">
      {q.isPending ? <Loading /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} /> : d && (
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h4">{d.event_type}</Title>
            <StatusBadge status={d.status} />
          </Group>
          <Text size="sm">To ({d.destination === 'webhook' ? 'your webhook URL' : 'the payment’s callback URL'}): <Text span ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>{d.url}</Text></Text>
          <Text size="sm">Event id <Text span ff="monospace" size="sm">{d.event_id}</Text> · created {formatDateTime(d.created_at)}</Text>
          <Text size="sm">
            {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
            {d.delivered_at ? ` · delivered ${formatDateTime(d.delivered_at)}` : ''}
            {d.next_attempt_at ? ` · next attempt ${formatDateTime(d.next_attempt_at)}` : ''}
          </Text>
          <Group>
            <Button onClick={() => redeliver.mutate()} loading={redeliver.isPending} variant="light">Send again</Button>
          </Group>
          <Title order={4} size="h5">Body</Title>
          <JsonBlock value={d.payload} label="Event body" />
          <Title order={4} size="h5">Attempts</Title>
          {d.attempt_log.length === 0 ? <Text size="sm" c="dimmed">No attempt yet.</Text> : (
            <Table.ScrollContainer minWidth={480}>
              <Table aria-label="Delivery attempts" striped>
                <Table.Thead>
                  <Table.Tr><Table.Th>When</Table.Th><Table.Th>Answer</Table.Th><Table.Th ta="right">Time</Table.Th><Table.Th>Error / response</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.attempt_log.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(a.created_at)}</Table.Td>
                      <Table.Td>{a.status_code ?? 'none'}</Table.Td>
                      <Table.Td ta="right">{a.latency_ms} ms</Table.Td>
                      <Table.Td><Text size="xs" ff="monospace" lineClamp={3} style={{ wordBreak: 'break-all' }}>{a.error ?? a.response_snippet}</Text></Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
