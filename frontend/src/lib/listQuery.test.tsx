import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DataTable } from '../components/DataTable';
import { FilterSelect } from '../components/FilterSelect';
import { json, renderWithApp } from '../test/render';
import { useListParams } from './listParams';
import { useListQuery } from './listQuery';

const PATH = '/api/v1/panel/payments';

function Payments() {
  const list = useListParams({ status: '' });
  const { tableProps } = useListQuery(PATH, list);
  return (
    <DataTable caption="Payments" columns={[{ key: 'id', header: 'Id', render: (p) => p.payment_id }]} rowKey={(p) => p.payment_id}
      {...tableProps} filters={<FilterSelect list={list} name="status" label="Status" data={['success', 'failed']} />} />
  );
}

describe('useListQuery', () => {
  it('asks for the page and filters in the URL, fills the table, and goes back to page 1 on a filter', async () => {
    const queries: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (req: Request) => {
      const url = new URL(req.url);
      queries.push(`${url.pathname}${url.search}`);
      return json(200, { data: [{ payment_id: 'pay_1' }, { payment_id: 'pay_2' }], meta: { page: 1, per_page: 50, total: 120 } });
    }));
    const { router } = renderWithApp(<Payments />, { path: '/payments', url: '/payments?page=2&per_page=50' });
    expect(await screen.findByText('pay_2')).toBeInTheDocument();
    expect(queries[0]).toBe(`${PATH}?page=2&per_page=50`);
    expect(screen.getByText('120 rows')).toBeInTheDocument();
    expect(screen.getByLabelText('Rows per page', { selector: 'input' })).toHaveValue('50');

    const u = userEvent.setup();
    await u.click(screen.getByLabelText('Status', { selector: 'input' }));
    await u.click(await screen.findByRole('option', { name: 'failed', hidden: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?per_page=50&status=failed'));
    await waitFor(() => expect(queries.at(-1)).toBe(`${PATH}?page=1&per_page=50&status=failed`));
  });

  it('shows the error with a retry that asks again', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', vi.fn(async () => {
      calls++;
      return calls === 1
        ? json(400, { success: false, error: 'bad_request', message: 'No such page' })
        : json(200, { data: [{ payment_id: 'pay_9' }], meta: { page: 1, per_page: 20, total: 1 } });
    }));
    renderWithApp(<Payments />, { path: '/payments' });
    expect(await screen.findByText('No such page')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('pay_9')).toBeInTheDocument();
  });
});
