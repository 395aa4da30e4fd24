// Where to pay by bank transfer or UPI: the payee's bank account and UPI
// address (copy buttons), a QR code of the UPI address, and a note to report
// the UTR below afterwards. A reseller's customer pays its reseller (named,
// its own details, never the platform's); while the reseller has none, the
// customer is told to ask it, with its support contacts.
import { useEffect, useState } from 'react';
import { Alert, Anchor, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Schemas } from '../../../api/types';
import { ErrorState, Loading } from '../../../components/States';
import { usePayee, usePayeeQR } from '../../../features/balanceRequests/api';
import { CopyField } from '../common/ShownOnce';

type Payee = Schemas['Payee'];

function UPIQR({ upi }: { upi: string }) {
  const q = usePayeeQR(upi);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!q.data) return;
    const u = URL.createObjectURL(q.data.blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [q.data]);
  if (q.isError) return <Text size="sm" c="dimmed">The QR code could not be loaded; pay to the UPI address instead.</Text>;
  return url ? <Image src={url} alt={`QR code for the UPI address ${upi}`} w={180} h={180} fit="contain" data-testid="payee-upi-qr" /> : <Loading />;
}

/** Who credits the balance once paid, in a sentence: the reseller by name, else an administrator. */
export function creditor(p: Payee): string {
  return p.payee === 'reseller' ? p.name || 'your provider' : 'an administrator';
}

/** A reseller's support contacts, as links; nothing when it has none. */
export function SupportContacts({ payee }: { payee: Payee }) {
  if (!payee.support_email && !payee.support_phone) return null;
  return (
    <Group gap="md" wrap="wrap" data-testid="payee-support">
      <Text size="sm">Questions? Contact {creditor(payee)}:</Text>
      {payee.support_email && <Anchor size="sm" href={`mailto:${payee.support_email}`}>{payee.support_email}</Anchor>}
      {payee.support_phone && <Anchor size="sm" href={`tel:${payee.support_phone.replace(/\s+/g, '')}`}>{payee.support_phone}</Anchor>}
    </Group>
  );
}

export function PayeeDetails() {
  const q = usePayee();
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const p = q.data;
  const hasBank = !!p.account_number;
  if (!hasBank && !p.upi) {
    if (p.payee === 'reseller') {
      return (
        <Alert color="yellow" title={`Ask ${creditor(p)} how to pay`}>
          <Stack gap={6}>
            <Text size="sm">{creditor(p)} has not set a bank account or UPI address to pay to yet. Ask them where to pay, then send the UTR below.</Text>
            <SupportContacts payee={p} />
          </Stack>
        </Alert>
      );
    }
    return <Alert color="yellow" title="No payment details yet">The administrator has not set a bank account or UPI address to pay to. Ask them where to pay, then send the UTR below.</Alert>;
  }
  return (
    <Stack gap="sm">
      {p.payee === 'reseller' && p.legal_name && p.legal_name !== p.name && (
        <Text size="sm">Payee: <Text span fw={600}>{p.legal_name}</Text> ({p.name})</Text>
      )}
      <Group align="flex-start" gap="lg" wrap="wrap">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" style={{ flex: 1, minWidth: 240 }}>
          {hasBank && <CopyField label="Account name" value={p.account_name} />}
          {hasBank && <CopyField label="Account number" value={p.account_number} testId="payee-account-number" />}
          {hasBank && <CopyField label="IFSC" value={p.ifsc} />}
          {hasBank && <CopyField label="Bank" value={p.bank_name} />}
          {p.upi && <CopyField label="UPI address" value={p.upi} testId="payee-upi" />}
        </SimpleGrid>
        {p.upi && <UPIQR upi={p.upi} />}
      </Group>
      <Text size="sm" c="dimmed">After paying, enter the transfer’s UTR number below so {creditor(p)} can credit your balance.</Text>
      {p.payee === 'reseller' && <SupportContacts payee={p} />}
    </Stack>
  );
}
