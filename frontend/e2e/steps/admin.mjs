// Admin screens, step by step. Each function drives the real UI from the
// page of a signed-in admin and throws on anything unexpected.
import { expectPath, openScreen, pageHeading } from '../lib/helpers.mjs';

/** The input labelled exactly `label` (a required field's label ends with " *"). */
function field(page, label) {
  return page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
}

/** INR as the panel shows it (formatINR): "0.5000" → "₹0.50", "0.1250" → "₹0.125". */
function inr(amount) {
  const [int, frac = ''] = amount.split('.');
  let f = frac.replace(/0+$/, '');
  if (f.length < 2) f = f.padEnd(2, '0');
  const last3 = int.slice(-3);
  const rest = int.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `₹${rest ? `${rest},${last3}` : last3}.${f}`;
}

/**
 * Creates a service through /admin/services/new (headers, parameters, docs)
 * and its default pricing row.
 * @param {import('playwright-core').Page} page signed in as admin
 * @param {{name: string, slug: string, providerUrl: string, method: 'GET'|'POST',
 *          params: {name: string, type: string, required?: boolean}[],
 *          price: {admin_cost: string, reseller_price: string, user_price: string}}} service
 * @returns {Promise<{id: number}>}
 */
export async function createServiceWithPricing(page, service) {
  await openScreen(page, '/admin/services', 'Manage services');
  await page.getByRole('link', { name: 'New service' }).click();
  await pageHeading(page, 'New service', { exact: true }).waitFor();

  await field(page, 'Name').fill(service.name);
  await field(page, 'Slug').fill(service.slug);
  await field(page, 'Category').fill(service.category ?? 'e2e');
  await field(page, 'Method').selectOption(service.method);
  await field(page, 'Description').fill(`${service.name}, created by the e2e flow`);
  await field(page, 'Provider URL').fill(service.providerUrl);
  // A write-only credential, sent upstream through a header.
  const providerKey = `pk-${service.slug}`;
  await field(page, 'Provider key').fill(providerKey);
  await page.getByRole('button', { name: 'Add header' }).click();
  await page.getByLabel('Header 1 name').fill('X-Api-Key');
  await page.getByLabel('Header 1 value').fill('{provider_key}');

  for (const [i, p] of service.params.entries()) {
    await page.getByRole('button', { name: 'Add parameter' }).click();
    const n = i + 1;
    await page.getByLabel(`Parameter ${n} name`).fill(p.name);
    await page.getByLabel(`Parameter ${n} type`).selectOption(p.type);
    if (p.required) await page.getByLabel(`Parameter ${n} required`).check();
    await page.getByLabel(`Parameter ${n} description`).fill(`The ${p.name}`);
  }

  await field(page, 'What a call does').fill(`Calls ${service.name} with ${service.params.map((p) => p.name).join(' and ')}.`);
  await page.getByRole('button', { name: 'Add error code' }).click();
  await field(page, 'Error code 1').fill('422');
  await page.getByLabel('Error code 1 meaning').fill('A parameter is missing or invalid');

  await field(page, 'Admin cost').fill(service.price.admin_cost);
  await field(page, 'Reseller price').fill(service.price.reseller_price);
  await field(page, 'User price').fill(service.price.user_price);
  await page.getByRole('button', { name: 'Create service' }).click();

  await page.waitForURL((u) => /^\/admin\/services\/\d+$/.test(u.pathname));
  await pageHeading(page, 'Edit service', { exact: true }).waitFor();
  const id = parseInt(new URL(page.url()).pathname.split('/').pop(), 10);

  // What was saved comes back: the parameters, the key only as "set", the default price.
  await page.getByTestId('service-name').getByText(service.name, { exact: true }).waitFor();
  // (The API keeps parameters in a map: they come back in name order.)
  const names = [];
  for (let i = 1; i <= service.params.length; i++) names.push(await page.getByLabel(`Parameter ${i} name`).inputValue());
  const want = service.params.map((p) => p.name).sort();
  if (names.sort().join() !== want.join()) throw new Error(`the parameters read ${names}, want ${want}`);
  await page.getByTestId('provider-key-state').getByText('set', { exact: true }).waitFor();
  if ((await field(page, 'Provider key').inputValue()) !== '') throw new Error('the provider key was shown back');
  if ((await page.content()).includes(providerKey)) throw new Error('the provider key is in the page');
  const defaultRow = page.getByTestId('pricing').getByRole('row').filter({ hasText: 'Default' });
  await defaultRow.getByText(inr(service.price.user_price), { exact: true }).waitFor();
  await defaultRow.getByText(inr(service.price.admin_cost), { exact: true }).waitFor();
  return { id };
}

/** Activates the pending user with this email from /admin/users. */
export async function activateUser(page, email) {
  await openScreen(page, `/admin/users?q=${encodeURIComponent(email)}`, 'Users');
  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByTestId('user-status').getByText('pending', { exact: true }).waitFor();
  await row.getByRole('button', { name: `Activate ${email}` }).click();
  await row.getByTestId('user-status').getByText('active', { exact: true }).waitFor();
  // The user's page agrees (it reads the user again).
  await row.getByRole('link').first().click();
  await pageHeading(page, 'User', { exact: true }).waitFor();
  await page.getByText(email).first().waitFor();
  await page.getByTestId('user-status').getByText('active', { exact: true }).waitFor();
}

/** Approves the user's pending balance request from /admin/balance-requests (after looking at its screenshot). */
export async function approveBalanceRequest(page, email) {
  await openScreen(page, '/admin/balance-requests', 'Balance requests');
  // Pending is the default view; rows name the user once their account is loaded.
  const who = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const review = page.getByRole('button', { name: new RegExp(`^Review request \\d+ of ${who}$`) }).first();
  await review.waitFor();
  const id = /request (\d+) of/.exec(await review.getAttribute('aria-label'))[1];
  await review.click();
  const dialog = page.getByRole('dialog', { name: `Balance request #${id}` });
  const shot = dialog.getByTestId('screenshot');
  await shot.waitFor();
  await page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await shot.elementHandle());
  await dialog.getByLabel('Remarks').fill('Matched the bank statement');
  await dialog.getByRole('button', { name: /^Approve and credit/ }).click();
  await dialog.waitFor({ state: 'detached' });
  // It left the pending queue and shows as approved.
  await page.getByRole('button', { name: `Review request ${id} of ${email}` }).waitFor({ state: 'detached' });
  await page.locator('label').filter({ hasText: /^Approved$/ }).click();
  await expectPath(page, '/admin/balance-requests?status=approved');
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `View request ${id} of ${email}` }) });
  await row.getByTestId('request-status').getByText('approved', { exact: true }).waitFor();
}
