// A user's plan on their page: the plan they are on, and the form that puts
// them on any active plan at once (PATCH /users/{id}/subscription), with an
// agreed price, required for a plan whose price is agreed per account. A
// rising price debits the prorated difference from their wallet; 402 when
// it cannot cover it.
import { Alert, Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { ApiError, optionsError } from '../../../api/errors';
import type { User } from '../../../api/types';
import { Money } from '../../../components/Money';
import { FormError } from '../../../components/States';
import { usePlans, useSetUserSubscription, useUserSubscription, type Plan } from '../../../features/plans/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatDate } from '../../../lib/dates';
import { formatINR } from '../../../lib/money';
import { amountError, MONEY2 } from '../shared/money';
import { allowanceText, planName } from '../shared/plans';

interface Values { plan_code: string; price: string }

/** The user's audit log, filtered to plan changes (where an agreed price is recorded). */
function AuditLink({ user }: { user: User }) {
  return <Anchor component={Link} to={`/admin/audit-log?action=subscription.set&target_type=user&target_id=${user.id}`} inherit>the audit log</Anchor>;
}

function optionLabel(p: Plan): string {
  const price = p.monthly_price === null ? 'price agreed per account' : `${formatINR(p.monthly_price)} a month`;
  return `${p.name}: ${price}`;
}

export function UserPlanCard({ user }: { user: User }) {
  const plans = usePlans();
  const known = useUserSubscription(user.id).data ?? null;
  const all = plans.data ?? [];
  const active = all.filter((p) => p.status === 'active');
  const find = (code: string) => all.find((p) => p.code === code);

  const form = useForm<Values>({
    initialValues: { plan_code: user.plan, price: '' },
    validate: {
      plan_code: (v) => (v ? null : 'Choose a plan'),
      price: (v, values) => {
        const custom = find(values.plan_code)?.monthly_price === null;
        if (!v.trim()) return custom ? 'This plan’s price is agreed per account: give the monthly price' : null;
        return amountError(v, 2);
      },
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const set = useSetUserSubscription(user.id, {
    onSuccess: (s) => {
      form.setValues({ plan_code: s.plan.code, price: '' });
      form.resetDirty({ plan_code: s.plan.code, price: '' });
      notifications.show({ color: 'teal', title: 'Plan set', message: `${user.name} is on ${s.plan.name} at ${formatINR(s.price)} a month.` });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'price_required') {
        form.setFieldError('price', err.message);
        return;
      }
      onApiError(err);
    },
  });
  const noMoney = set.error instanceof ApiError && set.error.status === 402;

  const chosen = find(form.values.plan_code);
  const custom = chosen?.monthly_price === null;
  const typed = form.values.price.trim();
  const current = known && known.plan.code === user.plan ? known : null;
  const listPrice = find(user.plan)?.monthly_price ?? null;

  return (
    <Paper withBorder p="md" radius="md">
      <form noValidate aria-label="Plan" onSubmit={form.onSubmit((v) => {
        clearFormError();
        set.reset();
        set.mutate({ plan_code: v.plan_code, ...(v.price.trim() && { price: v.price.trim() }) });
      })}>
        <Stack gap="sm">
          <Title order={2} size="h4">Plan</Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">On</Text>
              <Text size="sm" fw={600} data-testid="user-plan">{planName(user.plan, all)}</Text>
            </Stack>
            <Stack gap={0}>
              <Text size="xs" c="dimmed">Price</Text>
              <Text size="sm" data-testid="user-plan-price">
                {current ? <><Money value={current.price} fw={600} /> a month</>
                  : listPrice ? <><Money value={listPrice} /> a month, unless a price was agreed (see <AuditLink user={user} />)</>
                    : <Text span c="dimmed" inherit>Agreed per account: the amount is in <AuditLink user={user} /></Text>}
              </Text>
            </Stack>
            {current && (
              <>
                <Stack gap={0}>
                  <Text size="xs" c="dimmed">Calls this month</Text>
                  <Text size="sm">{current.calls_used.toLocaleString('en-IN')} {current.calls_allowed === null ? 'used · Unlimited' : `of ${allowanceText(current.calls_allowed, { short: true })}`}</Text>
                </Stack>
                <Stack gap={0}>
                  <Text size="xs" c="dimmed">Next charge</Text>
                  <Text size="sm" data-testid="user-plan-next"><Money value={current.next_amount} /> on {formatDate(current.next_charge_at)}</Text>
                </Stack>
              </>
            )}
          </SimpleGrid>
          <FormError message={noMoney ? null : formError} />
          {noMoney && (
            <Alert color="red" variant="light" role="alert" title="The wallet cannot cover the prorated charge" data-testid="plan-402">
              Moving {user.name} to this price debits the difference for the days left in this month now, and their balance
              (<Money value={user.balance} />) is short. Nothing changed. Credit their balance (Adjust balance) or choose a lower price.
            </Alert>
          )}
          <Stack gap="sm">
            <Select label="Plan" required allowDeselect={false}
              data={active.map((p) => ({ value: p.code, label: optionLabel(p) }))}
              {...form.getInputProps('plan_code')}
              error={optionsError(plans, 'the plans') ?? form.errors.plan_code}
              onChange={(v) => { form.setFieldValue('plan_code', v ?? ''); form.clearFieldError('price'); set.reset(); }}
            />
            <TextInput label="Monthly price (₹)" required={custom} inputMode="decimal" autoComplete="off"
              placeholder={chosen?.monthly_price ?? '25000.00'}
              description={MONEY2.test(typed) ? `${formatINR(typed)} a month` : custom ? 'Agreed with the account' : 'Empty: the plan’s price'}
              {...form.getInputProps('price')} />
          </Stack>
          <Text size="xs" c="dimmed">
            Applies at once. When the price rises, the difference for the days left in this month is debited from the user’s balance; nothing is refunded when it falls.
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={set.isPending}>Set plan</Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
