// Who activates a new account signed up on this host: on a reseller's
// domain (the public brand lookup says reseller) that reseller, by its brand name,
// which activates its own customers; on the platform's host an
// administrator. The signed-out pages that talk about a pending account
// (registration, sign-in refused with account_not_active, verify-email) say
// it alike.
import { usePublicBrand } from '../../features/brand/api';

export interface Activator {
  /** True on a reseller's domain. */
  reseller: boolean;
  /** The subject of a sentence: "Acme Recharge" or "An administrator". */
  who: string;
  /** The same inside a sentence: "Acme Recharge" or "an administrator". */
  whom: string;
}

export function useActivator(): Activator {
  const brand = usePublicBrand().data;
  if (brand?.reseller && brand.brand_name) return { reseller: true, who: brand.brand_name, whom: brand.brand_name };
  return { reseller: false, who: 'An administrator', whom: 'an administrator' };
}
