// A reseller's brand: the reseller sets its name, support contacts, domain
// and logo on its Brand page; Chromium maps the domain (brand.example) to
// the test server (lib/browser.mjs: --host-resolver-rules). The domain is a
// pending claim until proven (a DNS TXT record and the platform's answer
// through the host, which the test has no DNS for): while pending the host
// shows the platform, not the brand. The operator then vouches for it
// (`server brand verify-domain`), after which the login page shows the
// brand and registration creates the reseller's pending customer, whose
// mail carries the brand name and domain.
import { BRAND_HOST } from '../lib/browser.mjs';
import { signIn } from '../steps/auth.mjs';
import { pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'brand';

const BRAND = { name: 'Acme Recharge', email: 'help@acme.example', phone: '+919876543210' };

/** The API as the admin (a reseller is an account an admin creates). */
async function adminCreateReseller(ctx) {
  const login = await fetch(`${ctx.baseURL}/api/v1/panel/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ctx.admin),
  });
  if (!login.ok) throw new Error(`admin login: ${login.status} ${await login.text()}`);
  const { access_token: token } = await login.json();
  const u = unique();
  const reseller = { name: 'Acme Owner', email: `reseller-${u}@example.com`, password: 'reseller-password-1',
    phone: `9${String(Date.now()).slice(-9)}` };
  const r = await fetch(`${ctx.baseURL}/api/v1/panel/users`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...reseller, role: 'reseller', status: 'active', plan: 'starter' }),
  });
  if (r.status !== 201) throw new Error(`create reseller: ${r.status} ${await r.text()}`);
  return reseller;
}

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'set-brand',
    name: 'a reseller sets its brand, domain and logo on the Brand page',
    async run(ctx) {
      const reseller = await adminCreateReseller(ctx);
      ctx.state.reseller = reseller;
      const page = await ctx.actor('reseller');
      await signIn(page, ctx.baseURL, reseller, { expectLanding: '/dashboard' });
      await page.getByRole('link', { name: 'Brand' }).click();
      await pageHeading(page, 'Brand').waitFor();
      await page.getByLabel('Brand name').fill(BRAND.name);
      await page.getByLabel('Support email').fill(BRAND.email);
      await page.getByLabel('Support phone').fill(BRAND.phone);
      const domains = page.getByRole('combobox', { name: 'Domains' });
      await domains.fill(BRAND_HOST);
      await domains.press('Enter');
      await page.getByRole('button', { name: 'Save brand' }).click();
      await page.getByText('Brand saved').waitFor();
      // The saved domain is a pending claim: the page says what proves it.
      const domain = page.getByTestId(`domain-${BRAND_HOST}`);
      await domain.getByText('pending', { exact: true }).waitFor();
      await domain.getByText(`_paygate-verify.${BRAND_HOST}`, { exact: true }).waitFor();
      const token = await domain.locator('code').nth(1).textContent();
      if (!/^pgv_[0-9a-f]{32}$/.test(token ?? '')) throw new Error(`the TXT value shown: ${token}`);
      await domain.getByText(`/.well-known/paygate-verification/${token}`).waitFor();
      await domain.getByRole('button', { name: `Check ${BRAND_HOST}` }).waitFor();
      // The logo: a PNG made in the browser, checked and re-encoded by the server.
      const logo = await ctx.receiptImage();
      await page.locator('input[type="file"]').setInputFiles(logo);
      await page.getByRole('img', { name: 'New logo preview' }).waitFor();
      await page.getByRole('button', { name: 'Upload logo' }).click();
      await page.getByText('Logo saved').waitFor();
      await page.getByRole('img', { name: 'Current logo' }).waitFor();
      await ctx.shot(page, 'brand-page-pending');
      ctx.state.resellerPage = page;
      ctx.state.brandURL = `http://${BRAND_HOST}:${new URL(ctx.baseURL).port}`;
    },
  },
  {
    id: 'pending-no-brand',
    name: 'while its domain is pending, the host shows the platform, not the brand',
    needs: ['set-brand'],
    async run(ctx) {
      // Its own actor: nothing this page loads is cached for the later visitor.
      const page = await ctx.actor('pending-visitor');
      await page.goto(`${ctx.state.brandURL}/login`);
      await page.getByTestId('brand-name').getByText('Paygate', { exact: true }).waitFor();
      const brand = await page.evaluate(async () => (await fetch('/api/v1/brand')).json());
      if (brand.brand_name !== 'Paygate' || brand.reseller || brand.logo_url) {
        throw new Error(`the pending host's brand: ${JSON.stringify(brand)}`);
      }
      if (await page.getByText(BRAND.name).count()) throw new Error('the brand shows on its pending domain');
      if (await page.getByTestId('brand-logo').count()) throw new Error("the brand's logo shows on its pending domain");
      await ctx.shot(page, 'brand-pending-host', { fullPage: false });
    },
  },
  {
    id: 'operator-verifies',
    name: "the operator verifies the domain on its word (server brand verify-domain); the Brand page shows it verified",
    needs: ['pending-no-brand'],
    async run(ctx) {
      const out = await ctx.server.cli(['brand', 'verify-domain', BRAND_HOST]);
      if (!out.includes(`${BRAND_HOST} verified for reseller #`)) throw new Error(`server brand verify-domain: ${out}`);
      const page = ctx.state.resellerPage;
      await page.reload();
      await pageHeading(page, 'Brand').waitFor();
      const domain = page.getByTestId(`domain-${BRAND_HOST}`);
      await domain.getByText('verified', { exact: true }).waitFor();
      if (await domain.getByText(`_paygate-verify.${BRAND_HOST}`).count()) throw new Error('a verified domain still shows its TXT instructions');
      if (await domain.getByRole('button', { name: `Check ${BRAND_HOST}` }).count()) throw new Error('a verified domain still has a check button');
      await ctx.shot(page, 'brand-page-verified');
    },
  },
  {
    id: 'brand-login',
    name: "the reseller's verified domain shows its brand on the login page",
    needs: ['operator-verifies'],
    async run(ctx) {
      const page = await ctx.actor('visitor');
      await page.goto(`${ctx.state.brandURL}/login`);
      await page.getByTestId('brand-name').getByText(BRAND.name, { exact: true }).waitFor();
      await page.getByText(`to the ${BRAND.name} panel`).waitFor();
      await page.getByTestId('brand-support').getByText(BRAND.email).waitFor();
      await page.getByTestId('brand-support').getByText(BRAND.phone).waitFor();
      const logo = page.getByTestId('brand-logo');
      await logo.waitFor();
      const ok = await logo.evaluate((img) => img.complete && img.naturalWidth > 0);
      if (!ok) throw new Error('the brand logo did not load');
      if (await page.getByText('Paygate').count()) throw new Error('the platform name shows on the brand domain');
      await page.waitForFunction((n) => document.title === `Sign in · ${n}`, BRAND.name);
      await ctx.shot(page, 'brand-login');
      // The platform's own host still shows the platform.
      const plain = await ctx.actor('platform');
      await plain.goto(`${ctx.baseURL}/login`);
      await plain.getByTestId('brand-name').getByText('Paygate', { exact: true }).waitFor();
    },
  },
  {
    id: 'brand-register',
    name: "registering on the domain creates the reseller's pending customer, mailed under the brand, told the reseller activates it",
    needs: ['brand-login'],
    async run(ctx) {
      const page = await ctx.actor('visitor');
      const email = `shopper-${unique()}@example.com`;
      await page.goto(`${ctx.state.brandURL}/register`);
      await page.getByText(`Resell APIs and accept payments with ${BRAND.name}`).waitFor();
      await page.getByLabel('Name').fill('Shopper');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone').fill(`8${String(Date.now()).slice(-9)}`);
      await page.locator('input[autocomplete="new-password"]').fill('shopper-password-1');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('Waiting for activation').waitFor();
      await page.getByText(`${BRAND.name} then activates your account as its customer`).waitFor();
      await ctx.shot(page, 'brand-registered');
      // Pending: signing in is refused until the reseller activates the customer.
      const r = await fetch(`${ctx.baseURL}/api/v1/panel/auth/login`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'shopper-password-1' }),
      });
      const body = await r.json();
      if (r.status !== 403 || body.error !== 'account_not_active') throw new Error(`pending customer's login: ${r.status} ${JSON.stringify(body)}`);
      // Its verification mail (sent after the answer) carries the brand and the domain:
      // only a customer of that reseller gets it so.
      let mails = [];
      for (let i = 0; i < 50 && mails.length === 0; i++) {
        mails = ctx.server.mails(email);
        if (!mails.length) await new Promise((res) => setTimeout(res, 100));
      }
      const m = mails[0];
      if (!m || m.fromName !== BRAND.name || !m.link.startsWith(`${ctx.state.brandURL}/verify-email?`)) {
        throw new Error(`the customer's mail: ${JSON.stringify(mails)}`);
      }
      // The link confirms the address; the page, and a sign-in while still
      // pending, name the reseller as who activates the account (never "an administrator").
      await page.goto(m.link);
      await page.getByTestId('verified').getByText(`If your account is new, ${BRAND.name} activates it as its customer`).waitFor();
      await page.goto(`${ctx.state.brandURL}/login`);
      await page.getByLabel('Email').fill(email);
      await page.locator('input[autocomplete="current-password"]').fill('shopper-password-1');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const told = page.getByTestId('account-not-active');
      await told.getByText(`but ${BRAND.name} has not activated this account yet`).waitFor();
      if (/administrator/i.test(await told.innerText())) throw new Error(`the pending customer is told of an administrator: ${await told.innerText()}`);
      await ctx.shot(page, 'brand-pending-sign-in');
    },
  },
  {
    id: 'brand-shell',
    name: "the shell on the reseller's domain shows its brand",
    needs: ['brand-login'],
    async run(ctx) {
      // The reseller itself signed in on its domain: the header is the host's brand.
      const page = await ctx.actor('reseller-on-domain');
      await signIn(page, ctx.state.brandURL, ctx.state.reseller, { expectLanding: '/dashboard' });
      const header = page.locator('header');
      await header.getByTestId('brand-name').getByText(BRAND.name, { exact: true }).waitFor();
      await header.getByTestId('brand-logo').waitFor();
      await ctx.shot(page, 'brand-shell', { fullPage: false });
    },
  },
];
