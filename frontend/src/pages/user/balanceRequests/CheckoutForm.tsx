// Pay by UPI: the amount becomes a payment to the platform, and the browser
// goes to its checkout page (QR and UPI intent, like any payment). Its
// success credits the caller's balance; the manual request stays beside it.
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Schemas } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useBalanceCheckout } from '../../../features/balanceRequests/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatINR, signOf } from '../../../lib/money';

const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** Goes to the payment's checkout page; a prop so tests can watch it. */
function openCheckout(p: Schemas['Payment']) {
  window.location.assign(p.payment_url);
}

export function CheckoutForm({ onCreated = openCheckout }: { onCreated?: (p: Schemas['Payment']) => void }) {
  const form = useForm({
    initialValues: { amount: '' },
    validate: {
      amount: (v: string) => (!AMOUNT.test(v.trim()) ? 'Enter an amount in rupees, e.g. 500 or 500.50' : signOf(v.trim()) <= 0 ? 'Enter an amount above zero' : null),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const checkout = useBalanceCheckout({ onSuccess: (p) => onCreated(p), onError: onApiError });
  const amount = form.getValues().amount.trim();
  return (
    <form noValidate aria-label="Pay by UPI" onSubmit={form.onSubmit((v) => { clearFormError(); checkout.mutate(v.amount.trim()); })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label="Amount (₹)" required inputMode="decimal" placeholder="500.00" autoComplete="off" maw={320}
          description={AMOUNT.test(amount) ? formatINR(amount) : 'Rupees, up to 2 decimals'} {...form.getInputProps('amount')} />
        <Group justify="flex-end">
          <Button type="submit" loading={checkout.isPending}>Pay by UPI</Button>
        </Group>
      </Stack>
    </form>
  );
}
