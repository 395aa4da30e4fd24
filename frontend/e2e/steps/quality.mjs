// Issue 6 point 4 in the browser: row actions on screen at 375 px, and a
// form and a modal driven by the keyboard alone (focus returns on close).
import { openScreen, pageHeading } from '../lib/helpers.mjs';

/** Fails unless the locator's box lies inside the viewport's width (no sideways scrolling needed). */
async function expectOnScreen(page, locator, what) {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  if (!box || box.x < 0 || box.x + box.width > width + 0.5) {
    throw new Error(`${what} is off-screen at ${width} px (${box ? `${Math.round(box.x)}..${Math.round(box.x + box.width)}` : 'no box'})`);
  }
}

/** The admin's users list at phone width: the user's row actions are on screen and work. */
export async function adminRowActionsOnPhone(page, baseURL, email) {
  await page.goto(`${baseURL}/admin/users?q=${encodeURIComponent(email)}`);
  await pageHeading(page, 'Users', { exact: true }).waitFor();
  const actions = page.getByRole('button', { name: `Actions for ${email}` });
  await expectOnScreen(page, actions, `the actions of ${email}`);
  await actions.click();
  await page.getByRole('menuitem', { name: 'Block' }).waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('menuitem', { name: 'Block' }).waitFor({ state: 'hidden' });
}

/** The user's lists at phone width: each row's action is on screen. */
export async function userRowActionsOnPhone(page, baseURL, keyName) {
  await page.goto(`${baseURL}/api-keys`);
  await pageHeading(page, 'API keys', { exact: true }).waitFor();
  await expectOnScreen(page, page.getByRole('button', { name: `Actions for ${keyName}` }), 'the API key actions');
  await openScreen(page, '/hit-logs', 'Hit logs');
  await expectOnScreen(page, page.getByRole('button', { name: /^Details of call / }).first(), 'a hit log row\'s details');
  await openScreen(page, '/balance-requests', 'Add balance');
  await expectOnScreen(page, page.getByRole('button', { name: /^View the screenshot of UTR / }).first(), 'a balance request\'s screenshot');
}

async function tabTo(page, matches, what, max = 40) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(matches)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

/**
 * Keyboard only, on /api-keys: Tab to "Create key", Enter opens the dialog
 * with the Name field focused, Tab moves through the form inside the
 * dialog, an empty submit shows the field error, Escape closes it and the
 * focus is back on "Create key".
 */
export async function keyboardFormAndModal(page) {
  await openScreen(page, '/api-keys', 'API keys');
  await tabTo(page, () => document.activeElement?.textContent?.trim() === 'Create key', 'the "Create key" button');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.waitFor();
  await page.waitForFunction(() => document.activeElement?.closest('[role=dialog]') && (document.activeElement).getAttribute('data-autofocus') !== null);
  // Through the form's fields to its submit button, never leaving the dialog.
  for (let i = 0; i < 12; i++) {
    if (await page.evaluate(() => document.activeElement?.getAttribute('type') === 'submit')) break;
    await page.keyboard.press('Tab');
    if (!(await page.evaluate(() => !!document.activeElement?.closest('[role=dialog]')))) throw new Error('Tab left the open dialog');
  }
  if (!(await page.evaluate(() => document.activeElement?.getAttribute('type') === 'submit'))) throw new Error('Tab never reached the dialog\'s submit button');
  await page.keyboard.press('Enter'); // empty name: a field error, nothing sent
  await page.waitForFunction(() => !!document.querySelector('[role=dialog] [aria-invalid=true]'));
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await page.waitForFunction(() => document.activeElement?.textContent?.trim() === 'Create key');
}
