import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import { FormError } from '../../components/States';
import { useResetPassword } from '../../features/auth/api';
import { AuthLayout } from './AuthLayout';

interface Values {
  email: string;
  token: string;
  password: string;
  confirm: string;
}

/** The token of a reseller's invite of a new customer (core/accounts/user InvitePrefix). */
const INVITE_PREFIX = 'pi_';

/**
 * The mailed link: /reset-password?token=…&email=…; a reseller's invite (token pi_…) or, for an
 * account a reseller created and nobody confirmed, the claim mail's second link (&stay=1) keeps
 * that reseller; the claim mail's first link takes the account as the owner's own. An invite is
 * a new account's first password: "Choose a password", and no word of sessions signed out (that
 * is a reset's); its use confirms the email and activates the account.
 */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const stay = params.get('stay') === '1';
  const invite = token.startsWith(INVITE_PREFIX);
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { email: params.get('email') ?? '', token, password: '', confirm: '' },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid email address'),
      password: (v) => (v.length < 8 ? 'Use at least 8 characters' : v.length > 72 ? 'Use at most 72 characters' : null),
      confirm: (v, values) => (v === values.password ? null : 'The passwords do not match'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const reset = useResetPassword({ onError: onApiError });
  const tokenError = form.errors.token;

  if (reset.isSuccess) {
    return invite ? (
      <AuthLayout title="Your account is ready" footer={<Anchor component={Link} to="/login">Sign in</Anchor>}>
        <Alert color="teal" variant="light" role="status">
          Your email address is confirmed, your password is set and your account is active. Sign in with your email and this password.
        </Alert>
      </AuthLayout>
    ) : (
      <AuthLayout title="Password changed" footer={<Anchor component={Link} to="/login">Sign in</Anchor>}>
        <Alert color="teal" variant="light" role="status">
          Your password is changed and every session of your account has been signed out. Sign in with the new password.
        </Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={invite ? 'Choose a password' : 'Choose a new password'}
      subtitle={invite ? 'Setting it confirms your email address and activates your new account.' : undefined}
      footer={<Anchor component={Link} to="/login">Back to sign in</Anchor>}>
      {!token && (
        <Alert color="yellow" variant="light">
          This page needs the link from the reset mail. <Anchor component={Link} to="/forgot-password">Ask for a new link</Anchor>.
        </Alert>
      )}
      {tokenError && (
        <Alert color="red" variant="light" role="alert">
          <Text size="sm">This {invite ? 'invitation' : 'reset'} link is not valid any more ({tokenError}).</Text>
          <Anchor component={Link} to="/forgot-password" size="sm">Ask for a new link</Anchor>
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((v) => {
          clearFormError();
          reset.mutate({ email: v.email.trim(), token: v.token, password: v.password, stay_with_reseller: stay });
        })}
      >
        <Stack gap="sm">
          <FormError message={formError} />
          {stay && <Text size="sm">The account stays a customer of the reseller that created it.</Text>}
          <TextInput label="Email" type="email" autoComplete="username" required key={form.key('email')} {...form.getInputProps('email')} />
          <PasswordInput label={invite ? 'Password' : 'New password'} description="8 to 72 characters" autoComplete="new-password" required
            key={form.key('password')} {...form.getInputProps('password')} />
          <PasswordInput label={invite ? 'Repeat the password' : 'Repeat the new password'} autoComplete="new-password" required
            key={form.key('confirm')} {...form.getInputProps('confirm')} />
          <Button type="submit" fullWidth loading={reset.isPending} disabled={!token}>{invite ? 'Set password' : 'Change password'}</Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
