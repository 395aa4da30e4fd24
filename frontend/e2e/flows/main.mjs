// THE FLOW OF ISSUE 6, point 5, in order. Steps whose functions are still
// stubs (they throw NotImplemented) are reported as skipped, and so are the
// steps that `need` them; fill the functions in steps/*.mjs and they run.
import { signIn, register } from '../steps/auth.mjs';
import { createServiceWithPricing, activateUser, approveBalanceRequest } from '../steps/admin.mjs';
import { requestBalance, createKey, callFromTryIt, checkDashboardAndHitLogs } from '../steps/user.mjs';
import { adminRowActionsOnPhone, userRowActionsOnPhone, keyboardFormAndModal } from '../steps/quality.mjs';
import { pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'main';

const id = unique();
const USER = { name: 'Asha Rao', email: `asha.${id}@example.com`, phone: `98${String(Date.now()).slice(-8)}`, password: 'asha-password-1' };
// Served by the server's built-in sandbox upstream (adapters/sandbox): no network needed.
const SERVICE = {
  name: `SMS ${id}`,
  slug: `sms-${id}`,
  providerUrl: 'sandbox://sms-gateway',
  method: 'POST',
  params: [
    { name: 'phone', type: 'string', required: true },
    { name: 'message', type: 'string', required: true },
    { name: 'template_id', type: 'string', required: true }, // the sandbox SMS upstream requires it
  ],
  price: { admin_cost: '0.2000', reseller_price: '0.4000', user_price: '0.5000' },
};

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'admin-login',
    name: 'admin signs in and sees the dashboard',
    async run(ctx) {
      const page = await ctx.actor('admin');
      await signIn(page, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      await pageHeading(page, 'Platform dashboard').waitFor();
      await ctx.shot(page, 'admin-dashboard');
    },
  },
  {
    id: 'create-service',
    name: 'admin creates a service with pricing',
    needs: ['admin-login'],
    async run(ctx) {
      ctx.state.service = await createServiceWithPricing(await ctx.actor('admin'), SERVICE);
      await ctx.shot(await ctx.actor('admin'), 'admin-service');
    },
  },
  {
    id: 'register',
    name: 'a visitor registers',
    async run(ctx) {
      const page = await ctx.actor('user');
      await register(page, ctx.baseURL, USER);
      await ctx.shot(page, 'registered');
    },
  },
  {
    id: 'activate',
    name: 'admin activates the user',
    needs: ['admin-login', 'register'],
    async run(ctx) {
      await activateUser(await ctx.actor('admin'), USER.email);
      await ctx.shot(await ctx.actor('admin'), 'admin-users');
    },
  },
  {
    id: 'user-login',
    name: 'the user signs in',
    needs: ['activate'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await signIn(page, ctx.baseURL, USER, { expectLanding: '/dashboard' });
    },
  },
  {
    id: 'request-balance',
    name: 'the user requests balance with a screenshot',
    needs: ['user-login'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const receipt = await ctx.receiptImage();
      await requestBalance(page, { amount: '100.00', utr: `UTR${Date.now()}`, screenshot: receipt });
      await ctx.shot(page, 'balance-request');
    },
  },
  {
    id: 'approve',
    name: 'admin approves the balance request',
    needs: ['request-balance'],
    async run(ctx) {
      await approveBalanceRequest(await ctx.actor('admin'), USER.email);
      await ctx.shot(await ctx.actor('admin'), 'admin-balance-requests');
    },
  },
  {
    id: 'create-key',
    name: 'the user creates an API key',
    needs: ['user-login'],
    async run(ctx) {
      const page = await ctx.actor('user');
      ctx.state.key = await createKey(page, 'e2e key');
      await ctx.shot(page, 'api-keys');
    },
  },
  {
    id: 'try-it',
    name: 'the user calls the service from the try-it console',
    needs: ['create-service', 'approve', 'create-key'],
    async run(ctx) {
      const page = await ctx.actor('user');
      ctx.state.call = await callFromTryIt(page, {
        serviceName: SERVICE.name,
        key: ctx.state.key.key,
        secret: ctx.state.key.secret,
        params: { phone: '9876543210', message: 'Your OTP is 123456', template_id: 'TPL_OTP_01' },
      });
      await ctx.shot(page, 'try-it');
    },
  },
  {
    id: 'charge-visible',
    name: 'the user sees the charge on the dashboard and in the hit logs',
    needs: ['try-it'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const { dashboardTTIms } = await checkDashboardAndHitLogs(page, {
        serviceName: SERVICE.name,
        charge: SERVICE.price.user_price,
        balanceAfter: '99.50',
      });
      ctx.metric('dashboard_tti_ms', dashboardTTIms);
      await ctx.shot(page, 'hit-logs');
    },
  },
  {
    id: 'phone-actions',
    name: 'row actions are on screen at 375 px (admin users, user keys, hit logs, balance requests)',
    needs: ['charge-visible'],
    async run(ctx) {
      const admin = await ctx.actor('admin-phone', { viewport: 'phone', storageFrom: 'admin' });
      await adminRowActionsOnPhone(admin, ctx.baseURL, USER.email);
      await ctx.shot(admin, 'phone-admin-users');
      const user = await ctx.actor('user-phone', { viewport: 'phone', storageFrom: 'user' });
      await userRowActionsOnPhone(user, ctx.baseURL, 'e2e key');
      await ctx.shot(user, 'phone-balance-requests');
    },
  },
  {
    id: 'keyboard-modal',
    name: 'a form in a modal works from the keyboard, and the focus returns on close',
    needs: ['user-login'],
    async run(ctx) {
      await keyboardFormAndModal(await ctx.actor('user'));
    },
  },
];
