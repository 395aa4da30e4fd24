import { Badge } from '@mantine/core';

/**
 * "Test" on a sandbox row (no money moved). It keeps its whole word in a
 * narrow cell (a shrinking flex item used to leave an empty yellow dot) and
 * dark text on yellow (WCAG AA).
 */
export function TestBadge({ livemode, label = 'Test', title = 'A sandbox call: no money moved' }: { livemode: boolean; label?: string; title?: string }) {
  if (livemode) return null;
  return (
    <Badge size="sm" color="yellow.4" c="dark.9" variant="filled" title={title} data-testid="test-badge"
      styles={{ root: { minWidth: 'max-content', flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}>
      {label}
    </Badge>
  );
}
