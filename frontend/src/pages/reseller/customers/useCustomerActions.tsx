// Activate and block a customer, shared by the list and the customer's page:
// block asks first (the customer is signed out and its keys stop working).
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../api/errors';
import { useActivateCustomer, useBlockCustomer } from '../../../features/customers/api';
import type { Customer } from '../../../features/customers/types';

export function useCustomerActions() {
  const done = (c: Customer, what: string) => notifications.show({ color: 'teal', message: `${c.name} is ${what}.` });
  const fail = (title: string) => (err: unknown) => notifications.show({ color: 'red', title, message: errorMessage(err) });
  const activate = useActivateCustomer({ onSuccess: (c) => done(c, 'active'), onError: fail('Could not activate') });
  const block = useBlockCustomer({ onSuccess: (c) => done(c, 'blocked'), onError: fail('Could not block') });
  const confirmBlock = (c: Customer) =>
    modals.openConfirmModal({
      title: `Block ${c.name}?`,
      children: <Text size="sm">{c.email} is signed out at once and cannot sign in or call the API until you activate it again.</Text>,
      labels: { confirm: 'Block', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => block.mutate(c),
    });
  const busyId = activate.isPending ? activate.variables?.id : block.isPending ? block.variables?.id : undefined;
  return { activate: (c: Customer) => activate.mutate(c), confirmBlock, busyId };
}
