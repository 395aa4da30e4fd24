import type { ReactNode } from 'react';
import { Box, Group, Pagination, Paper, ScrollArea, Select, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { EmptyState, ErrorState, Loading } from './States';

export interface Column<T> {
  /** Stable key of the column. */
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** Hide below the "sm" breakpoint (phones: the row's card leaves it out; its details show it). */
  hiddenOnMobile?: boolean;
  /**
   * Keep the column in view at the right edge while the table scrolls
   * sideways (the last column, for row actions): at 375 px a row's actions
   * are reachable without scrolling.
   */
  pinRight?: boolean;
}

const PINNED = {
  position: 'sticky',
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: '-6px 0 6px -6px rgba(0, 0, 0, 0.25)',
} as const;

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  /** The list's meta.total (rows over all pages). */
  total?: number;
  /** The history lists' meta.total_capped: more than total rows match. */
  totalCapped?: boolean;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange?: (perPage: number) => void;
  isLoading?: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Filters above the table (inputs bound to useListParams). */
  filters?: ReactNode;
  /** Actions beside the filters, e.g. <CsvExportButton>. */
  actions?: ReactNode;
  emptyTitle?: string;
  emptyDescription?: ReactNode;
  /** Accessible name of the table. */
  caption: string;
  onRowClick?: (row: T) => void;
}

/**
 * A paginated table for the panel's lists ({data, meta: {page, per_page,
 * total}}), with filters, actions, and loading, empty and error states.
 * Below the "sm" breakpoint (phones) each row is a card: a label and value
 * per column, the row's actions at its foot, so amount and status are on
 * screen without sideways scrolling.
 */
export function DataTable<T>(p: DataTableProps<T>) {
  const phone = useMediaQuery('(max-width: 47.99em)');
  const pages = p.total !== undefined ? Math.max(1, Math.ceil(p.total / p.perPage)) : 1;
  let body: ReactNode;
  if (p.error) body = <ErrorState error={p.error} onRetry={p.onRetry} />;
  else if (p.isLoading && !p.rows) body = <Loading />;
  else if (!p.rows || p.rows.length === 0) body = <EmptyState title={p.emptyTitle ?? 'Nothing found'} description={p.emptyDescription} />;
  else if (phone) body = <Cards {...p} rows={p.rows} />;
  else
    body = (
      <ScrollArea type="auto">
        <Table striped highlightOnHover={!!p.onRowClick} verticalSpacing="xs" aria-label={p.caption} aria-busy={p.isLoading || undefined}>
          <Table.Thead>
            <Table.Tr>
              {p.columns.map((c) => (
                <Table.Th key={c.key} ta={c.align} visibleFrom={c.hiddenOnMobile ? 'sm' : undefined} style={{ whiteSpace: 'nowrap', ...(c.pinRight && PINNED) }}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.rows.map((row) => (
              <Table.Tr
                key={p.rowKey(row)}
                onClick={p.onRowClick ? () => p.onRowClick!(row) : undefined}
                style={p.onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {p.columns.map((c) => (
                  <Table.Td key={c.key} ta={c.align} visibleFrom={c.hiddenOnMobile ? 'sm' : undefined} style={c.pinRight ? PINNED : undefined}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    );

  return (
    <Stack gap="sm">
      {(p.filters || p.actions) && (
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Group align="flex-end" wrap="wrap" gap="sm">{p.filters}</Group>
          {p.actions && <Group gap="xs">{p.actions}</Group>}
        </Group>
      )}
      <Paper withBorder radius="md" p={0}>
        <Box p="xs">{body}</Box>
      </Paper>
      {p.total !== undefined && p.total > 0 && (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed">
            {p.total.toLocaleString('en-IN')}
            {p.totalCapped ? '+' : ''} {p.total === 1 ? 'row' : 'rows'}
            {p.totalCapped ? ' (narrow the dates or export CSV for older rows)' : ''}
          </Text>
          <Group gap="sm">
            {p.onPerPageChange && (
              <Select
                aria-label="Rows per page"
                w={90}
                size="xs"
                data={['10', '20', '50', '100']}
                value={String(p.perPage)}
                onChange={(v) => v && p.onPerPageChange!(parseInt(v, 10))} // not money
                allowDeselect={false}
              />
            )}
            <Pagination total={pages} value={p.page} onChange={p.onPageChange} size="sm" siblings={1} boundaries={1}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
          </Group>
        </Group>
      )}
    </Stack>
  );
}

/** The phone layout: one card per row (columns hidden on mobile left out, row actions last). */
function Cards<T>(p: DataTableProps<T> & { rows: T[] }) {
  const fields = p.columns.filter((c) => !c.hiddenOnMobile && !c.pinRight);
  const actions = p.columns.filter((c) => c.pinRight);
  return (
    <Stack gap="xs" role="list" aria-label={p.caption} aria-busy={p.isLoading || undefined} data-testid="table-cards">
      {p.rows.map((row) => (
        <Paper key={p.rowKey(row)} withBorder radius="sm" p="xs" role="listitem" data-testid="table-card"
          onClick={p.onRowClick ? () => p.onRowClick!(row) : undefined} style={p.onRowClick ? { cursor: 'pointer' } : undefined}>
          <Stack gap={4}>
            {fields.map((c) => (
              <Group key={c.key} justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Text size="xs" c="dimmed" fw={600} style={{ flexShrink: 0 }}>{c.header}</Text>
                <Box ta="right" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{c.render(row)}</Box>
              </Group>
            ))}
            {actions.length > 0 && (
              <Group justify="flex-end" gap="xs">{actions.map((c) => <Box key={c.key}>{c.render(row)}</Box>)}</Group>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
