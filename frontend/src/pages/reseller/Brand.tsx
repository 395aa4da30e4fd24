// A reseller's brand: the name, support contacts and domains its customers
// see on its domains' login and shell, and its logo (PNG, JPEG or WebP up
// to 512 KB, checked by the server by content) with a preview.
import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Code, FileInput, Group, Image, Paper, SimpleGrid, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../api/errors';
import { PageHeader } from '../../components/PageHeader';
import { FormError, QueryState } from '../../components/States';
import { useApiFormErrors } from '../../forms/useApiFormErrors';
import {
  useBrand, useBrandLogo, useDeleteLogo, useSaveBrand, useUploadLogo, useVerifyDomain, type Brand, type DomainState,
} from '../../features/brand/api';

const MAX_LOGO_BYTES = 512 * 1024;

export default function BrandPage() {
  const brand = useBrand();
  return (
    <>
      <PageHeader title="Brand" description="What your customers see on your domains: the sign-in, registration and panel pages, and the name their mail comes from." />
      <QueryState query={brand}>
        {(b) => (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <BrandForm brand={b} />
            <LogoCard brand={b} />
            {b.domain_states.length > 0 && <DomainsCard brand={b} />}
          </SimpleGrid>
        )}
      </QueryState>
    </>
  );
}

export function BrandForm({ brand }: { brand: Brand }) {
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: {
      brand_name: brand.brand_name, support_email: brand.support_email, support_phone: brand.support_phone, domains: brand.domains,
    },
    validate: {
      brand_name: (v) => (!v.trim() ? 'Enter the brand name' : v.trim().length > 100 ? 'Use at most 100 characters' : null),
      support_email: (v) => (v && !/^\S+@\S+\.\S+$/.test(v.trim()) ? 'Enter a valid email address' : null),
      support_phone: (v) => (v && !/^\+?[0-9]{10,15}$/.test(v.trim()) ? 'Enter 10 to 15 digits, optionally after a +' : null),
      domains: (v) => (v.length > 10 ? 'At most 10 domains' : null),
    },
  });
  const { formError, onApiError, clearFormError } = useApiFormErrors(form);
  const save = useSaveBrand({
    onSuccess: () => notifications.show({ color: 'teal', message: 'Brand saved' }),
    onError: onApiError,
  });
  return (
    <Paper withBorder p="md" radius="md">
      <form noValidate onSubmit={form.onSubmit((v) => {
        clearFormError();
        save.mutate({ ...v, brand_name: v.brand_name.trim(), domains: v.domains.map((d) => d.trim().toLowerCase()) });
      })}>
        <Stack gap="sm">
          <Title order={2} size="h4">Name and contacts</Title>
          <FormError message={formError} />
          <TextInput label="Brand name" required maxLength={100} key={form.key('brand_name')} {...form.getInputProps('brand_name')} />
          <TextInput label="Support email" type="email" key={form.key('support_email')} {...form.getInputProps('support_email')} />
          <TextInput label="Support phone" type="tel" key={form.key('support_phone')} {...form.getInputProps('support_phone')} />
          <TagsInput label="Domains" description="Host names only, like panel.example.com. Press Enter after each; each is used once you prove it (below)."
            maxTags={10} key={form.key('domains')} {...form.getInputProps('domains')} />
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>Save brand</Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

const STATE_COLOR: Record<DomainState['state'], string> = { pending: 'yellow', verified: 'teal', lost: 'red' };

/** Each domain's proof: its state, and until verified what to publish and a check. */
export function DomainsCard({ brand }: { brand: Brand }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const verify = useVerifyDomain({
    onSuccess: (_, host) => { setErrors((e) => ({ ...e, [host]: '' })); notifications.show({ color: 'teal', message: `${host} verified` }); },
    onError: (err, host) => setErrors((e) => ({ ...e, [host]: errorMessage(err) })),
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">Domains</Title>
        <Text size="sm" c="dimmed">
          A domain shows your brand, registers your customers and carries their mail links only once verified.
          Until then your customers&apos; links use the platform&apos;s address.
        </Text>
        {brand.domain_states.map((d) => (
          <Stack key={d.host} gap={4} data-testid={`domain-${d.host}`}>
            <Group gap="xs">
              <Text fw={500}>{d.host}</Text>
              <Badge color={STATE_COLOR[d.state]} variant="light">{d.state}</Badge>
            </Group>
            {d.state === 'lost' && <Text size="sm" c="red">Another account proved this domain first. Remove it from your domains.</Text>}
            {d.state === 'pending' && (
              <>
                <Text size="sm">Add a DNS TXT record <Code>{d.txt_name}</Code> with the value <Code>{d.txt_value}</Code>,
                  and point the domain at this service: the check fetches <Code>{d.challenge_url}</Code>.</Text>
                {(errors[d.host] || d.problem) && <Alert color="red" variant="light" role="alert">{errors[d.host] || d.problem}</Alert>}
                <Group justify="flex-end">
                  <Button size="xs" variant="light" loading={verify.isPending && verify.variables === d.host}
                    onClick={() => verify.mutate(d.host)}>Check {d.host}</Button>
                </Group>
              </>
            )}
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

export function LogoCard({ brand }: { brand: Brand }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const stored = useBrandLogo(brand.logo_url);
  const storedUrl = useObjectUrl(stored.data?.blob ?? null);
  useEffect(() => {
    if (!file) { setPreview(null); return; }
    const u = URL.createObjectURL(file);
    setPreview(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  const upload = useUploadLogo({
    onSuccess: () => { setFile(null); notifications.show({ color: 'teal', message: 'Logo saved' }); },
    onError: (err) => setError(errorMessage(err)),
  });
  const remove = useDeleteLogo({
    onSuccess: () => notifications.show({ color: 'teal', message: 'Logo removed' }),
    onError: (err) => setError(errorMessage(err)),
  });
  const pick = (f: File | null) => {
    setError(null);
    if (f && f.size > MAX_LOGO_BYTES) { setError('The logo must be at most 512 KB'); setFile(null); return; }
    setFile(f);
  };
  const shown = preview ?? storedUrl;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">Logo</Title>
        <Text size="sm" c="dimmed">PNG, JPEG or WebP, at most 512 KB and 1024 × 1024 pixels. It is checked and re-encoded by the server.</Text>
        {error && <Alert color="red" variant="light" role="alert">{error}</Alert>}
        {shown
          ? <Image src={shown} alt={preview ? 'New logo preview' : 'Current logo'} h={64} w="auto" fit="contain" data-testid="logo-preview" />
          : <Text size="sm" data-testid="no-logo">No logo yet.</Text>}
        <FileInput label="Choose a logo" accept="image/png,image/jpeg,image/webp" value={file} onChange={pick} clearable />
        <Group justify="flex-end">
          {brand.logo_url && <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>Remove logo</Button>}
          <Button disabled={!file} loading={upload.isPending} onClick={() => file && upload.mutate(file)}>Upload logo</Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** An object URL for a Blob, revoked when it changes or the component goes. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) { setUrl(null); return; }
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}
