// The supplier and recipient blocks of an invoice, and its place of supply.
import type { ReactNode } from 'react';
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { stateLabel, useGstStates } from '../../../features/tax/api';
import type { Invoice } from '../../../features/invoices/api';

type Party = Invoice['supplier'];

function PartyBlock({ title, party, testId }: { title: string; party: Party; testId: string }) {
  const states = useGstStates();
  return (
    <Paper withBorder p="sm" radius="sm" data-testid={testId}>
      <Stack gap={2}>
        <Text size="xs" c="dimmed">{title}</Text>
        <Text size="sm" fw={600}>{party.legal_name || '—'}</Text>
        {party.address.split('\n').filter(Boolean).map((l, i) => <Text key={i} size="sm">{l}</Text>)}
        {party.state && <Text size="sm">State: {stateLabel(party.state, states.data)}</Text>}
        <Text size="sm">GSTIN: {party.gstin ? <Text span ff="monospace" size="sm">{party.gstin}</Text> : <Text span c="dimmed" size="sm">unregistered</Text>}</Text>
      </Stack>
    </Paper>
  );
}

export function Parties({ invoice }: { invoice: Invoice }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <PartyBlock title="From (supplier)" party={invoice.supplier} testId="invoice-supplier" />
      <PartyBlock title="To (recipient)" party={invoice.recipient} testId="invoice-recipient" />
    </SimpleGrid>
  );
}

/** "Karnataka (29)". */
export function PlaceOfSupply({ invoice }: { invoice: Invoice }) {
  const states = useGstStates();
  return <>{stateLabel(invoice.place_of_supply, states.data)}</>;
}

export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div" data-testid={testId}>{children}</Text>
    </Stack>
  );
}
