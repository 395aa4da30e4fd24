// Signed-out screens: sign in, register, sign out. (Owned by the scaffold; used by every flow.)
import { expectPath } from '../lib/helpers.mjs';

/** Signs in through /login and waits for the landing page (or `next`). */
export async function signIn(page, baseURL, { email, password }, { next, expectLanding } = {}) {
  await page.goto(`${baseURL}/login${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  await fillSignIn(page, { email, password });
  if (expectLanding) await expectPath(page, expectLanding);
}

/** The credentials each page last signed in with (run.mjs: an actor's storageFrom signs in as the same user). */
export const signedInAs = new WeakMap();

/** Fills and submits the sign-in form of the current page. */
export async function fillSignIn(page, { email, password }) {
  signedInAs.set(page, { email, password });
  await page.getByLabel('Email').fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A visitor registers through /register; the account is pending until an admin activates it. */
export async function register(page, baseURL, { name, email, phone, password }) {
  await page.goto(`${baseURL}/register`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill(phone);
  await page.locator('input[autocomplete="new-password"]').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Waiting for activation').waitFor();
}

/** Signs out through the account menu. */
export async function signOut(page) {
  await page.getByTestId('account-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expectPath(page, '/login');
}
