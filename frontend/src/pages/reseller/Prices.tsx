// A reseller's selling prices (issue 34): each active service with the
// reseller's own cost, the selling price it set (edited in a dialog, or
// removed), the price its customers pay now, the margin and where that price
// comes from; and the default markup for services without a price. A price
// below the reseller's cost is refused (422 below_cost) beside the field.
// Before saving a markup or a price, the reseller sees what its customers
// would pay beside the list price and its own cost, and is warned when they
// would pay less than the list price (issue 44): the figures are the
// server's preview, computed by the function that charges the calls.
import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Menu, Modal, Paper, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconDotsVertical } from '@tabler/icons-react';
import { errorMessage } from '../../api/errors';
import { DataTable, type Column } from '../../components/DataTable';
import { Money } from '../../components/Money';
import { PageHeader } from '../../components/PageHeader';
import { FormError } from '../../components/States';
import {
  useClearCustomerPrice, useCustomerPricePreview, useCustomerPrices, useSetCustomerPrice, useSetMarkup, type PricePreview,
} from '../../features/customerPrices/api';
import type { CustomerPrice } from '../../features/customers/types';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import { formatINR } from '../../lib/money';

const SOURCE: Record<CustomerPrice['source'], { label: string; color: string }> = {
  price: { label: 'your price', color: 'teal' },
  markup: { label: 'markup', color: 'blue' },
  list: { label: 'list price', color: 'gray' },
};

const PRICE = /^\d{1,6}(\.\d{1,4})?$/;
const MARKUP = /^\d{1,4}(\.\d{1,2})?$/;

/** Marks a customer price below the list price. */
function BelowList() {
  return <Badge variant="light" color="orange" style={{ whiteSpace: 'nowrap' }} data-testid="below-list">below list price</Badge>;
}

const servicesWord = (n: number) => (n === 1 ? '1 service' : `${n} services`);

/** The preview's rows: own cost, list price, what customers pay now and would pay. */
function PreviewTable({ rows, caption }: { rows: PricePreview[]; caption: string }) {
  const columns: Column<PricePreview>[] = [
    { key: 'service', header: 'Service', render: (r) => <Text size="sm" fw={500}>{r.service_name}</Text> },
    { key: 'cost', header: 'Your cost', align: 'right', render: (r) => <Money value={r.cost} /> },
    { key: 'list', header: 'List price', align: 'right', render: (r) => <Money value={r.list_price} data-testid="preview-list" /> },
    { key: 'current', header: 'Customers pay now', align: 'right', hiddenOnMobile: true, render: (r) => <Money value={r.current_price} /> },
    {
      key: 'next', header: 'Customers would pay', align: 'right',
      render: (r) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {r.below_list && <BelowList />}
          <Money value={r.customer_price} fw={600} data-testid="preview-price" />
        </Group>
      ),
    },
  ];
  return (
    <DataTable caption={caption} columns={columns} rowKey={(r) => r.service_id} rows={rows} total={rows.length}
      page={1} perPage={Math.max(rows.length, 1)} onPageChange={() => {}} emptyTitle="No service uses the markup" />
  );
}

function PriceForm({ row, onDone }: { row: CustomerPrice; onDone: () => void }) {
  const form = useForm({
    initialValues: { price: row.price ?? row.effective_price },
    validate: { price: (v) => (PRICE.test(v.trim()) ? null : 'A price in rupees, up to 4 decimals') },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const [typed] = useDebouncedValue(form.values.price.trim(), 300);
  const preview = useCustomerPricePreview(PRICE.test(typed) ? { service_id: row.service_id, price: typed } : null);
  const next = preview.isError ? undefined : preview.data?.data.find((r) => r.service_id === row.service_id);
  const save = useSetCustomerPrice({
    onSuccess: (r) => { notifications.show({ color: 'teal', message: `${r.service_name}: your customers pay ${formatINR(r.effective_price)} a call.` }); onDone(); },
    onError: onApiError,
  });
  return (
    <form noValidate aria-label={`Selling price of ${row.service_name}`} onSubmit={form.onSubmit((v) => { clearFormError(); save.mutate({ serviceId: row.service_id, price: v.price.trim() }); })}>
      <Stack gap="sm">
        <Text size="sm">Your own cost: <Money value={row.cost} fw={600} />. Your customers pay this price a call (at least the service's minimum charge).</Text>
        <FormError message={formError} />
        <TextInput label="Selling price (₹ a call)" inputMode="decimal" required data-autofocus {...form.getInputProps('price')} />
        {next && (
          <Stack gap={6} data-testid="price-preview">
            <Text size="sm">
              List price <Money value={next.list_price} fw={600} />. At this price your customers would pay <Money value={next.customer_price} fw={600} /> a
              call (now <Money value={next.current_price} />).
            </Text>
            {next.below_list && (
              <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Below the list price">
                Your customers would pay less than the list price of <Money value={next.list_price} />.
              </Alert>
            )}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button type="submit" loading={save.isPending}>Save price</Button>
        </Group>
      </Stack>
    </form>
  );
}

function MarkupForm({ current }: { current: string | null }) {
  const form = useForm({
    initialValues: { default_markup: current ?? '' },
    validate: { default_markup: (v) => (v.trim() === '' || MARKUP.test(v.trim()) ? null : 'A percentage, up to 2 decimals, or empty for none') },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const [typed] = useDebouncedValue(form.values.default_markup.trim(), 300);
  const changed = MARKUP.test(typed) && typed !== (current ?? '');
  const preview = useCustomerPricePreview(changed ? { markup: typed } : null);
  const affected = preview.data?.data.filter((r) => r.source === 'markup') ?? [];
  const below = preview.data?.meta.below_list ?? 0;
  const save = useSetMarkup({
    onSuccess: (r) => notifications.show({ color: 'teal', message: r.default_markup === null ? 'No default markup: services without your price sell at the list price.' : `Default markup: ${r.default_markup}%.` }),
    onError: onApiError,
  });
  return (
    <Paper withBorder p="md" radius="md" mb="md">
      <form noValidate aria-label="Default markup" onSubmit={form.onSubmit((v) => { clearFormError(); save.mutate(v.default_markup.trim() === '' ? null : v.default_markup.trim()); })}>
        <Title order={2} size="h4">Default markup</Title>
        <Text size="sm" c="dimmed" mb="xs">For services without a selling price: your cost plus this percentage. Empty: the service's list price.</Text>
        <FormError message={formError} />
        <Group align="flex-start" gap="xs">
          <TextInput label="Markup (%)" inputMode="decimal" placeholder="none" w={160} {...form.getInputProps('default_markup')} />
          <Button type="submit" mt={25} loading={save.isPending}>Save markup</Button>
        </Group>
      </form>
      {changed && preview.data && !preview.isError && (
        <Stack gap="xs" mt="md" data-testid="markup-preview">
          <Title order={3} size="h5">Before you save: {typed}% over your cost</Title>
          {below > 0 ? (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="Below the list price">
              With this markup your customers would pay less than the list price for {servicesWord(below)}.
            </Alert>
          ) : (
            <Text size="sm" c="dimmed">No customer would pay less than the list price.</Text>
          )}
          <PreviewTable rows={affected} caption="Customer prices with this markup" />
        </Stack>
      )}
    </Paper>
  );
}

export default function Prices() {
  const q = useCustomerPrices();
  const [editing, setEditing] = useState<CustomerPrice | null>(null);
  const clear = useClearCustomerPrice({
    onSuccess: () => notifications.show({ color: 'teal', message: 'Selling price removed.' }),
    onError: (err) => notifications.show({ color: 'red', title: 'Could not remove the price', message: errorMessage(err) }),
  });
  const columns: Column<CustomerPrice>[] = [
    { key: 'service', header: 'Service', render: (r) => <Stack gap={0}><Text size="sm" fw={500}>{r.service_name}</Text><Text size="xs" c="dimmed">{r.slug}</Text></Stack> },
    { key: 'cost', header: 'Your cost', align: 'right', render: (r) => <Money value={r.cost} /> },
    { key: 'price', header: 'Selling price', align: 'right', hiddenOnMobile: true, render: (r) => (r.price === null ? <Text size="sm" c="dimmed">not set</Text> : <Money value={r.price} />) },
    { key: 'list', header: 'List price', align: 'right', hiddenOnMobile: true, render: (r) => <Money value={r.list_price} data-testid="list-price" /> },
    {
      key: 'effective', header: 'Customers pay', align: 'right',
      render: (r) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          {r.below_list && <BelowList />}
          <Money value={r.effective_price} fw={600} data-testid="effective-price" />
        </Group>
      ),
    },
    { key: 'margin', header: 'Margin', align: 'right', render: (r) => <Money value={r.margin} data-testid="margin" /> },
    { key: 'source', header: 'From', hiddenOnMobile: true, render: (r) => <Badge variant="light" color={SOURCE[r.source].color} style={{ whiteSpace: 'nowrap' }}>{SOURCE[r.source].label}</Badge> },
    {
      key: 'actions', header: <VisuallyHidden>Actions</VisuallyHidden>, align: 'right', pinRight: true,
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" variant="light" onClick={() => setEditing(r)} aria-label={`Set the price of ${r.service_name}`}>Set price</Button>
          {r.price !== null && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`More for ${r.service_name}`}><IconDotsVertical size={16} aria-hidden /></ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item color="red" onClick={() => clear.mutate(r.service_id)}>Remove my price</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      ),
    },
  ];
  const rows = q.data?.data;
  return (
    <>
      <PageHeader title="Prices" description="What your customers pay for each service, and what you earn on each call." />
      {q.data && <MarkupForm key={q.data.meta.default_markup ?? ''} current={q.data.meta.default_markup} />}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing ? `Price of ${editing.service_name}` : ''}>
        {editing && <PriceForm row={editing} onDone={() => setEditing(null)} />}
      </Modal>
      <DataTable caption="Selling prices" columns={columns} rowKey={(r) => r.service_id} rows={rows} total={rows?.length}
        page={1} perPage={Math.max(rows?.length ?? 0, 1)} onPageChange={() => {}}
        isLoading={q.isFetching} error={q.error} onRetry={() => void q.refetch()} emptyTitle="No services yet" />
    </>
  );
}
