import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft } from '@tabler/icons-react';
import { errorMessage } from '../../api/errors';
import type { Schemas } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { useDeleteService, useService, useServiceDocs } from '../../features/services/api';
import { parseId } from '../../lib/ids';
import { PricingTable } from './services/PricingTable';
import { ServiceForm } from './services/ServiceForm';
import { valuesFrom } from './services/model';

const back = (
  <Button component={Link} to="/admin/services" variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>All services</Button>
);

/** /admin/services/new and /admin/services/:id. */
export default function ServiceEdit() {
  const param = useParams().id;
  if (param === undefined) {
    return (
      <>
        <PageHeader title="New service" description="Register an upstream API to resell, document it and price it." actions={back} />
        <ServiceForm />
      </>
    );
  }
  return <EditService id={parseId(param)} />;
}

function EditService({ id }: { id: number | null }) {
  const service = useService(id);
  // A service without documentation has null docs: an empty docs form.
  const doc = useServiceDocs(id);

  let body;
  if (id === null) body = <EmptyState title="No such service" description="The address does not name a service." />;
  else if (service.isError) body = <ErrorState error={service.error} onRetry={() => void service.refetch()} />;
  else if (doc.isError) body = <ErrorState error={doc.error} onRetry={() => void doc.refetch()} />;
  else if (service.isPending || doc.isPending) body = <Loading label="Loading the service…" />;
  else {
    const s = service.data;
    body = (
      <Stack gap="md">
        <Paper withBorder p="md" radius="md">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2}>
              <Title order={2} size="h3" data-testid="service-name">{s.name}</Title>
              <Text size="sm" c="dimmed">
                <Code>{s.method} {s.endpoint}</Code>{s.builtin ? ' · built-in gateway service (slug and method are fixed)' : ''}
              </Text>
            </Stack>
            <Anchor component={Link} to={`/services/${s.id}`} size="sm">See it as users do</Anchor>
          </Group>
        </Paper>
        <ServiceForm key={s.updated_at ?? s.id} service={s} initial={valuesFrom(s, doc.data)} />
        <PricingTable serviceId={s.id} serviceName={s.name} />
        {!s.builtin && <DeleteService service={s} />}
      </Stack>
    );
  }
  return (
    <>
      <PageHeader title="Edit service" description={service.data?.name} actions={back} />
      {body}
    </>
  );
}

function DeleteService({ service }: { service: Schemas['Service'] }) {
  const navigate = useNavigate();
  const del = useDeleteService({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: `${service.name} was deleted.` });
      navigate('/admin/services', { replace: true });
    },
    onError: (err) => notifications.show({ color: 'red', title: 'Could not delete', message: errorMessage(err) }),
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Title order={2} size="h4">Delete service</Title>
          <Text size="sm" c="dimmed">Removes it with its pricing and docs; hit logs stay as history.</Text>
        </Stack>
        <Button color="red" variant="outline" loading={del.isPending}
          onClick={() => modals.openConfirmModal({
            title: `Delete ${service.name}?`,
            children: <Text size="sm">Calls to {service.endpoint} stop at once. This cannot be undone.</Text>,
            labels: { confirm: 'Delete service', cancel: 'Cancel' }, confirmProps: { color: 'red' },
            onConfirm: () => del.mutate(service),
          })}>Delete service…</Button>
      </Group>
    </Paper>
  );
}
