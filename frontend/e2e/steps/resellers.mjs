// Resellers (issue 34), step by step: the admin creates a reseller, the
// reseller creates a customer, sets a selling price, funds the customer,
// and reads its commission on the dashboard. Each function drives the real
// UI and throws on anything unexpected.
import { expectPath, openScreen, pageHeading } from '../lib/helpers.mjs';
import { inr } from './user.mjs';
import { eventually, squash } from './money.mjs';

/** The admin's Users › "New user" with a role; returns the first password shown once. */
export async function createUserAs(page, { name, email, phone, role }) {
  await openScreen(page, '/admin/users', 'Users');
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
  await dialog.getByRole('textbox', { name: /^Email/ }).fill(email);
  await dialog.getByRole('textbox', { name: /^Phone/ }).fill(phone);
  await dialog.getByLabel('Role', { exact: true }).click();
  await page.getByRole('option', { name: role === 'reseller' ? 'Reseller' : 'User', exact: true }).click();
  await dialog.getByRole('button', { name: 'Create user' }).click();
  const done = page.getByTestId('new-user-created');
  const password = squash(await done.getByTestId('new-user-password').innerText());
  await done.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL((u) => /^\/admin\/users\/\d+$/.test(u.pathname));
  return password;
}

/** The reseller's Customers › "New customer" with a first password; lands on the customer's page. */
export async function createCustomer(page, { name, email, phone, password }) {
  await navTo(page, 'Customers', 'Customers');
  await page.getByRole('button', { name: 'New customer' }).click();
  const form = page.getByRole('form', { name: 'New customer' });
  await form.getByRole('textbox', { name: /^Name/ }).fill(name);
  await form.getByRole('textbox', { name: /^Email/ }).fill(email);
  await form.getByRole('textbox', { name: /^Phone/ }).fill(phone);
  await form.locator('input[autocomplete="new-password"]').fill(password);
  await form.getByRole('button', { name: 'Create customer' }).click();
  await page.waitForURL((u) => /^\/customers\/\d+$/.test(u.pathname));
  await pageHeading(page, name, { exact: true }).waitFor();
  return { id: parseInt(new URL(page.url()).pathname.split('/').pop(), 10) };
}

/**
 * The customer's side of its invite: the mailed link (the log adapter's line for `email`) opens
 * "Choose a password" (a new account's: no word of sessions signed out); setting the password
 * confirms the email and activates the account. `shot(page, name)` screenshots the page if given.
 */
export async function confirmInvite(page, server, { email, password }, shot) {
  let mail;
  for (let i = 0; i < 50 && !mail; i++) {
    mail = server.mails(email).find((m) => m.subject === 'Confirm your email and set your password');
    if (!mail) await new Promise((res) => setTimeout(res, 100));
  }
  if (!mail || !/\/reset-password\?token=pi_/.test(mail.link)) throw new Error(`no invite mailed to ${email}: ${JSON.stringify(server.mails(email))}`);
  await page.goto(mail.link);
  await pageHeading(page, 'Choose a password', { exact: true }).waitFor();
  if (shot) await shot(page, 'customer-invite-choose-password');
  await page.locator('input[autocomplete="new-password"]').nth(0).fill(password);
  await page.locator('input[autocomplete="new-password"]').nth(1).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  const done = page.getByRole('status').filter({ hasText: 'your password is set and your account is active' });
  await done.waitFor();
  if (/session/i.test(await page.locator('body').innerText())) throw new Error('the new customer is told of sessions signed out');
}

/** From the navbar (a client-side move). */
export async function navTo(page, link, heading) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: link, exact: true }).click();
  await pageHeading(page, heading, { exact: true }).waitFor();
}

/**
 * On Prices: a price below the reseller's cost is refused beside the field
 * (422 below_cost), then `price` is saved and the row shows it as what
 * customers pay, with the margin.
 */
export async function setSellingPrice(page, { serviceName, below, price, margin }) {
  await navTo(page, 'Prices', 'Prices');
  const row = page.getByRole('table', { name: 'Selling prices' }).getByRole('row').filter({ hasText: serviceName });
  await row.getByRole('button', { name: `Set the price of ${serviceName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Price of ${serviceName}` });
  const field = dialog.getByRole('textbox', { name: /^Selling price \(/ });
  await field.fill(below);
  const refused = page.waitForResponse((r) => r.url().includes('/api/v1/panel/customer-prices/') && r.request().method() === 'PUT');
  await dialog.getByRole('button', { name: 'Save price' }).click();
  const r1 = await refused;
  if (r1.status() !== 422) throw new Error(`a price below cost answered ${r1.status()}, want 422`);
  const body = await r1.json();
  if (body.error !== 'below_cost') throw new Error(`a price below cost answered code ${body.error}, want below_cost`);
  if ((await field.getAttribute('aria-invalid')) !== 'true') throw new Error('the refused price field is not aria-invalid');
  await field.fill(price);
  await dialog.getByRole('button', { name: 'Save price' }).click();
  await dialog.waitFor({ state: 'detached' });
  await eventually(async () => {
    const got = squash(await row.getByTestId('effective-price').innerText());
    return got === inr(price) || `the row shows ${got}, want ${inr(price)}`;
  }, 'the effective price');
  const m = squash(await row.getByTestId('margin').innerText());
  if (m !== inr(margin)) throw new Error(`the margin reads ${m}, want ${inr(margin)}`);
}

/** On the customer's page: "Add money" `amount`, confirmed; the customer's balance becomes `balance`. */
export async function fundCustomer(page, { customerId, amount, balance }) {
  await openScreen(page, '/customers', 'Customers');
  await page.locator(`a[href="/customers/${customerId}"]`).first().click();
  await page.waitForURL((u) => u.pathname === `/customers/${customerId}`);
  const form = page.getByRole('form', { name: 'Move money' });
  await form.getByRole('textbox', { name: /^Amount/ }).fill(amount);
  await form.getByRole('button', { name: 'Add money' }).click();
  const confirm = page.getByTestId('transfer-confirm');
  await confirm.getByText(`Move ${inr(amount)} from your balance`).waitFor();
  const sent = page.waitForRequest((r) => /\/customers\/\d+\/transfers$/.test(new URL(r.url()).pathname) && r.method() === 'POST');
  await confirm.getByRole('button', { name: 'Confirm: add money' }).click();
  const req = await sent;
  if (!req.headers()['idempotency-key']) throw new Error('the transfer was sent without an Idempotency-Key');
  const res = await req.response();
  if (res.status() !== 201) throw new Error(`the transfer answered ${res.status()}: ${await res.text()}`);
  await eventually(async () => {
    const got = squash(await page.getByTestId('customer-detail-balance').innerText());
    return got === inr(balance) || `the customer's balance shows ${got}, want ${inr(balance)}`;
  }, "the customer's balance");
  await page.getByRole('table', { name: 'Transfers' }).getByTestId('transfer-amount').getByText(inr(amount)).first().waitFor();
}

/**
 * The first instant at least `graceMin` minutes after the current commission
 * hour closes: commission hours are UTC hours (issue 43), which close at :30
 * in Asia/Kolkata, so a local hour would miss calls made in its first half.
 */
export function afterThisHourCloses(graceMin = 3) {
  const nextHour = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;
  return new Date(nextHour + graceMin * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The reseller's dashboard shows `settled` as commission settled, and a settlement row of it. */
export async function expectCommissionSettled(page, { settled, accrued, customerName }) {
  await openScreen(page, '/dashboard', 'Dashboard');
  await page.reload();
  await pageHeading(page, 'Dashboard', { exact: true }).waitFor();
  await eventually(async () => {
    const got = squash(await page.getByTestId('reseller-commission-settled').innerText());
    return got === inr(settled) || `commission settled shows ${got}, want ${inr(settled)}`;
  }, 'commission settled');
  const acc = squash(await page.getByTestId('reseller-commission-accrued').innerText());
  if (acc !== inr(accrued)) throw new Error(`commission accrued shows ${acc}, want ${inr(accrued)}`);
  await page.getByTestId('reseller-customers').getByRole('row').filter({ hasText: customerName }).waitFor();
  await page.getByRole('table', { name: 'Commission settlements' }).getByTestId('settlement-amount').getByText(inr(settled)).waitFor();
}

/** On the customer's page, tab "Balance requests": approves the pending request with this UTR; the customer's balance becomes `balance`. */
export async function approveCustomerTopUp(page, { customerId, customerName, utr, balance }) {
  await openScreen(page, `/customers/${customerId}?tab=requests`, customerName);
  const row = page.getByRole('table', { name: 'Balance requests' }).getByRole('row').filter({ hasText: utr.toUpperCase() });
  await row.getByText('pending').waitFor();
  // The customer's payment screenshot first, as the reseller checks it.
  await row.getByRole('button', { name: /^View the screenshot of request/ }).click();
  const proof = page.getByRole('dialog', { name: /^Payment screenshot of request/ });
  const img = proof.getByTestId('screenshot');
  await img.waitFor();
  await eventually(async () => (await img.evaluate((el) => el.complete && el.naturalWidth > 0)) || 'the screenshot has not loaded', "the customer's screenshot");
  await page.keyboard.press('Escape');
  await proof.waitFor({ state: 'hidden' });
  await row.getByRole('button', { name: /^Approve request/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this top-up?' });
  const answered = page.waitForResponse((r) => /\/balance-requests\/\d+\/approve$/.test(new URL(r.url()).pathname));
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  const r = await answered;
  if (r.status() !== 200) throw new Error(`the approval answered ${r.status()}: ${await r.text()}`);
  await row.getByText('approved').waitFor();
  await eventually(async () => {
    const got = squash(await page.getByTestId('customer-detail-balance').innerText());
    return got === inr(balance) || `the customer's balance shows ${got}, want ${inr(balance)}`;
  }, "the customer's balance after the approval");
}

export { expectPath };
