// The key and its new secret, shown once after creating a key or rotating
// its secret. Remembered in memory for the try-it console of this tab.
import { Text } from '@mantine/core';
import { useEffect } from 'react';
import type { Schemas } from '../../../api/types';
import { ShownOnceModal } from '../common/ShownOnce';
import { rememberSecret } from '../common/recentSecrets';

export function SecretModal({ created, rotated, onClose }: { created: Schemas['ApiKeyWithSecret'] | null; rotated?: boolean; onClose: () => void }) {
  useEffect(() => {
    if (created) rememberSecret(created.key, created.secret);
  }, [created]);
  return (
    <ShownOnceModal
      opened={created !== null}
      onClose={onClose}
      title={rotated ? `New secret for “${created?.name ?? ''}”` : `Key “${created?.name ?? ''}” created`}
      fields={created ? [
        { label: 'API key', value: created.key, testId: 'new-key' },
        { label: 'Secret', value: created.secret, testId: 'new-secret' },
      ] : []}
    >
      <Text size="sm" c="dimmed">
        Service calls send both: headers <code>X-API-Key</code> and <code>X-API-Secret</code>. Gateway calls
        (payments, verification, recharges) send the secret: <code>Authorization: Bearer &lt;secret&gt;</code>.
        The key alone authorizes nothing{rotated ? '; the old secret has stopped working.' : '.'}
      </Text>
    </ShownOnceModal>
  );
}
