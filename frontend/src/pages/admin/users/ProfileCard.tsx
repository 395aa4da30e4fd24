import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { Schemas, User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useUpdateUser } from '../../../features/users/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';

interface Values { role: Schemas['Role']; fee: string }

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/** The same percentage written with 2 places ("1.5" → "1.50"), or null when it is not one. */
function fee2(v: string): string | null {
  const t = v.trim();
  if (!PERCENT.test(t)) return null;
  const [int, frac = ''] = t.split('.');
  return `${int.replace(/^0+(?=\d)/, '')}.${frac.padEnd(2, '0')}`;
}

/**
 * Role and collection fee of a user, saved with PATCH /users/{id} (only what
 * changed is sent). The plan has its own card (PlanCard: PATCH
 * /users/{id}/subscription, which charges and takes a price).
 */
export function RolePlanCard({ user, isSelf }: { user: User; isSelf: boolean }) {
  const form = useForm<Values>({
    initialValues: { role: user.role, fee: user.collection_fee_percent },
    validate: {
      fee: (v) => {
        const f = fee2(v);
        return f === null || f.length > 6 || (f.length === 6 && f !== '100.00') ? 'A percentage from 0 to 100, at most 2 decimals' : null;
      },
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form, { collection_fee_percent: 'fee' });
  const save = useUpdateUser({
    onSuccess: (u) => {
      form.resetDirty({ role: u.role, fee: u.collection_fee_percent });
      notifications.show({ color: 'teal', message: 'Role and fee saved.' });
    },
    onError: onApiError,
  });
  const submit = (v: Values) => {
    const body: Schemas['PatchUserRequest'] = {};
    if (v.role !== user.role) body.role = v.role;
    if (fee2(v.fee) !== user.collection_fee_percent) body.collection_fee_percent = v.fee.trim();
    save.mutate({ id: user.id, body });
  };
  const dirty = form.values.role !== user.role || fee2(form.values.fee) !== user.collection_fee_percent;
  return (
    <Paper withBorder p="md" radius="md">
      <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); submit(v); })}>
        <Stack gap="sm">
          <Title order={2} size="h4">Role and collection fee</Title>
          <FormError message={formError} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Select label="Role" data={['user', 'reseller', 'admin']} allowDeselect={false} disabled={isSelf}
              description={isSelf ? 'You cannot change your own role' : undefined}
              {...form.getInputProps('role')} />
            <TextInput label="Collection fee (%)" inputMode="decimal" autoComplete="off"
              description="Debited from each successful payment the user collects"
              {...form.getInputProps('fee')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" disabled={!dirty} loading={save.isPending}>Save role and fee</Button>
          </Group>
          <Text size="xs" c="dimmed">Resellers pay the reseller price of each service; admins may use this panel. A new fee applies to payments that succeed from now on.</Text>
        </Stack>
      </form>
    </Paper>
  );
}
