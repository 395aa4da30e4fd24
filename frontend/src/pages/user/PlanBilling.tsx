// Plan and billing (docs/decisions.md, "Plans that bill"): the caller's plan with its
// features, price and status (a past-due banner with the grace), the calls
// used of this month's allowance, the next charge (and a waiting move to a
// cheaper plan), and the public plans to switch to: "Switch" asks the quote
// first and confirms the amount charged now before it changes anything.
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert, Badge, Button, Group, List, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../api/errors';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, QueryState } from '../../components/States';
import { useChangePlan, usePlans, useSubscription, type Plan, type Subscription } from '../../features/plans/api';
import { formatDate, formatDateTime } from '../../lib/dates';
import { allowanceText, planName, PlanPrice } from '../admin/shared/plans';
import { GRACE_DAYS, monthOf } from './planBilling/dates';
import { SwitchDialog } from './planBilling/SwitchDialog';

export default function PlanBilling() {
  const sub = useSubscription();
  const plans = usePlans();
  const [target, setTarget] = useState<Plan | null>(null);
  return (
    <>
      <PageHeader title="Plan and billing" description="Your plan, what it allows this month and what it costs. Plan fees are charged from your balance at the start of each month." />
      <QueryState query={sub} loadingLabel="Loading your plan…">
        {(s) => (
          <Stack gap="lg">
            {s.status === 'past_due' && <PastDue sub={s} />}
            <CurrentPlan sub={s} plans={plans.data} />
            <section aria-labelledby="switch-plans">
              <Title order={2} size="h4" id="switch-plans">Plans you can switch to</Title>
              <Text size="sm" c="dimmed" mb="sm">
                A plan with a higher price applies at once: you pay the difference for the days left this month. A lower price applies from next month; nothing is refunded.
              </Text>
              {!s.plan.public && (
                <Text size="sm" mb="sm" data-testid="plan-arranged">
                  Your plan is arranged for your account, so we change it for you: contact us to move to another plan.
                </Text>
              )}
              <QueryState query={plans} loadingLabel="Loading the plans…"
                isEmpty={(ps) => ps.filter(switchable).length === 0}
                empty={<EmptyState title="No plans to switch to" description="Ask us about a plan for your account." />}>
                {(ps) => (
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                    {ps.filter(switchable).map((p) => <PlanCard key={p.code} plan={p} sub={s} onSwitch={() => setTarget(p)} />)}
                  </SimpleGrid>
                )}
              </QueryState>
            </section>
          </Stack>
        )}
      </QueryState>
      <SwitchDialog plan={target} onClose={() => setTarget(null)} />
    </>
  );
}

/** The plans a user may move to themselves (an admin's list has every plan). */
const switchable = (p: Plan) => p.public && p.status === 'active';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div" data-testid={testId}>{children}</Text>
    </Stack>
  );
}

function PastDue({ sub }: { sub: Subscription }) {
  const since = sub.past_due_since;
  const graceEnd = sub.grace_ends_at;
  return (
    <Alert color="red" variant="light" title="Your plan fee is past due" role="alert" data-testid="past-due">
      <Stack gap={6}>
        <Text size="sm">
          The fee of <Money value={sub.price} fw={600} /> for {monthOf(sub.period)} could not be charged{since && <> on {formatDateTime(since)}</>}: your balance was short.
          {graceEnd && <> Your calls keep working until <b>{formatDateTime(graceEnd)}</b> ({GRACE_DAYS} days of grace); if the fee is still unpaid then, your account moves to the default plan.</>}
        </Text>
        <Text size="sm">Add balance and the fee is charged again at once. You can switch plans once it is paid.</Text>
        <Group><Button component={Link} to="/balance-requests" size="xs" color="red">Add balance</Button></Group>
      </Stack>
    </Alert>
  );
}

function Allowance({ sub }: { sub: Subscription }) {
  const used = sub.calls_used;
  const allowed = sub.calls_allowed;
  if (allowed === null) {
    return (
      <Stack gap={4}>
        <Text size="sm" fw={500}>Calls this month</Text>
        <Text size="sm" data-testid="calls-used"><b>{used.toLocaleString('en-IN')}</b> used · Unlimited</Text>
      </Stack>
    );
  }
  const pct = allowed === 0 ? 100 : Math.min(100, Math.round((used / allowed) * 100));
  const full = used >= allowed;
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500} id="calls-label">Calls this month</Text>
        <Text size="sm" data-testid="calls-used"><b>{used.toLocaleString('en-IN')}</b> of {allowed.toLocaleString('en-IN')}</Text>
      </Group>
      <Progress.Root size="lg" radius="sm">
        <Progress.Section value={pct} color={full ? 'red' : pct >= 80 ? 'yellow' : 'teal'} withAria={false}
          role="progressbar" aria-labelledby="calls-label" aria-valuemin={0} aria-valuemax={allowed} aria-valuenow={Math.min(used, allowed)}
          aria-valuetext={`${used.toLocaleString('en-IN')} of ${allowed.toLocaleString('en-IN')} calls used`} />
      </Progress.Root>
      {full && <Text size="xs" c="red">This month's allowance is used up; it starts again on {formatDate(sub.period_end)}. A plan with more calls applies at once.</Text>}
    </Stack>
  );
}

function CurrentPlan({ sub, plans }: { sub: Subscription; plans: Plan[] | undefined }) {
  const plan = sub.plan;
  const waiting = sub.next_plan_code !== plan.code;
  const keep = useChangePlan({
    onSuccess: (s) => notifications.show({ color: 'teal', message: `You stay on ${s.plan.name}: the waiting change is cancelled.` }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not cancel the change', message: errorMessage(err) }),
  });
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="current-plan">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">Your plan</Text>
            <Group gap="xs">
              <Title order={2} size="h3" id="current-plan" data-testid="current-plan">{plan.name}</Title>
              {sub.status === 'past_due'
                ? <Badge color="red" variant="light">past due</Badge>
                : <Badge color="teal" variant="light">active</Badge>}
            </Group>
          </Stack>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <Fact label="Price" testId="current-price"><Money value={sub.price} fw={600} /> a month</Fact>
          <Fact label="This period">{monthOf(sub.period)}</Fact>
          <Fact label="Next charge" testId="next-charge">
            <Money value={sub.next_amount} fw={600} /> on {formatDate(sub.next_charge_at)}
          </Fact>
        </SimpleGrid>
        <Allowance sub={sub} />
        {waiting && (
          <Alert color="blue" variant="light" data-testid="waiting-change">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm">
                From {formatDate(sub.next_charge_at)} you move to <b>{planName(sub.next_plan_code, plans)}</b> at <Money value={sub.next_amount} /> a month.
              </Text>
              <Button size="xs" variant="light" loading={keep.isPending} onClick={() => keep.mutate(plan.code)}>Stay on {plan.name}</Button>
            </Group>
          </Alert>
        )}
        {plan.features.length > 0 && (
          <div>
            <Text size="sm" fw={500} mb={4}>Included</Text>
            <List size="sm" spacing={2}>{plan.features.map((f) => <List.Item key={f}>{f}</List.Item>)}</List>
          </div>
        )}
      </Stack>
    </Paper>
  );
}

function PlanCard({ plan, sub, onSwitch }: { plan: Plan; sub: Subscription; onSwitch: () => void }) {
  const current = plan.code === sub.plan.code;
  const next = !current && plan.code === sub.next_plan_code;
  const headingId = `plan-${plan.code}`;
  let action: ReactNode;
  if (current) action = <Badge color="teal" variant="light" size="lg">Your plan</Badge>;
  else if (next) action = <Badge color="blue" variant="light" size="lg">From {formatDate(sub.next_charge_at)}</Badge>;
  else if (plan.monthly_price === null) action = <Text size="sm" c="dimmed">Price agreed per account: ask us</Text>;
  // Only public plans switch to and from one another (403 otherwise).
  else if (!sub.plan.public) action = null;
  else {
    action = (
      <Button onClick={onSwitch} disabled={sub.status === 'past_due'} title={sub.status === 'past_due' ? 'Pay the past-due fee first' : undefined}>
        Switch to {plan.name}
      </Button>
    );
  }
  return (
    <Paper withBorder p="md" radius="md" component="article" aria-labelledby={headingId} data-testid={`plan-card-${plan.code}`}
      style={current ? { borderColor: 'var(--mantine-color-teal-5)' } : undefined}>
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap={6}>
          <Title order={3} size="h4" id={headingId}>{plan.name}</Title>
          <PlanPrice price={plan.monthly_price} perMonth size="lg" fw={700} />
          <Text size="sm" c="dimmed">{allowanceText(plan.monthly_calls)}</Text>
          {plan.features.length > 0 && <List size="sm" spacing={2}>{plan.features.map((f) => <List.Item key={f}>{f}</List.Item>)}</List>}
        </Stack>
        <Group>{action}</Group>
      </Stack>
    </Paper>
  );
}
