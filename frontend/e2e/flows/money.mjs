// THE FLOW OF ISSUE 19, point 7 (money in), on PAYMENT_PROVIDER=upi_direct:
// a merchant tops up by checkout (UTR on the page), files a manual balance
// request and collects a payment created with the gateway API, whose payer
// reports a UTR; the admin imports the bank statement, which confirms all
// three and leaves one line to dismiss; the merchant sees the credits (less
// the collection fee) and refunds part of the payment, which upi_direct
// cannot send: the refund fails and the balance comes back.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signIn, register } from '../steps/auth.mjs';
import { activateUser } from '../steps/admin.mjs';
import { requestBalance, createKey, inr } from '../steps/user.mjs';
import {
  newUTR, payWithUTR, startTopUp, expectBalance, gateway, statementCSV, importStatement, showLines, lineRows,
  squash, expectText, eventually,
} from '../steps/money.mjs';
import { openScreen, pageHeading, unique } from '../lib/helpers.mjs';

export const name = 'money';

const UPI = { vpa: 'paygate@okicici', payee: 'Paygate' };
/** The server of this flow: live UPI into the platform's VPA, and a 2.5 % collection fee for new accounts. */
export const env = {
  PAYMENT_PROVIDER: 'upi_direct',
  UPI_VPA: UPI.vpa,
  UPI_PAYEE_NAME: UPI.payee,
  COLLECTION_FEE_PERCENT: '2.50',
};

const id = unique();
const USER = { name: 'Meera Iyer', email: `meera.${id}@example.com`, phone: `97${String(Date.now()).slice(-8)}`, password: 'meera-password-1' };
const TOPUP = { amount: '500.00', utr: newUTR() };
const REQUEST = { amount: '250.00', utr: newUTR() };
const PAYMENT = { amount: '1200.00', shown: '1,200.00', customer: `cust-${id}`, utr: newUTR(), fee: '30.00' }; // 2.5 % of 1,200.00
const STRAY = { amount: '777.00', utr: newUTR() }; // a credit nobody reported
const REFUND = { amount: '200.00', reason: 'item returned' };
// 500.00 + 250.00 + 1,200.00 − 30.00: the failed refund gives its 200.00 back.
const BALANCE = '1920.00';
const REFUND_FAILED = 'Refunds cannot be sent with upi_direct (no payment provider): refund the payer outside the platform';

/** Today in India as the bank prints it: dd/mm/yyyy. */
function bankDate() {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date()).split('-');
  return `${d}/${m}/${y}`;
}

/** @type {import('../run.mjs').Step[]} */
export const steps = [
  {
    id: 'merchant',
    name: 'a merchant registers, the admin activates them, they sign in',
    async run(ctx) {
      const admin = await ctx.actor('admin');
      await signIn(admin, ctx.baseURL, ctx.admin, { expectLanding: '/admin' });
      const page = await ctx.actor('user');
      await register(page, ctx.baseURL, USER);
      await activateUser(admin, USER.email);
      await signIn(page, ctx.baseURL, USER, { expectLanding: '/dashboard' });
      await expectBalance(page, '0.00');
    },
  },
  {
    id: 'topup',
    name: 'the merchant tops up by checkout: Pay by UPI, the upi_direct page, a 12-digit UTR, awaiting confirmation',
    needs: ['merchant'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await startTopUp(page, TOPUP.amount);
      ctx.state.topUpId = await payWithUTR(page, { payee: UPI.payee, amount: TOPUP.amount, vpa: UPI.vpa, upiName: UPI.payee, utr: TOPUP.utr });
      await ctx.shot(page, 'topup-awaiting-confirmation');
      // The way back goes to Add balance; nothing is credited before the statement confirms it.
      await page.getByRole('link', { name: 'Back to the merchant' }).click();
      await pageHeading(page, 'Add balance', { exact: true }).waitFor();
      // Its banner says the payment waits for confirmation, with the amount.
      const banner = page.getByTestId('checkout-return');
      await banner.getByText('Waiting for the payment').waitFor();
      await banner.getByText(inr(TOPUP.amount), { exact: false }).waitFor();
      await expectBalance(page, '0.00');
      // The top-up is a live payment of the merchant's, waiting, with the UTR.
      await openScreen(page, '/payments', 'Payments');
      const row = page.getByRole('table', { name: 'Payments' }).getByRole('row').filter({ hasText: ctx.state.topUpId });
      await row.getByText('pending', { exact: true }).waitFor();
      await row.getByText(inr(TOPUP.amount)).waitFor();
      if (await row.getByText('Test', { exact: true }).count()) throw new Error('the upi_direct top-up is marked Test');
    },
  },
  {
    id: 'request',
    name: 'the merchant also files a manual balance request with another UTR',
    needs: ['merchant'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await requestBalance(page, { amount: REQUEST.amount, utr: REQUEST.utr, screenshot: await ctx.receiptImage() });
      await ctx.shot(page, 'balance-request');
    },
  },
  {
    id: 'collect',
    name: 'the merchant creates a payment with the gateway API; the payer confirms it with a UTR on a phone',
    needs: ['merchant'],
    async run(ctx) {
      const page = await ctx.actor('user');
      const key = await createKey(page, 'shop key');
      ctx.state.secret = key.secret;
      const created = await gateway(ctx.baseURL, key.secret, 'POST', '/api/v1/payment/create',
        // The callback goes to a path of the server itself (404): no network outside the machine.
        { amount: PAYMENT.amount, currency: 'INR', customer_id: PAYMENT.customer, callback_url: `${ctx.baseURL}/shop/paygate-callback` });
      if (created.status !== 201 || created.json.livemode !== true || !/^pay_[0-9A-Z]{26}$/.test(created.json.payment_id ?? '')) {
        throw new Error(`payment/create: ${created.status} ${JSON.stringify(created.json)}`);
      }
      ctx.state.paymentId = created.json.payment_id;
      if (created.json.payment_url !== `${ctx.baseURL}/${ctx.state.paymentId}`) throw new Error(`payment_url ${created.json.payment_url}`);

      const payer = await ctx.actor('payer', { viewport: 'phone' });
      await payer.goto(created.json.payment_url);
      // The page names the merchant; the UPI app pays the platform's VPA.
      await payWithUTR(payer, { payee: USER.name, amount: PAYMENT.shown, vpa: UPI.vpa, upiName: UPI.payee, utr: PAYMENT.utr });
      const overflow = await payer.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) throw new Error(`the checkout page is ${overflow}px wider than the 375 px screen`);
      await ctx.shot(payer, 'payer-awaiting-confirmation');

      const st = await gateway(ctx.baseURL, key.secret, 'GET', `/api/v1/payment/status?payment_id=${ctx.state.paymentId}`);
      const p = st.json.data ?? st.json;
      if (st.status !== 200 || p.status !== 'pending' || p.utr !== PAYMENT.utr) throw new Error(`payment/status: ${st.status} ${JSON.stringify(st.json)}`);
    },
  },
  {
    id: 'reconcile',
    name: 'the admin imports the bank statement: 3 credits matched, 1 left, dismissed with a note; a re-import changes nothing',
    needs: ['topup', 'request', 'collect'],
    async run(ctx) {
      const admin = await ctx.actor('admin');
      const file = join(ctx.server.dir, `statement-${id}.csv`);
      writeFileSync(file, statementCSV([
        { utr: TOPUP.utr, amount: TOPUP.amount, narration: `UPI/${TOPUP.utr}/MEERA IYER/meera@okhdfcbank/HDFC BANK` },
        { utr: REQUEST.utr, amount: REQUEST.amount, narration: `IMPS/P2A/${REQUEST.utr}/MEERA IYER, "TOPUP"/SBIN0001234` },
        { utr: PAYMENT.utr, amount: PAYMENT.amount, narration: `UPI/${PAYMENT.utr}/Payment from RAVI KUMAR/ravi.k@okaxis/AXIS BANK` },
        { utr: STRAY.utr, amount: STRAY.amount, narration: `UPI/${STRAY.utr}/UNKNOWN PAYER, "GIFT"/x@ybl/YES BANK` },
      ], bankDate()));

      const first = await importStatement(admin, file);
      const want = '4 credit lines: 4 new, 0 already recorded; 3 matched, 1 to resolve. 1 debits and 1 other rows skipped.';
      if (!first.endsWith(want)) throw new Error(`the import says "${first}", want it to end "${want}"`);

      // Unmatched: the stray credit alone, with its reason.
      const stray = lineRows(admin).filter({ hasText: STRAY.utr });
      await stray.getByText('No payment or request has this UTR').waitFor();
      await stray.getByText(inr(STRAY.amount)).waitFor();
      if ((await lineRows(admin).count()) !== 1) throw new Error(`${await lineRows(admin).count()} unmatched lines, want 1`);
      await ctx.shot(admin, 'reconciliation-imported');

      // Matched: the two payments by id, the request by number.
      await showLines(admin, 'Matched');
      await lineRows(admin).filter({ hasText: TOPUP.utr }).getByText(`Payment ${ctx.state.topUpId}`).waitFor();
      await lineRows(admin).filter({ hasText: PAYMENT.utr }).getByText(`Payment ${ctx.state.paymentId}`).waitFor();
      await lineRows(admin).filter({ hasText: REQUEST.utr }).getByText(/^Balance request #\d+$/).waitFor();
      if ((await lineRows(admin).count()) !== 3) throw new Error(`${await lineRows(admin).count()} matched lines, want 3`);
      await ctx.shot(admin, 'reconciliation-matched');

      // The stray line is dismissed with a note.
      await showLines(admin, 'Unmatched');
      await lineRows(admin).filter({ hasText: STRAY.utr }).getByRole('button', { name: /^Resolve the line of 777\.00 on / }).click();
      const dialog = admin.getByRole('dialog', { name: /^Statement line #\d+$/ });
      await dialog.getByText(`UTR ${STRAY.utr}`).waitFor();
      await dialog.getByRole('radiogroup', { name: 'Resolution' }).locator('label').filter({ hasText: /^Dismiss$/ }).click();
      await dialog.getByRole('button', { name: 'Dismiss', exact: true }).click(); // no note: refused
      await dialog.getByText('Say why this credit needs no match').waitFor();
      const note = 'Director’s own transfer, not a collection';
      await dialog.getByLabel('Note').fill(note);
      await dialog.getByRole('button', { name: 'Dismiss', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await admin.getByText('Nothing to resolve').waitFor();
      await showLines(admin, 'Dismissed');
      await lineRows(admin).filter({ hasText: STRAY.utr }).getByText(`Dismissed: ${note}`).waitFor();
      await ctx.shot(admin, 'reconciliation-dismissed');

      // The same file again records nothing and matches nothing.
      const again = await importStatement(admin, file);
      const wantAgain = '4 credit lines: 0 new, 4 already recorded; 0 matched, 0 to resolve. 1 debits and 1 other rows skipped.';
      if (!again.endsWith(wantAgain)) throw new Error(`the re-import says "${again}", want it to end "${wantAgain}"`);
      await admin.getByText('Nothing to resolve').waitFor();
    },
  },
  {
    id: 'credited',
    name: 'the merchant sees the credits: balance, the approved request, the payments succeeded, the fee',
    needs: ['reconcile'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await expectBalance(page, BALANCE);
      await ctx.shot(page, 'dashboard-credited');

      await openScreen(page, '/balance-requests', 'Add balance');
      const req = page.getByRole('table', { name: 'Your balance requests' }).getByRole('row').filter({ hasText: REQUEST.utr });
      await req.getByText('approved', { exact: true }).waitFor();
      await req.getByText(/^Reconciled with bank statement line #\d+/).waitFor();

      await openScreen(page, '/payments', 'Payments');
      const table = page.getByRole('table', { name: 'Payments' });
      for (const pid of [ctx.state.topUpId, ctx.state.paymentId]) {
        await table.getByRole('row').filter({ hasText: pid }).getByText('success', { exact: true }).waitFor();
      }

      // The ledger, by each row's reference: the collection's credit and its
      // fee, the top-up's credit (no fee), the request's credit.
      await openScreen(page, '/transactions', 'Transactions');
      const txns = page.getByRole('table', { name: 'Transactions' }).getByRole('row');
      const fee = txns.filter({ has: page.getByText(/^payment_fee #\d+$/) });
      await fee.getByText(inr(`-${PAYMENT.fee}`), { exact: true }).waitFor();
      await fee.getByText('debit', { exact: true }).waitFor();
      if ((await fee.count()) !== 1) throw new Error(`${await fee.count()} collection fees, want 1 (none for the top-up)`);
      const credits = txns.filter({ has: page.getByText(/^payment #\d+$/) });
      for (const amount of [PAYMENT.amount, TOPUP.amount]) {
        await credits.filter({ has: page.getByText(inr(amount), { exact: true }) }).getByText('credit', { exact: true }).first().waitFor();
      }
      if ((await credits.count()) !== 2) throw new Error(`${await credits.count()} payment credits, want 2 (the collection, the top-up)`);
      await txns.filter({ has: page.getByText(/^balance_request #\d+$/) }).getByText(inr(REQUEST.amount), { exact: true }).waitFor();
      await ctx.shot(page, 'transactions-credited');

      // The payer's page has ended; the API says the same.
      const payer = await ctx.actor('payer');
      await payer.reload();
      await expectText(payer.locator('#status'), 'success', "the payer's page after reconciliation");
      if (await payer.locator('#utr').count()) throw new Error('the UTR form is still on a completed payment');
      const st = await gateway(ctx.baseURL, ctx.state.secret, 'GET', `/api/v1/payment/status?payment_id=${ctx.state.paymentId}`);
      const p = st.json.data ?? st.json;
      if (p.status !== 'success' || p.fee !== PAYMENT.fee || p.refundable_amount !== PAYMENT.amount) throw new Error(`payment/status: ${JSON.stringify(st.json)}`);
    },
  },
  {
    id: 'refund',
    name: 'the merchant refunds part of the payment: upi_direct fails it and the balance comes back',
    needs: ['credited'],
    async run(ctx) {
      const page = await ctx.actor('user');
      await openScreen(page, '/payments', 'Payments');
      await page.getByRole('button', { name: `Refunds of ${ctx.state.paymentId}` }).click();
      const dialog = page.getByRole('dialog', { name: `Refunds of ${ctx.state.paymentId}` });
      await dialog.getByText('No refunds yet.').waitFor();
      const totals = async () => squash(await dialog.locator('p', { hasText: /^(Paid|Refunded|Left) / }).allInnerTexts().then((t) => t.join(' | ')));
      const wantTotals = `Paid ${inr(PAYMENT.amount)} | Refunded ${inr('0.00')} | Left ${inr(PAYMENT.amount)}`;
      if ((await totals()) !== wantTotals) throw new Error(`before the refund: "${await totals()}", want "${wantTotals}"`);

      const form = dialog.getByRole('form', { name: 'Refund' });
      await form.getByLabel('Amount').fill(REFUND.amount);
      await form.getByLabel('Reason').fill(REFUND.reason);
      const answered = page.waitForResponse((r) => r.url().endsWith(`/api/v1/panel/payments/${ctx.state.paymentId}/refunds`) && r.request().method() === 'POST');
      await form.getByRole('button', { name: 'Refund', exact: true }).click();
      const r = await answered;
      const body = await r.json();
      if (r.status() !== 201 || body.data?.status !== 'failed' || body.data?.fail_reason !== REFUND_FAILED) {
        throw new Error(`the refund answered ${r.status()} ${JSON.stringify(body)}`);
      }
      await expectText(form.getByRole('status'),
        `Refund of ${inr(REFUND.amount)} failed: ${REFUND_FAILED} (your balance was given back).`, 'after the refund');
      const row = dialog.getByRole('table', { name: 'Refunds of this payment' }).locator('tbody tr');
      await row.getByText('failed', { exact: true }).waitFor();
      await row.getByText(`${REFUND.reason} (${REFUND_FAILED})`).waitFor();
      await row.getByText(inr(REFUND.amount)).waitFor();
      if ((await row.count()) !== 1) throw new Error(`${await row.count()} refunds listed, want 1`);
      // Nothing was refunded: all of it is still refundable, and the form stays.
      await eventually(async () => (await totals()) === wantTotals || `after the refund: "${await totals()}", want "${wantTotals}"`, 'totals');
      await form.getByRole('button', { name: 'Refund', exact: true }).waitFor();
      await ctx.shot(page, 'refund-failed');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // The debit and its give-back, under the refund's reference; the balance as before.
      await expectBalance(page, BALANCE);
      await openScreen(page, '/transactions', 'Transactions');
      const refundRows = page.getByRole('table', { name: 'Transactions' }).getByRole('row').filter({ has: page.getByText(/^refund #\d+$/) });
      await refundRows.filter({ has: page.getByText('debit', { exact: true }) }).getByText(inr(`-${REFUND.amount}`), { exact: true }).waitFor();
      await refundRows.filter({ has: page.getByText('refund', { exact: true }) }).getByText(inr(REFUND.amount), { exact: true }).waitFor();
      if ((await refundRows.count()) !== 2) throw new Error(`${await refundRows.count()} ledger rows for the refund, want 2 (debit, give-back)`);
      await ctx.shot(page, 'transactions-refund');

      const st = await gateway(ctx.baseURL, ctx.state.secret, 'GET', `/api/v1/payment/status?payment_id=${ctx.state.paymentId}`);
      const p = st.json.data ?? st.json;
      const rf = p.refunds ?? [];
      if (p.status !== 'success' || p.refunded_amount !== '0.00' || p.refundable_amount !== PAYMENT.amount || rf.length !== 1
        || rf[0].status !== 'failed' || rf[0].amount !== REFUND.amount) {
        throw new Error(`payment/status after the refund: ${JSON.stringify(st.json)}`);
      }
    },
  },
];
