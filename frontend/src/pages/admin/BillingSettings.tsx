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

const LABELS = { legal_name: 'the legal name', address: 'the address', state: 'the state' } as const;

/** What the settings lack before they can issue documents: legal name, address and state always. */
export function missingFields(s: Settings): string[] {
  return (Object.keys(LABELS) as (keyof typeof LABELS)[]).filter((f) => !s[f].trim()).map((f) => LABELS[f]);
}

function Incomplete({ settings }: { settings: Settings }) {
  const missing = missingFields(settings);
  const noGstin = !settings.gstin;
  if (missing.length === 0 && !noGstin) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="billing-incomplete"
      title={missing.length ? 'Invoices cannot be issued yet' : 'No GSTIN: GST cannot be charged'}>
      <Stack gap={4}>
        {missing.length > 0 && <Text size="sm">Set {joinAnd(missing)}: the monthly invoices wait until they are saved.</Text>}
        {noGstin && (
          <Text size="sm">
            Without a GSTIN only bills of supply can be issued (<code>GST_RATE</code> 0). At a GST rate above 0, as by default (18%), no invoice is issued until the GSTIN is set.
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
