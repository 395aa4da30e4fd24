import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import { FormError } from '../../components/States';
import { useRegister } from '../../features/auth/api';
import { AuthLayout } from './AuthLayout';
import { usePublicBrand } from '../../features/brand/api';
import { PLATFORM_NAME } from '../../components/BrandMark';
import { useActivator } from './activation';

interface Values {
  name: string;
  email: string;
  phone: string;
  password: string;
}

export default function Register() {
  const brand = usePublicBrand().data;
  const brandName = brand?.brand_name || PLATFORM_NAME;
  // On a reseller's domain the reseller, named, activates its customers.
  const { reseller, who } = useActivator();
  const form = useForm<Values>({
    mode: 'uncontrolled',
    initialValues: { name: '', email: '', phone: '', password: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Enter your name'),
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid email address'),
      phone: (v) => (/^\+?[0-9]{10,15}$/.test(v.trim()) ? null : 'Enter 10 to 15 digits, optionally after a +'),
      password: (v) => (v.length < 8 ? 'Use at least 8 characters' : v.length > 72 ? 'Use at most 72 characters' : null),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const register = useRegister({ onError: onApiError });

  if (register.isSuccess) {
    return (
      <AuthLayout title="Account created" footer={<Anchor component={Link} to="/login">Back to sign in</Anchor>}>
        <Alert color="teal" variant="light" role="status" title="Waiting for activation">
          <Text size="sm" data-testid="activation-next">
            We have sent a verification link to <b>{register.data.email}</b>: open it to confirm your address.{' '}
            {reseller
              ? <>{who} then activates your account as its customer; you can sign in once it is active.</>
              : <>{who} activates new accounts; you can sign in once yours is active.</>}
          </Text>
        </Alert>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Create an account"
      subtitle={`Resell APIs and accept payments with ${brandName}`}
      footer={<>Already have an account? <Anchor component={Link} to="/login">Sign in</Anchor></>}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((v) => {
          clearFormError();
          register.mutate({ name: v.name.trim(), email: v.email.trim(), phone: v.phone.trim(), password: v.password });
        })}
      >
        <Stack gap="sm">
          <FormError message={formError} />
          <TextInput label="Name" autoComplete="name" required key={form.key('name')} {...form.getInputProps('name')} />
          <TextInput label="Email" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
          <TextInput label="Phone" type="tel" autoComplete="tel" required placeholder="9876543210"
            key={form.key('phone')} {...form.getInputProps('phone')} />
          <PasswordInput label="Password" description="8 to 72 characters" autoComplete="new-password" required
            key={form.key('password')} {...form.getInputProps('password')} />
          <Button type="submit" fullWidth loading={register.isPending}>Create account</Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
