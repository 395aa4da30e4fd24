import { Anchor, Group, Image, Stack, Text } from '@mantine/core';
import { usePublicBrand } from '../features/brand/api';

/** The platform's name when the host has no brand (or it is still loading). */
export const PLATFORM_NAME = 'Paygate';

/** The brand name of the host the panel is served on. */
export function useBrandName(): string {
  const { data } = usePublicBrand();
  return data?.brand_name || PLATFORM_NAME;
}

/**
 * The host's brand: its logo and name, and on a reseller's domain its
 * support contacts (`withContacts`), from the public brand (features/brand).
 */
export function BrandMark({ size = 'xl', withContacts = false }: { size?: 'lg' | 'xl'; withContacts?: boolean }) {
  const { data } = usePublicBrand();
  const name = data?.brand_name || PLATFORM_NAME;
  const reseller = !!data?.reseller;
  return (
    <Stack gap={2} align={withContacts ? 'center' : 'flex-start'} data-testid="brand-mark">
      <Group gap="xs" wrap="nowrap">
        {reseller && data?.logo_url && <Image src={data.logo_url} alt="" h={size === 'xl' ? 36 : 28} w="auto" fit="contain" data-testid="brand-logo" />}
        <Text fw={800} size={size} c={reseller ? undefined : 'indigo'} data-testid="brand-name">{name}</Text>
      </Group>
      {withContacts && <BrandSupport />}
    </Stack>
  );
}

/** A reseller's support contacts on its domain (nothing on the platform's host). */
export function BrandSupport({ px }: { px?: string }) {
  const { data } = usePublicBrand();
  if (!data?.reseller || !(data.support_email || data.support_phone)) return null;
  return (
    <Text size="xs" c="dimmed" px={px} data-testid="brand-support">
      Support:{' '}
      {data.support_email && <Anchor href={`mailto:${data.support_email}`} size="xs">{data.support_email}</Anchor>}
      {data.support_email && data.support_phone && ' · '}
      {data.support_phone && <Anchor href={`tel:${data.support_phone}`} size="xs">{data.support_phone}</Anchor>}
    </Text>
  );
}
