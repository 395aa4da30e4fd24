// Back from the checkout of a top-up (/balance-requests?payment=pay_…): a
// banner with how the payment went, closed by dropping the parameter.
import { Alert } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useCheckoutStatus } from '../../../features/balanceRequests/api';
import { formatINR } from '../../../lib/money';

export function CheckoutReturn() {
  const [params, setParams] = useSearchParams();
  const paymentId = params.get('payment');
  const q = useCheckoutStatus(paymentId);
  if (!paymentId || !q.data) return null;
  const close = () => setParams((p) => { p.delete('payment'); return p; }, { replace: true });
  const amount = formatINR(q.data.amount);
  const [color, title, message] =
    q.data.status === 'success' ? ['teal', 'Payment received', `Your balance was credited with ${amount}.`]
    : q.data.status === 'failed' || q.data.status === 'expired' ? ['red', 'Payment not completed', `The payment of ${amount} ${q.data.status}; your balance was not credited. You can try again.`]
    : ['blue', 'Waiting for the payment', `Your balance is credited with ${amount} once the payment is confirmed.`];
  return (
    <Alert color={color} title={title} withCloseButton closeButtonLabel="Dismiss" onClose={close} mb="lg" data-testid="checkout-return">
      {message} <span style={{ whiteSpace: 'nowrap' }}>({q.data.payment_id})</span>
    </Alert>
  );
}
