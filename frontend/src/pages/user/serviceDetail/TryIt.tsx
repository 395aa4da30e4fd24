// The try-it console: a form generated from the service's request_params,
// a key chosen from the caller's keys with its secret (pasted; prefilled
// when the key was created or rotated in this tab), a call to the service's
// real endpoint (a built-in gateway service's with Authorization: Bearer
// <secret>), and what came back: status, charge, balance, request id and
// the body.
import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Divider, Group, Paper, PasswordInput, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm, type GetInputPropsReturnType } from '@mantine/form';
import { Link } from 'react-router';
import { optionsError } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { Money } from '../../../components/Money';
import { useAllKeys } from '../../../features/keys/api';
import { useCallService, type CallResult } from '../../../features/services/api';
import { JsonBlock } from '../common/JsonBlock';
import { recentSecret } from '../common/recentSecrets';
import { buildCall, checkAll, curlFor, type Field, type Method } from './paramForm';

function FieldInput({ f, props }: { f: Field; props: GetInputPropsReturnType }) {
  const label = f.name;
  const description = [f.description, f.type !== 'string' ? f.type : null, f.maxLength ? `at most ${f.maxLength} characters` : null]
    .filter(Boolean).join(' · ') || undefined;
  const common = { label, description, required: f.required, 'data-param': f.name };
  if (f.choices) return <Select {...common} {...props} data={f.choices} clearable={!f.required} allowDeselect={!f.required} />;
  switch (f.type) {
    case 'boolean':
      return <Select {...common} {...props} data={['true', 'false']} clearable={!f.required} />;
    case 'date':
      return <TextInput {...common} {...props} type="date" placeholder="YYYY-MM-DD" />;
    case 'integer':
    case 'number':
      return <TextInput {...common} {...props} inputMode={f.type === 'integer' ? 'numeric' : 'decimal'} autoComplete="off" />;
    default:
      return f.maxLength && f.maxLength > 120
        ? <Textarea {...common} {...props} autosize minRows={2} maxRows={6} />
        : <TextInput {...common} {...props} autoComplete="off" placeholder={f.pattern ? `matches ${f.pattern}` : undefined} />;
  }
}

/** What one call costs the caller, from the service's `price` (null: not sold to them; absent: not known here). */
function CallCost({ price }: { price: string | null | undefined }) {
  if (price === undefined) return null;
  if (price === null) {
    return <Text size="sm" c="orange" data-testid="try-it-cost">This service has no price for you yet: a call answers 404 until an admin prices it.</Text>;
  }
  return (
    <Text size="sm" data-testid="try-it-cost">
      This call costs <Money value={price} fw={600} />, taken from your balance when it succeeds.
    </Text>
  );
}

export function TryIt({ service, fields }: {
  service: Pick<Schemas['Service'], 'name' | 'endpoint' | 'method' | 'slug'> & { builtin?: boolean; price?: string | null };
  fields: Field[];
}) {
  const gateway = service.builtin === true;
  const keys = useAllKeys();
  const active = (keys.data?.data ?? []).filter((k) => k.status === 'active');
  const method = service.method as Method;
  // The values sit in an array by field (params.0, params.1, …): a parameter's name may hold dots
  // (beneficiary.account_number), which a form path would read as nesting.
  const initial = useMemo(() => fields.map(() => ''), [fields]);
  const slot = (name: string) => fields.findIndex((f) => f.name === name);
  const byName = (params: string[]) => Object.fromEntries(fields.map((f, i) => [f.name, params[i] ?? '']));
  const form = useForm<{ key: string; secret: string; params: string[] }>({
    initialValues: { key: '', secret: '', params: initial },
    validate: (v) => {
      const errs: Record<string, string> = {};
      if (!v.key) errs.key = 'Choose a key';
      if (!v.secret.trim()) errs.secret = 'Paste the key’s secret';
      for (const [name, msg] of Object.entries(checkAll(fields, byName(v.params)))) errs[`params.${slot(name)}`] = msg;
      return errs;
    },
  });
  const [result, setResult] = useState<CallResult | null>(null);
  // A call moves money and counters: the hook refreshes what shows them.
  const run = useCallService({
    onSuccess: (r) => {
      setResult(r);
      const b = r.body as { errors?: Record<string, string[]> } | null;
      if (r.status === 422 && b?.errors) {
        // Keyed by the parameter's name, dotted for a nested member (beneficiary.account_number).
        for (const [name, msgs] of Object.entries(b.errors)) if (slot(name) >= 0) form.setFieldError(`params.${slot(name)}`, msgs.join(' '));
      }
    },
  });
  const values = form.getValues();
  const preview = buildCall(method, fields, byName(values.params));
  const envelope = result?.ok ? (result.body as Schemas['CallEnvelope']) : null;
  const error = result && !result.ok ? (result.body as { message?: string; error?: string } | null) : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="try-it-title">
      <Title order={2} size="h3" id="try-it-title" mb="xs">Try it</Title>
      <Text size="sm" c="dimmed" mb="sm">
        A real call to <Text span ff="monospace" size="sm">{method} {service.endpoint}</Text>: it is billed and shows in your hit logs.
      </Text>
      <form noValidate onSubmit={form.onSubmit((v) => run.mutate({ endpoint: service.endpoint, method, call: buildCall(method, fields, byName(v.params)), key: v.key, secret: v.secret.trim(), gateway }))} data-testid="try-it-form">
        <Stack gap="sm">
          {keys.isSuccess && active.length === 0 ? (
            <Alert color="yellow" variant="light">You have no active API key. <Anchor component={Link} to="/api-keys">Create one</Anchor> first.</Alert>
          ) : (
            <Group grow align="flex-start" wrap="wrap" gap="sm">
              <Select
                label="API key"
                required
                placeholder={keys.isPending ? 'Loading keys…' : 'Choose a key'}
                data={active.map((k) => ({ value: k.key, label: `${k.name} · ${k.key}` }))}
                searchable
                miw={220}
                {...form.getInputProps('key')}
                error={form.getInputProps('key').error ?? optionsError(keys, 'your keys')}
                onDropdownOpen={() => { if (keys.isError) void keys.refetch(); }}
                onChange={(v) => {
                  form.setFieldValue('key', v ?? '');
                  const s = v ? recentSecret(v) : undefined;
                  if (s) form.setFieldValue('secret', s);
                }}
              />
              <PasswordInput label="Secret" required miw={220} autoComplete="off"
                description="Shown once when the key was created; paste it" {...form.getInputProps('secret')} />
            </Group>
          )}
          <Divider label="Parameters" labelPosition="left" />
          {fields.length === 0 && <Text size="sm" c="dimmed">This service takes no parameters.</Text>}
          {fields.map((f, i) => (
            <FieldInput key={f.name} f={f} props={form.getInputProps(`params.${i}`)} />
          ))}
          <CallCost price={service.price} />
          <Group justify="space-between" wrap="wrap">
            <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="try-it-preview">
              {method} {service.endpoint}{preview.query}{preview.body ? ` ${preview.body}` : ''}
            </Text>
            <Button type="submit" loading={run.isPending}>Send request</Button>
          </Group>
        </Stack>
      </form>
      {run.isError && <Alert color="red" mt="md" role="alert">{run.error.message}</Alert>}
      {result && (
        <Stack gap="xs" mt="md" data-testid="try-it-result" aria-live="polite">
          <Divider label="Response" labelPosition="left" />
          <Group gap="sm" wrap="wrap">
            <Badge color={result.ok ? 'teal' : result.status >= 500 ? 'red' : 'orange'} size="lg" data-testid="try-it-status">{result.status}</Badge>
            <Text size="sm">{result.ms} ms</Text>
            {envelope && (
              <>
                <Text size="sm">Charged <Money value={envelope.charged} fw={600} data-testid="try-it-charged" /></Text>
                <Text size="sm">Balance left <Money value={envelope.balance_left} fw={600} data-testid="try-it-balance" /></Text>
              </>
            )}
            {error?.message && <Text size="sm" c="red">{error.message}{error.error ? ` (${error.error})` : ''}</Text>}
            {result.rateLimit && (
              <Text size="sm" data-testid="try-it-ratelimit">
                {result.rateLimit.remaining.toLocaleString('en-IN')} of {result.rateLimit.limit.toLocaleString('en-IN')} calls left today on this key
              </Text>
            )}
          </Group>
          {result.status === 402 && (
            <Alert color="orange" data-testid="try-it-add-balance">
              Your balance does not cover this call. <Anchor component={Link} to="/balance-requests" fw={600}>Add balance</Anchor>, then send it again.
            </Alert>
          )}
          {result.requestId && <Text size="xs" c="dimmed">Request id <Text span ff="monospace" size="xs">{result.requestId}</Text></Text>}
          <JsonBlock value={result.body} label="Response body" maxHeight={360} />
        </Stack>
      )}
      <details style={{ marginTop: 12 }}>
        <summary><Text span size="sm">The same call with curl</Text></summary>
        <JsonBlock value={curlFor(globalThis.location?.origin ?? '', service.endpoint, method, preview, values.key || undefined, gateway)} label="curl command" />
      </details>
    </Paper>
  );
}
