// Where to pay by bank transfer or UPI: the platform's bank account and UPI
// address from the admin's billing settings (copy buttons), a QR code of
// the UPI address, and a note to report the UTR below afterwards.
import { useEffect, useState } from 'react';
import { Alert, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { ErrorState, Loading } from '../../../components/States';
import { usePayee, usePayeeQR } from '../../../features/balanceRequests/api';
import { CopyField } from '../common/ShownOnce';

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

export function PayeeDetails() {
  const q = usePayee();
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const p = q.data;
  const hasBank = !!p.account_number;
  if (!hasBank && !p.upi) {
    return <Alert color="yellow" title="No payment details yet">The administrator has not set a bank account or UPI address to pay to. Ask them where to pay, then send the UTR below.</Alert>;
  }
  return (
    <Stack gap="sm">
      <Group align="flex-start" gap="lg" wrap="wrap">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" style={{ flex: 1, minWidth: 260 }}>
          {hasBank && <CopyField label="Account name" value={p.account_name} />}
          {hasBank && <CopyField label="Account number" value={p.account_number} testId="payee-account-number" />}
          {hasBank && <CopyField label="IFSC" value={p.ifsc} />}
          {hasBank && <CopyField label="Bank" value={p.bank_name} />}
          {p.upi && <CopyField label="UPI address" value={p.upi} testId="payee-upi" />}
        </SimpleGrid>
        {p.upi && <UPIQR upi={p.upi} />}
      </Group>
      <Text size="sm" c="dimmed">After paying, enter the transfer’s UTR number below so an administrator can credit your balance.</Text>
    </Stack>
  );
}
