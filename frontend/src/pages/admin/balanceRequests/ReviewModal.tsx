import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';
import { ApiError } from '../../../api/errors';
import type { Schemas } from '../../../api/types';
import { Money } from '../../../components/Money';
import { ErrorState, FormError, Loading } from '../../../components/States';
import { useBalanceRequest, useDecideBalanceRequest } from '../../../features/balanceRequests/api';
import { useUsersById } from '../../../features/users/api';
import { applyApiErrors } from '../../../forms/useApiFormErrors';
import { formatDateTime } from '../../../lib/dates';
import { RequestStatusBadge, UserRef } from '../shared/badges';
import { Screenshot } from './Screenshot';
import { useState } from 'react';

type BalanceRequest = Schemas['BalanceRequest'];

export function ReviewModal({ request, onClose }: { request: BalanceRequest | null; onClose: () => void }) {
  return (
    <Modal opened={!!request} onClose={onClose} title={request ? `Balance request #${request.id}` : ''} size="lg">
      {request && <Review initial={request} onClose={onClose} />}
    </Modal>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>{children}</Text>
    </Stack>
  );
}

/** One request: its details and screenshot, then approve or reject with remarks. */
function Review({ initial, onClose }: { initial: BalanceRequest; onClose: () => void }) {
  // The list row may be old: show the request as it is now.
  const current = useBalanceRequest(initial);
  const r = current.data;
  const users = useUsersById([r.user_id, r.approved_by]);
  const user = users.get(r.user_id);
  const [conflict, setConflict] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ initialValues: { admin_remarks: '' } });

  const decide = useDecideBalanceRequest(r.id, {
    onSuccess: (decided) => {
      notifications.show({
        color: decided.status === 'approved' ? 'teal' : 'orange',
        title: decided.status === 'approved' ? 'Approved' : 'Rejected',
        message: decided.status === 'approved'
          ? `${decided.amount} credited to ${user?.email ?? `user #${decided.user_id}`}.`
          : `Request #${decided.id} rejected.`,
      });
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) {
        // Another admin decided first: show what they decided (the hook refreshes the lists).
        setConflict(err.message);
        void current.refetch();
        return;
      }
      setFormError(applyApiErrors(form, err));
    },
  });

  const submit = (action: 'approve' | 'reject') => {
    setFormError(null);
    setConflict(null);
    const remarks = form.getValues().admin_remarks.trim();
    if (action === 'reject' && !remarks) {
      form.setFieldError('admin_remarks', 'Say why the request is rejected (the user sees it)');
      return;
    }
    decide.mutate({ action, remarks });
  };
  const pending = r.status === 'pending';

  return (
    <Stack gap="md">
      {conflict && (
        <Alert color="orange" title="Already decided" role="alert" data-testid="decision-conflict">
          <Text size="sm">
            Another admin decided this request first{r.status !== 'pending' ? <>: it is now <b>{r.status}</b></> : ''}. Your decision was not
            applied. <Text span c="dimmed" size="xs">({conflict})</Text>
          </Text>
        </Alert>
      )}
      {current.isError && <ErrorState error={current.error} onRetry={() => void current.refetch()} />}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Field label="User"><UserRef id={r.user_id} users={users} /></Field>
        <Field label="Amount"><Money value={r.amount} fw={600} /></Field>
        <Field label="Status"><RequestStatusBadge status={r.status} /></Field>
        <Field label="UTR number">{r.utr_number}</Field>
        <Field label="Method">{r.payment_method}</Field>
        <Field label="Submitted">{formatDateTime(r.created_at)}</Field>
        {user && <Field label="Current balance"><Money value={user.balance} /></Field>}
        {r.remarks && <Field label="User's remarks">{r.remarks}</Field>}
        {!pending && <Field label="Decided">{formatDateTime(r.approved_at)}{r.approved_by ? <> by <UserRef id={r.approved_by} users={users} compact /></> : null}</Field>}
        {!pending && r.admin_remarks && <Field label="Admin remarks">{r.admin_remarks}</Field>}
      </SimpleGrid>
      {r.screenshot_url ? <Screenshot path={r.screenshot_url} requestId={r.id} /> : <Text size="sm" c="dimmed">No screenshot was attached.</Text>}
      {pending ? (
        <Stack gap="sm">
          <FormError message={formError} />
          <Textarea label="Remarks" description="Optional to approve, required to reject; the user sees them" autosize minRows={2}
            maxLength={1000} {...form.getInputProps('admin_remarks')} />
          <Group justify="flex-end" gap="xs">
            <Button variant="light" color="red" onClick={() => submit('reject')}
              loading={decide.isPending && decide.variables?.action === 'reject'} disabled={decide.isPending}>Reject</Button>
            <Button color="teal" onClick={() => submit('approve')}
              loading={decide.isPending && decide.variables?.action === 'approve'} disabled={decide.isPending}>
              Approve and credit <Money value={r.amount} ml={4} />
            </Button>
          </Group>
        </Stack>
      ) : current.isFetching ? (
        <Loading label="Checking the request…" />
      ) : (
        <Group justify="flex-end"><Button variant="default" onClick={onClose}>Close</Button></Group>
      )}
    </Stack>
  );
}
