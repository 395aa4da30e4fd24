// Activate and block, shared by the users list and a user's page: block
// asks first (it ends the user's sessions), activate does not.
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import { errorMessage } from '../../../api/errors';
import type { User } from '../../../api/types';
import { userKey } from '../shared/badges';

export function useUserActions() {
  const qc = useQueryClient();
  const done = (u: User, what: string) => {
    qc.setQueryData(userKey(u.id), u);
    void qc.invalidateQueries({ queryKey: ['/api/v1/panel/users'] });
    void qc.invalidateQueries({ queryKey: ['/api/v1/panel/dashboard'] });
    notifications.show({ color: 'teal', message: `${u.name} is ${what}.` });
  };
  const fail = (title: string) => (err: unknown) => notifications.show({ color: 'red', title, message: errorMessage(err) });

  const activate = useMutation({
    mutationFn: (u: User) => call(api.POST('/api/v1/panel/users/{id}/activate', { params: { path: { id: u.id } } })),
    onSuccess: (u) => done(u, 'active'),
    onError: fail('Could not activate'),
  });
  const block = useMutation({
    mutationFn: (u: User) => call(api.POST('/api/v1/panel/users/{id}/block', { params: { path: { id: u.id } } })),
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
