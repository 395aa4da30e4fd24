// Small helpers shared by the step modules.

/** Thrown by a step function that is not written yet: the runner reports the step as skipped (a failure with --strict). */
export class NotImplemented extends Error {
  constructor(what) {
    super(`${what}: not implemented`);
    this.name = 'NotImplemented';
  }
}

/** The screen's level-1 heading named `name`; with `exact`, its whole text. */
export function pageHeading(page, name, { exact = false } = {}) {
  return page.getByRole('heading', { level: 1, name, exact });
}

/** Goes to `path` on the page's origin and waits for the screen's heading (whole text). */
export async function openScreen(page, path, heading) {
  await page.goto(`${new URL(page.url()).origin}${path}`);
  await pageHeading(page, heading, { exact: true }).waitFor();
}

/** Waits until the page's path (and search, when given) is `want`. */
export async function expectPath(page, want, timeout = 10_000) {
  await page.waitForURL((u) => u.pathname + (want.includes('?') ? u.search : '') === want, { timeout });
}

/**
 * Time to interactive of the current navigation, in ms from its start:
 * when `ready` (a Locator that appears once the screen's data is shown) is
 * visible. Call right after page.goto(url, { waitUntil: 'commit' }).
 */
export async function measureInteractive(page, ready, timeout = 15_000) {
  await ready.waitFor({ state: 'visible', timeout });
  return page.evaluate(() => Math.round(performance.now()));
}

/** A unique suffix for emails, UTR numbers, names. */
export function unique() {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
