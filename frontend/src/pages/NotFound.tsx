import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export default function NotFound() {
  return (
    <Center py={80}>
      <Stack align="center" gap="xs">
        <Title order={1} size="h2">Page not found</Title>
        <Text c="dimmed">There is no page at this address.</Text>
        <Anchor component={Link} to="/">Go to the start page</Anchor>
      </Stack>
    </Center>
  );
}
