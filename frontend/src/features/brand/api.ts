// A reseller's brand: the public brand of the page's host (GET /api/v1/brand,
// shown on the signed-out pages and in the shell) and the reseller's own
// brand page (GET/PUT /panel/brand, PUT/DELETE /panel/brand/logo, and the
// check of a claimed domain, POST /panel/brand/domains/{host}/verify).
import { useQuery } from '@tanstack/react-query';
import { api, call, fetchBlob } from '../../api/client';
import type { Schemas } from '../../api/types';
import { useFeatureMutation, type MutationConfig } from '../../lib/mutation';

const PUBLIC_BRAND_PATH = '/api/v1/brand';
const BRAND_PATH = '/api/v1/panel/brand';
const LOGO_PATH = '/api/v1/panel/brand/logo';
const VERIFY_PATH = '/api/v1/panel/brand/domains/{host}/verify';

export type PublicBrand = Schemas['PublicBrand'];
export type Brand = Schemas['Brand'];
export type BrandInput = Schemas['BrandInput'];
export type DomainState = Schemas['BrandDomainState'];

export const brandKeys = {
  public: [PUBLIC_BRAND_PATH] as const,
  own: [BRAND_PATH] as const,
  logo: (url: string | null | undefined) => [LOGO_PATH, url] as const,
};

/** The brand of the host the panel is served on (a reseller's domain, or the platform). */
export function usePublicBrand() {
  return useQuery({
    queryKey: brandKeys.public,
    queryFn: () => call(api.GET(PUBLIC_BRAND_PATH)),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The signed-in reseller's brand. */
export function useBrand() {
  return useQuery({ queryKey: brandKeys.own, queryFn: () => call(api.GET(BRAND_PATH)) });
}

/** The reseller's own logo as a Blob (fetched with the session's token), for the preview. */
export function useBrandLogo(url: string | null | undefined) {
  return useQuery({
    queryKey: brandKeys.logo(url),
    queryFn: () => fetchBlob(url!),
    enabled: !!url,
    staleTime: Infinity,
  });
}

export function useSaveBrand(config?: MutationConfig<Brand, BrandInput>) {
  return useFeatureMutation({
    mutationFn: (body: BrandInput) => call(api.PUT(BRAND_PATH, { body })),
    onSuccess: (qc, b) => {
      qc.setQueryData(brandKeys.own, b);
      void qc.invalidateQueries({ queryKey: brandKeys.public });
    },
  }, config);
}

/** Uploads the logo (multipart field `logo`); the server checks it by content. */
export function useUploadLogo(config?: MutationConfig<Brand, File>) {
  return useFeatureMutation({
    mutationFn: (file: File) => {
      const fd = new FormData();
      fd.set('logo', file, file.name);
      return call(api.PUT(LOGO_PATH, { body: fd as never, bodySerializer: () => fd }));
    },
    onSuccess: (qc, b) => {
      qc.setQueryData(brandKeys.own, b);
      void qc.invalidateQueries({ queryKey: brandKeys.public });
    },
  }, config);
}

export function useDeleteLogo(config?: MutationConfig<unknown, void>) {
  return useFeatureMutation({
    mutationFn: () => call(api.DELETE(LOGO_PATH)),
    onSuccess: (qc) => {
      void qc.invalidateQueries({ queryKey: brandKeys.own });
      void qc.invalidateQueries({ queryKey: brandKeys.public });
    },
  }, config);
}

/** Asks the server to check a claimed domain's proof (DNS TXT and the host pointing here). */
export function useVerifyDomain(config?: MutationConfig<Brand, string>) {
  return useFeatureMutation({
    mutationFn: (host: string) => call(api.POST(VERIFY_PATH, { params: { path: { host } } })),
    onSuccess: (qc, b) => {
      qc.setQueryData(brandKeys.own, b);
      void qc.invalidateQueries({ queryKey: brandKeys.public });
    },
  }, config);
}
