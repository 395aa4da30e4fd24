// An account's daily payout limit (what its pending, processing and
// successful payouts of one local day may add up to), saved with PATCH
// /users/{id} {daily_payout_limit}. On the user's page and in the payout
// limits screen's dialog.
import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useUpdateUser } from '../../../features/users/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { compareDecimal, formatINR } from '../../../lib/money';

const LIMIT = /^[0-9]{1,9}(\.[0-9]{1,2})?$/;

export function PayoutLimitForm({ userId, limit, onSaved }: { userId: number; limit: string; onSaved?: (u: User) => void }) {
  const [saved, setSaved] = useState(limit);
  const form = useForm({
    initialValues: { limit },
    validate: { limit: (v: string) => (LIMIT.test(v.trim()) ? null : 'Rupees, up to 9 digits and 2 decimals, e.g. 200000 or 50000.50') },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form, { daily_payout_limit: 'limit' });
  const save = useUpdateUser({
    onSuccess: (u) => {
      setSaved(u.daily_payout_limit);
      form.setValues({ limit: u.daily_payout_limit });
      form.resetDirty({ limit: u.daily_payout_limit });
      notifications.show({ color: 'teal', message: `Daily payout limit of ${u.email} set to ${formatINR(u.daily_payout_limit)}.` });
      onSaved?.(u);
    },
    onError: onApiError,
  });
  const typed = form.values.limit.trim();
  const changed = !LIMIT.test(typed) || compareDecimal(typed, saved) !== 0;
  return (
    <form noValidate aria-label="Daily payout limit" onSubmit={form.onSubmit((v) => {
      clearFormError();
      save.mutate({ id: userId, body: { daily_payout_limit: v.limit.trim() } });
    })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label="Daily payout limit (₹)" required inputMode="decimal" autoComplete="off"
          description={LIMIT.test(typed) ? formatINR(typed) : 'Pending, processing and successful payouts of one day, together'}
          {...form.getInputProps('limit')} />
        <Group justify="flex-end">
          <Button type="submit" disabled={!changed} loading={save.isPending}>Save limit</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The user page's card. */
export function PayoutLimitCard({ user }: { user: User }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Title order={2} size="h4">Payouts</Title>
        <Text size="sm" c="dimmed">A payout that would take the day’s payouts past this limit is refused. It applies from the next payout.</Text>
        <PayoutLimitForm userId={user.id} limit={user.daily_payout_limit} />
      </Stack>
    </Paper>
  );
}
