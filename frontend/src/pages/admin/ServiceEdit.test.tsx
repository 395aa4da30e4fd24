import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ServiceEdit from './ServiceEdit';
import { json, renderWithApp } from '../../test/render';
import { session } from '../../auth/session';
import { fill, signInAsAdmin, stubApi, type Call } from './test/fixtures';
import { fieldFor, toRequestParams, emptyValues, emptyParam } from './services/model';

const service = {
  id: 42, name: 'SMS', slug: 'sms', endpoint: '/api/v1/sms', description: null, category: 'messaging', method: 'POST',
  parameters: { phone: 'string', count: 'integer' }, status: 'active', builtin: false, provider_url: 'https://sms.example.com',
  headers: {}, has_provider_key: true, created_at: '2026-11-21T10:00:00Z', updated_at: '2026-11-21T10:00:00Z',
};
const doc = (body: Record<string, unknown>) => ({ id: 1, api_service_id: 42, sort_order: 0, created_at: null, updated_at: null, ...body });

beforeEach(signInAsAdmin);
afterEach(async () => {
  cleanup(); // unmount before signing out: signed-in screens need a user
  await session.signOut();
});

async function fillNewService(u: ReturnType<typeof userEvent.setup>) {
  await fill(u, screen.getByLabelText(/^Name/), 'SMS');
  await fill(u, screen.getByLabelText(/^Slug/), 'sms');
  await fill(u, screen.getByLabelText(/^Category/), 'messaging');
  await fill(u, screen.getByLabelText(/^Provider URL/), 'https://sms.example.com');
  await u.click(screen.getByRole('button', { name: 'Add parameter' }));
  await fill(u, screen.getByLabelText('Parameter 1 name'), 'phone');
  await u.click(screen.getByLabelText('Parameter 1 required'));
  await fill(u, screen.getByLabelText('Parameter 1 description'), '10-digit mobile');
  await fill(u, screen.getByLabelText('Parameter 1 max length'), '10');
  await fill(u, screen.getByLabelText('Parameter 1 pattern'), '^[0-9]{10}$');
  await u.click(screen.getByRole('button', { name: 'Add parameter' }));
  await fill(u, screen.getByLabelText('Parameter 2 name'), 'count');
  await u.selectOptions(screen.getByLabelText('Parameter 2 type'), 'integer');
  await fill(u, screen.getByLabelText(/^What a call does/), 'Sends an SMS.');
  await fill(u, screen.getByLabelText(/^Admin cost/), '0.2');
  await fill(u, screen.getByLabelText(/^Reseller price/), '0.4');
  await fill(u, screen.getByLabelText(/^User price/), '0.5000');
}

describe('the service editor', () => {
  it('creates the service, its docs with request_params in the API shape, and its default price', async () => {
    const calls = stubApi({
      'POST /api/v1/panel/services': () => json(201, service),
      'PUT /api/v1/panel/services/42/docs': (c) => json(200, doc(c.body as Record<string, unknown>)),
      'POST /api/v1/panel/services/42/pricing': () => json(201, {}),
      'GET /api/v1/panel/services/42': () => json(200, service),
      'GET /api/v1/panel/services/42/pricing': () => json(200, { data: [], meta: { page: 1, per_page: 20, total: 0 } }),
    });
    const u = userEvent.setup();
    const { router } = renderWithApp(<ServiceEdit />, { path: '/admin/services/new' });
    await fillNewService(u);
    await u.click(screen.getByRole('button', { name: 'Create service' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/services/42'));

    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/v1/panel/services')!;
    expect(post.body).toMatchObject({
      name: 'SMS', slug: 'sms', category: 'messaging', method: 'POST', provider_url: 'https://sms.example.com',
      headers: {}, parameters: { phone: 'string', count: 'integer' }, status: 'active',
    });
    expect(post.body).not.toHaveProperty('provider_key');
    const put = calls.find((c) => c.method === 'PUT') as Call;
    expect(put.body).toEqual({
      endpoint: '/api/v1/sms', method: 'POST', description: 'Sends an SMS.',
      request_params: {
        phone: { type: 'string', required: true, description: '10-digit mobile', max_length: 10, pattern: '^[0-9]{10}$' },
        count: { type: 'integer', required: false },
      },
      response_example: { status: 'success' }, error_codes: {}, sort_order: 0,
    });
    const price = calls.find((c) => c.path === '/api/v1/panel/services/42/pricing' && c.method === 'POST')!;
    // Amounts go as typed: strings, never numbers.
    expect(price.body).toEqual({ admin_cost: '0.2', reseller_price: '0.4', user_price: '0.5000', minimum_hit_charge: '0.00', status: 'active' });
  });

  it('shows a 422 field error next to its field, and a parameter error on that parameter\'s row', async () => {
    stubApi({
      'POST /api/v1/panel/services': () => json(422, {
        success: false, message: 'Invalid parameters', error: 'validation_failed',
        errors: { slug: ['is reserved'], parameters: ['parameter count must have a type of string, integer, number, boolean or date'] },
      }),
    });
    const u = userEvent.setup();
    renderWithApp(<ServiceEdit />, { path: '/admin/services/new' });
    await fillNewService(u);
    await u.click(screen.getByRole('button', { name: 'Create service' }));
    const slug = screen.getByLabelText(/^Slug/);
    await waitFor(() => expect(slug).toHaveAttribute('aria-invalid', 'true'));
    expect(slug.getAttribute('aria-describedby')).toContain(screen.getByText('is reserved').id);
    const type = screen.getByLabelText('Parameter 2 type');
    expect(type).toHaveAttribute('aria-invalid', 'true');
    expect(within(screen.getByTestId('param-row-1')).getByText(/parameter count must have a type/)).toBeInTheDocument();
    // Every error found its field: no banner repeating them.
    expect(screen.queryByText(/Invalid parameters/)).not.toBeInTheDocument();
  });

  it('edits a service: the provider key is write-only and a docs error lands on its parameter', async () => {
    const calls = stubApi({
      'GET /api/v1/panel/services/42': () => json(200, service),
      'GET /api/v1/panel/services/42/docs': () => json(404, { success: false, message: 'No docs', error: 'docs_not_found' }),
      'GET /api/v1/panel/services/42/pricing': () => json(200, { data: [], meta: { page: 1, per_page: 20, total: 0 } }),
      'PATCH /api/v1/panel/services/42': () => json(200, service),
      'PUT /api/v1/panel/services/42/docs': () => json(422, {
        success: false, message: 'Invalid parameters', error: 'validation_failed',
        errors: { request_params: ['parameter phone has an invalid pattern'] },
      }),
    });
    const u = userEvent.setup();
    renderWithApp(<ServiceEdit />, { path: '/admin/services/:id', url: '/admin/services/42' });
    // No docs yet: the parameters come from the service's name → type map.
    expect(await screen.findByLabelText('Parameter 1 name')).toHaveValue('phone');
    expect(screen.getByLabelText('Parameter 2 type')).toHaveValue('integer');
    expect(screen.getByTestId('provider-key-state')).toHaveTextContent('set');
    expect(screen.getByLabelText('Provider key')).toHaveValue('');
    await fill(u, screen.getByLabelText('Parameter 1 pattern'), '[');
    await fill(u, screen.getByLabelText(/^What a call does/), 'Sends an SMS.');
    await u.click(screen.getByRole('button', { name: 'Save service' }));
    const pattern = screen.getByLabelText('Parameter 1 pattern');
    await waitFor(() => expect(pattern).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('parameter phone has an invalid pattern')).toBeInTheDocument();
    expect(screen.getByText(/The service was saved, but not its documentation/)).toBeInTheDocument();
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.body).not.toHaveProperty('provider_key');
  });

  it('checks the fields before calling the API', async () => {
    const calls = stubApi({});
    const u = userEvent.setup();
    renderWithApp(<ServiceEdit />, { path: '/admin/services/new' });
    await fill(u, screen.getByLabelText(/^Slug/), 'Not A Slug');
    await fill(u, screen.getByLabelText(/^User price/), '0.12345');
    await u.click(screen.getByRole('button', { name: 'Create service' }));
    expect(await screen.findByText(/Lowercase letters, digits and single hyphens/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^User price/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toEqual([]);
  });
});

describe('the service model', () => {
  it('maps parameter rows to request_params, leaving out blank options and patterns of non-strings', () => {
    expect(toRequestParams([
      { ...emptyParam(), name: ' dob ', type: 'date', required: true, pattern: 'ignored' },
      { ...emptyParam(), name: '' },
      { ...emptyParam(), name: 'n', type: 'number', max_length: '' },
    ])).toEqual({ dob: { type: 'date', required: true }, n: { type: 'number', required: false } });
  });
  it('routes map-level API errors to the named row', () => {
    const v = { ...emptyValues(), headers: [{ key: 'X-A', value: '' }, { key: 'Bad Header', value: 'v' }] };
    expect(fieldFor(v, 'service', 'headers', 'header Bad is not a valid header')).toBeNull();
    v.headers[1]!.key = 'Bad';
    expect(fieldFor(v, 'service', 'headers', 'header Bad is not a valid header')).toBe('headers.1.key');
    expect(fieldFor(v, 'docs', 'description', 'is required')).toBe('doc_description');
    expect(fieldFor(v, 'price', 'user_price', 'bad')).toBe('price.user_price');
    expect(fieldFor(v, 'service', 'status', 'bad')).toBe('active');
  });
});

describe("the service editor's SAC code", () => {
  const payout = {
    ...service, id: 7, name: 'Payout (money transfer)', slug: 'payout-transfer', endpoint: '/api/v1/payout/transfer', category: 'gateway',
    parameters: {}, builtin: true, provider_url: 'builtin://payout-transfer', has_provider_key: false, sac_code: '997158',
  };
  const routes = (patch: (c: Call) => Response) => ({
    'GET /api/v1/panel/services/7': () => json(200, payout),
    'GET /api/v1/panel/services/7/docs': () => json(200, doc({
      api_service_id: 7, endpoint: '/api/v1/payout/transfer', method: 'POST', description: 'Send money.', request_params: {}, response_example: {}, error_codes: {},
    })),
    'GET /api/v1/panel/services/7/pricing': () => json(200, { data: [], meta: { page: 1, per_page: 20, total: 0 } }),
    'PATCH /api/v1/panel/services/7': patch,
    'PUT /api/v1/panel/services/7/docs': (c: Call) => json(200, doc(c.body as Record<string, unknown>)),
  });

  it("shows a built-in service's SAC code, saves a new one, and clears it back to the supplier's default", async () => {
    const calls = stubApi(routes((c) => json(200, { ...payout, ...(c.body as object) })));
    const u = userEvent.setup();
    renderWithApp(<ServiceEdit />, { path: '/admin/services/:id', url: '/admin/services/7' });
    const sac = await screen.findByLabelText(/^SAC code/);
    expect(sac).toHaveValue('997158');
    expect(screen.getByRole('link', { name: 'billing settings' })).toHaveAttribute('href', '/admin/billing-settings');

    await fill(u, sac, '998314');
    await u.click(screen.getByRole('button', { name: 'Save service' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    const first = calls.find((c) => c.method === 'PATCH')!.body as Record<string, unknown>;
    expect(first.sac_code).toBe('998314');
    expect(first).not.toHaveProperty('slug'); // a built-in service keeps its slug and method

    await u.clear(screen.getByLabelText(/^SAC code/));
    await u.click(screen.getByRole('button', { name: 'Save service' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(2));
    expect((calls.filter((c) => c.method === 'PATCH')[1]!.body as Record<string, unknown>).sac_code).toBeNull();
  });

  it('refuses a code that is not a service code before calling the API, and shows the API\'s error beside the field', async () => {
    const calls = stubApi(routes(() => json(422, {
      success: false, message: 'Invalid parameters', error: 'validation_failed',
      errors: { sac_code: ['must be a 6-digit service code starting with 99, such as 998319'] },
    })));
    const u = userEvent.setup();
    renderWithApp(<ServiceEdit />, { path: '/admin/services/:id', url: '/admin/services/7' });
    const sac = await screen.findByLabelText(/^SAC code/);
    for (const bad of ['99715', '848319', '99 158']) {
      await fill(u, sac, bad);
      await u.click(screen.getByRole('button', { name: 'Save service' }));
      expect(await screen.findByText(/6 digits starting with 99, or empty for the default/)).toBeInTheDocument();
      expect(sac).toHaveAttribute('aria-invalid', 'true');
    }
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    await fill(u, sac, '997159'); // passes the form; the server answers 422 (as if it refused it)
    await u.click(screen.getByRole('button', { name: 'Save service' }));
    expect(await screen.findByText('must be a 6-digit service code starting with 99, such as 998319')).toBeInTheDocument();
    expect(screen.getByLabelText(/^SAC code/)).toHaveAttribute('aria-invalid', 'true');
  });
});
