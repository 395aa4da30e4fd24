import { Paper, Text } from '@mantine/core';
import { PageHeader } from './PageHeader';

/** The body of a screen not built yet (its file is replaced when it is). */
export function Placeholder({ title, description }: { title: string; description: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="lg" data-testid="placeholder">
        <Text c="dimmed">{description}</Text>
      </Paper>
    </>
  );
}
