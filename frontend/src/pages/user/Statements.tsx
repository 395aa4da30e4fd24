// Statements (decisions part 17): an account's month — opening balance,
// credits, debits, closing balance and the number of ledger entries — and
// the statement to download as PDF (every entry, up to 10,000) or CSV.
// Admins choose the account. The month and the account are in the URL.
import { Link } from 'react-router';
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconX } from '@tabler/icons-react';
import { ApiError, errorMessage } from '../../api/errors';
import { useUser } from '../../auth/useSession';
import { CsvExportButton } from '../../components/CsvExport';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, QueryState } from '../../components/States';
import { STATEMENTS_PATH, useStatement, useStatementPdf, type StatementQuery } from '../../features/statements/api';
import { useUserDetail } from '../../features/users/api';
import { formatDate } from '../../lib/dates';
import { parseId } from '../../lib/ids';
import { useListParams } from '../../lib/listParams';
import { UserPicker } from '../admin/shared/UserPicker';
import { MonthInput, thisMonth } from './common/MonthInput';
import { saveFile } from './common/saveFile';
import { Fact } from './invoices/Parties';
import { monthOf } from './planBilling/dates';

/** The first and last local days of a month ("2026-11" → 2026-11-01, 2026-11-30): the transactions screen's from and to. */
function monthDays(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map((x) => parseInt(x, 10)); // not money
  const last = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** The account chosen (admins): its name, and a button to choose another. */
function ChosenUser({ id, onClear }: { id: number; onClear: () => void }) {
  const u = useUserDetail(id);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>Account</Text>
      <Badge variant="light" size="lg" h={36} style={{ textTransform: 'none' }} data-testid="statement-user" rightSection={
        <ActionIcon size="xs" variant="transparent" aria-label="Choose another account" onClick={onClear}>
          <IconX size={12} aria-hidden />
        </ActionIcon>
      }>{u.data ? `${u.data.name} <${u.data.email}>` : `User #${id}`}</Badge>
    </Stack>
  );
}

function Summary({ q, admin }: { q: StatementQuery; admin: boolean }) {
  const st = useStatement(q);
  const pdf = useStatementPdf({
    onSuccess: saveFile,
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'statement_too_long') return; // shown beside the buttons, with the CSV
      notifications.show({ color: 'red', title: 'Could not download the PDF', message: errorMessage(err) });
    },
  });
  const tooLong = pdf.error instanceof ApiError && pdf.error.code === 'statement_too_long';
  const csvQuery = { month: q.month, user_id: q.user_id };
  const days = monthDays(q.month);
  const ledgerLink = `/transactions?from=${days.from}&to=${days.to}${admin && q.user_id ? `&user_id=${q.user_id}` : ''}`;
  return (
    <QueryState query={st} loadingLabel="Adding up the month…">
      {(s) => (
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="statement-title" data-testid="statement">
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
              <div>
                <Title order={2} size="h4" id="statement-title">Statement for {monthOf(s.month)}</Title>
                <Text size="sm" c="dimmed" data-testid="statement-period">
                  {formatDate(s.from)} to {formatDate(new Date(new Date(s.to).getTime() - 1))}
                </Text>
              </div>
              <Group gap="xs">
                <Button leftSection={<IconDownload size={16} aria-hidden />} loading={pdf.isPending} onClick={() => { pdf.reset(); pdf.mutate(q); }}>
                  Download PDF
                </Button>
                <CsvExportButton path={STATEMENTS_PATH} query={csvQuery} label="Download CSV" />
              </Group>
            </Group>
            {tooLong && (
              <Alert color="yellow" variant="light" title="Too many entries for a PDF" data-testid="statement-too-long">
                <Stack gap="xs">
                  <Text size="sm">{pdf.error!.message}. The CSV has every entry, between an opening and a closing row.</Text>
                  <Group><CsvExportButton path={STATEMENTS_PATH} query={csvQuery} label="Download the CSV instead" /></Group>
                </Stack>
              </Alert>
            )}
            <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
              <Fact label="Opening balance" testId="statement-opening"><Money value={s.opening_balance} fw={600} /></Fact>
              <Fact label="Credits" testId="statement-credits"><Money value={s.credits} c="teal" /></Fact>
              <Fact label="Debits" testId="statement-debits"><Money value={s.debits} c="red" /></Fact>
              <Fact label="Closing balance" testId="statement-closing"><Money value={s.closing_balance} fw={600} /></Fact>
              <Fact label="Entries" testId="statement-entries">{s.entries.toLocaleString('en-IN')}</Fact>
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {s.entries === 0 ? 'No entries this month: the balance did not change.' : 'Credits include refunds. The closing balance is the balance after the month’s last entry.'}{' '}
              <Anchor component={Link} to={ledgerLink} size="xs">See the entries in Transactions</Anchor>
            </Text>
          </Stack>
        </Paper>
      )}
    </QueryState>
  );
}

export default function Statements() {
  const admin = useUser().role === 'admin';
  const list = useListParams({ month: thisMonth(), user_id: '' });
  const month = /^\d{4}-\d{2}$/.test(list.filters.month) ? list.filters.month : thisMonth();
  const userId = admin ? parseId(list.filters.user_id) : null;
  const q: StatementQuery = userId !== null ? { month, user_id: userId } : { month };
  return (
    <>
      <PageHeader title="Statements" description={admin
        ? "An account's balance over a month: opening and closing balance, credits and debits, and every entry in the PDF or CSV."
        : 'Your balance over a month: opening and closing balance, credits and debits, and every entry in the PDF or CSV.'} />
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          {admin && (userId === null
            ? <UserPicker label="Account" placeholder="Type a name, email or phone" w={{ base: '100%', xs: 300 }} value={null}
                onChange={(v) => list.setFilter('user_id', v)} />
            : <ChosenUser id={userId} onClear={() => list.setFilter('user_id', '')} />)}
          <MonthInput label="Month" w={{ base: '100%', xs: 200 }} value={month} onChange={(m) => list.setFilter('month', m || thisMonth())} />
        </Group>
        {admin && userId === null
          ? <EmptyState title="Choose an account" description="Type a user's name, email or phone to see their statement." />
          : <Summary key={`${q.user_id ?? ''}-${q.month}`} q={q} admin={admin} />}
      </Stack>
    </>
  );
}
