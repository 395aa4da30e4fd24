// Money in (issue 19), step by step: a balance top-up and a merchant's
// payment paid on the upi_direct checkout page with a UTR, a bank statement
// imported by the admin that confirms them, the merchant's credit and a
// refund. Each function drives the real UI and throws on anything unexpected.
import { expectPath, openScreen, pageHeading } from '../lib/helpers.mjs';
import { inr } from './user.mjs';

/** Whitespace collapsed, for comparing what a screen says. */
const squash = (s) => s.replace(/\s+/g, ' ').trim();

/**
 * Fails unless the locator's text (whitespace collapsed) becomes exactly
 * `want` within 10 s: a figure may first render from one query and settle
 * when another arrives (a state code, then its name from /gst/states).
 */
async function expectText(locator, want, what) {
  await locator.waitFor();
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = squash(await locator.innerText());
    if (got === want) return;
    if (Date.now() > deadline) throw new Error(`${what}: "${got}", want "${want}"`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Waits until `fn` holds (polling), else fails with what it last saw. */
async function eventually(fn, what, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await fn();
    if (last === true) return;
    if (Date.now() > deadline) throw new Error(`${what}: ${last}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A 12-digit UTR (UPI reference) that begins with 4, as UPI ones do. */
export function newUTR() {
  return `4${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
}

/**
 * On the upi_direct checkout page the payer is on: checks the page (payee,
 * amount, live, the intent paying the platform's VPA with tr = the payment
 * id), types a malformed UTR (refused beside the field), then `utr`, and
 * waits for "Awaiting confirmation".
 * @returns {Promise<string>} the payment id read from the address
 */
export async function payWithUTR(page, { payee, amount, vpa, upiName, utr }) {
  await page.waitForURL((u) => /^\/pay_[0-9A-Z]{26}$/.test(u.pathname));
  const id = new URL(page.url()).pathname.slice(1);
  await pageHeading(page, `Pay ${payee}`, { exact: true }).waitFor();
  await expectText(page.locator('.amount'), `₹${amount}`, 'the amount on the checkout page');
  await expectText(page.locator('#status'), 'pending', 'the status once opened');
  if (await page.locator('#test-mode').count()) throw new Error('a upi_direct payment shows the test-mode banner');
  const intent = await page.getByRole('link', { name: 'Pay with a UPI app' }).getAttribute('href');
  const wantIntent = `upi://pay?pa=${vpa}&pn=${encodeURIComponent(upiName)}&am=${amount.replace(/,/g, '')}&cu=INR&tr=${id}`;
  if (intent !== wantIntent) throw new Error(`the UPI intent is ${intent}, want ${wantIntent}`);
  await page.getByRole('img', { name: 'UPI QR code for this payment' }).waitFor();
  if (await page.getByRole('button', { name: 'Pay', exact: true }).count()) throw new Error('upi_direct shows the sandbox buttons');

  // A UTR that is not 12 digits: the page again (422), the reason beside the field, which has the focus.
  const field = page.getByLabel('After paying, enter the UTR');
  await field.fill(utr.slice(0, 10));
  const refused = page.waitForResponse((r) => r.url().endsWith(`/${id}/utr`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Submit UTR' }).click();
  if ((await refused).status() !== 422) throw new Error(`a 10-digit UTR answered ${(await refused).status()}, want 422`);
  await expectText(page.getByRole('alert'), 'Enter the 12 digits of the UTR (UPI reference number), without spaces.', 'the UTR error');
  if ((await field.getAttribute('aria-invalid')) !== 'true') throw new Error('the refused UTR field is not aria-invalid');
  if (!(await field.evaluate((el) => el === document.activeElement))) throw new Error('the refused UTR field does not have the focus');
  if (await page.locator('#awaiting').count()) throw new Error('a refused UTR shows "Awaiting confirmation"');

  await field.fill(utr);
  const taken = page.waitForResponse((r) => r.url().endsWith(`/${id}/utr`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Submit UTR' }).click();
  if ((await taken).status() !== 303) throw new Error(`the UTR answered ${(await taken).status()}, want 303 back to the page`);
  await page.waitForURL((u) => u.pathname === `/${id}`);
  await expectText(page.locator('#awaiting'),
    `Awaiting confirmation. We have your UTR ${utr}; the payment completes once it appears in our bank statement. If this UTR is wrong, ask the merchant to correct it.`, 'after the UTR');
  await expectText(page.locator('#status'), 'pending', 'the status awaiting confirmation');
  // One UTR per payment from the page: a mistyped one is corrected by an admin.
  if (await page.locator('input[name="utr"]').count()) throw new Error('the page still offers to replace the UTR');
  if (await page.getByRole('alert').count()) throw new Error('the error is still shown after a good UTR');
  return id;
}

/** From /balance-requests: "Pay by UPI" for `amount`, which opens the checkout page. */
export async function startTopUp(page, amount) {
  await openScreen(page, '/balance-requests', 'Add balance');
  const form = page.getByRole('form', { name: 'Pay by UPI' });
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Pay by UPI' }).click();
}

/** Fails unless the dashboard shows `balance` (an API amount string). */
export async function expectBalance(page, balance) {
  await openScreen(page, '/dashboard', 'Dashboard');
  const want = inr(balance);
  await eventually(async () => {
    const got = squash(await page.getByTestId('dashboard-balance').innerText());
    return got === want || `the dashboard shows ${got}, want ${want}`;
  }, 'balance');
}

/** The gateway API as a merchant's server calls it: Bearer <key secret>. */
export async function gateway(baseURL, secret, method, path, body) {
  const r = await fetch(`${baseURL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body && JSON.stringify(body),
  });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
  }
  return { status: r.status, json };
}

/**
 * A bank statement as the bank exports it: a preamble, the header
 * "Date, Narration, Ref No, Debit, Credit, Balance", quoted narrations,
 * Indian digit grouping, blank debit cells, one debit and a trailing
 * summary row. `credits`: {utr, amount, narration}.
 */
export function statementCSV(credits, date) {
  const q = (s) => `"${String(s).replace(/"/g, '""')}"`;
  const grouped = (v) => new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v);
  // Balances are a running total in paise (BigInt: exact).
  let bal = 10_000_000n; // ₹1,00,000.00 opening
  const rupees = (p) => `${p / 100n}.${String(p % 100n).padStart(2, '0')}`;
  const paise = (s) => BigInt(s.replace('.', ''));
  const rows = [
    q('PAYGATE TECHNOLOGIES PVT LTD'),
    [q('Account No :'), q('XXXXXXXX4521'), q(''), q('Branch :'), q('MG ROAD, BENGALURU')].join(','),
    '',
    'Date,Narration,Ref No,Debit,Credit,Balance',
  ];
  let credited = 0n;
  for (const c of credits) {
    bal += paise(c.amount);
    credited += paise(c.amount);
    rows.push([date, q(c.narration), c.utr, '', q(grouped(rupees(paise(c.amount)))), q(grouped(rupees(bal)))].join(','));
  }
  bal -= 250_000n;
  rows.push([date, q('NEFT/N0123456789/RENT, MG ROAD OFFICE'), 'N0123456789', q('2,500.00'), '', q(grouped(rupees(bal)))].join(','));
  rows.push([q('Total'), '', '', q('2,500.00'), q(grouped(rupees(credited))), q(grouped(rupees(bal)))].join(','));
  return `${rows.join('\r\n')}\r\n`;
}

/** The admin's /admin/reconciliation: imports `file` and returns the result's text. */
export async function importStatement(page, file) {
  await openScreen(page, '/admin/reconciliation', 'Reconciliation');
  const form = page.getByRole('form', { name: 'Import a statement' });
  await form.locator('input[type="file"]').setInputFiles(file);
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/panel/reconciliation/statements' && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Import', exact: true }).click();
  const r = await answered;
  if (r.status() !== 201 && r.status() !== 200) throw new Error(`the import answered ${r.status()}: ${await r.text()}`);
  const result = form.getByTestId('import-result');
  await result.waitFor();
  return squash(await result.innerText());
}

/** The lines' tab (Unmatched, Matched, Dismissed) of the reconciliation screen. */
export async function showLines(page, tab) {
  await page.getByRole('radiogroup', { name: 'Lines' }).locator('label').filter({ hasText: new RegExp(`^${tab}$`) }).click();
  if (tab !== 'Unmatched') await expectPath(page, `/admin/reconciliation?status=${tab.toLowerCase()}`);
}

/** The data rows of the statement lines' table (none when it shows its empty state). */
export function lineRows(page) {
  return page.getByRole('table', { name: 'Statement lines' }).locator('tbody tr');
}

export { squash, expectText, eventually };
