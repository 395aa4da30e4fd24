// Create or edit one pricing row: the service's default row (user_id null)
// or a user's own row (a per-user override).
import { Button, Group, Modal, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { Schemas } from '../../../api/types';
import { FormError } from '../../../components/States';
import { useSavePrice } from '../../../features/services/api';
import { useApiFormErrors } from '../../../forms/useApiFormErrors';
import { amountError } from './money';
import { UserPicker } from './UserPicker';

type Price = Schemas['Price'];

export interface PriceTarget {
  serviceId: number;
  /** Editing this row; absent to create one. */
  row?: Price;
  /** Creating: the row is for this user (fixed), null for the default row, undefined to pick a user. */
  userId?: number | null;
  /** Shown in the title, e.g. the service or user name. */
  label?: string;
}

interface Values {
  user_id: string;
  admin_cost: string;
  reseller_price: string;
  user_price: string;
  minimum_hit_charge: string;
  active: boolean;
}

export function PriceModal({ target, onClose }: { target: PriceTarget | null; onClose: () => void }) {
  return (
    <Modal opened={!!target} onClose={onClose} title={title(target)} size="lg">
      {target && <PriceForm target={target} onDone={onClose} />}
    </Modal>
  );
}

function title(t: PriceTarget | null): string {
  if (!t) return '';
  const who = t.row ? (t.row.user_id === null ? 'default price' : 'user price') : t.userId === null ? 'default price' : 'user price';
  return `${t.row ? 'Edit' : 'Add'} ${who}${t.label ? ` · ${t.label}` : ''}`;
}

function PriceForm({ target, onDone }: { target: PriceTarget; onDone: () => void }) {
  const row = target.row;
  const pickUser = !row && target.userId === undefined;
  const form = useForm<Values>({
    initialValues: {
      user_id: '',
      admin_cost: row?.admin_cost ?? '',
      reseller_price: row?.reseller_price ?? '',
      user_price: row?.user_price ?? '',
      minimum_hit_charge: row?.minimum_hit_charge ?? '0.00',
      active: (row?.status ?? 'active') === 'active',
    },
    validate: {
      user_id: (v) => (pickUser && !v ? 'Choose the user this price is for' : null),
      admin_cost: (v) => amountError(v, 4),
      reseller_price: (v) => amountError(v, 4),
      user_price: (v) => amountError(v, 4),
      minimum_hit_charge: (v) => amountError(v, 2, { optional: true }),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useSavePrice(target.serviceId, {
    onSuccess: () => {
      notifications.show({ color: 'teal', message: row ? 'Price saved.' : 'Price added.' });
      onDone();
    },
    onError: onApiError,
  });
  const submit = (v: Values) => {
    const amounts = {
      admin_cost: v.admin_cost.trim(),
      reseller_price: v.reseller_price.trim(),
      user_price: v.user_price.trim(),
      minimum_hit_charge: v.minimum_hit_charge.trim() || '0',
      status: v.active ? ('active' as const) : ('inactive' as const),
    };
    if (row) save.mutate({ row, body: amounts });
    else save.mutate({ body: { ...amounts, user_id: pickUser ? parseIdValue(v.user_id) : (target.userId ?? null) } });
  };

  return (
    <form noValidate onSubmit={form.onSubmit((v) => { clearFormError(); submit(v); })}>
      <Stack gap="sm">
        <FormError message={formError} />
        {pickUser && (
          <UserPicker label="User" required description="This user pays these prices instead of the default row"
            key={form.key('user_id')} {...form.getInputProps('user_id')} comboboxProps={{ withinPortal: true }} />
        )}
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <TextInput label="Admin cost" description="Upstream cost per call" required inputMode="decimal" placeholder="0.2000"
            {...form.getInputProps('admin_cost')} />
          <TextInput label="Reseller price" description="Per call, resellers" required inputMode="decimal" placeholder="0.4000"
            {...form.getInputProps('reseller_price')} />
          <TextInput label="User price" description="Per call, users" required inputMode="decimal" placeholder="0.5000"
            {...form.getInputProps('user_price')} />
        </SimpleGrid>
        <TextInput label="Minimum charge per call" description="At most 2 decimals" inputMode="decimal" placeholder="0.00"
          {...form.getInputProps('minimum_hit_charge')} />
        <Switch label="Active" description="An inactive row is not used to bill calls" {...form.getInputProps('active', { type: 'checkbox' })} />
        <Text size="xs" c="dimmed">Amounts in ₹, up to 4 decimals.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button type="submit" loading={save.isPending}>{row ? 'Save price' : 'Add price'}</Button>
        </Group>
      </Stack>
    </form>
  );
}

function parseIdValue(s: string): number {
  return parseInt(s, 10); // not money: a user id
}
