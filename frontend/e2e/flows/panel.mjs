// Issue 36 in the browser: an anonymous page load logs no error (no refresh
// without a session, a favicon), an admin creates users from "New user"
// (an active one signs in at once; a pending one is told what happens
// next), dates read "27 Nov 2026" everywhere, long ids do not push the
// table sideways at 1366 px, lists are cards on a 390 px phone with amount
// and status in view and the header shows the balance, the API reference is
// linked and rendered.
import { fillSignIn, signIn } from '../steps/auth.mjs';
import { creditBalance } from '../steps/payouts.mjs';
import { openScreen, pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'panel';

const DATE = /^\d{2} [A-Z][a-z]{2} \d{4}/; // formatDate / formatDateTime: "27 Nov 2026, 4:05 pm"
const ISO = /\d{4}-\d{2}-\d{2}/;

/** Fills the "New user" dialog of /admin/users and returns the first password it shows. */
async function createUser(page, baseURL, { name, email, phone, status }) {
  await openScreen(page, '/admin/users', 'Users');
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone').fill(phone);
  if (status === 'pending') {
    await dialog.getByLabel('Status').click();
    await page.getByRole('option', { name: /^Pending/ }).click();
  }
  await dialog.getByRole('button', { name: 'Create user' }).click();
  const done = page.getByTestId('new-user-created');
  await done.waitFor();
  const password = (await page.getByTestId('new-user-password').innerText()).trim();
  await done.getByRole('button', { name: 'Done' }).click();
  await pageHeading(page, 'User', { exact: true }).waitFor();
  return password;
}

/** Fails when the page scrolls sideways. */
async function expectNoSideways(page, what) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (over > 0) throw new Error(`${what}: the page is ${over}px wider than the screen`);
}

const USER = { name: 'Neha Admin-Made', email: `neha.${unique()}@example.com`, phone: '+919812345678' };
const PENDING = { name: 'Pia Pending', email: `pia.${unique()}@example.com`, phone: '+919812345679' };

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'anonymous-clean',
    name: 'an anonymous /login logs no failed request (no refresh without a session, a favicon)',
    async run(ctx) {
      const page = await ctx.actor('anonymous', { viewport: 'laptop' });
      const failed = [];
      page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`); });
      page.on('console', (m) => { if (m.type() === 'error') failed.push(`console: ${m.text()}`); });
      await page.goto(`${ctx.baseURL}/login`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      const icon = await page.request.get(`${ctx.baseURL}/favicon.ico`);
      if (!icon.ok()) throw new Error(`/favicon.ico answers ${icon.status()}`);
      await page.waitForTimeout(500);
      if (failed.length) throw new Error(`an anonymous /login logged: ${failed.join('; ')}`);
    },
  },
  {
    id: 'admin-creates-users',
    name: 'an admin creates an active and a pending user from "New user"',
    async run(ctx) {
      const admin = await ctx.actor('admin', { viewport: 'laptop' });
      await signIn(admin, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      ctx.state.password = await createUser(admin, ctx.baseURL, { ...USER, status: 'active' });
      ctx.state.pendingPassword = await createUser(admin, ctx.baseURL, { ...PENDING, status: 'pending' });
      await creditBalance(admin, USER.email, '1234.50');
      await ctx.shot(admin, 'new-user');
    },
  },
  {
    id: 'pending-told',
    name: 'the pending user signing in is told what happens next',
    needs: ['admin-creates-users'],
    async run(ctx) {
      const page = await ctx.actor('pending', { viewport: 'phone390' });
      await page.goto(`${ctx.baseURL}/login`);
      await fillSignIn(page, { email: PENDING.email, password: ctx.state.pendingPassword });
      await page.getByTestId('account-not-active').waitFor();
      await pageHeading(page, 'Your account is not active yet').waitFor();
      await ctx.shot(page, 'pending-sign-in');
    },
  },
  {
    id: 'dates-and-ids',
    name: 'the new user signs in; dates read "27 Nov 2026" and the transaction id does not push the table sideways at 1366 px',
    needs: ['admin-creates-users'],
    async run(ctx) {
      const page = await ctx.actor('user', { viewport: 'laptop' });
      await signIn(page, ctx.baseURL, { email: USER.email, password: ctx.state.password }, { expectLanding: '/dashboard' });
      await page.getByTestId('dashboard-charts-empty').waitFor(); // no calls yet: an empty state, not flat lines
      await openScreen(page, '/transactions', 'Transactions');
      const row = page.getByRole('row').filter({ hasText: '1,234.50' }).first();
      await row.waitFor();
      const when = (await row.getByRole('cell').first().innerText()).trim();
      if (!DATE.test(when) || ISO.test(when)) throw new Error(`the transaction's date reads "${when}", not "27 Nov 2026, …"`);
      await row.getByTestId('copy-id').waitFor();
      await expectNoSideways(page, '/transactions at 1366 px');
      const docs = page.getByTestId('api-docs-link');
      if ((await docs.getAttribute('href')) !== '/api/docs') throw new Error('the navbar does not link /api/docs');
      const ref = await page.request.get(`${ctx.baseURL}/api/docs`);
      const html = await ref.text();
      if (!html.includes('<strong>Panel API</strong>') || html.includes('**Panel API**')) throw new Error('/api/docs shows raw Markdown');
      await ctx.shot(page, 'transactions-laptop');
    },
  },
  {
    id: 'phone-cards',
    name: 'at 390 px the lists are cards with amount and status on screen, and the header shows the balance',
    needs: ['dates-and-ids'],
    async run(ctx) {
      const page = await ctx.actor('user-phone', { viewport: 'phone390', storageFrom: 'user' });
      await page.goto(`${ctx.baseURL}/transactions`);
      await pageHeading(page, 'Transactions', { exact: true }).waitFor();
      const card = page.getByTestId('table-card').first();
      await card.waitFor();
      for (const want of ['Amount', 'Type', '1,234.50']) {
        const el = card.getByText(want, { exact: false }).first();
        const box = await el.boundingBox();
        if (!box || box.x < 0 || box.x + box.width > 390.5) throw new Error(`"${want}" is off-screen on the card`);
      }
      const header = (await page.getByTestId('header-balance').innerText()).replace(/\s+/g, ' ');
      if (!header.includes('1,234.50')) throw new Error(`the phone header shows "${header}", not the balance`);
      await expectNoSideways(page, '/transactions at 390 px');
      await ctx.shot(page, 'phone-transactions-cards');
      await openScreen(page, '/hit-logs', 'Hit logs');
      await expectNoSideways(page, '/hit-logs at 390 px');
      await openScreen(page, '/payouts', 'Payouts');
      await expectNoSideways(page, '/payouts at 390 px');
    },
  },
];
