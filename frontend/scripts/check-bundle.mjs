// Measures the gzipped JavaScript that the login route loads (the entry
// chunk, the login page's chunk and every chunk they import statically, as
// listed in dist/.vite/manifest.json) and fails above the budget.
// Usage: node scripts/check-bundle.mjs [--budget-kb 250] [--route src/pages/auth/Login.tsx]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const budgetKB = Number(opt('--budget-kb', '250'));
const route = opt('--route', 'src/pages/auth/Login.tsx');
const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entry) throw new Error('check-bundle: no entry chunk in the manifest');
if (!manifest[route]) throw new Error(`check-bundle: ${route} is not a chunk of its own (is it lazy-loaded?)`);

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit(entry);
visit(route);

let total = 0;
const rows = [];
for (const file of files) {
  if (!file.endsWith('.js')) continue;
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += size;
  rows.push([file, size]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [file, size] of rows) console.log(`  ${(size / 1000).toFixed(1).padStart(7)} kB  ${file}`);
const kb = total / 1000;
console.log(`check-bundle: the login route loads ${kb.toFixed(1)} kB of gzipped JavaScript (budget ${budgetKB} kB)`);
if (kb > budgetKB) {
  console.error(`check-bundle: over budget by ${(kb - budgetKB).toFixed(1)} kB: split the new code by route (React.lazy)`);
  process.exit(1);
}
