import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RolePlanCard } from './ProfileCard';
import { json, renderWithApp } from '../../../test/render';
import { session } from '../../../auth/session';
import { signInAsAdmin, stubApi, user } from '../test/fixtures';

beforeEach(signInAsAdmin);
afterEach(async () => {
  cleanup();
  await session.signOut();
});

describe('the role and fee card', () => {
  it('sets the collection fee, sending only what changed', async () => {
    const asha = user({ status: 'active', collection_fee_percent: '0.00' });
    const calls = stubApi({ 'PATCH /api/v1/panel/users/7': () => json(200, { ...asha, collection_fee_percent: '1.50' }) });
    renderWithApp(<RolePlanCard user={asha} isSelf={false} />);
    const u = userEvent.setup();
    const fee = screen.getByRole('textbox', { name: /Collection fee/ });
    expect(fee).toHaveValue('0.00');
    expect(screen.getByRole('button', { name: 'Save role and fee' })).toBeDisabled();

    await u.clear(fee);
    await u.type(fee, '100.5');
    await u.click(screen.getByRole('button', { name: 'Save role and fee' }));
    expect(await screen.findByText('A percentage from 0 to 100, at most 2 decimals')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await u.clear(fee);
    await u.type(fee, '1.5');
    await u.click(screen.getByRole('button', { name: 'Save role and fee' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toEqual({ collection_fee_percent: '1.5' });
  });

  it('puts the API’s fee error on the field', async () => {
    const asha = user({ status: 'active' });
    stubApi({ 'PATCH /api/v1/panel/users/7': () => json(422, { success: false, message: 'Invalid parameters', error: 'validation_failed',
      request_id: 'req_01J9Z8X4K3M2N1P0Q9R8S7T6V5', errors: { collection_fee_percent: ['must be a percentage from 0 to 100 with at most 2 decimals'] } }) });
    renderWithApp(<RolePlanCard user={asha} isSelf={false} />);
    const u = userEvent.setup();
    const fee = screen.getByRole('textbox', { name: /Collection fee/ });
    await u.clear(fee);
    await u.type(fee, '2');
    await u.click(screen.getByRole('button', { name: 'Save role and fee' }));
    expect(await screen.findByText('must be a percentage from 0 to 100 with at most 2 decimals')).toBeInTheDocument();
    expect(fee).toHaveAttribute('aria-invalid', 'true');
  });
});
