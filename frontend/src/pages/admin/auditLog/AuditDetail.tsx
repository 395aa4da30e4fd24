import { Badge, Code, Group, Modal, ScrollArea, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { Schemas } from '../../../api/types';
import { formatDateTime } from '../../../lib/dates';
import { NamedUserRef } from '../shared/badges';

type Entry = Schemas['AuditLog'];
type Snapshot = Record<string, unknown> | null;

const show = (v: unknown): string => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The top-level fields of two snapshots, marking those that differ. */
export function diffRows(before: Snapshot, after: Snapshot): { field: string; before: string; after: string; changed: boolean }[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const b = before && field in before ? show(before[field]) : '';
    const a = after && field in after ? show(after[field]) : '';
    // A create or a delete has one side only: nothing to compare.
    return { field, before: b, after: a, changed: !!before && !!after && b !== a };
  });
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Stack>
  );
}

export function AuditDetail({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  const [view, setView] = useState<'changes' | 'json'>('changes');
  return (
    <Modal opened={!!entry} onClose={onClose} title={entry ? `Audit entry #${entry.id}` : ''} size="xl">
      {entry && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
            <Field label="Action"><Badge variant="light" style={{ textTransform: 'none' }}>{entry.action}</Badge></Field>
            <Field label="When">{formatDateTime(entry.created_at)}</Field>
            <Field label="Admin"><NamedUserRef id={entry.actor_id} name={entry.actor_name} email={entry.actor_email} /> (#{entry.actor_id})</Field>
            <Field label="Target">{entry.target_type.replace('_', ' ')}{entry.target_id !== null ? ` #${entry.target_id}` : ''}{entry.target_name ? ` · ${entry.target_name}` : ''}</Field>
            <Field label="Address">{entry.ip_address || '—'}</Field>
            <Field label="Request id"><Code>{entry.request_id || '—'}</Code></Field>
          </SimpleGrid>
          <Group justify="space-between">
            <Text fw={500}>Before and after</Text>
            <SegmentedControl size="xs" aria-label="View" value={view} onChange={(v) => setView(v as 'changes' | 'json')}
              data={[{ value: 'changes', label: 'Fields' }, { value: 'json', label: 'JSON' }]} />
          </Group>
          {view === 'changes' ? (
            <ScrollArea type="auto">
              <Table aria-label="Fields before and after" withTableBorder verticalSpacing={4} data-testid="audit-diff">
                <Table.Thead>
                  <Table.Tr><Table.Th>Field</Table.Th><Table.Th>Before</Table.Th><Table.Th>After</Table.Th></Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {diffRows(entry.before, entry.after).map((r) => (
                    <Table.Tr key={r.field} bg={r.changed ? 'yellow.0' : undefined} data-changed={r.changed || undefined}>
                      <Table.Td fw={r.changed ? 600 : undefined}>{r.field}{r.changed && <Text span c="orange" size="xs"> changed</Text>}</Table.Td>
                      <Table.Td ff="monospace" fz="xs" style={{ overflowWrap: 'anywhere' }}>{r.before || <Text span c="dimmed" size="xs">—</Text>}</Table.Td>
                      <Table.Td ff="monospace" fz="xs" style={{ overflowWrap: 'anywhere' }}>{r.after || <Text span c="dimmed" size="xs">—</Text>}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {!entry.before && !entry.after && <Text size="sm" c="dimmed">No snapshots were recorded.</Text>}
            </ScrollArea>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Stack gap={4}><Text size="sm" fw={500}>Before</Text><Code block>{entry.before ? JSON.stringify(entry.before, null, 2) : 'null (created)'}</Code></Stack>
              <Stack gap={4}><Text size="sm" fw={500}>After</Text><Code block>{entry.after ? JSON.stringify(entry.after, null, 2) : 'null (deleted)'}</Code></Stack>
            </SimpleGrid>
          )}
        </Stack>
      )}
    </Modal>
  );
}
