// How a plan's terms read, on the admin's plans screen, the user page's plan
// card and the user's "Plan and billing": the monthly price (or "Agreed per
// account"), the allowance (or "Unlimited") and the status.
import { Badge, Text, type TextProps } from '@mantine/core';
import type { Plan } from '../../../features/plans/api';
import { Money } from '../../../components/Money';

const WHOLE = { root: { minWidth: 'max-content' } };

/** A monthly price: the amount, or "Agreed per account" for a custom-price plan. */
export function PlanPrice({ price, perMonth, ...props }: { price: string | null; perMonth?: boolean } & TextProps) {
  if (price === null) return <Text component="span" inherit c="dimmed" {...props}>Agreed per account</Text>;
  return (
    <Text component="span" inherit {...props}>
      <Money value={price} />{perMonth && <Text component="span" inherit c="dimmed" fw={400}> a month</Text>}
    </Text>
  );
}

/** "1,000 calls a month" or "Unlimited". */
export function allowanceText(calls: number | null, { short = false } = {}): string {
  if (calls === null) return 'Unlimited';
  const n = calls.toLocaleString('en-IN');
  if (short) return n;
  return `${n} ${calls === 1 ? 'call' : 'calls'} a month`;
}

export function PlanStatusBadge({ status }: { status: Plan['status'] }) {
  return <Badge color={status === 'active' ? 'teal' : 'gray'} variant="light" styles={WHOLE}>{status}</Badge>;
}

/** A plan's name from its code, when the catalog is at hand; the code otherwise. */
export function planName(code: string, plans: Plan[] | undefined): string {
  return plans?.find((p) => p.code === code)?.name ?? code;
}
