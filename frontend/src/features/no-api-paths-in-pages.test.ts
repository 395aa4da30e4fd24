// The panel's data access lives in src/features/<feature>/api.ts (style.md,
// "The SPA"): screens call the feature's hooks and never name an API path.
// This test fails when `/api/v1/` appears (code or comment) in a source file
// outside the places allowed to hold one:
//   - src/features/<feature>/api.ts: the feature modules themselves;
//   - src/api/: the transport (client.ts knows the auth paths it must not retry);
//   - src/auth/: the session's own calls (refresh and logout, which go around
//     the client, and GET /auth/me behind useMe and ME_KEY).
// Test files and test helpers (*.test.ts(x), any test/ folder) may name paths:
// they stub and check the requests on the wire, and should spell them out.
// It also checks that a feature's paths are not spelled out by another one.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const SRC = join(process.cwd(), 'src'); // vitest runs in frontend/
const ALLOWED_DIRS = ['api', 'auth'];
const PATH_LITERAL = /\/api\/v1\//;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'test' ? [] : files(p);
    return /\.(ts|tsx)$/.test(name) && !/\.(test|gen)\.tsx?$/.test(name) ? [p] : [];
  });
}

/** `file:line: text` for each line of `text` that names an API path. */
function offences(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (PATH_LITERAL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** Where a file sits: 'feature-api' (src/features/<f>/api.ts), 'allowed' (src/api, src/auth) or 'screen' (anything else). */
function place(rel: string): 'feature-api' | 'allowed' | 'screen' {
  const parts = rel.split(sep);
  if (parts[0] === 'features') return parts.length === 3 && parts[2] === 'api.ts' ? 'feature-api' : 'screen';
  return ALLOWED_DIRS.includes(parts[0]!) ? 'allowed' : 'screen';
}

describe('API paths live in the feature modules', () => {
  const all = files(SRC).map((f) => relative(SRC, f));

  it('scans the screens (a wrong root would pass vacuously)', () => {
    expect(all.filter((f) => f.startsWith(`pages${sep}`)).length).toBeGreaterThan(40);
    expect(all.filter((f) => place(f) === 'feature-api').length).toBeGreaterThan(10);
    expect(offences('x.tsx', "const a = 1;\ncall(api.GET('/api/v1/panel/users'));")).toEqual(["x.tsx:2: call(api.GET('/api/v1/panel/users'));"]);
  });

  it('finds no /api/v1/ in pages, components, lib, app or anywhere outside features/*/api.ts, api/ and auth/', () => {
    const found = all.filter((f) => place(f) === 'screen').flatMap((f) => offences(f, readFileSync(join(SRC, f), 'utf8')));
    expect(found, 'move the call into src/features/<feature>/api.ts and use its hook (or export a constant from there)').toEqual([]);
  });

  it('gives each API path to one feature', () => {
    const owners = new Map<string, Set<string>>();
    for (const f of all.filter((x) => place(x) === 'feature-api')) {
      const feature = f.split(sep)[1]!;
      for (const m of readFileSync(join(SRC, f), 'utf8').matchAll(/['"`](\/api\/v1\/[^'"`]*)['"`]/g)) {
        const path = m[1]!;
        if (!owners.has(path)) owners.set(path, new Set());
        owners.get(path)!.add(feature);
      }
    }
    const shared = [...owners].filter(([, fs]) => fs.size > 1).map(([p, fs]) => `${p}: ${[...fs].join(', ')}`);
    expect(shared, 'one feature owns a path; the others import its hooks or query keys').toEqual([]);
  });
});
