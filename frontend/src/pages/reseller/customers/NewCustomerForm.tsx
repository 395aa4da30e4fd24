// "New customer" (POST /customers): name, email, phone and, optionally, a
// first password; the customer is always mailed a link to confirm its email
// and set its own, and stays pending until it does.
// The API's field errors land beside the fields of the same name.
import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormError } from '../../../components/States';
import { useCreateCustomer } from '../../../features/customers/api';
import type { Customer, NewCustomer } from '../../../features/customers/types';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';

export function NewCustomerForm({ onCreated, onCancel }: { onCreated: (c: Customer) => void; onCancel: () => void }) {
  const form = useForm<Required<NewCustomer>>({
    initialValues: { name: '', email: '', phone: '', password: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Give the name'),
      email: (v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'An email address'),
      phone: (v) => (/^\+?[0-9]{10,15}$/.test(v.trim()) ? null : '10 to 15 digits, optionally after a +'),
      password: (v) => (v === '' || (v.length >= 8 && v.length <= 72) ? null : '8 to 72 characters, or leave it empty'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const create = useCreateCustomer({ onSuccess: onCreated, onError: onApiError });
  return (
    <form noValidate aria-label="New customer" onSubmit={form.onSubmit((v) => {
      clearFormError();
      create.mutate({ name: v.name.trim(), email: v.email.trim(), phone: v.phone.trim(), ...(v.password ? { password: v.password } : {}) });
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
        <TextInput label="Phone" required placeholder="+919876543210" {...form.getInputProps('phone')} />
        <PasswordInput label="First password (optional)" autoComplete="new-password"
          description="The customer is always mailed a link to confirm its email and choose its own password; it stays pending until then" {...form.getInputProps('password')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>Cancel</Button>
          <Button type="submit" loading={create.isPending}>Create customer</Button>
        </Group>
      </Stack>
    </form>
  );
}
