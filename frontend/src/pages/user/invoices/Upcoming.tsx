// This month so far: the draft of the caller's invoice for the current
// month (GET /invoices/upcoming), computed as it would be issued now, with
// no number. It is issued on the 1st of next month; once the month is
// issued there is no draft (204) and no card.
import { Link } from 'react-router';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Money } from '../../../components/Money';
import { QueryState } from '../../../components/States';
import { useUpcomingInvoice } from '../../../features/invoices/api';
import { monthOf } from '../planBilling/dates';
import { InvoiceLines, TaxSummary } from './InvoiceLines';
import { Fact, PlaceOfSupply } from './Parties';

/** "2026-11" → "1 December 2026": when the month's invoice is issued. */
export function issueDay(month: string): string {
  const [y, m] = month.split('-').map((x) => parseInt(x, 10)); // not money
  const next = new Date(Date.UTC(m === 12 ? y! + 1 : y!, m === 12 ? 0 : m!, 1));
  return new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(next);
}

export function Upcoming() {
  const draft = useUpcomingInvoice();
  if (draft.data === null) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="upcoming-title" data-testid="upcoming">
      <QueryState query={draft} loadingLabel="Adding up this month…">
        {(d) => d && (
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <div>
                <Group gap="xs">
                  <Title order={2} size="h4" id="upcoming-title">This month so far</Title>
                  <Badge variant="outline" color="gray">draft</Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  Your invoice for {monthOf(d.month)} as it stands now. It is issued with a number on {issueDay(d.month)}; until then it changes as you are charged.
                </Text>
              </div>
            </Group>
            {d.lines.length === 0 ? (
              <Text size="sm" data-testid="upcoming-empty">Nothing billed in {monthOf(d.month)} yet.</Text>
            ) : (
              <>
                <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
                  <Fact label="Total so far" testId="upcoming-gross"><Money value={d.totals.gross} fw={600} /></Fact>
                  <Fact label="Taxable value"><Money value={d.totals.taxable} /></Fact>
                  <Fact label="Tax" testId="upcoming-tax"><TaxSummary invoice={d} /></Fact>
                  <Fact label="Place of supply" testId="upcoming-place"><PlaceOfSupply invoice={d} /></Fact>
                </SimpleGrid>
                <InvoiceLines invoice={d} caption={`Your charges of ${monthOf(d.month)} so far`} />
              </>
            )}
            <Text size="xs" c="dimmed">
              Made out to <b>{d.recipient.legal_name}</b>{d.recipient.gstin ? <> (GSTIN {d.recipient.gstin})</> : ', without a GSTIN'}.{' '}
              <Anchor component={Link} to="/profile" size="xs">Change your billing details</Anchor>
            </Text>
          </Stack>
        )}
      </QueryState>
    </Paper>
  );
}
