import type { ReactNode } from 'react';
import { Box, Center, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { BrandMark } from '../../components/BrandMark';

/** The centred card of the signed-out pages. */
export function AuthLayout({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Box component="main" mih="100dvh" py={{ base: 'lg', sm: 60 }} bg="var(--mantine-color-gray-0)">
      <Container size={420} px="md">
        <Stack gap="lg">
          <Center><BrandMark withContacts /></Center>
          <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md">
            <Stack gap="md">
              <Stack gap={4}>
                <Title order={1} size="h2">{title}</Title>
                {subtitle && <Text c="dimmed" size="sm">{subtitle}</Text>}
              </Stack>
              {children}
            </Stack>
          </Paper>
          {footer && <Text ta="center" size="sm">{footer}</Text>}
        </Stack>
      </Container>
    </Box>
  );
}
