import { useEffect, useState } from 'react';
import { Anchor, Center, Image, Paper, Text } from '@mantine/core';
import { ErrorState, Loading } from '../../../components/States';
import { useScreenshotFile } from '../../../features/balanceRequests/api';

/**
 * The request's screenshot, fetched with the session's token (a plain
 * <img src> would have none): an image is shown, a PDF is offered as a link.
 */
export function Screenshot({ path, requestId }: { path: string; requestId: number }) {
  const file = useScreenshotFile(path);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file.data) return;
    const u = URL.createObjectURL(file.data.blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file.data]);

  if (file.isPending) return <Loading label="Loading the screenshot…" />;
  if (file.isError) return <ErrorState title="Could not load the screenshot" error={file.error} onRetry={() => void file.refetch()} />;
  if (!url) return null;
  const name = file.data.filename ?? `balance-request-${requestId}`;
  if (file.data.blob.type === 'application/pdf') {
    return (
      <Paper withBorder p="md">
        <Text size="sm">The proof is a PDF. <Anchor href={url} download={name}>Download {name}</Anchor></Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder p={4} bg="gray.0">
      <Center>
        <Anchor href={url} target="_blank" rel="noreferrer" aria-label="Open the screenshot full size">
          <Image src={url} alt={`Payment screenshot of balance request ${requestId}`} mah={420} fit="contain" data-testid="screenshot" />
        </Anchor>
      </Center>
    </Paper>
  );
}
