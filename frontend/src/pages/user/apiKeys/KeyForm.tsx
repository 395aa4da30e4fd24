// Create a key or edit its restrictions: name, allowed services, allowed
// addresses (IPs and CIDR ranges), daily limit. The API's field errors land
// next to the fields of the same name.
import { Button, Group, MultiSelect, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Schemas } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useCreateKey, useUpdateKey } from '../../../features/keys/api';
import { useAllServices } from '../../../features/services/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { parseId } from '../../../lib/ids';
import { optionsError } from '../../../api/errors';

type Key = Schemas['ApiKey'];
type KeyWithSecret = Schemas['ApiKeyWithSecret'];

interface Values {
  name: string;
  allowed_services: string[];
  allowed_ips: string;
  daily_limit: number | string;
}

const IP_OR_CIDR = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;

export function KeyForm({ existing, onCreated, onSaved, onCancel }: {
  existing?: Key;
  onCreated?: (k: KeyWithSecret) => void;
  onSaved?: (k: Key) => void;
  onCancel: () => void;
}) {
  const services = useAllServices();
  const form = useForm<Values>({
    initialValues: {
      name: existing?.name ?? '',
      allowed_services: (existing?.allowed_services ?? []).map(String),
      allowed_ips: existing?.allowed_ips ?? '',
      daily_limit: existing?.daily_limit ?? 1000,
    },
    validate: {
      name: (v) => (v.trim() ? (v.length > 255 ? 'Use at most 255 characters' : null) : 'Give the key a name'),
      allowed_ips: (v) => {
        const bad = v.split(',').map((s) => s.trim()).filter((s) => s && !IP_OR_CIDR.test(s));
        return bad.length ? `Not an address or CIDR range: ${bad.join(', ')}` : v.length > 500 ? 'Use at most 500 characters' : null;
      },
      daily_limit: (v) => (v === '' || (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 10_000_000) ? null : 'A whole number from 1 to 10,000,000'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const body = (v: Values) => ({
    name: v.name.trim(),
    allowed_services: v.allowed_services.map((s) => parseId(s)).filter((n): n is number => n !== null),
    allowed_ips: v.allowed_ips.split(',').map((s) => s.trim()).filter(Boolean).join(', '),
    ...(typeof v.daily_limit === 'number' ? { daily_limit: v.daily_limit } : {}),
  });
  const create = useCreateKey({ onSuccess: (k) => onCreated?.(k), onError: onApiError });
  const update = useUpdateKey({ onSuccess: (k) => onSaved?.(k), onError: onApiError });
  const save = (v: Values) => (existing ? update.mutate({ id: existing.id, body: body(v) }) : create.mutate(body(v)));

  const serviceOptions = (services.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  // Keep ids of services not in the first page selectable (shown by id).
  for (const id of form.getValues().allowed_services) if (!serviceOptions.some((o) => o.value === id)) serviceOptions.push({ value: id, label: `Service #${id}` });

  return (
    <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); save(v); })}>
      <Stack gap="sm">
        <FormError message={formError} />
        <TextInput label="Name" required data-autofocus placeholder="Production server" {...form.getInputProps('name')} />
        <MultiSelect label="Allowed services" description="Empty: every service" placeholder={form.getValues().allowed_services.length ? undefined : 'Every service'}
          data={serviceOptions} searchable clearable nothingFoundMessage="No such service" {...form.getInputProps('allowed_services')}
          error={form.getInputProps('allowed_services').error ?? optionsError(services, 'the services')}
          onDropdownOpen={() => { if (services.isError) void services.refetch(); }} />
        <Textarea label="Allowed IP addresses" description="Comma-separated addresses and CIDR ranges, e.g. 203.0.113.7, 10.0.0.0/8. Empty: any address"
          autosize minRows={2} {...form.getInputProps('allowed_ips')} />
        <NumberInput label="Daily limit" description="Calls per day" min={1} max={10_000_000} allowDecimal={false} allowNegative={false}
          thousandSeparator="," {...form.getInputProps('daily_limit')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>Cancel</Button>
          <Button type="submit" loading={(existing ? update : create).isPending}>{existing ? 'Save' : 'Create key'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
