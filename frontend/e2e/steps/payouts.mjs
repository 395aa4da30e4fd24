// Money out (issue 20), step by step: an admin credits a balance by hand,
// a user sends payouts from the panel's form (confirmed with the password,
// no API secret), watches them settle in the list and the drawer, and the admin
// reads and changes the daily payout limits. Each function drives the real
// UI and throws on anything unexpected.
import { openScreen, pageHeading } from '../lib/helpers.mjs';
import { inr } from './user.mjs';
import { eventually, squash } from './money.mjs';

/** The admin credits `amount` to the user with this email from their page's "Adjust balance". */
export async function creditBalance(page, email, amount) {
  await openScreen(page, `/admin/users?q=${encodeURIComponent(email)}`, 'Users');
  await page.getByRole('row').filter({ hasText: email }).getByRole('link').first().click();
  await pageHeading(page, 'User', { exact: true }).waitFor();
  const card = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Adjust balance' }) });
  await card.getByLabel('Amount').fill(amount);
  await card.getByLabel('Reason').fill('Funds for payouts');
  await card.getByRole('button', { name: 'Credit balance…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Credit this balance?' });
  await confirm.getByRole('button', { name: 'Credit', exact: true }).click();
  await confirm.waitFor({ state: 'detached' });
  await eventually(async () => {
    const got = squash(await page.getByTestId('user-balance').innerText());
    return got === inr(amount) || `the user's page shows ${got}, want ${inr(amount)}`;
  }, 'the credited balance');
}

/** From anywhere in the panel: the navbar's Money › Payouts (a client-side move: secrets remembered in this tab stay). */
export async function goToPayouts(page) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Payouts', exact: true }).click();
  await pageHeading(page, 'Payouts', { exact: true }).waitFor();
}

/**
 * Sends a payout to a bank account with the new-payout form: the key chosen
 * (no secret asked), the fee and total checked against the quote, the
 * confirmation, then the password typed in its dialog (`wrongPassword`
 * first, when given, must be refused with nothing sent), and the answer shown.
 * @returns {Promise<{payoutId: string, status: string}>}
 */
export async function sendBankPayout(page, { key, password, wrongPassword, save, account, ifsc, name, amount, fee, total, narration }) {
  await page.getByRole('button', { name: 'New payout' }).click();
  const dialog = page.getByRole('dialog', { name: 'New payout' });
  const form = dialog.getByRole('form', { name: 'New payout' });
  await form.getByLabel('API key').click();
  await page.getByRole('option', { name: new RegExp(key) }).click();
  if (await form.locator('input[type="password"]').count()) throw new Error('the payout form asks for a secret');
  await form.getByLabel('Account number').fill(account);
  await form.getByLabel('IFSC').fill(ifsc);
  await form.getByLabel('Account holder’s name').fill(name);
  if (save) {
    // Saved once verified (the password first), then chosen from the list.
    await form.getByRole('button', { name: 'Add beneficiary' }).click();
    await confirmPassword(page, password);
    await form.getByTestId('saved-beneficiary').waitFor();
    const picked = await form.getByLabel('Pay to').inputValue();
    if (!picked.startsWith(`${name} · XXXXXXXX${account.slice(-4)}`)) throw new Error(`the picker shows "${picked}" after saving`);
  }
  await form.getByLabel('Amount').fill(amount);
  if (narration) await form.getByLabel('Narration').fill(narration);
  const reference = await form.getByLabel('Reference id').inputValue();
  if (!/^po_\w+$/.test(reference)) throw new Error(`the reference is prefilled as "${reference}"`);
  // The quote: fee and total before sending.
  await eventually(async () => {
    const f = squash(await form.getByTestId('quote-fee').innerText().catch(() => ''));
    const t = squash(await form.getByTestId('quote-total').innerText().catch(() => ''));
    return (f === inr(fee) && t === inr(total)) || `the quote shows fee "${f}", total "${t}"; want ${inr(fee)}, ${inr(total)}`;
  }, 'the quote');
  let sent = 0;
  const count = (r) => { if (new URL(r.url()).pathname === '/api/v1/panel/payouts' && r.method() === 'POST') sent++; };
  page.on('request', count);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/panel/payouts' && r.request().method() === 'POST',
    { timeout: 60_000 });
  await form.getByRole('button', { name: 'Review payout' }).click();
  await form.getByTestId('payout-confirm').getByRole('button', { name: 'Send payout' }).click();
  if (!save) await confirmPassword(page, password, wrongPassword, () => sent); // else the credential of the save is still live
  const r = await answered;
  page.off('request', count);
  const credential = await r.request().headerValue('x-payout-authorization');
  if (!credential) throw new Error('the payout was sent without its payout credential');
  const body = await r.json();
  if (r.status() !== 200) throw new Error(`the transfer answered ${r.status()}: ${JSON.stringify(body)}`);
  const result = dialog.getByTestId('payout-result');
  await result.waitFor();
  const payoutId = squash(await result.getByTestId('payout-id').innerText());
  if (payoutId !== body.data.payout_id || !/^pout_[0-9A-Z]{26}$/.test(payoutId)) throw new Error(`the result shows payout ${payoutId}, the API ${body.data.payout_id}`);
  if (body.data.reference_id !== reference) throw new Error(`the payout's reference is ${body.data.reference_id}, the form's ${reference}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  return { payoutId, status: body.data.status };
}

/** Types the password in its dialog (`wrongPassword` first, when given, must be refused with nothing sent). */
async function confirmPassword(page, password, wrongPassword, sent = () => 0) {
  const ask = page.getByRole('dialog', { name: 'Confirm your password' });
  await ask.waitFor();
  const input = ask.locator('input[type="password"]');
  if (wrongPassword) {
    await input.fill(wrongPassword);
    await ask.getByRole('button', { name: 'Confirm' }).click();
    await ask.getByText('The password is incorrect').waitFor();
    if (sent() !== 0) throw new Error('a payout was sent after a wrong password');
  }
  await input.fill(password);
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await ask.waitFor({ state: 'detached' });
}

/** The payouts table's row of a payout. */
export function payoutRow(page, payoutId) {
  return page.getByRole('table', { name: 'Payouts' }).getByRole('row').filter({ hasText: payoutId });
}

/** Waits (the list polls while a payout is in flight) until the payout's row shows `status`. */
export async function expectPayoutStatus(page, payoutId, status, timeout = 20_000) {
  await payoutRow(page, payoutId).getByText(status, { exact: true }).waitFor({ timeout });
}

/** Opens the payout's drawer and returns its detail panel. */
export async function openPayout(page, payoutId) {
  await payoutRow(page, payoutId).getByText(payoutId).click();
  const detail = page.getByTestId('payout-detail');
  await detail.waitFor();
  return detail;
}
