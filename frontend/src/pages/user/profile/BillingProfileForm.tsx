// The caller's billing profile (PATCH /auth/me, object `billing`): the
// recipient block of their tax invoices — legal name, address, state (the
// place of supply) and an optional GSTIN to claim input tax credit. The
// fields are named billing.<field>, as the API's errors name them. "Remove"
// sends billing: null.
import { Button, Group, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import type { User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useUpdateBillingProfile } from '../../../features/account/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatDateTime } from '../../../lib/dates';
import { gstinError, normalizeAddress, normalizeGstin, StateSelect } from '../common/gst';

interface Values { billing: { legal_name: string; address: string; state: string | null; gstin: string } }

function initial(me: User): Values {
  const b = me.billing;
  return { billing: { legal_name: b?.legal_name ?? '', address: b?.address ?? '', state: b?.state || null, gstin: b?.gstin ?? '' } };
}

export function BillingProfileForm({ me }: { me: User }) {
  const form = useForm<Values>({
    initialValues: initial(me),
    validate: {
      billing: {
        legal_name: (v) => (!v.trim() ? 'Enter the name invoices are made out to' : v.trim().length > 200 ? 'At most 200 characters' : null),
        address: (v) => {
          const a = normalizeAddress(v);
          if (!a) return 'Enter the billing address';
          if (a.split('\n').length > 6) return 'At most 6 lines';
          return a.length > 500 ? 'At most 500 characters' : null;
        },
        state: (v) => (v ? null : 'Choose the state: it is the place of supply'),
        gstin: (v, all) => gstinError(v, all.billing.state),
      },
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const reset = (u: User) => {
    form.setValues(initial(u));
    form.resetDirty(initial(u));
  };
  const save = useUpdateBillingProfile({
    onSuccess: (u, body) => {
      reset(u);
      notifications.show({ color: 'teal', message: body ? 'Your billing details are saved: your next invoices are made out to them' : 'Your billing details are removed' });
    },
    onError: (err, body) => {
      if (body === null) notifications.show({ color: 'red', title: 'Could not remove the billing details', message: errorMessage(err) });
      else onApiError(err);
    },
  });
  const submit = (v: Values) => {
    clearFormError();
    const b = v.billing;
    save.mutate({ legal_name: b.legal_name.trim(), address: normalizeAddress(b.address), state: b.state ?? '', gstin: normalizeGstin(b.gstin) });
  };
  const remove = () => modals.openConfirmModal({
    title: 'Remove your billing details?',
    children: <Text size="sm">Your next invoices are made out to your account name, without a GSTIN, so no input tax credit can be claimed on them. Invoices already issued do not change.</Text>,
    labels: { confirm: 'Remove', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: () => save.mutate(null),
  });
  const saved = me.billing;
  return (
    <form noValidate aria-label="Billing details" onSubmit={form.onSubmit(submit, () => clearFormError())}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Your monthly tax invoices are made out to these details; the state is the place of supply. Add your GSTIN to claim input tax credit.
          {!saved && ' Until you add them, invoices carry your account name.'}
        </Text>
        <FormError message={formError} />
        <TextInput label="Legal name" required maxLength={200} autoComplete="organization" {...form.getInputProps('billing.legal_name')} />
        <Textarea label="Billing address" required autosize minRows={3} maxRows={6} autoComplete="street-address"
          description="At most 6 lines" {...form.getInputProps('billing.address')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <StateSelect label="State" required description="The place of supply" {...form.getInputProps('billing.state')} />
          <TextInput label="GSTIN (optional)" maxLength={20} autoComplete="off" spellCheck={false} placeholder="29AAGCB7383J1Z4"
            description="Registered in that state" styles={{ input: { textTransform: 'uppercase' } }}
            {...form.getInputProps('billing.gstin')} />
        </SimpleGrid>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="xs" c="dimmed" data-testid="billing-profile-saved">{saved ? `Saved ${formatDateTime(saved.updated_at)}` : 'Not set'}</Text>
          <Group gap="xs">
            {saved && <Button variant="subtle" color="red" onClick={remove} loading={save.isPending && save.variables === null}>Remove</Button>}
            <Button type="submit" loading={save.isPending && save.variables !== null} disabled={!form.isDirty()}>Save billing details</Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
