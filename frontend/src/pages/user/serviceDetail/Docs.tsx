// A service's documentation, rendered from its docs record (GET
// /services/{id}/docs): description, parameters, response example, errors.
import { Badge, Code, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Schemas } from '../../../api/types';
import { JsonBlock } from '../common/JsonBlock';
import type { Field } from './paramForm';

export function ParamsTable({ fields }: { fields: Field[] }) {
  if (fields.length === 0) return <Text size="sm" c="dimmed">No parameters.</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table aria-label="Request parameters" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Required</Table.Th>
            <Table.Th>Rules and meaning</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((f) => (
            <Table.Tr key={f.name}>
              <Table.Td><Code>{f.name}</Code></Table.Td>
              <Table.Td>{f.type}</Table.Td>
              <Table.Td>{f.required ? <Badge size="sm" color="red" variant="light">required</Badge> : <Text size="sm" c="dimmed">optional</Text>}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  {f.description && <Text size="sm">{f.description}</Text>}
                  {f.choices && <Text size="xs" c="dimmed">One of: {f.choices.join(', ')}</Text>}
                  {!f.choices && f.pattern && <Text size="xs" c="dimmed">Matches <Code>{f.pattern}</Code></Text>}
                  {f.maxLength !== undefined && <Text size="xs" c="dimmed">At most {f.maxLength} characters</Text>}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function Docs({ doc, fields, service }: { doc: Schemas['ServiceDoc'] | null; fields: Field[]; service: Schemas['Service'] }) {
  const errors = Object.entries(doc?.error_codes ?? {});
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="docs-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="docs-title">Documentation</Title>
        <Text size="sm" ff="monospace" data-testid="service-endpoint">
          <Badge variant="light" mr="xs" component="span">{doc?.method ?? service.method}</Badge>{doc?.endpoint || service.endpoint}
        </Text>
        {doc?.description ? <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{doc.description}</Text>
          : <Text size="sm" c="dimmed">This service has no written documentation yet; its parameters are listed below.</Text>}
        <Text size="sm">
          {service.builtin ? (
            <>Authenticate with <Code>Authorization: Bearer &lt;secret&gt;</Code>, your key’s secret (<Code>rs_…</Code>), or with the
              headers <Code>X-API-Key</Code> and <Code>X-API-Secret</Code> (or HTTP Basic <Code>key:secret</Code>). The key id alone
              authorizes nothing.</>
          ) : (
            <>Authenticate with the headers <Code>X-API-Key</Code> and <Code>X-API-Secret</Code> (or HTTP Basic <Code>key:secret</Code>).</>
          )}
          {' '}{service.method === 'GET' || service.method === 'DELETE' ? 'Parameters go in the query string.' : 'Parameters go in a JSON object body.'}
        </Text>
        <div>
          <Title order={3} size="h4" mb="xs">Parameters</Title>
          <ParamsTable fields={fields} />
        </div>
        {doc?.response_example && Object.keys(doc.response_example).length > 0 && (
          <div>
            <Title order={3} size="h4" mb="xs">Example response</Title>
            <JsonBlock value={doc.response_example} label="Example response" />
          </div>
        )}
        <div>
          <Title order={3} size="h4" mb="xs">Errors</Title>
          {errors.length === 0 ? (
            <Text size="sm" c="dimmed">Errors answer <Code>{'{"success": false, "message", "error", "request_id"}'}</Code>.</Text>
          ) : (
            <Table aria-label="Error codes">
              <Table.Thead><Table.Tr><Table.Th>Code</Table.Th><Table.Th>Meaning</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {errors.map(([code, meaning]) => (
                  <Table.Tr key={code}><Table.Td><Code>{code}</Code></Table.Td><Table.Td><Text size="sm">{meaning}</Text></Table.Td></Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
