// A secret shown once (an API key's secret, a webhook signing secret): a
// modal with the value, a copy button and a warning; it closes only by the
// user's choice, after confirming they saved it.
import { ActionIcon, Alert, Button, Checkbox, CopyButton, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';

export function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <TextInput
      label={label}
      value={value}
      readOnly
      data-testid={testId}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      onFocus={(e) => e.currentTarget.select()}
      rightSection={
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : `Copy ${label.toLowerCase()}`} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}

export interface ShownOnceModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Fields to show, e.g. [{label: 'API key', value}, {label: 'Secret', value, testId}] */
  fields: { label: string; value: string; testId?: string }[];
  children?: ReactNode;
}

export function ShownOnceModal({ opened, onClose, title, fields, children }: ShownOnceModalProps) {
  const [saved, setSaved] = useState(false);
  const close = () => {
    setSaved(false);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={() => saved && close()} title={title} size="lg" closeOnClickOutside={false}
      closeOnEscape={saved} withCloseButton={saved}>
      <Stack gap="sm">
        <Alert color="yellow" variant="light" title="Shown this once">
          <Text size="sm">Copy the secret now and keep it somewhere safe. It cannot be shown again; if you lose it, rotate it.</Text>
        </Alert>
        {fields.map((f) => (
          <CopyField key={f.label} {...f} />
        ))}
        {children}
        <Checkbox label="I have saved the secret" checked={saved} onChange={(e) => setSaved(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button onClick={close} disabled={!saved}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
