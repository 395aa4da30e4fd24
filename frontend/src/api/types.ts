// Short names for the generated OpenAPI types (schema.gen.ts is generated
// from ../api/openapi.yaml by `npm run gen:api`; never edit it).
import type { components, paths } from './schema.gen';

export type { paths, components };
export type Schemas = components['schemas'];
export type User = Schemas['User'];
export type Role = Schemas['Role'];
export type TokenResponse = Schemas['TokenResponse'];
export type ApiErrorBody = Schemas['Error'];
export type ListMeta = Schemas['ListMeta'];

/** The query parameters of GET `P` (cast a useListParams query to it, not to `never`). */
export type GetQuery<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;
