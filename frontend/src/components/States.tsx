import type { ReactNode } from 'react';
import { Alert, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { ApiError, errorMessage } from '../api/errors';

/** A centred spinner with an accessible label. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Group gap="sm">
        <Loader size="sm" />
        <Text c="dimmed" size="sm">{label}</Text>
      </Group>
    </Center>
  );
}

/** Nothing to show yet, with an optional action (e.g. "Create a key"). */
export function EmptyState({ title, description, action }: { title: string; description?: ReactNode; action?: ReactNode }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs" maw={420} ta="center">
        <Title order={2} size="h4">{title}</Title>
        {description && <Text c="dimmed" size="sm">{description}</Text>}
        {action}
      </Stack>
    </Center>
  );
}

/** A failed load, with the API's message, its request id and a retry button. */
export function ErrorState({ error, onRetry, title = 'Could not load this' }: { error: unknown; onRetry?: () => void; title?: string }) {
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  return (
    <Alert color="red" title={title} role="alert" my="md">
      <Stack gap="xs">
        <Text size="sm">{errorMessage(error)}</Text>
        {requestId && <Text size="xs" c="dimmed">Request id: {requestId}</Text>}
        {onRetry && (
          <Group>
            <Button size="xs" variant="light" color="red" onClick={onRetry}>Try again</Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** An error above a form (what applyApiErrors could not put on a field); nothing when message is null. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {message}
    </Alert>
  );
}

/**
 * Loading, error and empty states of a query in one place:
 *   <QueryState query={q} isEmpty={(d) => d.data.length === 0} empty={<EmptyState title="No keys yet" />}>
 *     {(d) => <KeysTable rows={d.data} />}
 *   </QueryState>
 */
export function QueryState<T>({
  query,
  children,
  isEmpty,
  empty,
  loadingLabel,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  loadingLabel?: string;
}) {
  if (query.isPending) return <Loading label={loadingLabel} />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return <>{empty ?? <EmptyState title="Nothing here yet" />}</>;
  return <>{children(query.data)}</>;
}
