// User screens, step by step. Each function drives the real UI from the
// page of a signed-in user and throws on anything unexpected.
import { expectPath, measureInteractive, pageHeading } from '../lib/helpers.mjs';

const origin = (page) => new URL(page.url()).origin;

/** An amount string as the panel shows it (formatINR: Indian grouping, 2 to 4 places). */
export function inr(s) {
  const places = s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
  return new Intl.NumberFormat('en-IN', {
    style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: Math.min(Math.max(places, 2), 4),
  }).format(s);
}

async function open(page, path, heading) {
  await page.goto(`${origin(page)}${path}`);
  await expectPath(page, path);
  await pageHeading(page, heading).waitFor();
}

/**
 * Requests a top-up on /balance-requests with a screenshot file.
 * @param {import('playwright-core').Page} page signed in as the user
 * @param {{amount: string, utr: string, screenshot: string}} req screenshot: path of a PNG
 */
export async function requestBalance(page, req) {
  await open(page, '/balance-requests', 'Add balance');
  const form = page.getByRole('form', { name: 'Request balance' });
  await form.getByLabel('Amount').fill(req.amount);
  await form.getByLabel('UTR number').fill(req.utr);
  await form.locator('input[type="file"]').setInputFiles(req.screenshot);
  // The preview of the chosen image shows before sending.
  await form.getByTestId('screenshot-preview').waitFor();
  if (!(await form.getByTestId('screenshot-preview').evaluate((img) => img.complete && img.naturalWidth > 0))) {
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="screenshot-preview"]');
      return img && img.complete && img.naturalWidth > 0;
    });
  }
  await form.getByRole('button', { name: 'Send request' }).click();
  const row = page.getByRole('table', { name: 'Your balance requests' }).getByRole('row').filter({ hasText: req.utr.toUpperCase() });
  await row.waitFor();
  await row.getByText('pending').waitFor();
  await row.getByText(inr(req.amount)).waitFor();
}

/**
 * Creates an API key on /api-keys and reads the secret shown once.
 * @returns {Promise<{key: string, secret: string}>}
 */
export async function createKey(page, name) {
  await open(page, '/api-keys', 'API keys');
  await page.getByRole('button', { name: 'Create key', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Create an API key' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Daily limit').fill('500');
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: `Key “${name}” created` });
  const key = await shown.getByTestId('new-key').inputValue();
  const secret = await shown.getByTestId('new-secret').inputValue();
  if (!/^rk_live_\w+$/.test(key) || !/^rs_\w+$/.test(secret)) throw new Error(`unexpected key/secret shown: ${key} / ${secret}`);
  // The modal stays until the user says the secret is saved.
  if (!(await shown.getByRole('button', { name: 'Done' }).isDisabled())) throw new Error('"Done" should wait for "I have saved the secret"');
  await shown.getByLabel('I have saved the secret').check();
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'hidden' });
  const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: name });
  await row.getByText(key).waitFor();
  await row.getByText('0 / 500').waitFor();
  return { key, secret };
}

/**
 * Opens the service on /services/:id, fills the try-it form generated from
 * its request_params, picks the key, calls, and returns what the console shows.
 * @param {{serviceName: string, key: string, secret: string, params: Record<string,string>}} call
 * @returns {Promise<{status: number, charged: string}>}
 */
export async function callFromTryIt(page, call) {
  await open(page, '/services', 'Services');
  await page.getByRole('table', { name: 'Services' }).getByRole('link', { name: call.serviceName }).click();
  await pageHeading(page, call.serviceName).waitFor();
  await expectPath(page, new URL(page.url()).pathname); // /services/:id
  const tryIt = page.getByRole('region', { name: 'Try it' });
  // The form is generated from request_params: every parameter has its field.
  for (const name of Object.keys(call.params)) await tryIt.locator(`input[data-param="${name}"], textarea[data-param="${name}"]`).waitFor();
  await tryIt.getByLabel('API key').click();
  await page.getByRole('option', { name: new RegExp(call.key) }).click();
  await tryIt.getByLabel('Secret').fill(call.secret);
  for (const [name, value] of Object.entries(call.params)) await tryIt.locator(`[data-param="${name}"]`).fill(value);
  await tryIt.getByRole('button', { name: 'Send request' }).click();
  const status = await tryIt.getByTestId('try-it-status');
  await status.waitFor();
  const code = parseInt(await status.innerText(), 10);
  if (code !== 200) {
    const body = await tryIt.getByLabel('Response body').innerText().catch(() => '');
    throw new Error(`the try-it call answered ${code}: ${body.slice(0, 400)}`);
  }
  const charged = await tryIt.getByTestId('try-it-charged').innerText();
  return { status: code, charged };
}

/**
 * Checks the charge on /dashboard (balance, today's spend) and the call in
 * /hit-logs. Returns the dashboard's time to interactive in ms
 * (measureInteractive from lib/helpers.mjs).
 * @param {{serviceName: string, charge: string, balanceAfter: string}} expected
 * @returns {Promise<{dashboardTTIms: number}>}
 */
export async function checkDashboardAndHitLogs(page, expected) {
  const base = origin(page);
  await page.goto(`${base}/dashboard`, { waitUntil: 'commit' });
  const balance = page.getByTestId('dashboard-balance');
  const dashboardTTIms = await measureInteractive(page, balance);
  await pageHeading(page, 'Dashboard').waitFor();
  const want = async (loc, text, what) => {
    const got = (await loc.innerText()).trim();
    if (got !== text) throw new Error(`${what}: the dashboard shows ${got}, expected ${text}`);
  };
  await want(balance, inr(expected.balanceAfter), 'balance');
  await want(page.getByTestId('dashboard-today-spend'), inr(expected.charge), "today's spend");
  await page.getByTestId('top-services').getByRole('link', { name: expected.serviceName }).waitFor();
  await page.getByRole('img', { name: 'Spend per day, last 30 days' }).waitFor();
  await page.getByText('1 call today').waitFor();

  await open(page, '/hit-logs', 'Hit logs');
  const row = page.getByRole('table', { name: 'Hit logs' }).getByRole('row').filter({ hasText: expected.serviceName });
  await row.waitFor();
  await row.getByText('success').waitFor();
  await row.getByText(inr(expected.charge)).waitFor();
  return { dashboardTTIms };
}
