import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  active: 'teal', success: 'teal', processed: 'teal', approved: 'teal', delivered: 'teal', completed: 'teal', credit: 'teal', refund: 'cyan',
  pending: 'yellow', created: 'yellow', initiated: 'yellow',
  processing: 'blue', kyc_pending: 'blue', opened: 'teal', reversed: 'grape',
  revoked: 'gray', expired: 'gray', inactive: 'gray',
  failed: 'red', rejected: 'red', blocked: 'red', debit: 'orange', insufficient_balance: 'orange',
};

/** Badges keep their whole word in a narrow table cell (Mantine would cut it with an ellipsis). */
const WHOLE = { root: { minWidth: 'max-content' } };

/** A status word as a coloured badge ("insufficient_balance" reads "insufficient balance"). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant="light" color={COLORS[status] ?? 'gray'} style={{ whiteSpace: 'nowrap' }} styles={WHOLE}>
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}
