import { useEffect } from 'react';
import { Alert, Anchor } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { Loading } from '../../components/States';
import { useVerifyEmail } from '../../features/auth/api';
import { AuthLayout } from './AuthLayout';
import { useActivator } from './activation';

/**
 * The mailed link: /verify-email?token=…. A new account stays pending after it: the page says who
 * activates it (on a reseller's domain, the reseller by name).
 */
export default function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyEmail();
  const { reseller, whom } = useActivator();
  const { mutate } = verify;
  useEffect(() => {
    if (token) mutate(token);
  }, [token, mutate]);

  const err = verify.error;
  const message = err instanceof ApiError && err.fieldErrors.token ? 'This link is invalid or has expired. Sign in and ask for a new one from your profile.' : err?.message;
  return (
    <AuthLayout title="Verify email" footer={<Anchor component={Link} to="/login">Go to sign in</Anchor>}>
      {!token && <Alert color="yellow" variant="light">This page needs the link from the verification mail.</Alert>}
      {token && (verify.isPending || verify.isIdle) && <Loading label="Verifying…" />}
      {verify.isSuccess && (
        <Alert color="teal" variant="light" role="status" data-testid="verified">
          Your email address is verified. If your account is new, {whom} activates it{reseller ? ' as its customer' : ''}: you can
          sign in once it is active.
        </Alert>
      )}
      {verify.isError && <Alert color="red" variant="light" role="alert">{message}</Alert>}
    </AuthLayout>
  );
}
