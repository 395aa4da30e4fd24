// The GSTR-1 register (decisions part 17): the documents an admin's platform
// or a reseller issued and dated in a month, one row each with its GSTR-1
// table, then the SAC summary and the totals, downloaded as CSV.
import { useState } from 'react';
import { Group, Paper, Text, Title } from '@mantine/core';
import { CsvExportButton } from '../../../components/CsvExport';
import { REGISTER_PATH } from '../../../features/invoices/api';
import { MonthInput, thisMonth } from '../common/MonthInput';

export function RegisterDownload({ reseller }: { reseller: boolean }) {
  const [month, setMonth] = useState(thisMonth());
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="register-title" data-testid="gstr1-register">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div style={{ flex: '1 1 280px' }}>
          <Title order={2} size="h4" id="register-title">GSTR-1 register</Title>
          <Text size="sm" c="dimmed">
            {reseller ? 'The invoices and credit notes you issued to your customers' : "The platform's invoices and credit notes"} dated
            in a month, each with its GSTR-1 table, then the SAC summary. A month's invoices are dated the 1st of the month after.
          </Text>
        </div>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <MonthInput label="Register month" value={month} onChange={setMonth} w={{ base: '100%', xs: 180 }} />
          <CsvExportButton path={REGISTER_PATH} query={{ month }} label="Download register (CSV)" />
        </Group>
      </Group>
    </Paper>
  );
}
