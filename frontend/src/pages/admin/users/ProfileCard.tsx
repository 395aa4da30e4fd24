import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { Schemas, User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useUpdateUser } from '../../../features/users/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';

interface Values { role: Schemas['Role']; plan: Schemas['Plan'] }

/** Role and plan of a user, saved with PATCH /users/{id}. */
export function RolePlanCard({ user, isSelf }: { user: User; isSelf: boolean }) {
  const form = useForm<Values>({ initialValues: { role: user.role, plan: user.plan } });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useUpdateUser({
    onSuccess: (u) => {
      form.resetDirty({ role: u.role, plan: u.plan });
      notifications.show({ color: 'teal', message: 'Role and plan saved.' });
    },
    onError: onApiError,
  });
  const submit = (v: Values) => {
    const body: { role?: Schemas['Role']; plan?: Schemas['Plan'] } = {};
    if (v.role !== user.role) body.role = v.role;
    if (v.plan !== user.plan) body.plan = v.plan;
    save.mutate({ id: user.id, body });
  };
  const dirty = form.values.role !== user.role || form.values.plan !== user.plan;
  return (
    <Paper withBorder p="md" radius="md">
      <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); submit(v); })}>
        <Stack gap="sm">
          <Title order={2} size="h4">Role and plan</Title>
          <FormError message={formError} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select label="Role" data={['user', 'reseller', 'admin']} allowDeselect={false} disabled={isSelf}
              description={isSelf ? 'You cannot change your own role' : undefined}
              {...form.getInputProps('role')} />
            <Select label="Plan" data={['starter', 'enterprise']} allowDeselect={false} {...form.getInputProps('plan')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" disabled={!dirty} loading={save.isPending}>Save role and plan</Button>
          </Group>
          <Text size="xs" c="dimmed">Resellers pay the reseller price of each service; admins may use this panel.</Text>
        </Stack>
      </form>
    </Paper>
  );
}
