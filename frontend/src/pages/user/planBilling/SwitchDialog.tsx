// "Switch to <plan>?": the quote first (GET /subscription/quote: what the
// switch charges now, from when it applies, the monthly amount after), then
// the change on confirmation. 402 (the balance cannot cover the charge)
// says so, with the way to add balance; nothing changed.
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, errorMessage } from '../../../api/errors';
import { useMe } from '../../../auth/useMe';
import { Money } from '../../../components/Money';
import { ErrorState, Loading } from '../../../components/States';
import { useChangePlan, useSubscriptionQuote, type Plan, type Quote } from '../../../features/plans/api';
import { formatDate } from '../../../lib/dates';
import { compareDecimal, formatINR, signOf } from '../../../lib/money';

export function SwitchDialog({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  return (
    <Modal opened={plan !== null} onClose={onClose} title={plan ? `Switch to ${plan.name}?` : ''}>
      {plan && <SwitchBody key={plan.code} plan={plan} onClose={onClose} />}
    </Modal>
  );
}

function SwitchBody({ plan, onClose }: { plan: Plan; onClose: () => void }) {
  const quote = useSubscriptionQuote(plan.code);
  if (quote.isPending) return <Loading label="Working out what this switch costs…" />;
  if (quote.isError) return <ErrorState title="Could not price this switch" error={quote.error} onRetry={() => void quote.refetch()} />;
  return <Confirm plan={plan} quote={quote.data} onClose={onClose} />;
}

function Confirm({ plan, quote, onClose }: { plan: Plan; quote: Quote; onClose: () => void }) {
  const me = useMe();
  const [failure, setFailure] = useState<Error | null>(null);
  const now = quote.applies === 'now';
  const charges = now && signOf(quote.charge_now) > 0;
  const from = formatDate(quote.next_charge_at);
  const change = useChangePlan({
    onSuccess: (s) => {
      notifications.show({
        color: 'teal',
        title: now ? `You are on ${s.plan.name} now` : `${plan.name} from ${from}`,
        message: now
          ? (charges ? `${formatINR(quote.charge_now)} was charged for the rest of this month.` : 'Nothing was charged.')
          : `You stay on ${s.plan.name} until then; nothing was charged.`,
      });
      onClose();
    },
    onError: setFailure,
  });
  const balance = me.data?.balance;
  const short = charges && balance !== undefined && compareDecimal(balance, quote.charge_now) === -1;
  const noMoney = failure instanceof ApiError && failure.status === 402;

  return (
    <Stack gap="md">
      {now ? (
        <Stack gap={4}>
          <Text size="sm">{plan.name} applies at once. You pay the difference for the days left in this month now:</Text>
          <Text size="xl" fw={700}>
            Charged now: <Money value={quote.charge_now} data-testid="quote-charge-now" />
          </Text>
          <Text size="sm" c="dimmed">Then <Money value={quote.next_amount} /> a month from {from}.</Text>
        </Stack>
      ) : (
        <Stack gap={4}>
          <Text size="xl" fw={700} data-testid="quote-applies">From {from}, nothing charged now.</Text>
          <Text size="sm">You keep your current plan until then; {plan.name} costs <Money value={quote.next_amount} /> a month from {from}. Nothing is refunded.</Text>
        </Stack>
      )}
      {short && !noMoney && (
        <Alert color="yellow" variant="light">
          Your balance, <Money value={balance} />, is less than this. <Anchor component={Link} to="/balance-requests">Add balance</Anchor> first.
        </Alert>
      )}
      {noMoney && (
        <Alert color="red" variant="light" role="alert" title="Your balance cannot cover this" data-testid="switch-402">
          The switch needs <Money value={quote.charge_now} fw={600} /> now and your balance is short, so nothing changed.{' '}
          <Anchor component={Link} to="/balance-requests">Add balance</Anchor>, then switch again.
        </Alert>
      )}
      {failure && !noMoney && (
        <Alert color="red" variant="light" role="alert">{errorMessage(failure)}</Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>Cancel</Button>
        <Button onClick={() => { setFailure(null); change.mutate(plan.code); }} loading={change.isPending} disabled={noMoney}>
          {charges ? `Pay ${formatINR(quote.charge_now)} and switch` : 'Confirm switch'}
        </Button>
      </Group>
    </Stack>
  );
}
