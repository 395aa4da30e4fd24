// THE FLOW OF ISSUE 31, point 5 (plans that bill): the admin adds a public
// plan "Growth" (300.00 a month, 1,000 calls); a user with ₹1,000.00 opens
// "Plan and billing", switches to Growth, reads the prorated amount in the
// confirmation, confirms, and finds that amount as a plan_fee debit in their
// ledger. The admin puts another account on Enterprise at an agreed
// 25,000.00: refused while its wallet cannot cover the prorated charge,
// done once it is credited, and the user sees the price on their screen.
import { signIn, register } from '../steps/auth.mjs';
import { activateUser } from '../steps/admin.mjs';
import { inr } from '../steps/user.mjs';
import { expectBalance, expectText } from '../steps/money.mjs';
import { creditBalance } from '../steps/payouts.mjs';
import {
  createPlan, expectCodeTaken, expectNoOverflow, expectPlanFee, expectUserPlan, goToPlanAndBilling, minus, openUserPage, planRow,
  setUserPlan, settle, switchPlan,
} from '../steps/plans.mjs';
import { pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'plans';

const id = unique();
const stamp = String(Date.now()).slice(-8);
const USER = { name: 'Nisha Menon', email: `nisha.${id}@example.com`, phone: `95${stamp}`, password: 'nisha-password-1' };
const BIG = { name: 'Vikram Rao', email: `vikram.${id}@example.com`, phone: `94${stamp}`, password: 'vikram-password-1' };
const CREDIT = '1000.00';
const GROWTH = { code: 'growth', name: 'Growth', price: '300.00', calls: '1000', features: ['1,000 billed calls a month', 'Webhooks', 'Priority email support'] };
const AGREED = '25000.00';
const BIG_CREDIT = '30000.00';

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'accounts',
    name: 'two users register, the admin activates them and credits the first ₹1,000.00',
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await signIn(admin, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      const page = await ctx.actor('user');
      await register(page, ctx.baseURL, USER);
      const big = await ctx.actor('big');
      await register(big, ctx.baseURL, BIG);
      await activateUser(admin, USER.email);
      await activateUser(admin, BIG.email);
      await creditBalance(admin, USER.email, CREDIT);
      await signIn(page, ctx.baseURL, USER, { expectLanding: '/dashboard' });
      await expectBalance(page, CREDIT);
    },
  },
  {
    id: 'create-plan',
    name: 'the admin adds the public plan Growth (₹300.00 a month, 1,000 calls); its code cannot be taken twice',
    needs: ['accounts'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await createPlan(admin, GROWTH);
      // The seeded plans are there too: Enterprise's price is agreed per account, its calls unlimited.
      const ent = planRow(admin, 'Enterprise');
      await ent.getByText('Agreed per account', { exact: true }).waitFor();
      await ent.getByText('Unlimited', { exact: true }).waitFor();
      await ctx.shot(admin, 'admin-plans');
      await expectCodeTaken(admin, GROWTH.code);

      const phone = await ctx.actor('admin-phone', { viewport: 'phone', storageFrom: 'admin' });
      await phone.goto(`${ctx.baseURL}/admin/plans`);
      await pageHeading(phone, 'Plans', { exact: true }).waitFor();
      await planRow(phone, GROWTH.name).waitFor();
      await phone.getByRole('button', { name: `Edit plan ${GROWTH.name}` }).click();
      const edit = phone.getByRole('dialog', { name: `Edit plan ${GROWTH.name}` });
      await edit.waitFor();
      await settle(phone);
      await expectNoOverflow(phone, 'the plan dialog');
      await ctx.shot(phone, 'phone-admin-plan-edit');
      await phone.keyboard.press('Escape');
      await edit.waitFor({ state: 'detached' });
      await settle(phone);
      await expectNoOverflow(phone, 'the plans screen');
      await ctx.shot(phone, 'phone-admin-plans');
    },
  },
  {
    id: 'switch',
    name: 'the user opens Plan and billing, switches to Growth after the quote, and pays the prorated amount',
    needs: ['create-plan'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await goToPlanAndBilling(page);
      await expectText(page.getByTestId('current-plan'), 'Starter', 'the plan of a new account');
      await page.getByTestId('calls-used').getByText(/^0$/).waitFor();
      await page.getByRole('article', { name: GROWTH.name }).getByText(inr(GROWTH.price), { exact: true }).waitFor();
      await ctx.shot(page, 'plan-and-billing-starter');
      const { chargedNow } = await switchPlan(page, GROWTH.name, {
        beforeConfirm: async () => {
          await settle(page);
          await ctx.shot(page, 'switch-confirm');
        },
      });
      if (chargedNow === '0.00' || minus(GROWTH.price, chargedNow).startsWith('-')) {
        throw new Error(`the switch charged ${chargedNow}, want a prorated part of ${GROWTH.price}`);
      }
      ctx.state.chargedNow = chargedNow;
      await expectText(page.getByTestId('current-price'), `${inr(GROWTH.price)} a month`, 'the price after the switch');
      await page.getByTestId('calls-used').getByText(/of 1,000$/).waitFor();
      await ctx.shot(page, 'plan-and-billing-growth');

      const phone = await ctx.actor('user-phone', { viewport: 'phone', storageFrom: 'user' });
      await phone.goto(`${ctx.baseURL}/plan`);
      await pageHeading(phone, 'Plan and billing', { exact: true }).waitFor();
      await expectText(phone.getByTestId('current-plan'), GROWTH.name, 'the plan on the phone');
      await expectNoOverflow(phone, 'Plan and billing');
      await ctx.shot(phone, 'phone-plan-and-billing');
    },
  },
  {
    id: 'ledger',
    name: 'the user finds the same amount as a plan_fee debit in their transactions, and the balance less by it',
    needs: ['switch'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await expectPlanFee(page, ctx.state.chargedNow);
      await ctx.shot(page, 'transactions-plan-fee');
      await expectBalance(page, minus(CREDIT, ctx.state.chargedNow));
    },
  },
  {
    id: 'agreed-price',
    name: 'the admin puts the second account on Enterprise at ₹25,000.00: 402 while its wallet is empty, set once credited',
    needs: ['accounts'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await openUserPage(admin, BIG.email);
      await expectText(admin.getByTestId('user-plan'), 'Starter', 'the plan of a new account');
      let card = await setUserPlan(admin, { plan: 'Enterprise', price: AGREED });
      const refused = card.getByTestId('plan-402');
      await refused.getByText('The wallet cannot cover the prorated charge').waitFor();
      await expectText(admin.getByTestId('user-plan'), 'Starter', 'the plan after the 402');
      await ctx.shot(admin, 'user-plan-402');

      await creditBalance(admin, BIG.email, BIG_CREDIT);
      card = await setUserPlan(admin, { plan: 'Enterprise', price: AGREED });
      await admin.getByText(`${BIG.name} is on Enterprise at ${inr(AGREED)} a month.`).waitFor();
      await settle(admin);
      await expectUserPlan(admin, 'Enterprise', AGREED);
      await ctx.shot(admin, 'user-plan-enterprise');

      // The same page at 375 px: the plan card reads (a fresh page has no price from a change: the plan's name and "agreed per account").
      const phone = await ctx.actor('admin-phone', { viewport: 'phone', storageFrom: 'admin' });
      await phone.goto(`${ctx.baseURL}${new URL(admin.url()).pathname}`);
      await pageHeading(phone, 'User', { exact: true }).waitFor();
      await expectText(phone.getByTestId('user-plan'), 'Enterprise', 'the plan on the phone');
      await expectNoOverflow(phone, 'the user page');
      await ctx.shot(phone, 'phone-user-plan');

      // The account's owner sees the agreed price and an unlimited allowance.
      const big = await ctx.actor('big');
      await signIn(big, ctx.baseURL, BIG, { expectLanding: '/dashboard' });
      await goToPlanAndBilling(big);
      await expectText(big.getByTestId('current-plan'), 'Enterprise', "the owner's plan");
      await expectText(big.getByTestId('current-price'), `${inr(AGREED)} a month`, "the owner's price");
      await big.getByTestId('calls-used').getByText(/Unlimited$/).waitFor();
      // Enterprise is not public: its owner is not offered a switch.
      await big.getByTestId('plan-arranged').waitFor();
      if (await big.getByRole('button', { name: /^Switch to / }).count()) throw new Error('a switch is offered from a plan arranged per account');
      await ctx.shot(big, 'plan-and-billing-enterprise');
    },
  },
];
