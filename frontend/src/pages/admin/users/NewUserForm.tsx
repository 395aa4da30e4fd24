// "New user" on the users screen (POST /users): name, email, phone, a first
// password (generated, shown to copy), role and status. An active account
// can sign in at once; a pending one waits for activation, as a registered
// one does. The API's field errors land next to the fields of the same name.
import { Alert, Button, Code, CopyButton, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Schemas, User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useCreateUser } from '../../../features/users/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';

type Values = Schemas['CreateUserRequest'] & { role: Schemas['Role']; status: Schemas['UserStatus'] };

/** 16 characters from crypto.getRandomValues, letters and digits without look-alikes. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export function NewUserForm({ onCreated, onCancel }: { onCreated: (u: User, password: string) => void; onCancel: () => void }) {
  const form = useForm<Values>({
    initialValues: { name: '', email: '', phone: '', password: generatePassword(), role: 'user', status: 'active' },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the name'),
      email: (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'An email address'),
      phone: (v) => (/^\+?[0-9]{10,15}$/.test(v.trim()) ? null : '10 to 15 digits, optionally after a +'),
      password: (v) => (v.length >= 8 && v.length <= 72 ? null : '8 to 72 characters'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const create = useCreateUser({ onSuccess: (u, body) => onCreated(u, body.password), onError: onApiError });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => {
      clearFormError();
      create.mutate({ ...v, name: v.name.trim(), email: v.email.trim(), phone: v.phone.trim() });
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
        <TextInput label="Phone" required placeholder="+919876543210" {...form.getInputProps('phone')} />
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <PasswordInput label="First password" required description="Give it to them; they change it in Profile" style={{ flex: 1 }}
            autoComplete="new-password" {...form.getInputProps('password')} />
          <Button variant="default" onClick={() => form.setFieldValue('password', generatePassword())}>Generate</Button>
        </Group>
        <Group grow>
          <Select label="Role" allowDeselect={false} data={[{ value: 'user', label: 'User' }, { value: 'reseller', label: 'Reseller' }, { value: 'admin', label: 'Admin' }]}
            {...form.getInputProps('role')} />
          <Select label="Status" allowDeselect={false}
            data={[{ value: 'active', label: 'Active: can sign in now' }, { value: 'pending', label: 'Pending: activate later' }]}
            {...form.getInputProps('status')} />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>Cancel</Button>
          <Button type="submit" loading={create.isPending}>Create user</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** After creating: what to hand over (the email and the first password, shown once). */
export function NewUserCreated({ user, password, onDone }: { user: User; password: string; onDone: () => void }) {
  return (
    <Stack gap="sm" data-testid="new-user-created">
      <Alert color="teal" title={`${user.name} can ${user.status === 'active' ? 'sign in now' : 'sign in once activated'}`}>
        Give them the sign-in page, their email and this first password (shown once here); they change it in Profile.
      </Alert>
      <Text size="sm">Email <Code>{user.email}</Code></Text>
      <Group gap="xs">
        <Text size="sm">Password <Code data-testid="new-user-password">{password}</Code></Text>
        <CopyButton value={password}>{({ copied, copy }) => <Button size="compact-xs" variant="light" onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}</CopyButton>
      </Group>
      <Group justify="flex-end"><Button onClick={onDone}>Done</Button></Group>
    </Stack>
  );
}
