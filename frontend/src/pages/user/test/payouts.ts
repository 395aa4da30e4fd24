// Fixtures for the payouts screens' component tests.
import type { Schemas } from '../../../api/types';

export function payout(over: Partial<Schemas['Payout']> = {}): Schemas['Payout'] {
  return {
    payout_id: 'pout_01J9Z8X4K3M2N1P0Q9R8S7T6V5', user_id: 7, reference_id: 'ref-1',
    beneficiary: { type: 'bank_account', name: 'Ravi Kumar', account_number: 'XXXXXXXX1234', ifsc: 'HDFC0001234', vpa: null },
    amount: '1500.00', fee: '5.0000', mode: 'IMPS', narration: 'Invoice 42', status: 'success', utr: '412345678901', fail_reason: null,
    livemode: false, created_at: '2026-11-21T20:00:00Z', updated_at: '2026-11-21T20:00:05Z', processed_at: '2026-11-21T20:00:04Z', reversed_at: null,
    ...over,
  };
}
