// User screens, step by step. Each function drives the real UI from the
// page of a signed-in user and throws on anything unexpected. Stubs throw
// NotImplemented: the runner skips them (and the steps that need them).
import { NotImplemented } from '../lib/helpers.mjs';

/**
 * Requests a top-up on /balance-requests with a screenshot file.
 * @param {import('playwright-core').Page} page signed in as the user
 * @param {{amount: string, utr: string, screenshot: string}} req screenshot: path of a PNG
 */
export async function requestBalance(page, req) {
  void page, req;
  throw new NotImplemented('requestBalance');
}

/**
 * Creates an API key on /api-keys and reads the secret shown once.
 * @returns {Promise<{key: string, secret: string}>}
 */
export async function createKey(page, name) {
  void page, name;
  throw new NotImplemented('createKey');
}

/**
 * Opens the service on /services/:id, fills the try-it form generated from
 * its request_params, picks the key, calls, and returns what the console shows.
 * @param {{serviceName: string, key: string, secret: string, params: Record<string,string>}} call
 * @returns {Promise<{status: number, charged: string}>}
 */
export async function callFromTryIt(page, call) {
  void page, call;
  throw new NotImplemented('callFromTryIt');
}

/**
 * Checks the charge on /dashboard (balance, today's spend) and the call in
 * /hit-logs. Returns the dashboard's time to interactive in ms
 * (measureInteractive from lib/helpers.mjs).
 * @param {{serviceName: string, charge: string, balanceAfter: string}} expected
 * @returns {Promise<{dashboardTTIms: number}>}
 */
export async function checkDashboardAndHitLogs(page, expected) {
  void page, expected;
  throw new NotImplemented('checkDashboardAndHitLogs');
}
