// Billing settings (decisions part 17): the supplier on every GST tax
// invoice — legal name, address, state, GSTIN, PAN, the invoice prefix and
// default SAC code, and the bank account and UPI address shown to payers.
// A notice says while the settings cannot issue invoices.
import { Alert, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/States';
import { useBillingSettings, type BillingSettings as Settings } from '../../features/tax/api';
import { SupplierForm } from './billingSettings/SupplierForm';

const LABELS: Record<string, string> = { legal_name: 'the legal name', address: 'the address', state: 'the state', gstin: 'the GSTIN' };

/** What the settings lack before they can issue documents at the server's GST rate, as the server says. */
export function missingFields(s: Settings): string[] {
  return s.missing.map((f) => LABELS[f] ?? f);
}

function Incomplete({ settings }: { settings: Settings }) {
  const missing = missingFields(settings);
  if (missing.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="billing-incomplete"
      title="Invoices cannot be issued yet">
      <Stack gap={4}>
        <Text size="sm">Set {joinAnd(missing)}: the monthly invoices wait until they are saved.</Text>
        {settings.missing.includes('gstin') && (
          <Text size="sm">
            At the GST rate of {settings.gst_rate}% a tax invoice needs the supplier's GSTIN; without one, only bills of supply can be issued (<code>GST_RATE</code> 0).
          </Text>
        )}
      </Stack>
    </Alert>
  );
}

function joinAnd(xs: string[]): string {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

export default function BillingSettings() {
  const settings = useBillingSettings();
  return (
    <>
      <PageHeader title="Billing settings"
        description="The supplier's details printed on every tax invoice and credit note. Documents already issued keep the details they were issued with." />
      <QueryState query={settings} loadingLabel="Loading the billing settings…">
        {(s) => (
          <Stack gap="md">
            <Incomplete settings={s} />
            <SupplierForm settings={s} onSaved={() => notifications.show({ color: 'teal', message: 'Billing settings saved' })} />
          </Stack>
        )}
      </QueryState>
    </>
  );
}
