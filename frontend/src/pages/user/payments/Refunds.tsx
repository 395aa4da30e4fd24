// A payment's refunds and the merchant's "Refund" form (amount, reason):
// paid from the merchant's balance, at most what is left to refund. One
// Idempotency-Key per refund meant, so a double submit or a retry after a
// lost answer never refunds twice.
import { useState } from 'react';
import { Alert, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Schemas } from '../../../api/types';
import { Money } from '../../../components/Money';
import { TestBadge } from '../../../components/TestBadge';
import { FormError } from '../../../components/States';
import { usePaymentRefunds, useRefundPayment } from '../../../features/payments/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatDateTime } from '../../../lib/dates';
import { formatINR, signOf } from '../../../lib/money';
import { StatusBadge } from '../common/StatusBadge';

type Payment = Schemas['Payment'];

const newKey = () => (globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID() : `refund-${Date.now()}-${Math.random()}`);

function RefundForm({ payment, refundable }: { payment: Payment; refundable: string }) {
  const [key, setKey] = useState(newKey);
  const form = useForm({
    initialValues: { amount: '', reason: '' },
    validate: {
      amount: (v) => (!/^\d+(\.\d{1,2})?$/.test(v.trim()) ? 'Enter an amount in rupees, e.g. 500 or 500.50'
        : signOf(v.trim()) <= 0 ? 'Enter an amount above zero' : null),
      reason: (v) => (v.trim().length > 255 ? 'Use at most 255 characters' : null),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const [done, setDone] = useState<Schemas['Refund'] | null>(null);
  const refund = useRefundPayment(payment.payment_id, {
    onSuccess: (r) => {
      setDone(r.data);
      form.reset();
      setKey(newKey()); // the next refund is another one
    },
    onError: onApiError,
  });
  const amount = form.getValues().amount.trim();
  return (
    <form noValidate aria-label="Refund" onSubmit={form.onSubmit((v) => {
      clearFormError();
      setDone(null);
      refund.mutate({ amount: v.amount.trim(), reason: v.reason.trim(), idempotencyKey: key });
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        {done && (
          <Alert color={done.status === 'failed' ? 'red' : done.status === 'pending' ? 'yellow' : 'teal'} role="status">
            Refund of {formatINR(done.amount)} {done.status === 'processed' ? 'processed'
              : done.status === 'pending' ? 'sent: waiting for the provider' : `failed: ${done.fail_reason ?? 'declined'} (your balance was given back)`}.
          </Alert>
        )}
        <Group align="flex-start" grow>
          <TextInput label="Amount (₹)" required inputMode="decimal" autoComplete="off" placeholder={refundable}
            description={/^\d+(\.\d{1,2})?$/.test(amount) ? formatINR(amount) : `At most ${formatINR(refundable)}`} {...form.getInputProps('amount')} />
          <TextInput label="Reason" placeholder="Optional, e.g. item returned" autoComplete="off" {...form.getInputProps('reason')} />
        </Group>
        <Group justify="space-between">
          <Button variant="subtle" size="xs" onClick={() => form.setFieldValue('amount', refundable)}>Refund all that is left</Button>
          <Button type="submit" color="red" loading={refund.isPending}>Refund</Button>
        </Group>
        <Text size="xs" c="dimmed">The amount is debited from your balance and sent back to the payer.</Text>
      </Stack>
    </form>
  );
}

/** The refunds of `payment` and, while money is left to refund, the form. */
export function Refunds({ payment }: { payment: Payment }) {
  const q = usePaymentRefunds(payment.payment_id);
  const refundable = q.data?.refundable_amount ?? payment.refundable_amount;
  const refunded = q.data?.refunded_amount ?? payment.refunded_amount;
  const rows = q.data?.data ?? [];
  return (
    <Stack gap="md">
      <Group gap="lg">
        <Text size="sm">Paid <Money value={payment.amount} fw={500} /></Text>
        <Text size="sm">Refunded <Money value={refunded} fw={500} /></Text>
        <Text size="sm">Left <Money value={refundable} fw={500} /></Text>
        <TestBadge livemode={payment.livemode} title="A sandbox payment: no money moved" />
      </Group>
      {q.isError && <Alert color="red">The refunds could not be loaded.</Alert>}
      {rows.length > 0 ? (
        <Table striped aria-label="Refunds of this payment">
          <Table.Thead>
            <Table.Tr><Table.Th>Created</Table.Th><Table.Th ta="right">Amount</Table.Th><Table.Th>Status</Table.Th><Table.Th>Reason</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.refund_id}>
                <Table.Td><Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</Text></Table.Td>
                <Table.Td ta="right"><Money value={r.amount} /></Table.Td>
                <Table.Td><StatusBadge status={r.status} /></Table.Td>
                <Table.Td><Text size="sm">{r.status === 'failed' && r.fail_reason ? `${r.reason || '—'} (${r.fail_reason})` : r.reason || '—'}</Text></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : !q.isPending && <Text size="sm" c="dimmed">No refunds yet.</Text>}
      {payment.status === 'success' && signOf(refundable) > 0 && <RefundForm payment={payment} refundable={refundable} />}
    </Stack>
  );
}
