// THE FLOW OF ISSUE 20 (money out, account opening), on the sandbox
// providers: the admin credits a user's balance; the user creates an API key
// and sends two payouts from the panel's form, confirmed with the password
// (a wrong one sends nothing; no secret is asked):
// one to an account ending 0000 (the sandbox fails it: the amount and the
// fee come back) and one to an account ending 1234 (success, with the bank's
// UTR). The admin sees both with their owner and what the user has used of
// the daily limit, and raises it. The user opens an account for an
// applicant through the gateway and follows it on the account openings list.
import { signIn, register } from '../steps/auth.mjs';
import { activateUser } from '../steps/admin.mjs';
import { callFromTryIt, createKey, inr } from '../steps/user.mjs';
import { expectBalance, gateway, eventually, squash } from '../steps/money.mjs';
import { creditBalance, expectPayoutStatus, goToPayouts, openPayout, payoutRow, sendBankPayout } from '../steps/payouts.mjs';
import { openScreen, unique } from '../lib/helpers.mjs';

export const name = 'payouts';

const id = unique();
const USER = { name: 'Kabir Shah', email: `kabir.${id}@example.com`, phone: `96${String(Date.now()).slice(-8)}`, password: 'kabir-password-1' };
const CREDIT = '1000.00';
const FEE = '5.00'; // the payout-transfer service's default charge
const FAILING = { account: '501234560000', ifsc: 'HDFC0001234', name: 'Closed Account', amount: '250.00', total: '255.00' };
const GOOD = { account: '501234561234', ifsc: 'ICIC0004321', name: 'Ravi Kumar', amount: '300.00', total: '305.00', narration: 'Invoice 42' };
// 1,000.00 − (250.00 + 5.00) given back − 1.00 (the beneficiary's verification) − (300.00 + 5.00)
const BALANCE = '694.00';
const APPLICANT = {
  name: 'Asha Applicant', dob: '1990-05-17', pan: 'ABCDE1234F', aadhaar: '234567890123', mobile: '9876543210',
  email: `asha.${id}@example.com`, address: '1 MG Road, Bengaluru 560001', product: 'savings', reference_id: `aco-${id}`,
};

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'funded',
    name: 'a user registers, the admin activates them and credits ₹1,000.00',
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await signIn(admin, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      const page = await ctx.actor('user');
      await register(page, ctx.baseURL, USER);
      await activateUser(admin, USER.email);
      await creditBalance(admin, USER.email, CREDIT);
      await signIn(page, ctx.baseURL, USER, { expectLanding: '/dashboard' });
      await expectBalance(page, CREDIT);
    },
  },
  {
    id: 'key',
    name: 'the user creates an API key (payouts are billed on it)',
    needs: ['funded'],
    async run(ctx) {
      const page = await ctx.actor('user');
      ctx.state.key = await createKey(page, 'payouts key');
    },
  },
  {
    id: 'failed',
    name: 'a payout to an account ending 0000 from the panel form fails, and the amount and the fee come back',
    needs: ['key'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await goToPayouts(page);
      await page.getByText('No payouts yet').waitFor();
      const { payoutId } = await sendBankPayout(page, { ...ctx.state.key, ...FAILING, fee: FEE, password: USER.password, wrongPassword: 'not-my-password' });
      ctx.state.failedId = payoutId;
      await expectPayoutStatus(page, payoutId, 'failed');
      const row = payoutRow(page, payoutId);
      await row.getByText(inr(FAILING.amount)).waitFor();
      await row.getByText('XXXXXXXX0000 · HDFC0001234').waitFor();
      const detail = await openPayout(page, payoutId);
      await detail.getByText('The amount and the fee were given back to your balance.').waitFor();
      await detail.getByText('Test mode', { exact: true }).waitFor();
      // The header's balance follows without a reload: the debit came back when the payout failed.
      await eventually(async () => squash(await page.getByTestId('header-balance').innerText()) === inr(CREDIT)
        || `the header shows ${await page.getByTestId('header-balance').innerText()}`, 'the header balance');
      await ctx.shot(page, 'payout-failed');
      await page.keyboard.press('Escape');
      await expectBalance(page, CREDIT);
    },
  },
  {
    id: 'success',
    name: 'a payout to an account ending 1234 reaches success with a UTR',
    needs: ['failed'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await goToPayouts(page);
      // A reload forgets the payout credential (memory only): the password is asked again, to
      // save the beneficiary (verified once); the payout goes to it, chosen from the list.
      await page.reload();
      const { payoutId } = await sendBankPayout(page, { ...ctx.state.key, ...GOOD, fee: FEE, password: USER.password, save: true });
      ctx.state.goodId = payoutId;
      await expectPayoutStatus(page, payoutId, 'success');
      const detail = await openPayout(page, payoutId);
      const utr = squash(await detail.getByTestId('payout-utr').innerText());
      if (!/^[0-9A-Z]{8,}$/.test(utr)) throw new Error(`the successful payout's UTR reads "${utr}"`);
      await payoutRow(page, payoutId).getByText(utr).waitFor();
      await ctx.shot(page, 'payout-success');
      await page.keyboard.press('Escape');
      await expectBalance(page, BALANCE);

      // The gateway tells the same, by the payout id.
      const st = await gateway(ctx.baseURL, ctx.state.key.secret, 'GET', `/api/v1/payout/status?payout_id=${payoutId}`);
      if (st.status !== 200 || st.json.data?.status !== 'success' || st.json.data?.utr !== utr) throw new Error(`payout/status: ${st.status} ${JSON.stringify(st.json)}`);
      // The filters: success only, then the UTR searched.
      await openScreen(page, '/payouts?status=success', 'Payouts');
      await payoutRow(page, payoutId).waitFor();
      if (await payoutRow(page, ctx.state.failedId).count()) throw new Error('the failed payout is listed under success');
      await page.getByRole('textbox', { name: 'Search' }).fill(utr);
      await page.waitForURL((u) => u.searchParams.get('q') === utr);
      await payoutRow(page, payoutId).waitFor();
    },
  },
  {
    id: 'admin',
    name: 'the admin sees both payouts with their owner, the day’s use of the limit, and raises it',
    needs: ['success'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await openScreen(admin, '/payouts', 'Payouts');
      for (const pid of [ctx.state.failedId, ctx.state.goodId]) await payoutRow(admin, pid).getByRole('link', { name: new RegExp(USER.name) }).waitFor();

      await openScreen(admin, '/admin/payout-limits', 'Payout limits');
      const row = admin.getByRole('table', { name: 'Payout limits' }).getByRole('row').filter({ hasText: USER.email });
      await row.getByText(inr(GOOD.amount), { exact: true }).waitFor(); // the failed one does not count
      await row.getByText(inr('200000.00'), { exact: true }).waitFor();
      await row.getByRole('button', { name: `Edit the limit of ${USER.email}` }).click();
      const dialog = admin.getByRole('dialog', { name: `Daily payout limit of ${USER.name}` });
      await dialog.getByRole('textbox', { name: /^Daily payout limit/ }).fill('50000');
      await dialog.getByRole('button', { name: 'Save limit' }).click();
      await dialog.waitFor({ state: 'detached' });
      await row.getByText(inr('50000.00'), { exact: true }).waitFor();
      await ctx.shot(admin, 'payout-limits');

      // The user's quote now shows what is left of the new limit.
      const page = await ctx.actor('user');
      await openScreen(page, '/payouts', 'Payouts');
      await page.getByRole('button', { name: 'New payout' }).click();
      const left = page.getByRole('dialog', { name: 'New payout' }).getByTestId('quote-remaining');
      await eventually(async () => squash(await left.innerText()) === inr('49700.00') || `left today: ${await left.innerText()}`, 'the remaining limit');
      await page.keyboard.press('Escape');
    },
  },
  {
    id: 'try-it',
    name: 'the user sends a UPI payout from the service’s try-it console (the beneficiary nested from its dotted fields)',
    needs: ['admin'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const ref = `tryit-${id}`;
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/payout/transfer' && r.request().method() === 'POST');
      const { charged } = await callFromTryIt(page, {
        serviceName: 'Payout (money transfer)', ...ctx.state.key,
        params: { 'beneficiary.type': 'vpa', 'beneficiary.name': 'Ravi Kumar', 'beneficiary.vpa': 'ravi@okaxis', amount: '100.00', reference_id: ref },
      });
      const sent = JSON.parse((await answered).request().postData() ?? '{}');
      if (JSON.stringify(sent.beneficiary) !== JSON.stringify({ name: 'Ravi Kumar', type: 'vpa', vpa: 'ravi@okaxis' })) throw new Error(`the console sent ${JSON.stringify(sent)}`);
      if (charged !== inr(FEE)) throw new Error(`the console says charged ${charged}, want ${inr(FEE)}`);
      await ctx.shot(page, 'try-it-payout');
      await openScreen(page, `/payouts?q=${ref}`, 'Payouts');
      const row = page.getByRole('table', { name: 'Payouts' }).getByRole('row').filter({ hasText: 'ravi@okaxis' });
      await row.getByText('UPI', { exact: true }).waitFor();
      await row.getByText('success', { exact: true }).waitFor({ timeout: 20_000 });
      await expectBalance(page, '589.00'); // 694.00 − 100.00 − 5.00
    },
  },
  {
    id: 'openings',
    name: 'the user opens an account for an applicant through the gateway and follows it on the account openings list',
    needs: ['key'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const opened = await gateway(ctx.baseURL, ctx.state.key.secret, 'POST', '/api/v1/account/open', APPLICANT);
      if (opened.status !== 200 || !/^aco_/.test(opened.json.data?.opening_id ?? '')) throw new Error(`account/open: ${opened.status} ${JSON.stringify(opened.json)}`);
      await openScreen(page, '/account-openings', 'Account openings');
      const row = page.getByRole('table', { name: 'Account openings' }).getByRole('row').filter({ hasText: APPLICANT.reference_id });
      await row.getByText('XXXXXX234F · XXXXXXXX0123').waitFor();
      if ((await page.content()).includes(APPLICANT.aadhaar)) throw new Error('the full Aadhaar number is on the page');
      // The sandbox opens it within 10 s; the list polls while it is on its way.
      await row.getByText('opened', { exact: true }).waitFor({ timeout: 25_000 });
      await row.getByText(/^X+\d{4}$/).waitFor();
      await ctx.shot(page, 'account-openings');
    },
  },
];
