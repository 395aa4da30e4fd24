// Tax invoices and statements (issue 32), step by step: an admin fills the
// billing settings, a user their billing details, the month is issued with
// the server's CLI (`server invoices issue`, as an operator runs it), and
// the user reads the invoice, downloads its PDF and the month's statement.
// Each function drives the real UI and throws on anything unexpected.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { openScreen, pageHeading } from '../lib/helpers.mjs';
import { inr } from './user.mjs';
import { eventually, expectText, squash } from './money.mjs';

/** The input labelled exactly `label` (a required field's label ends with " *"). */
function field(scope, label) {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
}

/** Picks `option` ("Maharashtra (27)") in the searchable select labelled `label`. */
async function choose(page, scope, label, option) {
  const input = field(scope, label);
  await input.click();
  await input.fill(option.split(' ')[0]);
  await page.getByRole('option', { name: option, exact: true }).click();
  const got = await input.inputValue();
  if (got !== option) throw new Error(`${label} reads "${got}" after choosing ${option}`);
}

/** The month of `d` in Asia/Kolkata ("2026-11"), and the first instant of the next one in RFC 3339 ("2026-12-01T00:00:00+05:30"). */
export function kolkataMonth(d = new Date()) {
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit' }).format(d).slice(0, 7);
  const [y, m] = month.split('-').map((x) => parseInt(x, 10));
  const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  return { month, nextMonthStart: `${next}-01T00:00:00+05:30` };
}

/** "2026-11" → "November 2026" (short: "Nov 2026"), as the panel writes a month. */
export function monthName(month, style = 'long') {
  const [y, m] = month.split('-').map((x) => parseInt(x, 10));
  return new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', month: style, year: 'numeric' }).format(new Date(Date.UTC(y, m - 1, 1)));
}

/** From the navbar: `group` › `label`, then the screen's heading. */
async function navigate(page, label, heading = label) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: label, exact: true }).click();
  await pageHeading(page, heading, { exact: true }).waitFor();
}

/**
 * On /admin/billing-settings: the notice says invoices cannot be issued;
 * a GSTIN with a wrong check character is refused by the server beside the
 * field; the supplier is saved and the notice goes.
 * @param {{legalName: string, address: string, state: string, gstin: string, badGstin: string, pan: string,
 *          bank: {name: string, account: string, number: string, ifsc: string}, upi: string}} s
 */
export async function fillBillingSettings(page, s, { beforeSave } = {}) {
  await navigate(page, 'Billing settings');
  const form = page.getByRole('form', { name: 'Billing settings' });
  await form.waitFor();
  await expectText(page.getByTestId('billing-incomplete').locator('.mantine-Alert-title'), 'Invoices cannot be issued yet', 'the notice of fresh settings');
  if ((await field(form, 'Invoice prefix').inputValue()) !== 'PG') throw new Error('the invoice prefix should start as PG');
  if ((await field(form, 'Default SAC code').inputValue()) !== '998319') throw new Error('the default SAC should start as 998319');
  await field(form, 'Legal name').fill(s.legalName);
  await field(form, 'Address').fill(s.address);
  await choose(page, form, 'State', s.state);
  await field(form, 'PAN').fill(s.pan);
  await field(form, 'Bank name').fill(s.bank.name);
  await field(form, 'Account name').fill(s.bank.account);
  await field(form, 'Account number').fill(s.bank.number);
  await field(form, 'IFSC').fill(s.bank.ifsc);
  await field(form, 'UPI address').fill(s.upi);

  // A well-shaped GSTIN with a wrong check character: the server's 422, beside the field.
  const gstin = field(form, 'GSTIN');
  await gstin.fill(s.badGstin);
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/v1/panel/settings/billing') && r.request().method() === 'PUT');
  await form.getByRole('button', { name: 'Save billing settings' }).click();
  if ((await refused).status() !== 422) throw new Error(`a GSTIN with a wrong check character answered ${(await refused).status()}, want 422`);
  await eventually(async () => (await gstin.getAttribute('aria-invalid')) === 'true' || 'the GSTIN field is not marked invalid', 'the refused GSTIN');
  const error = squash(await page.locator(`#${await gstin.getAttribute('id')}-error`).innerText());
  if (!/GSTIN|check/i.test(error)) throw new Error(`the GSTIN error reads "${error}"`);
  if (await form.getByRole('alert').count()) throw new Error(`an error shows above the form: ${await form.getByRole('alert').innerText()}`);

  await gstin.fill(s.gstin);
  if (beforeSave) await beforeSave(form);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1/panel/settings/billing') && r.request().method() === 'PUT');
  await form.getByRole('button', { name: 'Save billing settings' }).click();
  if ((await saved).status() !== 200) throw new Error(`saving the billing settings answered ${(await saved).status()}: ${await (await saved).text()}`);
  await page.getByText('Billing settings saved').waitFor();
  await page.getByTestId('billing-incomplete').waitFor({ state: 'detached' });
  await form.getByTestId('billing-settings-saved').getByText(/^Last saved /).waitFor();
  // What was saved comes back.
  await page.reload();
  await pageHeading(page, 'Billing settings', { exact: true }).waitFor();
  if ((await field(form, 'GSTIN').inputValue()) !== s.gstin) throw new Error('the GSTIN did not come back');
  await eventually(async () => {
    const got = await field(form, 'State').inputValue();
    return got === s.state || `the state reads "${got}" after a reload, want ${s.state}`;
  }, 'the saved state');
  if (await page.getByTestId('billing-incomplete').count()) throw new Error('the notice is back after a reload');
}

/**
 * On Profile: the card "Billing details (for tax invoices)" — a GSTIN of
 * another state is refused before sending, then the profile is saved.
 * @param {{legalName: string, address: string, state: string, gstin: string}} b
 */
export async function setBillingDetails(page, b) {
  await navigate(page, 'Profile', 'Profile and sessions');
  const card = page.getByRole('form', { name: 'Billing details' });
  await card.waitFor();
  await expectText(card.getByTestId('billing-profile-saved'), 'Not set', 'the billing details of a new account');
  await field(card, 'Legal name').fill(b.legalName);
  await field(card, 'Billing address').fill(b.address);
  await choose(page, card, 'State', b.state);
  // The supplier's GSTIN (Maharashtra) under Karnataka: refused beside the field, nothing sent.
  const gstin = field(card, 'GSTIN (optional)');
  await gstin.fill('27AAPFU0939F1ZV');
  await card.getByRole('button', { name: 'Save billing details' }).click();
  await card.getByText(/^This GSTIN is registered in state 27, not in the state chosen/).waitFor();
  await gstin.fill(b.gstin.toLowerCase());
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1/panel/auth/me') && r.request().method() === 'PATCH');
  await card.getByRole('button', { name: 'Save billing details' }).click();
  if ((await saved).status() !== 200) throw new Error(`saving the billing details answered ${(await saved).status()}: ${await (await saved).text()}`);
  await page.getByText('Your billing details are saved: your next invoices are made out to them').waitFor();
  await card.getByTestId('billing-profile-saved').getByText(/^Saved /).waitFor();
  if ((await gstin.inputValue()) !== b.gstin) throw new Error(`the GSTIN reads ${await gstin.inputValue()} after saving, want ${b.gstin}`);
}

/** On Profile: moves the saved billing details to another state (`gstin` may be '' for none), and saves them. */
export async function moveBillingDetails(page, { state, gstin }) {
  await navigate(page, 'Profile', 'Profile and sessions');
  const card = page.getByRole('form', { name: 'Billing details' });
  await card.getByTestId('billing-profile-saved').getByText(/^Saved /).waitFor();
  await choose(page, card, 'State', state);
  await field(card, 'GSTIN (optional)').fill(gstin);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1/panel/auth/me') && r.request().method() === 'PATCH');
  await card.getByRole('button', { name: 'Save billing details' }).click();
  if ((await saved).status() !== 200) throw new Error(`moving the billing details answered ${(await saved).status()}: ${await (await saved).text()}`);
}

/**
 * Fails unless the rendered contents of `a` and `b` (their text as laid
 * out, overflow included, not their boxes) are apart, and each lies within
 * the screen's width.
 */
export async function expectApart(page, a, b, what) {
  const extent = (el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    const { left, right, top, bottom } = r.getBoundingClientRect();
    return { left, right, top, bottom };
  };
  const [x, y] = [await a.evaluate(extent), await b.evaluate(extent)];
  const width = await page.evaluate(() => window.innerWidth);
  const overlap = x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;
  if (overlap || Math.max(x.right, y.right) > width + 0.5 || Math.min(x.left, y.left) < 0) {
    throw new Error(`${what} overlap or leave the screen (${width}px): ${JSON.stringify(x)} and ${JSON.stringify(y)}`);
  }
}

/** Calls the service `n` times with the key's credentials, as an integration would (not the browser). */
export async function callService(baseURL, { slug, key, secret, params }, n) {
  for (let i = 0; i < n; i++) {
    const r = await fetch(`${baseURL}/api/v1/${slug}`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'X-API-Secret': secret, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(params),
    });
    if (r.status !== 200) throw new Error(`call ${i + 1} of ${slug} answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  }
}

/**
 * Invoices › "This month so far": the draft has one line for the service
 * with `calls` calls at `price`, taxed as IGST, adding up to `gross`.
 */
export async function expectDraft(page, { month, service, calls, price, gross, recipient }) {
  await navigate(page, 'Invoices');
  const draft = page.getByRole('region', { name: 'This month so far' });
  await expectText(draft.getByTestId('upcoming-gross'), inr(gross), 'the draft total');
  await draft.getByText(`Your invoice for ${monthName(month)} as it stands now.`, { exact: false }).waitFor();
  await expectText(draft.getByTestId('upcoming-tax'), await igstText(draft), 'the draft tax');
  const lines = draft.getByRole('table', { name: `Your charges of ${monthName(month)} so far` });
  await lines.getByRole('columnheader', { name: 'IGST 18%' }).waitFor();
  if (await lines.getByRole('columnheader', { name: /CGST/ }).count()) throw new Error('the draft of a customer in another state has CGST');
  const row = lines.getByRole('row').filter({ hasText: service });
  const cells = (await row.getByRole('cell').allInnerTexts()).map(squash);
  if (cells[2] !== String(calls) || cells[3] !== inr(price) || cells.at(-1) !== inr(gross)) {
    throw new Error(`the draft's line reads ${JSON.stringify(cells)}, want ${calls} × ${inr(price)} = ${inr(gross)}`);
  }
  await draft.getByText(`Made out to ${recipient.legalName} (GSTIN ${recipient.gstin}).`, { exact: false }).waitFor();
}

/** "IGST ₹0.23" read back from the draft, checked for shape. */
async function igstText(scope) {
  const t = squash(await scope.getByTestId('upcoming-tax').innerText());
  if (!/^IGST ₹\d+\.\d{2}$/.test(t)) throw new Error(`the draft's tax reads "${t}", want IGST ₹…`);
  return t;
}

/**
 * Issues `month`'s documents with the server's CLI, dated `at`, against the
 * e2e server's database, as an operator runs it. The flow issues the
 * current month at the start of the next, ahead of the clock: a test's
 * `--allow-future` (refused in production, and without it the command
 * refuses an instant later than the clock).
 * @returns {Promise<string>} what the command printed
 */
export async function issueMonth(server, month, at) {
  const out = await server.cli(['invoices', 'issue', '--month', month, '--at', at, '--allow-future']);
  const line = out.split('\n').find((l) => l.startsWith('invoices issue '));
  if (!line || !/: 1 invoices?, 0 credit notes?$/.test(line)) throw new Error(`invoices issue printed: ${out}`);
  return line;
}

/** The issued documents' table row of `number`. */
export function invoiceRow(page, number) {
  // A table row on a desktop, a card (list item) below 48em.
  const rows = page.getByRole('table', { name: 'Invoices and credit notes' }).getByRole('row')
    .or(page.getByRole('list', { name: 'Invoices and credit notes' }).getByRole('listitem'));
  return rows.filter({ has: page.getByText(number, { exact: true }) });
}

/**
 * Invoices: the issued invoice is listed (the first of the financial
 * year); its drawer shows IGST and the place of supply. Returns its number.
 */
export async function openIssuedInvoice(page, { month, gross, placeOfSupply }) {
  await openScreen(page, '/invoices', 'Invoices');
  const table = page.getByRole('table', { name: 'Invoices and credit notes' });
  const link = table.getByRole('button', { name: /^Open invoice PG\/\d{2}-\d{2}\/000001$/ });
  await link.waitFor();
  const number = squash(await link.innerText());
  const row = invoiceRow(page, number);
  await row.getByText(monthName(month, 'short'), { exact: true }).filter({ visible: true }).waitFor();
  await row.getByText(inr(gross), { exact: true }).waitFor();
  await row.getByText(/^IGST ₹\d+\.\d{2}$/).waitFor();
  await link.click();
  const drawer = page.getByRole('dialog', { name: `Invoice ${number}` });
  await expectText(drawer.getByTestId('place-of-supply'), placeOfSupply, 'the place of supply');
  await expectText(drawer.getByTestId('invoice-gross'), inr(gross), 'the invoice total');
  await drawer.getByRole('table', { name: `Lines of ${number}` }).getByRole('columnheader', { name: 'IGST 18%' }).waitFor();
  return { number, drawer };
}

/** Clicks `button`, takes the download it starts, saves it in `dir`; its file name and path. */
export async function download(page, button, dir) {
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const name = dl.suggestedFilename();
  const path = join(dir, name);
  await dl.saveAs(path);
  const failure = await dl.failure();
  if (failure) throw new Error(`the download of ${name} failed: ${failure}`);
  return { name, path };
}

/** The text of a PDF (poppler's pdftotext, layout kept). */
export function pdfText(path) {
  return new Promise((res, rej) => {
    execFile('pdftotext', ['-layout', path, '-'], { timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) rej(new Error(`pdftotext ${path}: ${err.message} ${stderr}`));
      else res(stdout);
    });
  });
}

/** Fails unless the text has every one of `wants`. */
export function expectIn(text, wants, what) {
  const missing = wants.filter((w) => !text.includes(w));
  if (missing.length) throw new Error(`${what} lacks ${missing.map((m) => JSON.stringify(m)).join(', ')}:\n${text.slice(0, 1500)}`);
}

/**
 * Statements: the month's figures (opening, credits, debits, closing,
 * entries), as the user's ledger says they are.
 */
export async function expectStatement(page, { month, opening, credits, debits, closing, entries }) {
  await navigate(page, 'Statements');
  const st = page.getByRole('region', { name: `Statement for ${monthName(month)}` });
  await expectText(st.getByTestId('statement-opening'), inr(opening), 'the opening balance');
  await expectText(st.getByTestId('statement-credits'), inr(credits), 'the credits');
  await expectText(st.getByTestId('statement-debits'), inr(debits), 'the debits');
  await expectText(st.getByTestId('statement-closing'), inr(closing), 'the closing balance');
  await expectText(st.getByTestId('statement-entries'), String(entries), 'the entries');
  return st;
}
