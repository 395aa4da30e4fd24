// Starts the real server binary (bin/server) on a fresh SQLite database in
// a temporary folder, on a free loopback port, and waits until it is ready.
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, openSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

export const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password-1' };

function freePort() {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => res(port));
    });
  });
}

/**
 * @param {{bin: string, env?: Record<string,string>, keep?: boolean}} opts
 * @returns {Promise<{baseURL: string, dir: string, log: () => string, mails: (to: string) => {subject: string, link: string}[],
 *   cli: (args: string[]) => Promise<string>, stop: () => Promise<void>}>}
 */
export async function startServer({ bin, env = {}, keep = false }) {
  const exe = resolve(bin);
  if (!existsSync(exe)) throw new Error(`server binary ${exe} not found: run make build (or set SERVER_BIN)`);
  const dir = mkdtempSync(join(tmpdir(), 'paygate-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logFile = join(dir, 'server.log');
  const out = openSync(logFile, 'a');
  const serverEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HTTP_ADDR: `127.0.0.1:${port}`,
    DATABASE_URL: `sqlite://${join(dir, 'app.db')}`,
    PUBLIC_BASE_URL: baseURL,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: randomBytes(32).toString('hex'),
    STORAGE_DIR: join(dir, 'uploads'),
    DEMO_DATA: 'false',
    UPSTREAM_ALLOW_PRIVATE: 'true',
    TIMEZONE: 'Asia/Kolkata',
    ...env,
  };
  const child = spawn(exe, [], { cwd: dir, stdio: ['ignore', out, out], env: serverEnv });
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`server exited (${JSON.stringify(exited)}) before it was ready:\n${log().slice(-3000)}`);
    try {
      const r = await fetch(`${baseURL}/readyz`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 30 s:\n${log().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    baseURL,
    dir,
    log,
    /** Mails the log adapter wrote for `to` (SMTP_URL is empty): subject, link and the sender's name (a reseller's brand). */
    mails(to) {
      return log()
        .split('\n')
        .filter((l) => l.includes('"mail (not sent') && l.includes(`"to":"${to}"`))
        .map((l) => JSON.parse(l))
        .map((m) => ({ subject: m.subject, link: m.link, fromName: m.from_name ?? '' }));
    },
    /**
     * Runs a command of the same binary against the same database and
     * settings (`cli(['invoices', 'issue', '--month', '2026-11'])`), as an
     * operator would beside the running server; its output, or an error with it.
     */
    cli(args) {
      return new Promise((res, rej) => {
        execFile(exe, args, { cwd: dir, env: serverEnv, timeout: 60_000 }, (err, stdout, stderr) => {
          if (err) rej(new Error(`server ${args.join(' ')}: ${err.message}\n${stdout}${stderr}`));
          else res(`${stdout}${stderr}`);
        });
      });
    },
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await new Promise((r) => (exited ? r() : child.once('exit', r)));
        clearTimeout(t);
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}
