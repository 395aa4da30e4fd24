// THE FLOW OF ISSUE 34 (resellers): the admin creates a service and a
// reseller and credits the reseller; the reseller creates a customer (pending
// until the customer confirms its email through the mailed invite, issue 43), sets
// a selling price above its own (a price below it is refused), funds the
// customer with a transfer; the customer calls the service with its key
// (charged the selling price); the settlement of the closed hour (the CLI,
// at an instant after the hour closes) credits the commission, and the
// reseller sees it on its dashboard and on the customer's hit logs.
// The customer's Add balance page names its reseller and shows the
// reseller's own payee details (saved on its Billing details page).
// Screenshots of the reseller's screens at 1366×900 and 390×844.
import { signIn } from '../steps/auth.mjs';
import { createServiceWithPricing } from '../steps/admin.mjs';
import { createKey, inr, requestBalance } from '../steps/user.mjs';
import { creditBalance } from '../steps/payouts.mjs';
import { callService } from '../steps/invoices.mjs';
import { expectBalance, squash } from '../steps/money.mjs';
import { afterThisHourCloses, approveCustomerTopUp, confirmInvite, createCustomer, createUserAs, expectCommissionSettled, fundCustomer, setSellingPrice } from '../steps/resellers.mjs';
import { expectAskReseller, expectPayReseller, saveResellerPayee } from '../steps/payee.mjs';
import { openScreen, pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'resellers';

const id = unique();
const RESELLER = { name: 'Ravi Resale', email: `ravi.${id}@example.com`, phone: `97${String(Date.now()).slice(-8)}`, role: 'reseller' };
const CUSTOMER = { name: 'Meera Shah', email: `meera.${id}@example.com`, phone: `95${String(Date.now()).slice(-8)}`, password: 'meera-password-1' };
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
const SELLING = '0.7500'; // the customer's charge a call; the reseller's cost is 0.4000
const CALLS = 2;
const COMMISSION = '0.70'; // 2 × (0.75 − 0.40)
const CREDIT = '1000.00';
const FUND = '100.00';
/** The reseller's own payee details, which its customer pays (issue 44). */
const PAYEE = {
  legalName: 'Ravi Resale Services', address: '14 Residency Road\nBengaluru 560025', state: 'Karnataka (29)',
  upi: 'ravi.resale@okicici', bank: { name: 'ICICI Bank', account: 'Ravi Resale Services', number: '123456789012', ifsc: 'ICIC0000123' },
};

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'setup',
    name: 'the admin creates a service and a reseller, and credits the reseller ₹1,000.00',
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await signIn(admin, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      ctx.state.service = await createServiceWithPricing(admin, SERVICE);
      ctx.state.resellerPassword = await createUserAs(admin, RESELLER);
      await creditBalance(admin, RESELLER.email, CREDIT);
    },
  },
  {
    id: 'customer',
    name: 'the reseller signs in and creates a customer',
    needs: ['setup'],
    async run(ctx) {
      const page = await ctx.actor('reseller', { viewport: 'laptop' });
      await signIn(page, ctx.baseURL, { email: RESELLER.email, password: ctx.state.resellerPassword }, { expectLanding: '/dashboard' });
      // The dashboard opens on the reseller's customers, its own account below.
      await page.getByRole('heading', { level: 2, name: 'Your customers' }).waitFor();
      const first = squash(await page.getByRole('heading', { level: 2 }).first().innerText());
      if (first !== 'Your customers') throw new Error(`the reseller's dashboard opens on "${first}", not its customers`);
      ctx.state.customer = await createCustomer(page, CUSTOMER);
    },
  },
  {
    id: 'confirm',
    name: 'the customer confirms its email through the mailed invite (choosing its password), which activates it',
    needs: ['customer'],
    async run(ctx) {
      const page = await ctx.actor('customer');
      await confirmInvite(page, ctx.server, CUSTOMER, (p, n) => ctx.shot(p, n));
    },
  },
  {
    id: 'price',
    name: 'the reseller sets a selling price (below its cost is refused)',
    needs: ['customer'],
    async run(ctx) {
      const page = await ctx.actor('reseller');
      await setSellingPrice(page, { serviceName: SERVICE.name, below: '0.3000', price: SELLING, margin: '0.3500' });
      await ctx.shot(page, 'prices-1366');
    },
  },
  {
    id: 'fund',
    name: 'the reseller funds the customer with a transfer',
    needs: ['price', 'confirm'],
    async run(ctx) {
      const page = await ctx.actor('reseller');
      await fundCustomer(page, { customerId: ctx.state.customer.id, amount: FUND, balance: FUND });
      await ctx.shot(page, 'customer-1366');
      await expectBalance(page, '900.00');
    },
  },
  {
    id: 'calls',
    name: 'the customer signs in, creates a key and calls the service (charged the selling price)',
    needs: ['fund'],
    async run(ctx) {
      const page = await ctx.actor('customer');
      await signIn(page, ctx.baseURL, CUSTOMER, { expectLanding: '/dashboard' });
      const key = await createKey(page, 'customer key');
      await callService(ctx.baseURL, {
        slug: SERVICE.slug, ...key, params: { phone: '9876543210', message: 'Your OTP is 123456', template_id: 'TPL_OTP_01' },
      }, CALLS);
      await expectBalance(page, '98.50'); // 100.00 − 2 × 0.75
    },
  },
  {
    id: 'service-page',
    name: "the customer's service page and try-it console show the selling price it was charged (1366 and 390 px)",
    needs: ['calls'],
    async run(ctx) {
      // The calls step charged 0.75 a call (balance 100.00 − 2 × 0.75): the
      // page shows that, never the list price (issue 44, point 1).
      const shown = inr('0.75');
      const expectShown = async (page) => {
        await pageHeading(page, SERVICE.name).waitFor();
        const price = squash(await page.getByTestId('service-price').innerText());
        if (!price.includes(`${shown} per call`)) throw new Error(`the service page shows "${price}", want ${shown} per call`);
        const cost = squash(await page.getByTestId('try-it-cost').innerText());
        if (!cost.includes(`This call costs ${shown}`)) throw new Error(`the try-it console says "${cost}", want ${shown}`);
      };
      const customer = await ctx.actor('customer');
      await customer.setViewportSize({ width: 1366, height: 900 });
      await customer.goto(`${ctx.baseURL}/services/${ctx.state.service.id}`);
      await expectShown(customer);
      await ctx.shot(customer, 'customer-service-1366');
      const phone = await ctx.actor('customer-phone', { viewport: 'phone390', storageFrom: 'customer' });
      await phone.goto(`${ctx.baseURL}/services/${ctx.state.service.id}`);
      await expectShown(phone);
      await ctx.shot(phone, 'customer-service-390');
      const wider = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      if (wider) throw new Error('the service page scrolls sideways at 390 px');
    },
  },
  {
    id: 'hits',
    name: "the reseller sees the customer's calls with its commission",
    needs: ['calls'],
    async run(ctx) {
      const page = await ctx.actor('reseller');
      await openScreen(page, `/customers/${ctx.state.customer.id}?tab=hits`, CUSTOMER.name);
      const cells = page.getByRole('table', { name: "Customer's hit logs" }).getByTestId('hit-commission');
      await cells.first().waitFor();
      const got = (await cells.allInnerTexts()).map(squash);
      if (got.length !== CALLS || got.some((c) => c !== inr('0.3500'))) throw new Error(`the hits' commissions read ${got}, want ${CALLS} × ${inr('0.3500')}`);
      // Each call names its service and the customer's key, not "Service #9", "Key #6".
      const table = page.getByRole('table', { name: "Customer's hit logs" });
      const text = await table.innerText();
      if (!text.includes(SERVICE.name) || !text.includes('customer key') || /Service #|Key #/.test(text)) {
        throw new Error(`the customer's hits do not name the service and key: ${text}`);
      }
      await ctx.shot(page, 'customer-hits-1366');
    },
  },
  {
    id: 'settle',
    name: "the hour's settlement credits the commission, and the reseller sees it on its dashboard",
    needs: ['calls'],
    async run(ctx) {
      const at = afterThisHourCloses();
      // This hour closes ahead of the clock: a test's --allow-future.
      const out = await ctx.server.cli(['commissions', 'settle', '--at', at, '--allow-future']);
      console.log(`    commissions settle --at ${at}: ${out.split('\n').filter((l) => l && !l.startsWith('{')).join(' ').slice(0, 200)}`);
      const page = await ctx.actor('reseller');
      await expectCommissionSettled(page, { settled: COMMISSION, accrued: COMMISSION, customerName: CUSTOMER.name });
      await ctx.shot(page, 'dashboard-1366');
      // 1,000.00 − 100.00 transferred + 0.70 commission
      await expectBalance(page, '900.70');
    },
  },
  {
    id: 'admin-sees',
    name: "the admin's users list names the customer's reseller and filters by it",
    needs: ['customer'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await openScreen(admin, `/admin/users?q=${encodeURIComponent(CUSTOMER.email)}`, 'Users');
      const row = admin.getByRole('row').filter({ hasText: CUSTOMER.email });
      await row.getByTestId('user-reseller').getByText(RESELLER.name).waitFor();
      await row.getByTestId('user-reseller').click();
      await admin.waitForURL((u) => /^\/admin\/users\/\d+$/.test(u.pathname));
      const resellerId = new URL(admin.url()).pathname.split('/').pop();
      await openScreen(admin, `/admin/users?reseller_id=${resellerId}`, 'Users');
      await admin.getByRole('row').filter({ hasText: CUSTOMER.email }).waitFor();
      if (await admin.getByRole('row').filter({ hasText: RESELLER.email }).count()) throw new Error('the reseller is listed among its customers');
      await ctx.shot(admin, 'admin-users-by-reseller');
    },
  },
  {
    id: 'screens',
    name: "the reseller's screens at 1366×900 and 390×844",
    needs: ['fund'],
    async run(ctx) {
      const wide = await ctx.actor('reseller');
      await openScreen(wide, '/customers', 'Customers');
      await wide.getByText(CUSTOMER.email).waitFor();
      await ctx.shot(wide, 'customers-1366');
      const phone = await ctx.actor('reseller-phone', { viewport: 'phone390', storageFrom: 'reseller' });
      await phone.goto(`${ctx.baseURL}/customers`);
      await pageHeading(phone, 'Customers', { exact: true }).waitFor();
      await phone.getByText(CUSTOMER.email).waitFor();
      await ctx.shot(phone, 'customers-390');
      await openScreen(phone, `/customers/${ctx.state.customer.id}`, CUSTOMER.name);
      await ctx.shot(phone, 'customer-390');
      await openScreen(phone, '/prices', 'Prices');
      await phone.getByText(SERVICE.name).waitFor();
      await ctx.shot(phone, 'prices-390');
      await openScreen(phone, '/dashboard', 'Dashboard');
      await phone.getByTestId('reseller-commission-settled').waitFor();
      await ctx.shot(phone, 'dashboard-390');
      // Nothing overflows sideways on the phone.
      const wider = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      if (wider) throw new Error('the dashboard scrolls sideways at 390 px');
    },
  },
  {
    id: 'add-balance',
    name: "the customer's Add balance page names its reseller: ask it while it has no payee details, then its own UPI address and account (1366 and 390 px)",
    needs: ['calls'],
    async run(ctx) {
      const customer = await ctx.actor('customer');
      await customer.setViewportSize({ width: 1366, height: 900 });
      await expectAskReseller(customer, RESELLER.name);
      await ctx.shot(customer, 'customer-add-balance-ask-1366');
      const reseller = await ctx.actor('reseller');
      await saveResellerPayee(reseller, PAYEE);
      await reseller.evaluate(() => window.scrollTo(0, 0));
      await ctx.shot(reseller, 'billing-details-1366');
      await openScreen(customer, '/balance-requests', 'Add balance');
      await expectPayReseller(customer, { resellerName: PAYEE.legalName, upi: PAYEE.upi, accountNumber: PAYEE.bank.number });
      await ctx.shot(customer, 'customer-add-balance-1366');
      const phone = await ctx.actor('customer-phone', { viewport: 'phone390', storageFrom: 'customer' });
      await phone.goto(`${ctx.baseURL}/balance-requests`);
      await expectPayReseller(phone, { resellerName: PAYEE.legalName, upi: PAYEE.upi, accountNumber: PAYEE.bank.number });
      await ctx.shot(phone, 'customer-add-balance-390');
      const wider = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      if (wider) throw new Error('Add balance scrolls sideways at 390 px');
    },
  },
  {
    id: 'top-up',
    name: "the customer requests a top-up; its reseller approves it (a transfer from the reseller)",
    needs: ['settle', 'screens', 'add-balance'],
    async run(ctx) {
      const customer = await ctx.actor('customer');
      const utr = `UTR${Date.now()}`;
      await requestBalance(customer, { amount: '50.00', utr, screenshot: await ctx.receiptImage() });
      const page = await ctx.actor('reseller');
      await approveCustomerTopUp(page, { customerId: ctx.state.customer.id, customerName: CUSTOMER.name, utr, balance: '148.50' });
      await ctx.shot(page, 'customer-requests-1366');
      await expectBalance(page, '850.70'); // 900.70 − 50.00
      await expectBalance(customer, '148.50');
    },
  },
];
