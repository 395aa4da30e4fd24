import { useState } from 'react';
import { Alert, Anchor, Button, Group, List, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { ApiError } from '../../api/errors';
import { useForm } from '@mantine/form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { landingPath, safeNext, useSession } from '../../auth/useSession';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import { FormError } from '../../components/States';
import { useLogin } from '../../features/auth/api';
import { AuthLayout } from './AuthLayout';
import { useBrandName } from '../../components/BrandMark';
import { useActivator } from './activation';

export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { status, user } = useSession();
  const brandName = useBrandName();
  const next = safeNext(params.get('next'));
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) => (/^\S+@\S+$/.test(v.trim()) ? null : 'Enter your email address'),
      password: (v) => (v ? null : 'Enter your password'),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  // The password was right but the account cannot sign in yet (pending
  // activation) or any more (blocked): say what happens next, not only the error.
  const [notActive, setNotActive] = useState<string | null>(null);
  const login = useLogin({
    onSuccess: (t) => navigate(next ?? landingPath(t.user.role), { replace: true }),
    onError: (err, vars) => {
      if (err instanceof ApiError && err.code === 'account_not_active') setNotActive(vars.email);
      else onApiError(err);
    },
  });

  if (status === 'signedIn' && user && !login.isPending) return <Navigate to={next ?? landingPath(user.role)} replace />;

  if (notActive) return <NotActive email={notActive} onBack={() => setNotActive(null)} />;

  return (
    <AuthLayout
      title="Sign in"
      subtitle={`to the ${brandName} panel`}
      footer={<>New here? <Anchor component={Link} to="/register">Create an account</Anchor></>}
    >
      {params.get('expired') === '1' && (
        <Alert color="yellow" variant="light" role="status">Your session has expired. Sign in again to continue.</Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((v) => {
          clearFormError();
          login.mutate({ email: v.email.trim(), password: v.password });
        })}
      >
        <Stack gap="sm">
          <FormError message={formError} />
          <TextInput label="Email" type="email" autoComplete="username" required data-autofocus
            key={form.key('email')} {...form.getInputProps('email')} />
          <PasswordInput label="Password" autoComplete="current-password" required
            key={form.key('password')} {...form.getInputProps('password')} />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm">Forgot password?</Anchor>
          </Group>
          <Button type="submit" fullWidth loading={login.isPending}>Sign in</Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

/**
 * A pending (or blocked) account signing in: what happens next. On a
 * reseller's domain the reseller, named, activates its customers (its
 * support contacts are under the brand).
 */
function NotActive({ email, onBack }: { email: string; onBack: () => void }) {
  const { reseller, who, whom } = useActivator();
  return (
    <AuthLayout title="Your account is not active yet" subtitle={email}>
      <Stack gap="sm" data-testid="account-not-active">
        <Text size="sm">Your email and password are right, but {whom} has not activated this account yet. What happens next:</Text>
        <List size="sm" spacing={4} type="ordered">
          <List.Item>If you registered yourself, open the link in the email we sent to confirm your address.</List.Item>
          {reseller && <List.Item>If {who} created the account for you, open the link in its invitation email and choose your password: that activates the account.</List.Item>}
          <List.Item>{reseller
            ? `${who} reviews the accounts of its new customers and activates yours.`
            : 'An administrator reviews new accounts and activates yours, usually within one working day.'}</List.Item>
          <List.Item>Then sign in here with the same email and password: your balance, API keys and services are waiting.</List.Item>
        </List>
        <Text size="sm" c="dimmed">Activated before and now refused? The account may have been blocked: write to {reseller ? who : 'your administrator'}.</Text>
        <Button variant="default" onClick={onBack}>Back to sign in</Button>
      </Stack>
    </AuthLayout>
  );
}
