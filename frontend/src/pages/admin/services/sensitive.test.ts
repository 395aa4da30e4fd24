import { describe, expect, it } from 'vitest';
import { emptyParam, toRequestParams, valuesFrom } from './model';
import type { Schemas } from '../../../api/types';

describe('sensitive parameters in the service model', () => {
  it('sends sensitive only when checked, and reads it back from the docs', () => {
    expect(toRequestParams([
      { ...emptyParam(), name: 'aadhaar_number', required: true, sensitive: true },
      { ...emptyParam(), name: 'name' },
    ])).toEqual({
      aadhaar_number: { type: 'string', required: true, sensitive: true },
      name: { type: 'string', required: false },
    });
    const service = { name: 'A', slug: 'a', category: 'c', description: null, method: 'POST', status: 'active',
      provider_url: 'https://x.example', headers: {}, parameters: { aadhaar_number: 'string' }, endpoint: '/api/v1/a' } as unknown as Schemas['Service'];
    const doc = { endpoint: '/api/v1/a', method: 'POST', description: 'd', response_example: {}, error_codes: {}, sort_order: 0,
      request_params: { aadhaar_number: { type: 'string', required: true, sensitive: true } } } as unknown as Schemas['ServiceDoc'];
    expect(valuesFrom(service, doc).params[0]).toMatchObject({ name: 'aadhaar_number', sensitive: true });
    expect(valuesFrom(service, null).params[0]).toMatchObject({ name: 'aadhaar_number', sensitive: false });
  });
});
