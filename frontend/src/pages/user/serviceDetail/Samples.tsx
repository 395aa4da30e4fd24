// The service's call as code (GET /services/{id}/samples): curl, Python
// (requests), Node.js (fetch), PHP (curl) and Go (net/http) in tabs, each
// with a copy button. The samples carry placeholders for the key and the
// secret, which the caller replaces with their own.
import { ActionIcon, Code, CopyButton, Group, Paper, ScrollArea, Stack, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { QueryState } from '../../../components/States';
import { useServiceSamples, type ServiceSamples } from '../../../features/services/api';

export const SAMPLE_TABS: { value: keyof ServiceSamples; label: string }[] = [
  { value: 'curl', label: 'curl' },
  { value: 'python', label: 'Python' },
  { value: 'node', label: 'Node.js' },
  { value: 'php', label: 'PHP' },
  { value: 'go', label: 'Go' },
];

function SampleCode({ code, label }: { code: string; label: string }) {
  return (
    <Stack gap={4}>
      <Group justify="flex-end">
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy the ${label} sample`} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy the ${label} sample`}>
                {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <ScrollArea.Autosize mah={420} type="auto">
        <Code block aria-label={`${label} sample`} data-testid={`sample-${label}`} style={{ whiteSpace: 'pre' }}>{code}</Code>
      </ScrollArea.Autosize>
    </Stack>
  );
}

export function Samples({ serviceId }: { serviceId: number | null }) {
  const samples = useServiceSamples(serviceId);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="samples-title">
      <Title order={2} size="h3" id="samples-title" mb="xs">Code samples</Title>
      <Text size="sm" c="dimmed" mb="sm">
        The call in your language. Replace <Code>YOUR_API_KEY</Code> and <Code>YOUR_API_SECRET</Code> with a key of yours and its
        secret; keep the secret on your server.
      </Text>
      <QueryState query={samples} loadingLabel="Loading the samples…">
        {(data) => (
          <Tabs defaultValue="curl" keepMounted={false}>
            <Tabs.List aria-label="Sample language">
              {SAMPLE_TABS.map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
            </Tabs.List>
            {SAMPLE_TABS.map((t) => (
              <Tabs.Panel key={t.value} value={t.value} pt="xs">
                <SampleCode code={data[t.value]} label={t.label} />
              </Tabs.Panel>
            ))}
          </Tabs>
        )}
      </QueryState>
    </Paper>
  );
}
