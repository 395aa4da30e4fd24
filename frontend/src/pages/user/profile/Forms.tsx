// The caller's details (name, phone) and password, through PATCH /auth/me.
import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useChangePassword, useUpdateMe } from '../../../features/account/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';

export function DetailsForm({ me }: { me: User }) {
  const form = useForm({
    initialValues: { name: me.name, phone: me.phone },
    validate: {
      name: (v) => (v.trim() ? (v.length > 255 ? 'Use at most 255 characters' : null) : 'Enter your name'),
      phone: (v) => (/^\+?[0-9]{10,15}$/.test(v.trim()) ? null : 'Enter 10 to 15 digits, optionally after a +'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useUpdateMe({
    onSuccess: (u) => {
      form.resetDirty({ name: u.name, phone: u.phone });
      notifications.show({ color: 'teal', message: 'Your details are saved' });
    },
    onError: onApiError,
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); save.mutate({ name: v.name.trim(), phone: v.phone.trim() }); })} aria-label="Your details">
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label="Name" required autoComplete="name" {...form.getInputProps('name')} />
        <TextInput label="Phone" required type="tel" autoComplete="tel" {...form.getInputProps('phone')} />
        <TextInput label="Email" value={me.email} readOnly description="Ask an administrator to change it" />
        <Group justify="flex-end"><Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>Save details</Button></Group>
      </Stack>
    </form>
  );
}

/** Changing the password signs out the other sessions (their list refreshes). */
export function PasswordForm() {
  const form = useForm({
    initialValues: { current_password: '', password: '', confirm: '' },
    validate: {
      current_password: (v) => (v ? null : 'Enter your current password'),
      password: (v) => (v.length < 8 ? 'Use at least 8 characters' : v.length > 72 ? 'Use at most 72 characters' : null),
      confirm: (v, all) => (v === all.password ? null : 'The passwords differ'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useChangePassword({
    onSuccess: () => {
      form.reset();
      notifications.show({ color: 'teal', message: 'Password changed. Your other sessions have been signed out.' });
    },
    onError: onApiError,
  });
  return (
    <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); save.mutate({ current_password: v.current_password, password: v.password }); })} aria-label="Change password">
      <Stack gap="sm">
        <FormError message={formError} />
        <PasswordInput label="Current password" required autoComplete="current-password" {...form.getInputProps('current_password')} />
        <PasswordInput label="New password" description="8 to 72 characters" required autoComplete="new-password" {...form.getInputProps('password')} />
        <PasswordInput label="Repeat the new password" required autoComplete="new-password" {...form.getInputProps('confirm')} />
        <Group justify="flex-end"><Button type="submit" loading={save.isPending}>Change password</Button></Group>
      </Stack>
    </form>
  );
}
