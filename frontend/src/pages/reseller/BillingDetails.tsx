// A reseller's own billing and payee details (GET/PUT /settings/billing
// answer a reseller with its own record): the supplier block of its
// customers' invoices and the bank account and UPI address its customers
// pay on Add balance. The GSTIN is optional (without one: bills of supply).
import { Alert, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/States';
import { useBillingSettings } from '../../features/tax/api';
import { missingFields } from '../admin/BillingSettings';
import { SupplierForm } from '../admin/billingSettings/SupplierForm';

export default function BillingDetails() {
  const settings = useBillingSettings();
  return (
    <>
      <PageHeader title="Billing and payment details"
        description="Your business as your customers' invoices name it, and the bank account and UPI address your customers pay to add balance. Your customers pay you, never the platform." />
      <QueryState query={settings} loadingLabel="Loading your billing details…">
        {(s) => {
          const missing = missingFields(s);
          const payable = !!s.upi || !!s.account_number;
          return (
            <Stack gap="md">
              {!payable && (
                <Alert color="yellow" variant="light" title="Your customers cannot pay you yet" data-testid="payee-missing">
                  <Text size="sm">Add a UPI address or a bank account: until then your customers are told to ask you how to pay.</Text>
                </Alert>
              )}
              {missing.length > 0 && <Text size="sm" c="dimmed">Still needed for your customers' invoices: {missing.join(', ')}.</Text>}
              <SupplierForm settings={s} defaultPrefix="IN" onSaved={() => notifications.show({ color: 'teal', message: 'Billing and payment details saved' })} />
            </Stack>
          );
        }}
      </QueryState>
    </>
  );
}
