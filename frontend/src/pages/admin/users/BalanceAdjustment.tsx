import { Button, Group, Paper, SegmentedControl, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { Money } from '../../../components/Money';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { useAdjustBalance } from '../../../features/users/api';
import { amountError } from '../shared/money';

interface Values { type: 'credit' | 'debit'; amount: string; description: string }

/** Credit or debit a user's balance by hand, with a reason, after a confirmation. */
export function BalanceAdjustment({ user }: { user: User }) {
  const form = useForm<Values>({
    initialValues: { type: 'credit', amount: '', description: '' },
    validate: {
      amount: (v) => amountError(v, 2, { positive: true }),
      description: (v) => (!v.trim() ? 'Give the reason (it is recorded on the ledger entry)' : v.length > 1000 ? 'At most 1000 characters' : null),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const adjust = useAdjustBalance(user.id, {
    onSuccess: (txn) => {
      notifications.show({ color: 'teal', title: txn.type === 'credit' ? 'Balance credited' : 'Balance debited', message: `${txn.txn_id}: new balance ${txn.balance_after}` });
      form.reset();
    },
    onError: onApiError,
  });

  const confirm = (v: Values) => {
    modals.openConfirmModal({
      title: v.type === 'credit' ? 'Credit this balance?' : 'Debit this balance?',
      children: (
        <Stack gap="xs">
          <Text size="sm">
            {v.type === 'credit' ? 'Add' : 'Take'} <b><Money value={v.amount.trim()} /></b> {v.type === 'credit' ? 'to' : 'from'} the
            balance of {user.name} ({user.email}), now <Money value={user.balance} />.
          </Text>
          <Text size="sm" c="dimmed">Reason: {v.description.trim()}</Text>
        </Stack>
      ),
      labels: { confirm: v.type === 'credit' ? 'Credit' : 'Debit', cancel: 'Cancel' },
      confirmProps: { color: v.type === 'credit' ? 'teal' : 'red' },
      onConfirm: () => { clearFormError(); adjust.mutate({ type: v.type, amount: v.amount.trim(), description: v.description.trim() }); },
    });
  };

  return (
    <Paper withBorder p="md" radius="md">
      <form noValidate onSubmit={form.onSubmit(confirm)}>
        <Stack gap="sm">
          <Title order={2} size="h4">Adjust balance</Title>
          <Text size="sm" c="dimmed">Writes one ledger entry. A debit never takes the balance below zero.</Text>
          <FormError message={formError} />
          <SegmentedControl
            aria-label="Adjustment type"
            data={[{ value: 'credit', label: 'Credit' }, { value: 'debit', label: 'Debit' }]}
            {...form.getInputProps('type')}
          />
          <TextInput label="Amount (₹)" required inputMode="decimal" placeholder="100.00" {...form.getInputProps('amount')} />
          <Textarea label="Reason" required autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
          <Group justify="flex-end">
            <Button type="submit" color={form.values.type === 'credit' ? 'teal' : 'red'} loading={adjust.isPending}>
              {form.values.type === 'credit' ? 'Credit balance…' : 'Debit balance…'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
