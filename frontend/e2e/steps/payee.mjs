// Customers pay their reseller (issue 44): the customer's Add balance page
// names its reseller and shows the reseller's own payee details, never the
// platform's; the reseller saves them on its Billing details page.
import { openScreen, pageHeading } from '../lib/helpers.mjs';

/** The input labelled exactly `label` (a required field's label ends with " *"). */
function field(scope, label) {
  return scope.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`));
}

/** The page's main text, for what it must not say. */
async function mainText(page) {
  return page.getByRole('main').innerText();
}

/** Nothing on the customer's Add balance page names an administrator or offers the platform's checkout. */
async function expectNoPlatform(page) {
  const text = await mainText(page);
  if (/administrator/i.test(text)) throw new Error(`the customer's Add balance page mentions an administrator: ${text.slice(0, 300)}`);
  if (await page.getByRole('form', { name: 'Pay by UPI' }).count()) throw new Error("the customer is offered the platform's checkout");
}

/** The customer whose reseller has no payee details is told to ask it, by name. */
export async function expectAskReseller(page, resellerName) {
  await openScreen(page, '/balance-requests', 'Add balance');
  await page.getByText(`Ask ${resellerName} how to pay`, { exact: true }).waitFor();
  await expectNoPlatform(page);
}

/**
 * The reseller saves its billing and payment details on /billing-details.
 * @param {{legalName: string, address: string, state: string, upi: string, bank: {name: string, account: string, number: string, ifsc: string}}} d
 */
export async function saveResellerPayee(page, d) {
  await openScreen(page, '/billing-details', 'Billing and payment details');
  await page.getByTestId('payee-missing').waitFor();
  const form = page.getByRole('form', { name: 'Billing settings' });
  if ((await field(form, 'Invoice prefix').inputValue()) !== 'IN') throw new Error("a reseller's invoice prefix should start as IN");
  await field(form, 'Legal name').fill(d.legalName);
  await field(form, 'Address').fill(d.address);
  const state = field(form, 'State');
  await state.click();
  await state.fill(d.state.split(' ')[0]);
  await page.getByRole('option', { name: d.state, exact: true }).click();
  await field(form, 'Bank name').fill(d.bank.name);
  await field(form, 'Account name').fill(d.bank.account);
  await field(form, 'Account number').fill(d.bank.number);
  await field(form, 'IFSC').fill(d.bank.ifsc);
  await field(form, 'UPI address').fill(d.upi);
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1/panel/settings/billing') && r.request().method() === 'PUT');
  await form.getByRole('button', { name: 'Save billing settings' }).click();
  const res = await saved;
  if (res.status() !== 200) throw new Error(`saving the reseller's details answered ${res.status()}: ${await res.text()}`);
  await page.getByText('Billing and payment details saved').waitFor();
  await page.getByTestId('payee-missing').waitFor({ state: 'detached' });
}

/**
 * The customer's Add balance page, open in `page` (the caller navigates: a
 * second navigation while a fresh session's first refresh is in flight
 * would spend its rotated token): its reseller by name, the reseller's UPI
 * address, QR and account.
 */
export async function expectPayReseller(page, { resellerName, upi, accountNumber }) {
  await pageHeading(page, 'Add balance', { exact: true }).waitFor();
  await page.getByRole('heading', { name: `Pay ${resellerName} by UPI or bank transfer`, exact: true }).waitFor();
  const got = await page.getByTestId('payee-upi').inputValue();
  if (got !== upi) throw new Error(`the UPI address shown is ${got}, want the reseller's ${upi}`);
  const acct = await page.getByTestId('payee-account-number').inputValue();
  if (acct !== accountNumber) throw new Error(`the account number shown is ${acct}, want the reseller's ${accountNumber}`);
  await page.getByTestId('payee-upi-qr').waitFor();
  await page.getByText(`so ${resellerName} can credit your balance`, { exact: false }).waitFor();
  await expectNoPlatform(page);
}
