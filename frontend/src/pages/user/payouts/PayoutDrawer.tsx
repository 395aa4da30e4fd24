// One payout: who was paid, the amount and fee, and its state history
// (created, processed, reversed, the bank's UTR or why it failed). It polls
// while the payout is pending or processing.
import type { ReactNode } from 'react';
import { Alert, Drawer, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Money } from '../../../components/Money';
import { ErrorState, Loading } from '../../../components/States';
import { usePayout } from '../../../features/payouts/api';
import { formatDateTime } from '../../../lib/dates';
import { StatusBadge } from '../common/StatusBadge';
import { beneficiaryLine, TestModeBadge } from './beneficiary';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>{children}</Text>
    </Stack>
  );
}

const REFUNDED = {
  failed: 'The amount and the fee were given back to your balance.',
  reversed: 'The bank sent the money back: the amount was given back to your balance (the fee stays).',
} as const;

export function PayoutDrawer({ payoutId, onClose, userLabel }: { payoutId: string | null; onClose: () => void; userLabel?: (userId: number) => ReactNode }) {
  const q = usePayout(payoutId);
  const p = q.data?.data;
  return (
    <Drawer opened={payoutId !== null} onClose={onClose} position="right" size="lg" title={payoutId ? `Payout ${payoutId}` : 'Payout'}>
      {q.isPending ? <Loading /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} /> : p && (
        <Stack gap="md" data-testid="payout-detail">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h4"><Money value={p.amount} /> to {p.beneficiary.name}</Title>
            <Group gap={6}>
              <StatusBadge status={p.status} />
              <TestModeBadge livemode={p.livemode} />
            </Group>
          </Group>
          {(p.status === 'failed' || p.status === 'reversed') && (
            <Alert color={p.status === 'failed' ? 'red' : 'grape'} variant="light" title={p.status === 'failed' ? 'Failed' : 'Reversed'}>
              {p.fail_reason && <Text size="sm">{p.fail_reason}</Text>}
              <Text size="sm">{REFUNDED[p.status]}</Text>
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="Payout id"><Text span ff="monospace" size="sm">{p.payout_id}</Text></Field>
            <Field label="Your reference"><Text span ff="monospace" size="sm">{p.reference_id}</Text></Field>
            {userLabel && <Field label="User">{userLabel(p.user_id)}</Field>}
            <Field label="Beneficiary">{p.beneficiary.name}</Field>
            <Field label={p.beneficiary.type === 'vpa' ? 'VPA' : 'Account · IFSC'}><Text span ff="monospace" size="sm">{beneficiaryLine(p.beneficiary)}</Text></Field>
            <Field label="Amount"><Money value={p.amount} fw={600} /></Field>
            <Field label="Fee"><Money value={p.fee} /></Field>
            <Field label="Mode">{p.mode}</Field>
            <Field label="Narration">{p.narration ?? '—'}</Field>
            <Field label="UTR" testId="payout-utr">{p.utr ? <Text span ff="monospace" size="sm">{p.utr}</Text> : '—'}</Field>
            <Field label="Mode of the call">{p.livemode ? 'Live' : 'Test mode (sandbox)'}</Field>
          </SimpleGrid>
          <Title order={4} size="h5">History</Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Field label="Created" testId="payout-created">{formatDateTime(p.created_at)}</Field>
            <Field label="Processed" testId="payout-processed">{p.processed_at ? formatDateTime(p.processed_at) : '—'}</Field>
            <Field label="Reversed" testId="payout-reversed">{p.reversed_at ? formatDateTime(p.reversed_at) : '—'}</Field>
            <Field label="Last change">{formatDateTime(p.updated_at)}</Field>
            <Field label="Failure reason">{p.fail_reason ?? '—'}</Field>
          </SimpleGrid>
        </Stack>
      )}
    </Drawer>
  );
}
