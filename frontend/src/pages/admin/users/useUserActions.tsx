// Activate and block, shared by the users list and a user's page: block
// asks first (it ends the user's sessions), activate does not.
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import type { User } from '../../../api/types';
import { useActivateUser, useBlockUser } from '../../../features/users/api';

export function useUserActions() {
  const done = (u: User, what: string) => notifications.show({ color: 'teal', message: `${u.name} is ${what}.` });
  const fail = (title: string) => (err: unknown) => notifications.show({ color: 'red', title, message: errorMessage(err) });

  const activate = useActivateUser({
    onSuccess: (u) => done(u, 'active'),
    onError: fail('Could not activate'),
  });
  const block = useBlockUser({
    onSuccess: (u) => done(u, 'blocked'),
    onError: fail('Could not block'),
  });

  const confirmBlock = (u: User) =>
    modals.openConfirmModal({
      title: `Block ${u.name}?`,
      children: <Text size="sm">{u.email} is signed out at once and cannot sign in or call the API until activated again.</Text>,
      labels: { confirm: 'Block', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => block.mutate(u),
    });

  /** The id of the user an action is running for, to show its button busy. */
  const busyId = activate.isPending ? activate.variables?.id : block.isPending ? block.variables?.id : undefined;
  return { activate: (u: User) => activate.mutate(u), confirmBlock, busyId };
}
