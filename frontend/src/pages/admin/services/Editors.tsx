// The row editors of the service form: headers (key/value), request
// parameters (name, type, required, description, max length, pattern) and
// error codes. Each row's inputs are labelled with the row's number so a
// screen reader (and the e2e steps) can tell them apart.
import { ActionIcon, Button, Checkbox, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { PARAM_TYPES, emptyParam, type ServiceValues } from './model';

type Form = UseFormReturnType<ServiceValues>;

export function HeadersEditor({ form }: { form: Form }) {
  const rows = form.values.headers;
  return (
    <Stack gap="xs" data-testid="headers-editor">
      {rows.length === 0 && <Text size="sm" c="dimmed">No headers. The upstream gets the call's parameters only.</Text>}
      {rows.map((_, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="nowrap">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" style={{ flex: 1 }}>
            <TextInput aria-label={`Header ${i + 1} name`} placeholder="Authorization" {...form.getInputProps(`headers.${i}.key`)} />
            <TextInput aria-label={`Header ${i + 1} value`} placeholder="Bearer {provider_key}" {...form.getInputProps(`headers.${i}.value`)} />
          </SimpleGrid>
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove header ${i + 1}`} onClick={() => form.removeListItem('headers', i)}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => form.insertListItem('headers', { key: '', value: '' })}>
          Add header
        </Button>
      </Group>
    </Stack>
  );
}

export function ParamsEditor({ form }: { form: Form }) {
  const rows = form.values.params;
  return (
    <Stack gap="sm" data-testid="params-editor">
      {rows.length === 0 && <Text size="sm" c="dimmed">No parameters: calls send none (any other is refused).</Text>}
      {rows.map((row, i) => (
        <Paper key={i} withBorder p="sm" radius="md" data-testid={`param-row-${i}`}>
          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm" fw={500}>Parameter {i + 1}</Text>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove parameter ${i + 1}`} onClick={() => form.removeListItem('params', i)}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
              <TextInput label="Name" aria-label={`Parameter ${i + 1} name`} placeholder="phone" required {...form.getInputProps(`params.${i}.name`)} />
              <NativeSelect label="Type" aria-label={`Parameter ${i + 1} type`} data={PARAM_TYPES} {...form.getInputProps(`params.${i}.type`)} />
              <Checkbox mt={{ base: 0, xs: 30 }} label="Required" aria-label={`Parameter ${i + 1} required`}
                {...form.getInputProps(`params.${i}.required`, { type: 'checkbox' })} />
            </SimpleGrid>
            <TextInput label="Description" aria-label={`Parameter ${i + 1} description`} placeholder="10-digit mobile number"
              {...form.getInputProps(`params.${i}.description`)} />
            <Checkbox label="Sensitive: stored and shown masked (all but the last 4 characters as X), sent upstream in full"
              aria-label={`Parameter ${i + 1} sensitive`} {...form.getInputProps(`params.${i}.sensitive`, { type: 'checkbox' })} />
            {row.type === 'string' && (
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                <TextInput label="Max length" aria-label={`Parameter ${i + 1} max length`} inputMode="numeric" placeholder="none"
                  {...form.getInputProps(`params.${i}.max_length`)} />
                <TextInput label="Pattern" aria-label={`Parameter ${i + 1} pattern`} description="A regular expression (RE2) the value must match"
                  placeholder="^[0-9]{10}$" styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} {...form.getInputProps(`params.${i}.pattern`)} />
              </SimpleGrid>
            )}
          </Stack>
        </Paper>
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => form.insertListItem('params', emptyParam())}>
          Add parameter
        </Button>
      </Group>
    </Stack>
  );
}

export function ErrorCodesEditor({ form }: { form: Form }) {
  const rows = form.values.error_codes;
  return (
    <Stack gap="xs">
      {rows.map((_, i) => (
        <Group key={i} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput aria-label={`Error code ${i + 1}`} placeholder="422" w={110} {...form.getInputProps(`error_codes.${i}.code`)} />
          <TextInput aria-label={`Error code ${i + 1} meaning`} placeholder="Invalid phone number" style={{ flex: 1 }}
            {...form.getInputProps(`error_codes.${i}.meaning`)} />
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove error code ${i + 1}`} onClick={() => form.removeListItem('error_codes', i)}>
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => form.insertListItem('error_codes', { code: '', meaning: '' })}>
          Add error code
        </Button>
      </Group>
    </Stack>
  );
}
