import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { landingPath, safeNext, useSession } from '../../auth/useSession';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import { FormError } from '../../components/States';
import { useLogin } from '../../features/auth/api';
import { AuthLayout } from './AuthLayout';

export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { status, user } = useSession();
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
  const login = useLogin({
    onSuccess: (t) => navigate(next ?? landingPath(t.user.role), { replace: true }),
    onError: onApiError,
  });

  if (status === 'signedIn' && user && !login.isPending) return <Navigate to={next ?? landingPath(user.role)} replace />;

  return (
    <AuthLayout
      title="Sign in"
      subtitle="to the Paygate panel"
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
