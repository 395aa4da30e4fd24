import { useState } from 'react';
import { Alert, Badge, Button, Code, Collapse, FileInput, Group, Modal, Paper, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { ApiError } from '../../api/errors';
import { DataTable, type Column } from '../../components/DataTable';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { FormError } from '../../components/States';
import {
  useHeldCollections, useImportStatement, useResolveLine, useRetryHeldCollection, useStatementLines,
  type ColumnMapping, type HeldCollection, type LinesQuery, type StatementImport, type StatementLine,
} from '../../features/reconciliation/api';
import { formatDate, formatDateTime } from '../../lib/dates';
import { useListParams } from '../../lib/listParams';

const REASONS: Record<string, string> = {
  no_match: 'No payment or request has this UTR',
  amount_mismatch: 'Same UTR, another amount',
  payment_not_open: 'The payment already ended',
  request_decided: 'The balance request was already decided',
  already_matched: 'Another line matched the same payment',
  credit_held: "The merchant's balance cannot hold it yet: match it again once it can",
  balance_full: "The requester's balance cannot hold it yet: match it again once it can",
};

const MAPPING_FIELDS: { key: keyof ColumnMapping; label: string; hint: string }[] = [
  { key: 'date_column', label: 'Date column', hint: 'Date, Txn Date, Value Date' },
  { key: 'narration_column', label: 'Narration column', hint: 'Narration, Description, Particulars' },
  { key: 'ref_column', label: 'Reference column', hint: 'Ref No, Chq/Ref No, UTR' },
  { key: 'credit_column', label: 'Credit column', hint: 'Credit, Deposit, Credit Amount' },
  { key: 'debit_column', label: 'Debit column', hint: 'Debit, Withdrawal' },
  { key: 'balance_column', label: 'Balance column', hint: 'Balance, Closing Balance' },
];

/** Bank-statement reconciliation: import a statement, then resolve what it could not match. */
export default function Reconciliation() {
  const list = useListParams({ status: 'unmatched' });
  const [resolving, setResolving] = useState<StatementLine | null>(null);
  const query: LinesQuery = { ...list.query, status: (list.filters.status || 'unmatched') as LinesQuery['status'] };
  const { tableProps } = useStatementLines(list, { query });

  const columns: Column<StatementLine>[] = [
    { key: 'date', header: 'Date', render: (l) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDate(l.date)}</Text> },
    { key: 'amount', header: 'Credit', align: 'right', render: (l) => <Money value={l.amount} fw={500} /> },
    { key: 'utr', header: 'UTR', render: (l) => (l.utr ? <Code>{l.utr}</Code> : <Text c="dimmed" size="sm">none</Text>) },
    { key: 'narration', header: 'Narration', hiddenOnMobile: true, render: (l) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{l.narration}</Text> },
    {
      key: 'outcome', header: list.filters.status === 'unmatched' ? 'Why unmatched' : 'Outcome',
      render: (l) => l.status === 'unmatched'
        ? <Badge color={l.reason === 'amount_mismatch' ? 'orange' : 'gray'} variant="light">{REASONS[l.reason ?? ''] ?? l.reason}</Badge>
        : l.status === 'matched'
          ? <Text size="sm">{l.payment_id ? <>Payment <Code>{l.payment_id}</Code></> : <>Balance request #{l.balance_request_id}</>}</Text>
          : <Text size="sm">Dismissed: {l.note}</Text>,
    },
    {
      key: 'resolve', header: 'Resolve', align: 'right',
      render: (l) => l.status === 'unmatched' ? (
        <Button size="compact-sm" aria-label={`Resolve the line of ${l.amount} on ${formatDate(l.date)}`}
          onClick={(e) => { e.stopPropagation(); setResolving(l); }}>Resolve</Button>
      ) : <Text size="xs" c="dimmed">{formatDateTime(l.decided_at)}</Text>,
    },
  ];

  return (
    <>
      <PageHeader title="Reconciliation" description="Import the platform account's bank statement: credits that name a waiting payment or balance request by UTR and amount complete it; resolve the rest by hand." />
      <Stack gap="md">
        <HeldCollections />
        <ImportForm />
        <SegmentedControl aria-label="Lines" value={list.filters.status || 'unmatched'} onChange={(v) => list.setFilter('status', v)}
          data={[{ value: 'unmatched', label: 'Unmatched' }, { value: 'matched', label: 'Matched' }, { value: 'dismissed', label: 'Dismissed' }]}
          style={{ alignSelf: 'flex-start', maxWidth: '100%' }} />
        <DataTable caption="Statement lines" columns={columns} rowKey={(l) => l.id} {...tableProps}
          emptyTitle={list.filters.status === 'unmatched' ? 'Nothing to resolve' : 'No lines'}
          emptyDescription={list.filters.status === 'unmatched' ? 'Credits no payment or balance request explains show here.' : undefined} />
      </Stack>
      <Modal opened={!!resolving} onClose={() => setResolving(null)} title={resolving ? `Statement line #${resolving.id}` : ''}>
        {resolving && <Resolve line={resolving} onDone={() => setResolving(null)} />}
      </Modal>
    </>
  );
}

/**
 * Confirmed payments whose credit the merchant's balance cannot hold (it
 * would pass its maximum): each waits, pending, until a retry credits it.
 * Shown only while there are some.
 */
function HeldCollections() {
  const held = useHeldCollections();
  const retry = useRetryHeldCollection({
    onSuccess: (p) => notifications.show({ color: 'teal', title: 'Credited', message: `Payment ${p.payment_id} completed.` }),
    onError: (err) => notifications.show({ color: 'red', title: 'Still held', message: err instanceof ApiError ? err.message : 'The retry failed' }),
  });
  const rows = held.data?.data ?? [];
  if (held.isError) return <Alert color="red" title="Held collections could not be loaded" />;
  if (rows.length === 0) return null;
  const columns: Column<HeldCollection>[] = [
    { key: 'payment', header: 'Payment', render: (h) => <Code>{h.payment_id}</Code> },
    { key: 'user', header: 'Beneficiary', render: (h) => <Text size="sm">User #{h.user_id}</Text> },
    { key: 'amount', header: 'Amount', align: 'right', render: (h) => <Money value={h.amount} fw={500} /> },
    { key: 'utr', header: 'UTR', hiddenOnMobile: true, render: (h) => (h.utr ? <Code>{h.utr}</Code> : <Text c="dimmed" size="sm">none</Text>) },
    { key: 'since', header: 'Held since', hiddenOnMobile: true, render: (h) => <Text size="sm">{formatDateTime(h.credit_held_at)}</Text> },
    {
      key: 'retry', header: 'Retry', align: 'right',
      render: (h) => (
        <Button size="compact-sm" loading={retry.isPending && retry.variables === h.payment_id}
          aria-label={`Retry the credit of ${h.payment_id}`} onClick={() => retry.mutate(h.payment_id)}>Retry</Button>
      ),
    },
  ];
  return (
    <Paper withBorder p="md" component="section" aria-label="Held collections" style={{ borderColor: 'var(--mantine-color-orange-5)' }}>
      <Stack gap="xs">
        <Text fw={600}>Held collections ({held.data?.meta.total ?? rows.length})</Text>
        <Text size="sm">
          These payments were confirmed, but crediting them would take the merchant's balance past its maximum. Each waits, pending, and
          is never expired or failed. Retry once the balance allows (or match its statement line again).
        </Text>
        <DataTable caption="Held collections" columns={columns} rowKey={(h) => h.payment_id} rows={rows} total={rows.length} page={1} perPage={Math.max(rows.length, 1)} onPageChange={() => {}} />
      </Stack>
    </Paper>
  );
}

function ImportForm() {
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [showMapping, setShowMapping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<StatementImport | null>(null);
  const upload = useImportStatement({
    onSuccess: (s) => { setResult(s); setFile(null); },
    onError: (err) => setError(err instanceof ApiError ? Object.values(err.fieldErrors).flat()[0] ?? err.message : 'The import failed'),
  });
  return (
    <Paper withBorder p="md" component="form" aria-label="Import a statement"
      onSubmit={(e) => { e.preventDefault(); setError(null); if (file) upload.mutate({ file, mapping }); else setError('Choose the statement file (CSV)'); }}>
      <Stack gap="sm">
        <FormError message={error} />
        <Group align="flex-end" gap="sm">
          <FileInput label="Statement (CSV)" placeholder="Your bank's CSV export" accept=".csv,text/csv" clearable value={file} onChange={setFile}
            leftSection={<IconFileSpreadsheet size={16} aria-hidden />} w={{ base: '100%', xs: 320 }} />
          <Button type="submit" loading={upload.isPending}>Import</Button>
          <Button variant="subtle" onClick={() => setShowMapping((v) => !v)} aria-expanded={showMapping}>Column names</Button>
        </Group>
        <Collapse expanded={showMapping}>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            {MAPPING_FIELDS.map((f) => (
              <TextInput key={f.key} label={f.label} placeholder={f.hint} maxLength={100} value={mapping[f.key] ?? ''}
                onChange={(e) => { const v = e.currentTarget.value; setMapping((m) => ({ ...m, [f.key]: v })); }} />
            ))}
          </SimpleGrid>
        </Collapse>
        {result && (
          <Alert color="teal" title={`Imported ${result.file_name}`} role="status" data-testid="import-result">
            {result.credit_lines} credit lines: {result.new_lines} new, {result.duplicate_lines} already recorded; {result.matched} matched,{' '}
            {result.unmatched} to resolve. {result.debit_lines} debits and {result.skipped_lines} other rows skipped.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function Resolve({ line, onDone }: { line: StatementLine; onDone: () => void }) {
  const [kind, setKind] = useState<'payment' | 'request' | 'dismiss'>('payment');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const resolve = useResolveLine(line.id, {
    onSuccess: (l) => {
      notifications.show({ color: 'teal', title: l.status === 'matched' ? 'Matched' : 'Dismissed', message: `Line #${l.id} resolved.` });
      onDone();
    },
    onError: (err) => setError(err instanceof ApiError ? Object.values(err.fieldErrors).flat()[0] ?? err.message : 'Failed'),
  });
  const submit = () => {
    setError(null);
    const v = value.trim();
    if (!v) {
      setError(kind === 'dismiss' ? 'Say why this credit needs no match' : 'Enter what this credit pays');
      return;
    }
    if (kind === 'payment') resolve.mutate({ action: 'match', target: { payment_id: v } });
    else if (kind === 'request') {
      const id = Number(v); // not money: a balance request's id
      if (!Number.isInteger(id) || id <= 0) { setError('Enter the balance request number'); return; }
      resolve.mutate({ action: 'match', target: { balance_request_id: id } });
    } else resolve.mutate({ action: 'dismiss', note: v });
  };
  return (
    <Stack gap="sm">
      <Text size="sm"><Money value={line.amount} span fw={600} /> on {formatDate(line.date)}, UTR {line.utr || 'none'}</Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>{line.narration}</Text>
      <SegmentedControl aria-label="Resolution" value={kind} onChange={(v) => { setKind(v as typeof kind); setValue(''); setError(null); }}
        data={[{ value: 'payment', label: 'Payment' }, { value: 'request', label: 'Balance request' }, { value: 'dismiss', label: 'Dismiss' }]} />
      {kind === 'dismiss'
        ? <Textarea label="Note" description="Required: what happened to this money" maxLength={1000} autosize minRows={2}
            value={value} onChange={(e) => setValue(e.currentTarget.value)} error={error} />
        : <TextInput label={kind === 'payment' ? 'Payment id' : 'Balance request number'} placeholder={kind === 'payment' ? 'pay_…' : '42'}
            description="Its amount must equal the credit" value={value} onChange={(e) => setValue(e.currentTarget.value)} error={error} />}
      <Group justify="flex-end">
        <Button onClick={submit} loading={resolve.isPending} color={kind === 'dismiss' ? 'orange' : 'teal'}>
          {kind === 'dismiss' ? 'Dismiss' : 'Match'}
        </Button>
      </Group>
    </Stack>
  );
}
