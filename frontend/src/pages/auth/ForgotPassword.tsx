import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import { FormError } from '../../components/States';
import { useForgotPassword } from '../../features/auth/api';
import { AuthLayout } from './AuthLayout';

export default function ForgotPassword() {
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid email address') },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const forgot = useForgotPassword({ onError: onApiError });

  return (
    <AuthLayout
      title="Forgot password"
      subtitle="We will mail you a link to choose a new one."
      footer={<Anchor component={Link} to="/login">Back to sign in</Anchor>}
    >
      {forgot.isSuccess ? (
        <Alert color="teal" variant="light" role="status">
          {forgot.data.message || 'If an account has this email, a reset link is on its way.'} The link is valid for 60 minutes.
        </Alert>
      ) : (
        <form
          noValidate
          onSubmit={form.onSubmit((v) => {
            clearFormError();
            forgot.mutate({ email: v.email.trim() });
          })}
        >
          <Stack gap="sm">
            <FormError message={formError} />
            <TextInput label="Email" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
            <Button type="submit" fullWidth loading={forgot.isPending}>Send reset link</Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
