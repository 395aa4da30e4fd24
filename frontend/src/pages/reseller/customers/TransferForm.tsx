// "Add money" / "Take back" on a customer's page (POST
// /customers/{id}/transfers): the amount as typed (a decimal string), the
// direction, then a confirmation that says who pays whom. Each submission
// carries its own Idempotency-Key, kept while it is retried (a lost answer
// sent again moves the money once); a new submission gets a new key.
import { useRef, useState } from 'react';
import { Button, Group, Paper, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiError } from '../../../api/errors';
import { FormError } from '../../../components/States';
import { useTransfer } from '../../../features/customers/api';
import type { Customer, TransferDirection } from '../../../features/customers/types';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatINR, isDecimalString, signOf } from '../../../lib/money';

const AMOUNT = /^\d{1,10}(\.\d{1,2})?$/;

/** A v4 UUID from getRandomValues (randomUUID needs a secure context; a reseller's domain may be plain http). */
export function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function TransferForm({ customer, onDone }: { customer: Customer; onDone?: () => void }) {
  const form = useForm<{ amount: string; direction: TransferDirection }>({
    initialValues: { amount: '', direction: 'to_customer' },
    validate: {
      amount: (v) => (AMOUNT.test(v.trim()) && isDecimalString(v) && signOf(v) > 0 ? null : 'An amount in rupees above 0, up to 2 decimals'),
    },
  });
  const [confirming, setConfirming] = useState<{ amount: string; direction: TransferDirection } | null>(null);
  const key = useRef<string | null>(null);
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const transfer = useTransfer(customer.id, {
    onSuccess: (t) => {
      notifications.show({
        color: 'teal',
        message: t.direction === 'to_customer'
          ? `${formatINR(t.amount)} moved to ${customer.name}.`
          : `${formatINR(t.amount)} taken back from ${customer.name}.`,
      });
      key.current = null;
      setConfirming(null);
      form.reset();
      onDone?.();
    },
    onError: (err) => {
      // A refused transfer (402, 422, 409) is final for this key; only a lost answer is retried with it.
      if (err instanceof ApiError && err.status !== 0) key.current = null;
      if (err instanceof ApiError && err.code === 'insufficient_balance') {
        setConfirming(null);
        onApiError(new ApiError(err.status, err.code,
          confirming?.direction === 'from_customer'
            ? `${customer.name}'s available balance is short of this amount.`
            : 'Your available balance is short of this amount. Add balance first.'));
        return;
      }
      setConfirming(null);
      onApiError(err);
    },
  });

  const submit = form.onSubmit((v) => {
    clearFormError();
    key.current ??= newKey();
    setConfirming({ amount: v.amount.trim(), direction: v.direction });
  });

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">Move money</Title>
      {confirming ? (
        <Stack gap="sm" role="group" aria-label="Confirm the transfer" data-testid="transfer-confirm">
          <Text>
            {confirming.direction === 'to_customer'
              ? <>Move <b>{formatINR(confirming.amount)}</b> from your balance to <b>{customer.name}</b>?</>
              : <>Take back <b>{formatINR(confirming.amount)}</b> from <b>{customer.name}</b> to your balance?</>}
          </Text>
          <FormError message={formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => { setConfirming(null); key.current = null; }} disabled={transfer.isPending}>Back</Button>
            <Button loading={transfer.isPending}
              onClick={() => transfer.mutate({ ...confirming, idempotencyKey: key.current ?? (key.current = newKey()) })}>
              {confirming.direction === 'to_customer' ? 'Confirm: add money' : 'Confirm: take back'}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form noValidate aria-label="Move money" onSubmit={submit}>
          <Stack gap="sm">
            <FormError message={formError} />
            <SegmentedControl aria-label="Direction" data={[{ value: 'to_customer', label: 'Add money' }, { value: 'from_customer', label: 'Take back' }]}
              {...form.getInputProps('direction')} />
            <TextInput label="Amount (₹)" inputMode="decimal" placeholder="500.00" required {...form.getInputProps('amount')} />
            <Group justify="flex-end">
              <Button type="submit">{form.values.direction === 'to_customer' ? 'Add money' : 'Take back'}</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Paper>
  );
}
