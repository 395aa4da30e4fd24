// The account's webhook URL and low-balance threshold (PATCH /auth/me), and
// the signing secret's rotation (the new secret shown once).
import { useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import type { User } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useUpdateMe } from '../../../features/account/api';
import { useRotateWebhookSecret } from '../../../features/webhooks/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatINR } from '../../../lib/money';
import { ShownOnceModal } from '../common/ShownOnce';

interface Values {
  webhook_url: string;
  low_balance_alert: string;
}

export function WebhookSettings({ me }: { me: User }) {
  const form = useForm<Values>({
    initialValues: { webhook_url: me.webhook_url ?? '', low_balance_alert: me.low_balance_alert ?? '' },
    validate: {
      webhook_url: (v) => (!v.trim() || /^https?:\/\/\S+$/i.test(v.trim()) ? (v.length > 255 ? 'Use at most 255 characters' : null) : 'An http:// or https:// address'),
      low_balance_alert: (v) => (!v.trim() || /^\d+(\.\d{1,2})?$/.test(v.trim()) ? null : 'An amount in rupees, up to 2 decimals'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useUpdateMe({
    onSuccess: (u) => {
      form.resetDirty({ webhook_url: u.webhook_url ?? '', low_balance_alert: u.low_balance_alert ?? '' });
      notifications.show({ color: 'teal', message: 'Webhook settings saved' });
    },
    onError: onApiError,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = useRotateWebhookSecret({
    onSuccess: (r) => setSecret(r.secret),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not rotate the secret', message: errorMessage(err) }),
  });
  const threshold = form.getValues().low_balance_alert.trim();

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">Settings</Title>
      <Text size="sm" c="dimmed" mb="sm">
        Events (payments, recharges, balance requests, low balance) are POSTed to your URL, signed with your secret
        (Standard Webhooks: headers <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).
      </Text>
      <form noValidate onSubmit={form.onSubmit((v) => {
        clearFormError();
        save.mutate({ webhook_url: v.webhook_url.trim() || null, low_balance_alert: v.low_balance_alert.trim() || null });
      })}>
        <Stack gap="sm">
          <FormError message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Webhook URL" type="url" placeholder="https://example.com/paygate/webhook" description="Empty: no account events are sent"
              autoComplete="off" {...form.getInputProps('webhook_url')} />
            <TextInput label="Low-balance alert (₹)" inputMode="decimal" placeholder="100.00" autoComplete="off"
              description={threshold && /^\d+(\.\d{1,2})?$/.test(threshold) ? `balance.low when the balance drops below ${formatINR(threshold)}` : 'Empty or 0: never'}
              {...form.getInputProps('low_balance_alert')} />
          </SimpleGrid>
          <Group justify="space-between" wrap="wrap">
            <Button variant="default" color="orange" loading={rotate.isPending}
              onClick={() => modals.openConfirmModal({
                title: 'Rotate the signing secret?',
                children: <Text size="sm">Every delivery from now on, retries included, is signed with the new secret. The old one stops at once.</Text>,
                labels: { confirm: 'Rotate secret', cancel: 'Cancel' },
                confirmProps: { color: 'orange' },
                onConfirm: () => rotate.mutate(),
              })}>
              Rotate signing secret
            </Button>
            <Button type="submit" loading={save.isPending}>Save</Button>
          </Group>
        </Stack>
      </form>
      <ShownOnceModal opened={secret !== null} onClose={() => setSecret(null)} title="New webhook signing secret"
        fields={secret ? [{ label: 'Signing secret', value: secret, testId: 'webhook-secret' }] : []}>
        <Text size="sm" c="dimmed">The HMAC key is the base64-decoded part after <code>whsec_</code>.</Text>
      </ShownOnceModal>
    </Paper>
  );
}
