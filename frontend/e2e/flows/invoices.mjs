// THE FLOW OF ISSUE 32, point 6 (GST tax invoices and statements): an
// admin fills the billing settings (a supplier in Maharashtra, GSTIN
// 27AAPFU0939F1ZV); a user with balance sets billing details in Karnataka
// (GSTIN 29AAGCB7383J1Z4) and makes calls; this month's draft shows IGST;
// the month is issued with `server invoices issue` (as an operator runs
// it); the user opens Invoices, finds the invoice, downloads its PDF, whose
// text says IGST and carries both GSTINs; then the month's statement (its
// figures, PDF and CSV). The admin finds the invoice among every
// account's, filtered by user.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signIn, register } from '../steps/auth.mjs';
import { activateUser, createServiceWithPricing } from '../steps/admin.mjs';
import { callFromTryIt, createKey, inr } from '../steps/user.mjs';
import { eventually, expectText, squash } from '../steps/money.mjs';
import { creditBalance } from '../steps/payouts.mjs';
import { expectNoOverflow, settle } from '../steps/plans.mjs';
import {
  callService, download, expectApart, expectDraft, expectIn, expectStatement, fillBillingSettings, invoiceRow, issueMonth, kolkataMonth, monthName,
  moveBillingDetails, openIssuedInvoice, pdfText, setBillingDetails,
} from '../steps/invoices.mjs';
import { openScreen, pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'invoices';

const id = unique();
const stamp = String(Date.now()).slice(-8);
const USER = { name: 'Kiran Shetty', email: `kiran.${id}@example.com`, phone: `93${stamp}`, password: 'kiran-password-1' };
const CREDIT = '1000.00';
const SERVICE = {
  name: `SMS ${id}`,
  slug: `sms-${id}`,
  providerUrl: 'sandbox://sms-gateway',
  method: 'POST',
  params: [
    { name: 'phone', type: 'string', required: true },
    { name: 'message', type: 'string', required: true },
    { name: 'template_id', type: 'string', required: true },
  ],
  price: { admin_cost: '0.2000', reseller_price: '0.4000', user_price: '0.5000' },
};
const PARAMS = { phone: '9876543210', message: 'Your OTP is 123456', template_id: 'TPL_OTP_01' };
const CALLS = 3; // one from the try-it console, two from an integration
const GROSS = '1.50'; // 3 × ₹0.50, GST included
const SUPPLIER = {
  legalName: 'Paygate Technologies LLP',
  address: 'Unit 402, Baner Business Bay\nBaner Road\nPune 411045',
  state: 'Maharashtra (27)',
  gstin: '27AAPFU0939F1ZV',
  badGstin: '27AAPFU0939F1ZA', // a wrong check character
  pan: 'AAPFU0939F',
  bank: { name: 'HDFC Bank', account: 'Paygate Technologies LLP', number: '50200012345678', ifsc: 'HDFC0000240' },
  upi: 'paygate@hdfcbank',
};
const CUSTOMER = {
  legalName: 'Bharat Analytics Private Limited',
  address: '14, 3rd Cross, Indiranagar\nBengaluru 560038',
  state: 'Karnataka (29)',
  gstin: '29AAGCB7383J1Z4',
};
const { month: MONTH, nextMonthStart: ISSUE_AT } = kolkataMonth();

/** Opens `path` on a page that may not have loaded the panel yet (a new actor), and waits for its heading. */
async function openOn(page, baseURL, path, heading) {
  await page.goto(`${baseURL}${path}`);
  await pageHeading(page, heading, { exact: true }).waitFor();
}

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'accounts',
    name: 'the admin adds a service; a user registers, is activated and credited ₹1,000.00',
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await signIn(admin, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      await createServiceWithPricing(admin, SERVICE);
      const page = await ctx.actor('user');
      await register(page, ctx.baseURL, USER);
      await activateUser(admin, USER.email);
      await creditBalance(admin, USER.email, CREDIT);
      await signIn(page, ctx.baseURL, USER, { expectLanding: '/dashboard' });
    },
  },
  {
    id: 'supplier',
    name: 'the admin fills the billing settings: a supplier in Maharashtra with its GSTIN (a wrong check character refused beside the field)',
    needs: ['accounts'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await fillBillingSettings(admin, SUPPLIER, { beforeSave: async () => ctx.shot(admin, 'billing-settings-filled') });
      await ctx.shot(admin, 'billing-settings-saved');

      const phone = await ctx.actor('admin-phone', { viewport: 'phone', storageFrom: 'admin' });
      await openOn(phone, ctx.baseURL, '/admin/billing-settings', 'Billing settings');
      await phone.getByRole('form', { name: 'Billing settings' }).waitFor();
      await settle(phone);
      await expectNoOverflow(phone, 'the billing settings');
      await ctx.shot(phone, 'phone-billing-settings');
    },
  },
  {
    id: 'customer',
    name: 'the user sets billing details in Karnataka with their GSTIN (a GSTIN of another state refused)',
    needs: ['accounts'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await setBillingDetails(page, CUSTOMER);
      await ctx.shot(page, 'profile-billing-details');
    },
  },
  {
    id: 'payee',
    name: 'the user sees where to pay on Add balance: the bank account the admin saved, the UPI address and its QR code',
    needs: ['supplier'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await openScreen(page, '/balance-requests', 'Add balance');
      const field = async (testId, want) => {
        const got = await page.getByTestId(testId).inputValue();
        if (got !== want) throw new Error(`Add balance shows ${testId} ${got}, want ${want}`);
      };
      await field('payee-account-number', SUPPLIER.bank.number);
      await field('payee-upi', SUPPLIER.upi);
      if (await page.getByRole('textbox', { name: 'IFSC' }).inputValue() !== SUPPLIER.bank.ifsc) throw new Error('Add balance shows another IFSC');
      const qr = page.getByRole('img', { name: `QR code for the UPI address ${SUPPLIER.upi}` });
      await qr.waitFor();
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await qr.elementHandle());
      await ctx.shot(page, 'add-balance-payee');
    },
  },
  {
    id: 'calls',
    name: `the user makes ${CALLS} billed calls (the try-it console, then an integration with the key)`,
    needs: ['accounts'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const key = await createKey(page, 'invoices e2e');
      ctx.state.key = key;
      const first = await callFromTryIt(page, { serviceName: SERVICE.name, key: key.key, secret: key.secret, params: PARAMS });
      if (squash(first.charged) !== inr('0.50')) throw new Error(`the try-it call charged ${first.charged}, want ₹0.50`);
      await callService(ctx.baseURL, { slug: SERVICE.slug, key: key.key, secret: key.secret, params: PARAMS }, CALLS - 1);
    },
  },
  {
    id: 'draft',
    name: "Invoices shows this month so far: one line of the calls, IGST, made out to the customer's GSTIN",
    needs: ['supplier', 'customer', 'calls'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await expectDraft(page, { month: MONTH, service: SERVICE.name, calls: CALLS, price: '0.50', gross: GROSS, recipient: CUSTOMER });
      await page.getByText('No invoices yet').waitFor();
      await ctx.shot(page, 'invoices-draft');
    },
  },
  {
    id: 'phone-tax',
    name: 'at 390 px, a customer in the supplier\'s state: the draft\'s "CGST … + SGST …" (equal halves) stays clear of the place of supply, no sideways scroll',
    needs: ['draft'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await moveBillingDetails(page, { state: SUPPLIER.state, gstin: '' });
      try {
        const phone = await ctx.actor('user-phone390', { viewport: 'phone390', storageFrom: 'user' });
        await openOn(phone, ctx.baseURL, '/invoices', 'Invoices');
        const draft = phone.getByRole('region', { name: 'This month so far' });
        const tax = draft.getByTestId('upcoming-tax');
        await eventually(async () => {
          const t = squash(await tax.innerText());
          const m = /^CGST ₹(\d+\.\d{2}) \+ SGST ₹(\d+\.\d{2})$/.exec(t);
          return (m !== null && m[1] === m[2]) || `it reads "${t}", want CGST and SGST equal`;
        }, "the draft's tax within the state");
        const place = draft.getByTestId('upcoming-place');
        await expectText(place, SUPPLIER.state, 'the place of supply');
        await settle(phone);
        await expectApart(phone, tax, place, 'the draft\'s tax and place of supply');
        await expectNoOverflow(phone, 'Invoices at 390 px');
        await ctx.shot(phone, 'phone390-invoices-cgst-sgst');
      } finally {
        await moveBillingDetails(page, { state: CUSTOMER.state, gstin: CUSTOMER.gstin });
      }
    },
  },
  {
    id: 'issue',
    name: `the month is issued with the CLI: server invoices issue --month ${MONTH} --at ${ISSUE_AT}`,
    needs: ['draft'],
    async run(ctx) {
      ctx.state.issued = await issueMonth(ctx.server, MONTH, ISSUE_AT);
      console.log(`    ${ctx.state.issued}`);
    },
  },
  {
    id: 'invoice',
    name: 'the user finds the invoice, opens it (IGST, place of supply Karnataka), downloads the PDF: it says IGST and carries both GSTINs',
    needs: ['issue'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const { number, drawer } = await openIssuedInvoice(page, { month: MONTH, gross: GROSS, placeOfSupply: 'Karnataka (29)' });
      ctx.state.number = number;
      await expectText(drawer.getByTestId('invoice-recipient').locator('p').nth(1), CUSTOMER.legalName, 'the recipient');
      await settle(page);
      await ctx.shot(page, 'invoice-detail');

      const dir = join(ctx.server.dir, 'downloads');
      mkdirSync(dir, { recursive: true });
      const pdf = await download(page, drawer.getByRole('button', { name: 'Download PDF' }), dir);
      const want = `${number.replaceAll('/', '-')}.pdf`;
      if (pdf.name !== want) throw new Error(`the PDF is named ${pdf.name}, want ${want}`);
      if (!readFileSync(pdf.path).subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('the download is not a PDF');
      const text = await pdfText(pdf.path);
      expectIn(text, ['TAX INVOICE', number, SUPPLIER.legalName, SUPPLIER.gstin, CUSTOMER.legalName, CUSTOMER.gstin, 'Karnataka (29)',
        'IGST 18%', 'IGST @ 18%', SERVICE.name, 'Rupees One and Paise Fifty Only'], 'the invoice PDF');
      // A customer in another state: IGST only.
      if (/\b[CS]GST\b/.test(text)) throw new Error(`the inter-state invoice's PDF names CGST or SGST:\n${text}`);
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'detached' });

      // The row's own button downloads the same document.
      const again = await download(page, invoiceRow(page, number).getByRole('button', { name: `Download PDF of ${number}` }), dir);
      if (again.name !== want) throw new Error(`the row's PDF is named ${again.name}, want ${want}`);
      await ctx.shot(page, 'invoices-issued');

      const phone = await ctx.actor('user-phone', { viewport: 'phone', storageFrom: 'user' });
      await openOn(phone, ctx.baseURL, '/invoices', 'Invoices');
      await invoiceRow(phone, number).waitFor();
      await settle(phone);
      // The month is issued: no draft of it (the API answers 204), no card.
      if (await phone.getByRole('region', { name: 'This month so far' }).count() !== 0) {
        throw new Error('an issued month still shows its draft');
      }
      await expectNoOverflow(phone, 'Invoices');
      await ctx.shot(phone, 'phone-invoices');
      await phone.getByRole('button', { name: `Open invoice ${number}` }).click();
      await phone.getByRole('dialog', { name: `Invoice ${number}` }).getByTestId('place-of-supply').waitFor();
      await settle(phone);
      await ctx.shot(phone, 'phone-invoice-detail', { fullPage: false }); // the drawer covers the screen: the screen is the picture
      await phone.keyboard.press('Escape');
    },
  },
  {
    id: 'statement',
    name: "the user reads the month's statement (opening, credits, debits, closing) and downloads it as PDF and CSV",
    needs: ['calls'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const closing = '998.50';
      const st = await expectStatement(page, { month: MONTH, opening: '0.00', credits: CREDIT, debits: GROSS, closing, entries: 1 + CALLS });
      await ctx.shot(page, 'statement');
      const dir = join(ctx.server.dir, 'downloads');
      mkdirSync(dir, { recursive: true });
      const pdf = await download(page, st.getByRole('button', { name: 'Download PDF' }), dir);
      if (!pdf.name.endsWith('.pdf')) throw new Error(`the statement downloads as ${pdf.name}`);
      const text = await pdfText(pdf.path);
      expectIn(text, ['ACCOUNT STATEMENT', monthName(MONTH), CUSTOMER.legalName, CUSTOMER.gstin, 'Rs. 0.00', `Rs. ${inr(CREDIT).slice(1)}`,
        `Rs. ${GROSS}`, `Rs. ${closing}`], 'the statement PDF');
      const csv = await download(page, st.getByRole('button', { name: 'Download CSV' }), dir);
      if (!csv.name.endsWith('.csv')) throw new Error(`the statement CSV downloads as ${csv.name}`);
      const rows = readFileSync(csv.path, 'utf8').trim().split('\n');
      if (rows.length < 1 + CALLS + 1) throw new Error(`the statement CSV has ${rows.length} lines:\n${rows.join('\n')}`);
      if (!rows.some((r) => r.includes(closing))) throw new Error(`the statement CSV has no closing balance ${closing}:\n${rows.join('\n')}`);

      const phone = await ctx.actor('user-phone', { viewport: 'phone', storageFrom: 'user' });
      await openOn(phone, ctx.baseURL, '/statements', 'Statements');
      await phone.getByTestId('statement-closing').waitFor();
      await settle(phone);
      await expectNoOverflow(phone, 'Statements');
      await ctx.shot(phone, 'phone-statement');
    },
  },
  {
    id: 'admin-invoices',
    name: "the admin finds the invoice among every account's, filtered by the user, and reads the user's statement",
    needs: ['invoice'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await openScreen(admin, '/invoices', 'Invoices');
      await invoiceRow(admin, ctx.state.number).waitFor();
      const user = admin.getByRole('combobox', { name: 'User' });
      await user.click();
      await user.fill(USER.email);
      await admin.getByRole('option', { name: `${USER.name} <${USER.email}>` }).click();
      await admin.getByText('Invoices of', { exact: true }).waitFor();
      const row = invoiceRow(admin, ctx.state.number);
      await row.getByRole('link', { name: USER.email }).waitFor();
      await row.getByText(CUSTOMER.legalName, { exact: true }).waitFor();
      await ctx.shot(admin, 'admin-invoices');

      await admin.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Statements', exact: true }).click();
      await pageHeading(admin, 'Statements', { exact: true }).waitFor();
      await admin.getByText('Choose an account').waitFor();
      const account = admin.getByRole('combobox', { name: 'Account' });
      await account.click();
      await account.fill(USER.email);
      await admin.getByRole('option', { name: `${USER.name} <${USER.email}>` }).click();
      await expectText(admin.getByTestId('statement-closing'), inr('998.50'), "the user's closing balance, as the admin reads it");
      await ctx.shot(admin, 'admin-statement');
    },
  },
];
