// A new payout from the panel: the beneficiary (a bank account or a UPI
// address), the amount, mode, narration and reference; the fee and the total
// quoted before sending, against the balance and what is left of today's
// limit. Sending asks for the password again (a payout credential, kept in
// memory for its 5 minutes): a stolen panel session alone cannot send money.
// The payout is billed and logged on the API key chosen; no secret is asked.
import { useRef, useState } from 'react';
import {
  Alert, Anchor, Button, Divider, Group, Modal, Paper, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router';
import { ApiError, errorMessage, optionsError } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { Money } from '../../../components/Money';
import { useAllKeys } from '../../../features/keys/api';
import {
  PAYOUT_AUTHORIZATION_REQUIRED, heldPayoutCredential, useAuthorizePayouts, useBeneficiaries, useDeleteBeneficiary, usePayoutQuote, useSaveBeneficiary,
  useSendPayout, type PayoutSent, type SavedBeneficiary,
} from '../../../features/payouts/api';
import { compareDecimal, formatINR } from '../../../lib/money';
import { StatusBadge } from '../common/StatusBadge';
import { TestModeBadge } from './beneficiary';

type BeneficiaryType = Schemas['PayoutBeneficiary']['type'];
type Mode = NonNullable<Schemas['PayoutRequest']['mode']>;

export interface PayoutValues {
  /** The API key's id the payout is billed and logged on. */
  key: string;
  /** A saved beneficiary's id, or NEW: the details below. */
  saved: string;
  beneficiary: { type: BeneficiaryType; name: string; account_number: string; ifsc: string; vpa: string };
  amount: string;
  mode: Mode;
  narration: string;
  reference_id: string;
}

/** The picker's value for a beneficiary typed in (not saved). */
export const NEW = 'new';

/** How a saved beneficiary reads in the picker and the confirmation. */
export const savedLabel = (b: SavedBeneficiary) => `${b.name} · ${b.type === 'vpa' ? b.vpa : `${b.account_number} · ${b.ifsc}`}`;

const MODES: Record<BeneficiaryType, Mode[]> = { bank_account: ['IMPS', 'NEFT'], vpa: ['UPI'] };
const AMOUNT = /^\d+(\.\d{1,2})?$/;
const ACCOUNT = /^[0-9]{9,18}$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const VPA = /^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.-]{1,63}$/;
const REFERENCE = /^[A-Za-z0-9._:-]{1,64}$/;
const MIN = '1.00';
const MAX = '500000.00';

/** A fresh reference for the next payout (the API's reference_id: unique per account, a repeat answers the first payout). */
export function newReference(): string {
  const rnd = globalThis.crypto?.randomUUID ? globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20) : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  return `po_${rnd}`;
}

/** The fields of the beneficiary a type shows (the others are not sent). */
const SHOWN: Record<BeneficiaryType, (keyof PayoutValues['beneficiary'])[]> = {
  bank_account: ['type', 'name', 'account_number', 'ifsc'],
  vpa: ['type', 'name', 'vpa'],
};

function amountError(v: string): string | null {
  const s = v.trim();
  if (!s) return 'Enter the amount';
  if (!AMOUNT.test(s)) return 'Enter an amount in rupees, e.g. 500 or 500.50';
  if (compareDecimal(s, MIN)! < 0) return `At least ${formatINR(MIN)}`;
  if (compareDecimal(s, MAX)! > 0) return `At most ${formatINR(MAX)} per payout`;
  return null;
}

/** The request body: the beneficiary of the chosen type only, the narration when given. */
export function payoutBody(v: PayoutValues): Schemas['PanelPayoutRequest'] {
  if (v.saved !== NEW) {
    return {
      api_key_id: Number(v.key), beneficiary_id: Number(v.saved), amount: v.amount.trim(), mode: v.mode, reference_id: v.reference_id.trim(), // not money
      ...(v.narration.trim() ? { narration: v.narration.trim() } : {}),
    };
  }
  const b = v.beneficiary;
  const beneficiary: Schemas['PayoutBeneficiary'] = b.type === 'vpa'
    ? { type: 'vpa', name: b.name.trim(), vpa: b.vpa.trim() }
    : { type: 'bank_account', name: b.name.trim(), account_number: b.account_number.trim(), ifsc: b.ifsc.trim().toUpperCase() };
  return {
    api_key_id: Number(v.key), // not money
    beneficiary,
    amount: v.amount.trim(),
    mode: v.mode,
    reference_id: v.reference_id.trim(),
    ...(v.narration.trim() ? { narration: v.narration.trim() } : {}),
  };
}

const TITLES: Record<number, string> = {
  402: 'Not enough balance',
  403: 'This key may not send payouts',
  404: 'Payouts or this key are not available to you',
  409: 'This reference was used for another payout',
  422: 'The payout was refused',
  429: 'Too many requests',
};

/** A refused payout: the API's message and code, and the per-field errors that have no field on screen. */
function PayoutError({ error, leftover }: { error: unknown; leftover: string[] }) {
  const status = error instanceof ApiError ? error.status : 0;
  return (
    <Alert color="red" role="alert" variant="light" title={TITLES[status] ?? 'The payout was not sent'} data-testid="payout-error">
      <Text size="sm">
        {errorMessage(error)}
        {error instanceof ApiError && status > 0 ? <Text span size="xs" c="dimmed"> ({status} {error.code})</Text> : null}
      </Text>
      {leftover.map((l) => <Text size="sm" key={l}>{l}</Text>)}
      {error instanceof ApiError && error.requestId && <Text size="xs" c="dimmed">Request id {error.requestId}</Text>}
    </Alert>
  );
}

/** Fee, total, balance and today's limit for the amount being typed. */
function Quote({ amount }: { amount: string }) {
  const valid = amountError(amount) === null;
  const [debounced] = useDebouncedValue(valid ? amount.trim() : '', 300);
  const q = usePayoutQuote(debounced);
  if (q.isError) return <Text size="sm" c="orange">Could not work out the fee: {errorMessage(q.error)}</Text>;
  const d = q.data;
  if (!d) return <Text size="sm" c="dimmed">Working out the fee…</Text>;
  if (d.fee === null) {
    return <Alert color="orange" variant="light" data-testid="payout-quote">Payouts have no price for you yet: a payout answers 404 until an admin prices the payout-transfer service.</Alert>;
  }
  // The quote on screen may still be the last amount's (kept while the next loads).
  const priced = valid && debounced === amount.trim() && compareDecimal(d.amount, debounced) === 0;
  const overBalance = priced && compareDecimal(d.total, d.balance) === 1;
  const overLimit = priced && compareDecimal(d.amount, d.remaining_today) === 1;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="payout-quote" aria-live="polite">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <Stack gap={0}><Text size="xs" c="dimmed">Fee</Text><Money value={d.fee} fw={600} data-testid="quote-fee" /></Stack>
        <Stack gap={0}><Text size="xs" c="dimmed">Total debited</Text>{priced ? <Money value={d.total} fw={600} data-testid="quote-total" /> : <Text size="sm">—</Text>}</Stack>
        <Stack gap={0}><Text size="xs" c="dimmed">Your balance</Text><Money value={d.balance} data-testid="quote-balance" /></Stack>
        <Stack gap={0}><Text size="xs" c="dimmed">Left of today’s limit</Text><Money value={d.remaining_today} data-testid="quote-remaining" /></Stack>
      </SimpleGrid>
      {overBalance && <Text size="sm" c="red" mt="xs" data-testid="quote-warning">The total is more than your balance: the payout would be refused (402).</Text>}
      {overLimit && (
        <Text size="sm" c="red" mt="xs" data-testid="quote-warning">
          The amount is more than what is left of today’s payout limit ({formatINR(d.daily_limit)} a day): the payout would be refused.
        </Text>
      )}
    </Paper>
  );
}

/** What the transfer answered: the payout and what it cost. */
function Sent({ sent, onAnother, onView }: { sent: PayoutSent; onAnother: () => void; onView?: (id: string) => void }) {
  const p = sent.envelope.data;
  return (
    <Stack gap="sm" data-testid="payout-result" aria-live="polite">
      <Alert color={p.status === 'failed' ? 'red' : 'teal'} variant="light" title={sent.replayed ? 'Already sent: this reference’s payout' : 'Payout sent'}>
        <Stack gap={4}>
          <Group gap={6}>
            <Text size="sm">Payout <Text span ff="monospace" size="sm" data-testid="payout-id">{p.payout_id}</Text></Text>
            <StatusBadge status={p.status} />
            <TestModeBadge livemode={p.livemode} />
          </Group>
          <Text size="sm"><Money value={p.amount} fw={600} /> to {p.beneficiary.name}, fee <Money value={p.fee} />. Balance left <Money value={sent.envelope.balance_left} fw={600} />.</Text>
          {p.fail_reason && <Text size="sm" c="red">{p.fail_reason}</Text>}
          {(p.status === 'pending' || p.status === 'processing') && <Text size="sm" c="dimmed">The bank answers within seconds: the list shows the outcome.</Text>}
        </Stack>
      </Alert>
      <Group justify="flex-end">
        {onView && <Button variant="default" onClick={() => onView(p.payout_id)}>View payout</Button>}
        <Button onClick={onAnother}>New payout</Button>
      </Group>
    </Stack>
  );
}

export function PayoutForm({ onView }: { onView?: (payoutId: string) => void }) {
  const keys = useAllKeys();
  const active = (keys.data?.data ?? []).filter((k) => k.status === 'active');
  // The confirmation step: the checked values, shown back before anything is
  // sent; any edit afterwards goes back to "Review payout".
  const [confirming, setConfirming] = useState<PayoutValues | null>(null);
  const beneficiaries = useBeneficiaries();
  const savedList = beneficiaries.data?.data ?? [];
  const savedOf = (id: string) => savedList.find((b) => String(b.id) === id);
  const form = useForm<PayoutValues>({
    onValuesChange: () => setConfirming(null),
    initialValues: {
      key: '', saved: NEW,
      beneficiary: { type: 'bank_account', name: '', account_number: '', ifsc: '', vpa: '' },
      amount: '', mode: 'IMPS', narration: '', reference_id: newReference(),
    },
    validate: (v) => {
      const e: Record<string, string> = {};
      const b = v.beneficiary;
      if (!v.key) e.key = 'Choose a key';
      const a = amountError(v.amount);
      if (a) e.amount = a;
      if ([...v.narration.trim()].length > 30) e.narration = 'At most 30 characters';
      if (!REFERENCE.test(v.reference_id.trim())) e.reference_id = 'Up to 64 letters, digits and . _ : -';
      if (v.saved !== NEW) {
        const t = savedOf(v.saved)?.type ?? 'bank_account';
        if (!MODES[t].includes(v.mode)) e.mode = `${MODES[t].join(' or ')} for this beneficiary`;
        return e;
      }
      Object.assign(e, beneficiaryErrors(b));
      if (!MODES[b.type].includes(v.mode)) e.mode = `${MODES[b.type].join(' or ')} for this beneficiary`;
      return e;
    },
  });
  function beneficiaryErrors(b: PayoutValues['beneficiary']) {
      const e: Record<string, string> = {};
      if (!b.name.trim()) e['beneficiary.name'] = 'Enter the beneficiary’s name';
      else if (b.name.trim().length > 100) e['beneficiary.name'] = 'At most 100 characters';
      if (b.type === 'bank_account') {
        if (!ACCOUNT.test(b.account_number.trim())) e['beneficiary.account_number'] = '9 to 18 digits';
        if (!IFSC.test(b.ifsc.trim().toUpperCase())) e['beneficiary.ifsc'] = 'An IFSC like HDFC0001234';
      } else if (!VPA.test(b.vpa.trim())) e['beneficiary.vpa'] = 'A UPI address like name@bank';
      return e;
  }
  const [failure, setFailure] = useState<{ error: unknown; leftover: string[] } | null>(null);
  const [sent, setSent] = useState<PayoutSent | null>(null);
  // The password prompt: open while the payout waits for a payout credential.
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  // What waits for the credential: the payout, or saving a beneficiary.
  const pending = useRef<((credential: string) => void) | null>(null);
  const withCredential = (action: (credential: string) => void) => {
    const credential = heldPayoutCredential();
    if (credential) action(credential);
    else {
      pending.current = action;
      setAsking(true);
    }
  };
  const send = useSendPayout({
    onSuccess: (s) => {
      setSent(s);
      setFailure(null);
    },
    onError: (err, vars) => {
      if (err instanceof ApiError && err.code === PAYOUT_AUTHORIZATION_REQUIRED) {
        // the credential had expired: ask again, the payout still waits
        withCredential((credential) => send.mutate({ body: vars.body, credential }));
        return;
      }
      setConfirming(null); // back to the form, to fix and review again
      // Field errors go under their fields (beneficiary.account_number under the account number);
      // one for a field not on screen stays in the message.
      const leftover: string[] = [];
      if (err instanceof ApiError) {
        const shown = new Set(['amount', 'mode', 'narration', 'reference_id', ...SHOWN[form.getValues().beneficiary.type].map((f) => `beneficiary.${f}`)]);
        for (const [field, msgs] of Object.entries(err.fieldErrors)) {
          if (shown.has(field)) form.setFieldError(field, msgs.join(' '));
          else leftover.push(`${field}: ${msgs.join(' ')}`);
        }
        if (err.code === 'reference_id_reused') form.setFieldError('reference_id', 'Used for another payout: use a new reference');
      }
      setFailure({ error: err, leftover });
    },
  });

  const authorize = useAuthorizePayouts({
    onSuccess: (credential) => {
      setAsking(false);
      setPassword('');
      const action = pending.current;
      pending.current = null;
      action?.(credential);
    },
  });
  const sendConfirmed = (vals: PayoutValues) => withCredential((credential) => send.mutate({ body: payoutBody(vals), credential }));
  // "Add beneficiary": checked once by an account verification, then saved and chosen.
  const save = useSaveBeneficiary({
    onSuccess: (b) => {
      setFailure(null);
      form.setFieldValue('saved', String(b.id));
      form.setFieldValue('mode', MODES[b.type][0]!);
    },
    onError: (err) => setFailure({ error: err, leftover: [] }),
  });
  const forget = useDeleteBeneficiary({
    onSuccess: () => form.setFieldValue('saved', NEW),
    onError: (err) => setFailure({ error: err, leftover: [] }),
  });
  const addBeneficiary = () => {
    const vals = form.getValues();
    const errors = { ...beneficiaryErrors(vals.beneficiary), ...(vals.key ? {} : { key: 'Choose a key' }) };
    if (Object.keys(errors).length) {
      form.setErrors(errors);
      return;
    }
    const b = vals.beneficiary;
    const body: Schemas['BeneficiaryCreateRequest'] = b.type === 'vpa'
      ? { api_key_id: Number(vals.key), type: 'vpa', name: b.name.trim(), vpa: b.vpa.trim() } // not money
      : { api_key_id: Number(vals.key), type: 'bank_account', name: b.name.trim(), account_number: b.account_number.trim(), ifsc: b.ifsc.trim().toUpperCase() }; // not money
    setFailure(null);
    withCredential((credential) => save.mutate({ body, credential }));
  };
  const passwordError = authorize.error instanceof ApiError && authorize.error.fieldErrors.password
    ? 'The password is incorrect' : authorize.error ? errorMessage(authorize.error) : null;

  const v = form.getValues();
  const type = v.beneficiary.type;
  const setType = (t: BeneficiaryType) => {
    form.setFieldValue('beneficiary.type', t);
    form.setFieldValue('mode', MODES[t][0]!);
  };
  const another = () => {
    setSent(null);
    form.setValues({ amount: '', narration: '', reference_id: newReference() });
    form.resetDirty();
  };

  if (sent) return <Sent sent={sent} onAnother={another} onView={onView} />;

  return (
    <>
      <form noValidate aria-label="New payout" data-testid="payout-form"
        onSubmit={form.onSubmit((vals) => { setFailure(null); setConfirming(vals); })}>
        <Stack gap="sm">
          {failure && <PayoutError error={failure.error} leftover={failure.leftover} />}
          <Text size="sm" c="dimmed">
            Before sending you confirm your password: your panel session alone cannot send money.
            The payout is billed and logged on the API key you choose.
          </Text>
          {keys.isSuccess && active.length === 0 ? (
            <Alert color="yellow" variant="light">You have no active API key. <Anchor component={Link} to="/api-keys">Create one</Anchor> first.</Alert>
          ) : (
            <Group grow align="flex-start" wrap="wrap" gap="sm">
              <Select
                label="API key" required miw={200} searchable
                placeholder={keys.isPending ? 'Loading keys…' : 'Choose a key'}
                data={active.map((k) => ({ value: String(k.id), label: `${k.name} · ${k.key}` }))}
                {...form.getInputProps('key')}
                error={form.getInputProps('key').error ?? optionsError(keys, 'your keys')}
                onDropdownOpen={() => { if (keys.isError) void keys.refetch(); }}
              />
            </Group>
          )}
          <Divider label="Beneficiary" labelPosition="left" />
          <Select label="Pay to" allowDeselect={false} data-testid="beneficiary-picker"
            data={[{ value: NEW, label: 'A new beneficiary: enter the details' }, ...savedList.map((b) => ({ value: String(b.id), label: savedLabel(b) }))]}
            {...form.getInputProps('saved')}
            onChange={(id) => {
              const t = id && id !== NEW ? savedOf(id)?.type : type;
              form.setFieldValue('saved', id ?? NEW);
              if (t) form.setFieldValue('mode', MODES[t][0]!);
            }} />
          {v.saved !== NEW ? (
            <Group justify="space-between" wrap="nowrap" gap="sm">
              <Text size="sm" c="dimmed" data-testid="saved-beneficiary">
                Verified {savedOf(v.saved)?.name_at_source ? `as “${savedOf(v.saved)!.name_at_source}”` : ''} on {savedOf(v.saved)?.verified_at.slice(0, 10)}.
              </Text>
              <Button variant="subtle" color="red" size="xs" loading={forget.isPending}
                onClick={() =>
                  forget.mutate(Number(v.saved)) // not money
                }>Remove from saved</Button>
            </Group>
          ) : (<>
          <SegmentedControl aria-label="Beneficiary type" value={type} onChange={(t) => setType(t as BeneficiaryType)}
            data={[{ value: 'bank_account', label: 'Bank account' }, { value: 'vpa', label: 'UPI address (VPA)' }]}
            style={{ alignSelf: 'flex-start' }} />
          {type === 'bank_account' ? (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label="Account number" required inputMode="numeric" autoComplete="off" {...form.getInputProps('beneficiary.account_number')} />
              <TextInput label="IFSC" required autoComplete="off" placeholder="HDFC0001234" {...form.getInputProps('beneficiary.ifsc')}
                onChange={(e) => form.setFieldValue('beneficiary.ifsc', e.currentTarget.value.toUpperCase())} />
              <TextInput label="Account holder’s name" required autoComplete="off" maxLength={100} {...form.getInputProps('beneficiary.name')} />
            </SimpleGrid>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              <TextInput label="VPA" required autoComplete="off" placeholder="name@bank" {...form.getInputProps('beneficiary.vpa')} />
              <TextInput label="Name" required autoComplete="off" maxLength={100} {...form.getInputProps('beneficiary.name')} />
            </SimpleGrid>
          )}
          {form.errors['beneficiary.type'] && <Text size="sm" c="red">{form.errors['beneficiary.type']}</Text>}
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Text size="xs" c="dimmed">Saving checks the account once by an account verification, charged like any verification.</Text>
            <Button variant="light" onClick={addBeneficiary} loading={save.isPending}>Add beneficiary</Button>
          </Group>
          </>)}
          <Divider label="Payout" labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Amount (₹)" required inputMode="decimal" autoComplete="off" placeholder="500.00"
              description={`${formatINR(MIN)} to ${formatINR(MAX)}`} {...form.getInputProps('amount')} />
            <Select label="Mode" required data={MODES[v.saved !== NEW ? (savedOf(v.saved)?.type ?? type) : type]} allowDeselect={false} {...form.getInputProps('mode')} />
            <TextInput label="Narration" autoComplete="off" description="On the beneficiary’s statement, at most 30 characters"
              {...form.getInputProps('narration')} />
            <TextInput label="Reference id" required autoComplete="off"
              description="Yours, unique: sending the same reference again answers the first payout" {...form.getInputProps('reference_id')} />
          </SimpleGrid>
          <Quote amount={v.amount} />
          {confirming ? (
            <Paper withBorder radius="md" p="sm" data-testid="payout-confirm" role="group" aria-label="Confirm the payout">
              <Text size="sm" fw={600} mb={4}>Send <Money value={payoutBody(confirming).amount} fw={700} /> to {confirming.saved !== NEW ? savedOf(confirming.saved)?.name : confirming.beneficiary.name.trim()}?</Text>
              <Text size="sm">
                {confirming.saved !== NEW ? savedLabel(savedOf(confirming.saved)!) : confirming.beneficiary.type === 'vpa' ? confirming.beneficiary.vpa.trim() : `${confirming.beneficiary.account_number.trim()} · ${confirming.beneficiary.ifsc.trim().toUpperCase()}`}
                {' '}by {confirming.mode}, reference <Text span ff="monospace" size="sm">{confirming.reference_id.trim()}</Text>. Money sent cannot be called back.
              </Text>
              <Group justify="flex-end" mt="sm">
                <Button variant="default" onClick={() => setConfirming(null)} disabled={send.isPending}>Back</Button>
                <Button color="red" loading={send.isPending || authorize.isPending} data-autofocus
                  onClick={() => sendConfirmed(confirming)}>Send payout</Button>
              </Group>
            </Paper>
          ) : (
            <Group justify="flex-end">
              <Button type="submit">Review payout</Button>
            </Group>
          )}
        </Stack>
      </form>
      <Modal opened={asking} onClose={() => { setAsking(false); setPassword(''); authorize.reset(); }} title="Confirm your password" centered>
          <form noValidate aria-label="Confirm your password" onSubmit={(e) => { e.preventDefault(); e.stopPropagation(); if (password) authorize.mutate(password); }}>
            <Stack gap="sm">
              <Text size="sm">Sending money or saving a beneficiary needs your password again. It lets this tab do so for 5 minutes.</Text>
              <PasswordInput label="Password" required autoComplete="current-password" data-autofocus value={password}
                onChange={(e) => setPassword(e.currentTarget.value)} error={passwordError} />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => { setAsking(false); setPassword(''); authorize.reset(); }}>Cancel</Button>
                <Button type="submit" color="red" loading={authorize.isPending || send.isPending} disabled={!password}>Confirm</Button>
              </Group>
            </Stack>
          </form>
        </Modal>
    </>
  );
}
