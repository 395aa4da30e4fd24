import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  Anchor, Badge, Button, Checkbox, Group, NativeSelect, Paper, PasswordInput, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { FormError } from '../../../components/States';
import { SaveServiceError, serviceEndpoint, useSaveService, type SaveStep } from '../../../features/services/api';
import { amountError } from '../shared/money';
import { ErrorCodesEditor, HeadersEditor, ParamsEditor } from './Editors';
import {
  METHODS, emptyValues, fieldFor, jsonObjectError, toDocBody, toServiceBody, type ServiceValues,
} from './model';

type Service = Schemas['Service'];

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** A service's SAC: 6 digits of chapter 99 (services), or empty for the supplier's default. */
const SAC = /^(99\d{4})?$/;

export function validate(v: ServiceValues, creating: boolean): FormErrors {
  const e: FormErrors = {};
  if (!v.name.trim()) e.name = 'Enter a name';
  if (!SLUG.test(v.slug.trim())) e.slug = 'Lowercase letters, digits and single hyphens, e.g. sms-gateway';
  if (!v.category.trim()) e.category = 'Enter a category, e.g. messaging';
  if (!v.provider_url.trim()) e.provider_url = 'Enter the upstream URL';
  if (!SAC.test(v.sac_code.trim())) e.sac_code = 'A SAC code of services: 6 digits starting with 99, or empty for the default';
  const headerNames = new Set<string>();
  v.headers.forEach((h, i) => {
    const k = h.key.trim().toLowerCase();
    if (!k && h.value) e[`headers.${i}.key`] = 'Name the header';
    else if (k && headerNames.has(k)) e[`headers.${i}.key`] = 'This header is listed twice';
    headerNames.add(k);
  });
  const paramNames = new Set<string>();
  v.params.forEach((p, i) => {
    const n = p.name.trim();
    if (!n) e[`params.${i}.name`] = 'Name the parameter';
    else if (/\s/.test(n)) e[`params.${i}.name`] = 'No spaces in a parameter name';
    else if (paramNames.has(n)) e[`params.${i}.name`] = 'This parameter is listed twice';
    paramNames.add(n);
    if (p.max_length.trim() && !/^[1-9]\d{0,8}$/.test(p.max_length.trim())) e[`params.${i}.max_length`] = 'A whole number of at least 1';
  });
  if (!v.doc_description.trim()) e.doc_description = 'Describe what a call does (shown in the catalog)';
  const je = jsonObjectError(v.response_example);
  if (je) e.response_example = je;
  if (v.sort_order.trim() && !/^-?\d{1,9}$/.test(v.sort_order.trim())) e.sort_order = 'A whole number';
  v.error_codes.forEach((c, i) => {
    if (!c.code.trim() && c.meaning.trim()) e[`error_codes.${i}.code`] = 'Enter the code';
  });
  if (creating) {
    for (const k of ['admin_cost', 'reseller_price', 'user_price'] as const) {
      const m = amountError(v.price[k], 4);
      if (m) e[`price.${k}`] = m;
    }
    const m = amountError(v.price.minimum_hit_charge, 2, { optional: true });
    if (m) e['price.minimum_hit_charge'] = m;
  }
  return e;
}

function Section({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md" component="section">
      <Stack gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4">{title}</Title>
          {description && <Text size="sm" c="dimmed">{description}</Text>}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * Creates or edits a service and its documentation record (and, when
 * creating, its default price). Saving is up to three calls; a field error
 * of any of them is shown next to its field, and a service already created
 * is edited (not created again) on the next try.
 */
export function ServiceForm({ service, initial }: { service?: Service; initial?: ServiceValues }) {
  const navigate = useNavigate();
  const creating = !service;
  const createdId = useRef<number | null>(null);
  const [priced, setPriced] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ServiceValues>({
    initialValues: initial ?? emptyValues(),
    validate: (v) => validate(v, creating),
  });

  const save = useSaveService({
    onCreated: (s) => { createdId.current = s.id; },
    onSuccess: ({ saved }, v) => {
      if (v.price) setPriced(true);
      notifications.show({ color: 'teal', message: creating ? `${saved.name} created.` : `${saved.name} saved.` });
      form.setFieldValue('provider_key', '');
      form.setFieldValue('clear_provider_key', false);
      if (creating) navigate(`/admin/services/${saved.id}`, { replace: true });
    },
    onError: (e) => {
      const { step, inner: cause } = e instanceof SaveServiceError ? e : { step: 'service' as SaveStep, inner: e };
      const values = form.getValues();
      const leftover: string[] = [];
      if (cause instanceof ApiError) {
        for (const [field, msgs] of Object.entries(cause.fieldErrors)) {
          const path = fieldFor(values, step, field, msgs.join(' '));
          if (path) form.setFieldError(path, msgs.join(' '));
          else leftover.push(`${field}: ${msgs.join(' ')}`);
        }
      }
      const base = cause instanceof ApiError && Object.keys(cause.fieldErrors).length > 0 && leftover.length === 0
        ? null
        : leftover.length ? `${errorMessage(cause)}: ${leftover.join('; ')}` : errorMessage(cause);
      const prefix = step === 'docs' ? 'The service was saved, but not its documentation. '
        : step === 'price' ? 'The service and its documentation were saved, but not its price. ' : '';
      setFormError(base ? prefix + base : prefix ? `${prefix}Check the fields marked below.` : null);
    },
  });

  const submit = (v: ServiceValues) => {
    const id = service?.id ?? createdId.current;
    save.mutate({
      id,
      service: id === null ? toServiceBody(v) : toServiceBody(v, { builtin: service?.builtin, editing: true }),
      docs: toDocBody(v),
      price: creating && !priced ? {
        admin_cost: v.price.admin_cost.trim(), reseller_price: v.price.reseller_price.trim(),
        user_price: v.price.user_price.trim(), minimum_hit_charge: v.price.minimum_hit_charge.trim() || '0',
        status: 'active',
      } : undefined,
    });
  };

  const hasKey = service?.has_provider_key ?? false;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit(
        (v) => { setFormError(null); submit(v); },
        () => setFormError('Check the fields marked below.'),
      )}
    >
      <Stack gap="md">
        <FormError message={formError} />
        <Section title="Service">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Name" required placeholder="SMS Gateway API" {...form.getInputProps('name')} />
            <TextInput label="Slug" required placeholder="sms-gateway-api" disabled={service?.builtin}
              description={<>Calls go to <code>{serviceEndpoint(form.values.slug || '<slug>')}</code></>} {...form.getInputProps('slug')} />
            <TextInput label="Category" required placeholder="messaging" {...form.getInputProps('category')} />
            <NativeSelect label="Method" data={METHODS} disabled={service?.builtin} {...form.getInputProps('method')} />
          </SimpleGrid>
          <Textarea label="Description" autosize minRows={2} placeholder="What the service does" {...form.getInputProps('description')} />
          <Switch label="Active" description="Inactive services are hidden from users and refuse calls"
            {...form.getInputProps('active', { type: 'checkbox' })} />
        </Section>

        <Section title="Invoicing" description="The SAC code printed on this service's invoice lines (GST tax invoices and credit notes).">
          <TextInput label="SAC code" maxLength={6} inputMode="numeric" autoComplete="off" placeholder="Supplier's default"
            description={<>Empty: the default SAC of the <Anchor component={Link} to="/admin/billing-settings" size="xs">billing settings</Anchor>. Fees for moving money (payments, payouts, recharges) are 997158, financial transaction processing.</>}
            {...form.getInputProps('sac_code')} />
        </Section>

        <Section title="Upstream" description="Where calls are forwarded. Header values may use {provider_key}, replaced by the key below.">
          <TextInput label="Provider URL" required placeholder="https://provider.example.com/v1/sms" {...form.getInputProps('provider_url')} />
          <Stack gap={4}>
            <Group gap="xs">
              <Text size="sm" fw={500}>Provider key</Text>
              <Badge variant="light" color={hasKey ? 'teal' : 'gray'} data-testid="provider-key-state">{hasKey ? 'set' : 'not set'}</Badge>
            </Group>
            <PasswordInput
              aria-label="Provider key"
              autoComplete="new-password"
              placeholder={hasKey ? 'Type a new key to replace the stored one' : 'Optional upstream credential'}
              description="Write-only: the stored key is never shown again."
              disabled={form.values.clear_provider_key}
              {...form.getInputProps('provider_key')}
            />
            {hasKey && (
              <Checkbox label="Clear the stored key" {...form.getInputProps('clear_provider_key', { type: 'checkbox' })} />
            )}
          </Stack>
          <Text size="sm" fw={500}>Headers</Text>
          <HeadersEditor form={form} />
        </Section>

        <Section title="Request parameters" description="What a call may send. Calls are validated against these; the try-it console builds its form from them.">
          <ParamsEditor form={form} />
        </Section>

        <Section title="Documentation" description="Shown in the service catalog.">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Endpoint" placeholder={serviceEndpoint(form.values.slug || '<slug>')} {...form.getInputProps('endpoint')} />
            <TextInput label="Sort order" inputMode="numeric" {...form.getInputProps('sort_order')} />
          </SimpleGrid>
          <Textarea label="What a call does" required autosize minRows={2} {...form.getInputProps('doc_description')} />
          <Textarea label="Response example (JSON)" autosize minRows={4} maxRows={16} spellCheck={false} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            {...form.getInputProps('response_example')} />
          <Text size="sm" fw={500}>Error codes</Text>
          <ErrorCodesEditor form={form} />
        </Section>

        {creating && (
          <Section title="Default price" description="What every call costs unless a user has their own price (₹, up to 4 decimals).">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
              <TextInput label="Admin cost" required inputMode="decimal" placeholder="0.2000" {...form.getInputProps('price.admin_cost')} />
              <TextInput label="Reseller price" required inputMode="decimal" placeholder="0.4000" {...form.getInputProps('price.reseller_price')} />
              <TextInput label="User price" required inputMode="decimal" placeholder="0.5000" {...form.getInputProps('price.user_price')} />
              <TextInput label="Minimum charge" inputMode="decimal" placeholder="0.00" {...form.getInputProps('price.minimum_hit_charge')} />
            </SimpleGrid>
          </Section>
        )}

        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{creating ? 'Create service' : 'Save service'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
