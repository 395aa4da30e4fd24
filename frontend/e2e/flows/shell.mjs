// The app shell: routes survive a reload (the session comes back through
// the HttpOnly refresh cookie; no token is in web storage), keyboard
// navigation, 375 px, an expired session returns to login and back, signing
// out ends the session, the API is not swallowed.
import { signIn, fillSignIn, signOut } from '../steps/auth.mjs';
import { expectPath, measureInteractive, pageHeading } from '../lib/helpers.mjs';

export const name = 'shell';

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'admin-login',
    name: 'admin signs in and lands on the platform dashboard',
    async run(ctx) {
      const page = await ctx.actor('admin');
      await signIn(page, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      await pageHeading(page, 'Platform dashboard').waitFor();
      await page.goto(`${ctx.baseURL}/admin`, { waitUntil: 'commit' });
      ctx.metric('admin_dashboard_tti_ms', await measureInteractive(page, pageHeading(page, 'Platform dashboard')));
    },
  },
  {
    id: 'reload',
    name: 'a client route survives a reload',
    needs: ['admin-login'],
    async run(ctx) {
      const page = await ctx.actor('admin');
      await page.goto(`${ctx.baseURL}/admin/users?page=2`);
      await page.reload();
      await pageHeading(page, 'Users').waitFor();
      await expectPath(page, '/admin/users?page=2');
      await expectNoTokenInStorage(page);
      await expectRefreshCookie(page);
    },
  },
  {
    id: 'keyboard',
    name: 'the navbar works with the keyboard',
    needs: ['admin-login'],
    async run(ctx) {
      const page = await ctx.actor('admin');
      await page.goto(`${ctx.baseURL}/admin`);
      await pageHeading(page, 'Platform dashboard').waitFor();
      let found = false;
      for (let i = 0; i < 40 && !found; i++) {
        await page.keyboard.press('Tab');
        found = await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Audit log');
      }
      if (!found) throw new Error('Tab never reached the "Audit log" link of the navbar');
      await page.keyboard.press('Enter');
      await expectPath(page, '/admin/audit-log');
      await pageHeading(page, 'Audit log').waitFor();
    },
  },
  {
    id: 'phone',
    name: 'the panel is usable at 375 px',
    needs: ['admin-login'],
    async run(ctx) {
      const page = await ctx.actor('admin-phone', { viewport: 'phone', storageFrom: 'admin' });
      await page.goto(`${ctx.baseURL}/admin`);
      await pageHeading(page, 'Platform dashboard').waitFor();
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(() => !!document.activeElement?.closest('nav'))) throw new Error('Tab reached the folded navbar');
      }
      await page.evaluate(() => document.activeElement?.blur()); // the focused skip link covers the menu button
      const nav = page.getByRole('link', { name: 'Balance requests' });
      const box = await nav.boundingBox();
      if (box && box.x + box.width > 0 && (await nav.isVisible())) throw new Error('the navbar should be folded away at 375 px');
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await nav.click();
      await expectPath(page, '/admin/balance-requests');
      await pageHeading(page, 'Balance requests').waitFor();
      // The navbar folds away again after navigating.
      await page.waitForFunction(() => {
        const a = [...document.querySelectorAll('nav a')].find((e) => e.textContent?.trim() === 'Balance requests');
        return !a || a.getBoundingClientRect().right <= 0;
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) throw new Error(`the page is ${overflow}px wider than the 375 px screen`);
      await ctx.shot(page, 'phone-balance-requests');
    },
  },
  {
    id: 'expired',
    name: 'an expired session returns to login and back',
    needs: ['admin-login'],
    async run(ctx) {
      const page = await ctx.actor('admin');
      await page.goto(`${ctx.baseURL}/admin/audit-log`);
      await pageHeading(page, 'Audit log').waitFor();
      // The refresh cookie stops working, as after 30 days or a revoked
      // session; the reload drops the access token (it lives in memory).
      const { hostname } = new URL(ctx.baseURL);
      await page.context().addCookies([{ name: 'paygate_refresh', value: 'rt_revoked', domain: hostname, path: '/api/v1/panel/auth', httpOnly: true, sameSite: 'Strict' }]);
      await page.reload();
      await expectPath(page, '/login?next=%2Fadmin%2Faudit-log&expired=1');
      await page.getByText('Your session has expired').waitFor();
      await ctx.shot(page, 'session-expired');
      await fillSignIn(page, ctx.admin);
      await expectPath(page, '/admin/audit-log');
      await pageHeading(page, 'Audit log').waitFor();
    },
  },
  {
    id: 'sign-out',
    name: 'signing out ends the session: a reload stays signed out',
    needs: ['admin-login'],
    async run(ctx) {
      const page = await ctx.actor('admin');
      await page.goto(`${ctx.baseURL}/admin`);
      await pageHeading(page, 'Platform dashboard').waitFor();
      await expectNoTokenInStorage(page);
      const loggedOut = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/panel/auth/logout');
      await signOut(page);
      if ((await loggedOut).status() !== 204) throw new Error('POST /auth/logout did not answer 204');
      const left = (await page.context().cookies()).filter((c) => c.name === 'paygate_refresh');
      if (left.length) throw new Error('the refresh cookie is still there after signing out');
      await page.goto(`${ctx.baseURL}/admin`);
      await expectPath(page, '/login?next=%2Fadmin');
      await expectNoTokenInStorage(page);
    },
  },
  {
    id: 'not-swallowed',
    name: 'the API, health and payment pages are not swallowed by the panel',
    async run(ctx) {
      const page = await ctx.actor('anonymous');
      const html = { Accept: 'text/html' };
      for (const path of ['/api/v1/panel/nowhere', '/healthz/x', '/pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5/x', '/assets/missing.js']) {
        const r = await page.request.get(`${ctx.baseURL}${path}`, { headers: html });
        if (r.status() !== 404 || !(await r.text()).includes('"not_found"')) throw new Error(`GET ${path}: ${r.status()}, not the JSON 404`);
      }
      const health = await page.request.get(`${ctx.baseURL}/healthz`, { headers: html });
      if (!health.ok() || !(await health.text()).includes('"ok"')) throw new Error('GET /healthz is not the health answer');
      await page.goto(`${ctx.baseURL}/no/such/page`);
      await expectPath(page, '/login?next=%2Fno%2Fsuch%2Fpage');
    },
  },
];

/** No access or refresh token in localStorage or sessionStorage (they live in memory and in the HttpOnly cookie). */
async function expectNoTokenInStorage(page) {
  const stored = await page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((st) => Object.keys(st).map((k) => `${k}=${st.getItem(k)}`)),
  );
  const token = stored.find((kv) => /eyJ|rt_|token/i.test(kv));
  if (token) throw new Error(`a token is in web storage: ${token.slice(0, 40)}…`);
}

/** The refresh token is an HttpOnly, SameSite=Strict cookie on the auth routes only. */
async function expectRefreshCookie(page) {
  const c = (await page.context().cookies()).find((k) => k.name === 'paygate_refresh');
  if (!c || !c.httpOnly || c.sameSite !== 'Strict' || c.path !== '/api/v1/panel/auth') {
    throw new Error(`refresh cookie ${JSON.stringify(c && { ...c, value: '…' })}`);
  }
  if (await page.evaluate(() => document.cookie.includes('paygate_refresh'))) throw new Error('a script can read the refresh cookie');
}
