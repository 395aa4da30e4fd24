// How a payout's beneficiary reads in the list and the drawer: the masked
// account number and IFSC, or the VPA, under the name.
import { Stack, Text } from '@mantine/core';
import { TestBadge } from '../../../components/TestBadge';
import type { Schemas } from '../../../api/types';

type Beneficiary = Schemas['PayoutBeneficiaryView'];

/** One line: "XXXXXX1234 · HDFC0001234" or "asha@okicici". */
export function beneficiaryLine(b: Beneficiary): string {
  return b.type === 'vpa' ? (b.vpa ?? '—') : [b.account_number, b.ifsc].filter(Boolean).join(' · ') || '—';
}

export function BeneficiaryCell({ b }: { b: Beneficiary }) {
  return (
    <Stack gap={0}>
      <Text size="sm" truncate maw={220}>{b.name}</Text>
      <Text size="xs" ff="monospace" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{beneficiaryLine(b)}</Text>
    </Stack>
  );
}

/** "Test mode" on a sandbox payout (no money moved). */
export function TestModeBadge({ livemode }: { livemode: boolean }) {
  return <TestBadge livemode={livemode} label="Test mode" />;
}
