// make lighthouse: Lighthouse (mobile defaults: simulated slow 4G, 4x CPU
// slowdown, a Moto G-sized screen) against bin/server alone on a fresh
// SQLite database, in Debian's Chromium (CHROME_PATH, default
// /usr/bin/chromium). Asserts performance >= 90 and accessibility = 100 on
// /login, and performance >= 80 on a signed-in list page (/hit-logs), then
// prints the figures (docs/benchmarks.md keeps them). Not part of make test:
// about a minute, and the performance score moves with the machine's load.
//
// Signed in without a browser script: the admin signs in through the API
// here, and the refresh token goes into Chromium's cookie jar (the HttpOnly
// paygate_refresh cookie and the paygate_session hint, as the login answer
// sets them); the page restores its session through /auth/refresh as after
// a reload. Lighthouse keeps the cookies (disableStorageReset).
//
// Env: SERVER_BIN (default ../../bin/server), CHROME_PATH, RUNS (runs per
// page, the median score counts; default 1), LH_JSON (a folder for the
// full reports).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, process.env.SERVER_BIN ?? '../../bin/server');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, parseInt(process.env.RUNS ?? '1', 10));
const ADMIN = { email: 'admin@lighthouse.test', password: 'Lighthouse-admin-1' };

const PAGES = [
  { path: '/login', signedIn: false, min: { performance: 90, accessibility: 100 } },
  { path: '/hit-logs', signedIn: true, min: { performance: 80 } },
];

function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

async function startServer() {
  if (!existsSync(BIN)) throw new Error(`${BIN} not found: run make build`);
  const dir = mkdtempSync(join(tmpdir(), 'paygate-lighthouse-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const out = openSync(join(dir, 'server.log'), 'a');
  const child = spawn(BIN, [], {
    cwd: dir, stdio: ['ignore', out, out],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin', HTTP_ADDR: `127.0.0.1:${port}`, DATABASE_URL: `sqlite://${join(dir, 'app.db')}`,
      PUBLIC_BASE_URL: base, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, JWT_SECRET: randomBytes(32).toString('hex'),
      STORAGE_DIR: join(dir, 'uploads'), DEMO_DATA: 'true', TIMEZONE: 'Asia/Kolkata',
    },
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready:\n${readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, stop: () => { child.kill('SIGTERM'); rmSync(dir, { recursive: true, force: true }); } };
}

async function signIn(base) {
  const r = await fetch(`${base}/api/v1/panel/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN),
  });
  if (!r.ok) throw new Error(`login: ${r.status} ${await r.text()}`);
  return (await r.json()).refresh_token;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const server = await startServer();
  const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  const results = [];
  let failed = false;
  try {
    for (const pg of PAGES) {
      const scores = { performance: [], accessibility: [] };
      let metrics = {};
      for (let i = 0; i < RUNS; i++) {
        if (pg.signedIn) {
          // A fresh session per run: a refresh token is good for one refresh.
          const token = await signIn(server.base);
          const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
          const [page] = await browser.pages();
          const client = await page.createCDPSession();
          const host = new URL(server.base).hostname;
          await client.send('Network.setCookie', { name: 'paygate_refresh', value: token, domain: host, path: '/api/v1/panel/auth', httpOnly: true, sameSite: 'Strict' });
          await client.send('Network.setCookie', { name: 'paygate_session', value: '1', domain: host, path: '/', sameSite: 'Strict' });
          await client.detach();
          await browser.disconnect();
        }
        const rr = await lighthouse(server.base + pg.path, {
          port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'],
          disableStorageReset: pg.signedIn,
        });
        const lhr = rr.lhr;
        if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== pg.path) {
          throw new Error(`${pg.path} ended at ${lhr.finalDisplayedUrl} (not signed in?)`);
        }
        scores.performance.push(Math.round(lhr.categories.performance.score * 100));
        scores.accessibility.push(Math.round(lhr.categories.accessibility.score * 100));
        const a = lhr.audits;
        metrics = {
          benchmarkIndex: lhr.environment?.benchmarkIndex,
          FCP: a['first-contentful-paint'].displayValue, LCP: a['largest-contentful-paint'].displayValue,
          TBT: a['total-blocking-time'].displayValue, CLS: a['cumulative-layout-shift'].displayValue, SI: a['speed-index'].displayValue,
        };
        const a11yFails = Object.values(a).filter((x) => lhr.categories.accessibility.auditRefs.some((r) => r.id === x.id) && x.score === 0);
        if (a11yFails.length) metrics.a11y_failing = a11yFails.map((x) => x.id).join(', ');
        if (process.env.LH_JSON) {
          mkdirSync(process.env.LH_JSON, { recursive: true });
          writeFileSync(join(process.env.LH_JSON, `${pg.path.replace(/\W+/g, '_')}-${i}.json`), rr.report);
        }
      }
      const got = { performance: median(scores.performance), accessibility: median(scores.accessibility) };
      const low = Object.entries(pg.min).filter(([k, v]) => got[k] < v);
      if (low.length) failed = true;
      results.push({ page: pg.path, ...got, runs: RUNS, ...metrics, ok: low.length === 0 });
    }
  } finally {
    await chrome.kill();
    server.stop();
  }
  for (const r of results) {
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.page}: performance ${r.performance}, accessibility ${r.accessibility} ` +
      `(FCP ${r.FCP}, LCP ${r.LCP}, TBT ${r.TBT}, CLS ${r.CLS}, SI ${r.SI}, CPU benchmark index ${r.benchmarkIndex}${r.a11y_failing ? `; failing: ${r.a11y_failing}` : ''})`);
  }
  if (failed) {
    console.error('lighthouse: below the thresholds (login: performance >= 90, accessibility = 100; /hit-logs: performance >= 80).\n' +
      'On a shared, loaded machine TBT (and so performance) is the load\'s: compare the CPU benchmark index and the load average (docs/benchmarks.md).');
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
