#!/usr/bin/env node
// End-to-end runner: for each flow in e2e/flows/ (or --flow NAME), start
// the real server binary on a fresh SQLite database (lib/server.mjs), drive
// Debian's Chromium with playwright-core (lib/browser.mjs), run the flow's
// steps in order, and save screenshots in e2e/screenshots/.
//
//   node e2e/run.mjs [--flow main] [--headed] [--keep] [--strict]
//   SERVER_BIN (default ../bin/server), CHROMIUM_PATH (default /usr/bin/chromium)
//
// A flow module exports name, steps and, optionally, env: settings for its
// own server (e.g. { PAYMENT_PROVIDER: 'upi_direct', UPI_VPA: … }), laid
// over lib/server.mjs's defaults.
//
// A step is {id, name, needs?: [ids], run(ctx)}. A step whose code throws
// NotImplemented is skipped (failed with --strict or E2E_STRICT=1), and so
// is every step that needs a step that did not pass.
import { mkdirSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer, ADMIN } from './lib/server.mjs';
import { launch, VIEWPORTS } from './lib/browser.mjs';
import { NotImplemented } from './lib/helpers.mjs';
import { signedInAs } from './steps/auth.mjs';

/**
 * @typedef {{id: string, name: string, needs?: string[], run: (ctx: Ctx) => Promise<void>}} Step
 * @typedef {{
 *   baseURL: string, admin: {email: string, password: string}, state: Record<string, any>,
 *   server: Awaited<ReturnType<typeof startServer>>,
 *   actor: (name: string, opts?: {viewport?: 'desktop'|'phone'|'laptop'|'phone390', storageFrom?: string}) => Promise<import('playwright-core').Page>,
 *   shot: (page: import('playwright-core').Page, name: string, opts?: {fullPage?: boolean}) => Promise<string>,
 *   metric: (name: string, value: number) => void,
 *   receiptImage: () => Promise<string>,
 * }} Ctx
 */

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
const opt = (f) => (args.indexOf(f) >= 0 ? args[args.indexOf(f) + 1] : undefined);
const strict = flag('--strict') || process.env.E2E_STRICT === '1';
const shotsDir = join(here, 'screenshots');
const bin = process.env.SERVER_BIN ?? join(here, '../../bin/server');

const flowFiles = readdirSync(join(here, 'flows')).filter((f) => f.endsWith('.mjs')).sort();
const only = opt('--flow');
const selected = only ? flowFiles.filter((f) => f === `${only}.mjs`) : flowFiles;
if (selected.length === 0) {
  console.error(`e2e: no flow ${only} in e2e/flows (have: ${flowFiles.join(', ')})`);
  process.exit(2);
}

rmSync(shotsDir, { recursive: true, force: true });
mkdirSync(shotsDir, { recursive: true });
const counts = { passed: 0, failed: 0, skipped: 0 };
const metrics = {};
const notImplemented = [];
const browser = await launch({ headed: flag('--headed') });

try {
  for (const file of selected) {
    const flow = await import(pathToFileURL(join(here, 'flows', file)).href);
    await runFlow(flow);
  }
} finally {
  await browser.close();
}

for (const [k, v] of Object.entries(metrics)) console.log(`e2e: ${k} = ${v}`);
if (metrics.dashboard_tti_ms !== undefined) console.log(`e2e: the dashboard's time to interactive on loopback: ${metrics.dashboard_tti_ms} ms`);
if (notImplemented.length) console.log(`e2e: ${notImplemented.length} step(s) not implemented yet: ${notImplemented.join('; ')}`);
writeFileSync(join(here, 'results.json'), JSON.stringify({ ...counts, metrics, notImplemented }, null, 2));
console.log(`e2e: screenshots in ${shotsDir}`);
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed > 0 ? 1 : 0);

async function runFlow(flow) {
  const server = await startServer({ bin, env: flow.env ?? {}, keep: flag('--keep') });
  console.log(`e2e: flow ${flow.name} against ${server.baseURL} (${server.dir})`);
  const contexts = new Map();
  const pages = new Map();
  let shotNo = 0;
  /** @type {Ctx} */
  const ctx = {
    baseURL: server.baseURL,
    admin: ADMIN,
    state: {},
    server,
    async actor(name, { viewport = 'desktop', storageFrom } = {}) {
      if (pages.has(name)) return pages.get(name);
      // storageFrom: the same user on another device. Copying the refresh
      // cookie would be two browsers sharing one token, which the server
      // takes for theft (reuse detection); the new context signs in afresh
      // with the credentials the other actor signed in with.
      const from = storageFrom && contexts.has(storageFrom) ? await contexts.get(storageFrom).storageState() : undefined;
      const storageState = from && { cookies: [], origins: from.origins };
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], storageState, locale: 'en-IN', timezoneId: 'Asia/Kolkata' });
      context.setDefaultTimeout(10_000);
      const creds = storageFrom && pages.has(storageFrom) ? signedInAs.get(pages.get(storageFrom)) : undefined;
      if (creds) {
        const r = await context.request.post(`${server.baseURL}/api/v1/panel/auth/login`, { data: creds });
        if (!r.ok()) throw new Error(`signing ${name} in as ${storageFrom}: ${r.status()} ${await r.text()}`);
      }
      const page = await context.newPage();
      page.on('pageerror', (err) => console.log(`    [${name}] page error: ${err.message}`));
      contexts.set(name, context);
      pages.set(name, page);
      return page;
    },
    async shot(page, name, { fullPage = true } = {}) {
      const path = join(shotsDir, `${flow.name}-${String(++shotNo).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path, fullPage });
      return path;
    },
    metric(name, value) {
      metrics[name] = value;
    },
    async receiptImage() {
      const page = await ctx.actor('fixtures');
      await page.setContent('<div style="font:20px sans-serif;padding:20px;width:260px;border:2px solid #333">UPI payment<br>₹100.00<br>UTR 123456789012</div>');
      const path = join(server.dir, 'receipt.png');
      await page.locator('div').screenshot({ path });
      return path;
    },
  };

  const outcome = new Map(); // id → 'passed' | 'failed' | 'skipped'
  let n = 0;
  try {
    for (const step of flow.steps) {
      n++;
      const label = `${String(n).padStart(2)} ${step.name}`;
      const missing = (step.needs ?? []).filter((id) => outcome.get(id) !== 'passed');
      if (missing.length) {
        outcome.set(step.id, 'skipped');
        counts.skipped++;
        console.log(`  skip ${label} (needs ${missing.join(', ')})`);
        continue;
      }
      const t0 = Date.now();
      try {
        await step.run(ctx);
        outcome.set(step.id, 'passed');
        counts.passed++;
        console.log(`  ok   ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (err) {
        if (err instanceof NotImplemented && !strict) {
          outcome.set(step.id, 'skipped');
          counts.skipped++;
          notImplemented.push(`${flow.name}: ${step.name}`);
          console.log(`  skip ${label} (${err.message})`);
          continue;
        }
        outcome.set(step.id, 'failed');
        counts.failed++;
        console.log(`  FAIL ${label}\n    ${String(err?.stack ?? err).split('\n').slice(0, 8).join('\n    ')}`);
        for (const [name, page] of pages) {
          await page.screenshot({ path: join(shotsDir, `${flow.name}-FAIL-${step.id}-${name}.png`), fullPage: true }).catch(() => {});
        }
        console.log(`    server log (last lines):\n${server.log().split('\n').slice(-15).map((l) => `      ${l}`).join('\n')}`);
      }
    }
  } finally {
    for (const c of contexts.values()) await c.close().catch(() => {});
    await server.stop();
  }
}
