import { ActionIcon, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * A long identifier (a 40-digit transaction id, a payout id) in a table
 * cell: cut with an ellipsis at `maw` (the whole id in its title) and a
 * copy button, so it never pushes the table sideways.
 */
export function CopyId({ value, maw = 150, label = 'id' }: { value: string | null | undefined; maw?: number; label?: string }) {
  if (!value) return <Text size="sm" c="dimmed">—</Text>;
  return (
    <Group gap={2} wrap="nowrap" data-testid="copy-id">
      <Text size="xs" ff="monospace" truncate="end" maw={maw} title={value}>{value}</Text>
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy the ${label}`} withArrow>
            <ActionIcon size="sm" variant="subtle" color={copied ? 'teal' : 'gray'} onClick={(e) => { e.stopPropagation(); copy(); }}
              aria-label={`Copy the ${label} ${value}`}>
              {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
