import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { fetchBlob, withQuery, type QueryValue } from '../api/client';
import { errorMessage } from '../api/errors';

/**
 * The CSV export URL of a list endpoint with its filters (format=csv; page
 * and per_page dropped: the export streams every matching row). The panel
 * API needs the bearer token, so a plain <a href> cannot download it: use
 * downloadCsv or <CsvExportButton>.
 */
export function csvExportUrl(path: string, query: Record<string, QueryValue> = {}): string {
  const { page: _page, per_page: _perPage, ...filters } = query;
  return withQuery(path, { ...filters, format: 'csv' });
}

/** Downloads a list's CSV export with the session's token and saves it as the server's file name. */
export async function downloadCsv(path: string, query: Record<string, QueryValue> = {}, fallbackName = 'export.csv') {
  const { blob, filename } = await fetchBlob(csvExportUrl(path, query));
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename ?? fallbackName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "Export CSV" for a list endpoint and its current filters. */
export function CsvExportButton({ path, query, label = 'Export CSV' }: { path: string; query?: Record<string, QueryValue>; label?: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadCsv(path, query);
        } catch (err) {
          notifications.show({ color: 'red', title: 'Export failed', message: errorMessage(err) });
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </Button>
  );
}
