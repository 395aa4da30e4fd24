// Plans that bill (issue 31), step by step: an admin adds a plan on the
// Plans screen and puts an account on a plan at an agreed price from the
// user's page; a user switches plan on "Plan and billing" after the quote
// and finds the charge in their ledger. Each function drives the real UI
// and throws on anything unexpected.
import { openScreen, pageHeading } from '../lib/helpers.mjs';
import { inr } from './user.mjs';
import { eventually, expectText, squash } from './money.mjs';

/** The input labelled exactly `label` (a required field's label ends with " *"). */
function field(scope, label) {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
}

/** "₹1,234.50" (as the panel shows an amount) → "1234.50". */
export function amountOf(shown) {
  const s = squash(shown).replace(/[₹,\s]/g, '');
  if (!/^-?\d+\.\d{2}$/.test(s)) throw new Error(`"${shown}" is not an amount`);
  return s;
}

/** a − b of two amounts with 2 places, exactly (in paise). */
export function minus(a, b) {
  const p = (s) => BigInt(s.replace('.', ''));
  const d = p(a) - p(b);
  const neg = d < 0n;
  const abs = (neg ? -d : d).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

/** The plans table's row of the plan named `name`. */
export function planRow(page, name) {
  // A table row on a desktop, a card (list item) below 48em.
  const rows = page.getByRole('table', { name: 'Plans' }).getByRole('row').or(page.getByRole('list', { name: 'Plans' }).getByRole('listitem'));
  return rows.filter({ has: page.getByText(name, { exact: true }) });
}

/**
 * Adds a plan on /admin/plans with the "New plan" dialog and finds it in the table.
 * @param {{code: string, name: string, price: string, calls: string, features: string[]}} plan
 */
export async function createPlan(page, plan) {
  await openScreen(page, '/admin/plans', 'Plans');
  await planRow(page, 'Starter').waitFor();
  await page.getByRole('button', { name: 'New plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'New plan' });
  await field(dialog, 'Name').fill(plan.name);
  await field(dialog, 'Code').fill(plan.code);
  await field(dialog, 'Monthly price (₹)').fill(plan.price);
  await field(dialog, 'Calls a month').fill(plan.calls);
  await dialog.getByLabel('Features').fill(plan.features.join('\n'));
  if (!(await dialog.getByLabel('Public: users may switch to it themselves').isChecked())) throw new Error('a new plan should start public');
  await dialog.getByRole('button', { name: 'Create plan' }).click();
  await dialog.waitFor({ state: 'detached' });
  const row = planRow(page, plan.name);
  await row.getByText(inr(plan.price), { exact: true }).waitFor();
  await row.getByText(`${Number(plan.calls).toLocaleString('en-IN')} calls a month`, { exact: true }).waitFor();
  await row.getByText('public', { exact: true }).waitFor();
  await row.getByText('active', { exact: true }).waitFor();
  for (const f of plan.features) await row.getByText(f, { exact: true }).waitFor();
}

/** The same code again: refused beside the Code field; the dialog is closed after. */
export async function expectCodeTaken(page, code) {
  await page.getByRole('button', { name: 'New plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'New plan' });
  await field(dialog, 'Name').fill('Duplicate');
  await field(dialog, 'Code').fill(code);
  await field(dialog, 'Monthly price (₹)').fill('1');
  await field(dialog, 'Calls a month').fill('1');
  await dialog.getByRole('button', { name: 'Create plan' }).click();
  await dialog.getByText(`A plan with the code “${code}” exists already: choose another code`).waitFor();
  if ((await field(dialog, 'Code').getAttribute('aria-invalid')) !== 'true') throw new Error('the taken code is not marked invalid');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/** From the navbar: Account › Plan and billing. */
export async function goToPlanAndBilling(page) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Plan and billing', exact: true }).click();
  await pageHeading(page, 'Plan and billing', { exact: true }).waitFor();
  await page.getByTestId('current-plan').waitFor();
}

/**
 * Switches to the plan named `name` on "Plan and billing": the quote's
 * confirmation first (the amount charged now), then the change.
 * @returns {Promise<{chargedNow: string}>} the amount the dialog said ("40.00")
 */
export async function switchPlan(page, name, { beforeConfirm } = {}) {
  await page.getByRole('article', { name }).getByRole('button', { name: `Switch to ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Switch to ${name}?` });
  const shown = dialog.getByTestId('quote-charge-now');
  await shown.waitFor();
  const chargedNow = amountOf(await shown.innerText());
  await dialog.getByText(/^Then ₹[\d,]+\.\d{2} a month from \d{2} \w{3} \d{4}\.$/).waitFor();
  if (beforeConfirm) await beforeConfirm(dialog);
  await dialog.getByRole('button', { name: `Pay ${inr(chargedNow)} and switch` }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByText(`${inr(chargedNow)} was charged for the rest of this month.`).waitFor();
  await expectText(page.getByTestId('current-plan'), name, 'the plan after the switch');
  return { chargedNow };
}

/** The user's ledger shows one plan_fee debit of `amount`. */
export async function expectPlanFee(page, amount) {
  await openScreen(page, '/transactions', 'Transactions');
  const fees = page.getByRole('table', { name: 'Transactions' }).getByRole('row').filter({ has: page.getByText(/^plan_fee #\d+$/) });
  await fees.getByText(inr(`-${amount}`), { exact: true }).waitFor();
  await fees.getByText('debit', { exact: true }).waitFor();
  if ((await fees.count()) !== 1) throw new Error(`${await fees.count()} plan fees in the ledger, want 1`);
}

/** Opens the user's page from /admin/users. */
export async function openUserPage(page, email) {
  await openScreen(page, `/admin/users?q=${encodeURIComponent(email)}`, 'Users');
  await page.getByRole('row').filter({ hasText: email }).getByRole('link').first().click();
  await pageHeading(page, 'User', { exact: true }).waitFor();
  await page.getByTestId('user-plan').waitFor();
}

/**
 * On the user's page (open): the plan card puts the account on `plan` at
 * `price`. Returns the card (a form named "Plan"); the caller checks what it says.
 */
export async function setUserPlan(page, { plan, price }) {
  const card = page.getByRole('form', { name: 'Plan' });
  await field(card, 'Plan').click();
  await page.getByRole('option', { name: new RegExp(`^${plan}:`) }).click();
  const priceInput = field(card, 'Monthly price (₹)');
  if (price === undefined) {
    await priceInput.fill('');
  } else {
    // A custom-price plan: the price is required, and the form says so before sending.
    await priceInput.fill('');
    await card.getByRole('button', { name: 'Set plan' }).click();
    await card.getByText('This plan’s price is agreed per account: give the monthly price').waitFor();
    await priceInput.fill(price);
  }
  await card.getByRole('button', { name: 'Set plan' }).click();
  return card;
}

/** The plan card says the account is on `name` at `price` a month. */
export async function expectUserPlan(page, name, price) {
  await eventually(async () => {
    const got = squash(await page.getByTestId('user-plan').innerText());
    return got === name || `the user's page shows the plan ${got}, want ${name}`;
  }, 'the plan on the user page');
  await expectText(page.getByTestId('user-plan-price'), `${inr(price)} a month`, 'the price on the user page');
}

/** Fails when the page is wider than the viewport (sideways scrolling at 375 px). */
export async function expectNoOverflow(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) throw new Error(`${what} is ${overflow}px wider than the screen`);
}

/** Waits for the page's running transitions and animations (a dialog fading in or out) to end, so a screenshot shows where they end. */
export async function settle(page) {
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect?.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => {}))));
}
