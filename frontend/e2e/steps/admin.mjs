// Admin screens, step by step. Each function drives the real UI from the
// page of a signed-in admin and throws on anything unexpected. Stubs throw
// NotImplemented: the runner skips them (and the steps that need them).
import { NotImplemented } from '../lib/helpers.mjs';

/**
 * Creates a service through /admin/services/new (headers, parameters, docs)
 * and its default pricing row.
 * @param {import('playwright-core').Page} page signed in as admin
 * @param {{name: string, slug: string, providerUrl: string, method: 'GET'|'POST',
 *          params: {name: string, type: string, required?: boolean}[],
 *          price: {admin_cost: string, reseller_price: string, user_price: string}}} service
 * @returns {Promise<{id: number}>}
 */
export async function createServiceWithPricing(page, service) {
  void page, service;
  throw new NotImplemented('createServiceWithPricing');
}

/** Activates the pending user with this email from /admin/users. */
export async function activateUser(page, email) {
  void page, email;
  throw new NotImplemented('activateUser');
}

/** Approves the user's pending balance request from /admin/balance-requests (after looking at its screenshot). */
export async function approveBalanceRequest(page, email) {
  void page, email;
  throw new NotImplemented('approveBalanceRequest');
}
