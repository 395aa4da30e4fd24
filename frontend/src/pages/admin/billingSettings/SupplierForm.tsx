// The supplier's details on every tax invoice (PUT /settings/billing: the
// whole record; a field left empty is cleared, the prefix and the SAC go
// back to their defaults, an empty PAN is the GSTIN's). The API's field
// errors show beside their fields.
import type { ReactNode } from 'react';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormError } from '../../../components/States';
import { useSaveBillingSettings, type BillingSettings, type BillingSettingsInput } from '../../../features/tax/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { formatDateTime, localDay } from '../../../lib/dates';
import { gstinError, normalizeAddress, normalizeGstin, StateSelect } from '../../user/common/gst';

type Values = Required<Omit<BillingSettingsInput, 'state'>> & { state: string };

const FIELDS = ['legal_name', 'address', 'state', 'gstin', 'pan', 'invoice_prefix', 'sac_code', 'bank_name', 'account_name', 'account_number', 'ifsc', 'upi'] as const;
const BANK = ['bank_name', 'account_name', 'account_number', 'ifsc'] as const;

function initial(s: BillingSettings): Values {
  return Object.fromEntries(FIELDS.map((f) => [f, s[f] ?? ''])) as Values;
}

/** The financial year (April to March) of today as invoice numbers write it: "26-27". */
export function financialYear(day = localDay()): string {
  const [y, m] = day.split('-').map((x) => parseInt(x, 10)); // not money
  const start = m! >= 4 ? y! : y! - 1;
  return `${String(start % 100).padStart(2, '0')}-${String((start + 1) % 100).padStart(2, '0')}`;
}

function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  const id = `billing-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={id}>{title}</Title>
          {description && <Text size="sm" c="dimmed">{description}</Text>}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

/** defaultPrefix: the prefix the server applies when none is given (a reseller's is IN). */
export function SupplierForm({ settings, onSaved, defaultPrefix = 'PG' }: { settings: BillingSettings; onSaved: (s: BillingSettings) => void; defaultPrefix?: string }) {
  const form = useForm<Values>({
    initialValues: initial(settings),
    validate: {
      legal_name: (v) => (!v.trim() ? 'Enter the legal name of the business' : v.trim().length > 200 ? 'At most 200 characters' : null),
      address: (v) => {
        const a = normalizeAddress(v);
        if (!a) return 'Enter the address printed on invoices';
        if (a.split('\n').length > 6) return 'At most 6 lines';
        return a.length > 500 ? 'At most 500 characters' : null;
      },
      state: (v) => (v ? null : 'Choose the state of the business'),
      gstin: (v, all) => gstinError(v, all.state),
      pan: (v, all) => {
        const p = v.trim().toUpperCase();
        if (!p) return null;
        if (!/^[A-Z]{5}[0-9]{4}[A-Z]$/.test(p)) return 'A PAN is 5 letters, 4 digits and a letter (AAPFU0939F)';
        const g = normalizeGstin(all.gstin);
        return g.length === 15 && g.slice(2, 12) !== p ? `The GSTIN carries the PAN ${g.slice(2, 12)}` : null;
      },
      invoice_prefix: (v) => (/^[A-Za-z0-9]{0,2}$/.test(v.trim()) ? null : '1 or 2 letters or digits'),
      sac_code: (v) => (/^(99[0-9]{4})?$/.test(v.trim()) ? null : 'A SAC code of services: 6 digits starting with 99'),
      account_number: (v, all) => bankError(all, 'account_number')
        ?? (!v.trim() || /^[0-9]{9,18}$/.test(v.replace(/\s/g, '')) ? null : '9 to 18 digits'),
      ifsc: (v, all) => bankError(all, 'ifsc')
        ?? (!v.trim() || /^[A-Za-z]{4}0[A-Za-z0-9]{6}$/.test(v.trim()) ? null : 'An IFSC is 4 letters, 0 and 6 letters or digits (HDFC0000240)'),
      bank_name: (_v, all) => bankError(all, 'bank_name'),
      account_name: (_v, all) => bankError(all, 'account_name'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useSaveBillingSettings({
    onSuccess: (s) => {
      form.setValues(initial(s));
      form.resetDirty(initial(s));
      onSaved(s);
    },
    onError: onApiError,
  });
  const submit = (v: Values) => {
    clearFormError();
    const body: BillingSettingsInput = {
      legal_name: v.legal_name.trim(), address: normalizeAddress(v.address), state: v.state,
      gstin: normalizeGstin(v.gstin), pan: v.pan.trim().toUpperCase(), invoice_prefix: v.invoice_prefix.trim().toUpperCase(),
      sac_code: v.sac_code.trim(), bank_name: v.bank_name.trim(), account_name: v.account_name.trim(),
      account_number: v.account_number.replace(/\s/g, ''), ifsc: v.ifsc.trim().toUpperCase(), upi: v.upi.trim(),
    };
    save.mutate(body);
  };
  const prefix = form.values.invoice_prefix.trim().toUpperCase() || defaultPrefix;
  const fy = financialYear();
  return (
    <form noValidate aria-label="Billing settings" onSubmit={form.onSubmit(submit, () => clearFormError())}>
      <Stack gap="md">
        <FormError message={formError} />
        <Section title="Supplier" description="The business that issues the invoices, as registered for GST.">
          <TextInput label="Legal name" required maxLength={200} autoComplete="organization" {...form.getInputProps('legal_name')} />
          <Textarea label="Address" required description="As printed on invoices, at most 6 lines" autosize minRows={3} maxRows={6}
            autoComplete="street-address" {...form.getInputProps('address')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <StateSelect label="State" required description="Where the business is registered" {...form.getInputProps('state')} />
            <TextInput label="GSTIN" maxLength={20} autoComplete="off" spellCheck={false} placeholder="27AAPFU0939F1ZV"
              description="Needed to charge GST; without it only bills of supply" styles={{ input: { textTransform: 'uppercase' } }}
              {...form.getInputProps('gstin')} />
            <TextInput label="PAN" maxLength={14} autoComplete="off" spellCheck={false} placeholder="AAPFU0939F"
              description="Empty: the one inside the GSTIN" styles={{ input: { textTransform: 'uppercase' } }}
              {...form.getInputProps('pan')} />
          </SimpleGrid>
        </Section>
        <Section title="Invoices" description="How documents are numbered and which SAC code their lines carry.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Invoice prefix" maxLength={2} autoComplete="off" placeholder={defaultPrefix} styles={{ input: { textTransform: 'uppercase' } }}
              description={`Invoices ${prefix}/${fy}/000001, credit notes ${prefix}C/${fy}/000001`} {...form.getInputProps('invoice_prefix')} />
            <TextInput label="Default SAC code" maxLength={6} inputMode="numeric" autoComplete="off" placeholder="998319"
              description="Plan fees, and calls of services without a SAC code of their own (a service's is set in its editor); empty: 998319"
              {...form.getInputProps('sac_code')} />
          </SimpleGrid>
          <Text size="sm" c="dimmed" data-testid="sac-note">
            Collection fees, and the payment, recharge and payout services unless a service's code is changed, carry 997158 (financial transaction processing), not this default.
          </Text>
        </Section>
        <Section title="Payment details" description="Shown to payers on Add balance, where they top up their prepaid balance; invoices are paid from that balance and show no bank details. The bank account is all four fields or none.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Bank name" maxLength={100} autoComplete="off" {...form.getInputProps('bank_name')} />
            <TextInput label="Account name" maxLength={100} autoComplete="off" {...form.getInputProps('account_name')} />
            <TextInput label="Account number" maxLength={30} inputMode="numeric" autoComplete="off" {...form.getInputProps('account_number')} />
            <TextInput label="IFSC" maxLength={11} autoComplete="off" spellCheck={false} placeholder="HDFC0000240"
              styles={{ input: { textTransform: 'uppercase' } }} {...form.getInputProps('ifsc')} />
            <TextInput label="UPI address" maxLength={100} autoComplete="off" spellCheck={false} placeholder="paygate@hdfcbank"
              {...form.getInputProps('upi')} />
          </SimpleGrid>
        </Section>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="xs" c="dimmed" data-testid="billing-settings-saved">
            {settings.updated_at ? `Last saved ${formatDateTime(settings.updated_at)}` : 'Not saved yet'}
          </Text>
          <Button type="submit" loading={save.isPending} disabled={!form.isDirty()}>Save billing settings</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The bank account is all four fields or none: a missing one is named. */
function bankError(v: Values, field: (typeof BANK)[number]): string | null {
  const given = BANK.filter((f) => v[f].trim() !== '');
  if (given.length === 0 || given.length === BANK.length || v[field].trim() !== '') return null;
  return 'Give all four bank details, or none';
}
