// Writes a gzip (.gz) and a brotli (.br) copy next to each text asset of
// dist/ (JavaScript, CSS, SVG, JSON, HTML), so the Go server sends them
// precompressed at the highest levels without compressing per request
// (adapters/httpapi/spa.go). A copy that would not be smaller is not kept.
// Usage: node scripts/compress-dist.mjs (after vite build)
import { readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url).pathname;
const TEXT = /\.(js|mjs|css|svg|json|html|txt|webmanifest)$/;
// Below this a compressed copy saves less than a packet.
const MIN_BYTES = 1024;

let files = 0, before = 0, gz = 0, br = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name.startsWith('.')) continue; // .vite/manifest.json and .gitkeep are not served
    if (statSync(p).isDirectory()) { walk(p); continue; }
    // index.html is served with the time zone written in at start-up, so it is compressed per request.
    if (!TEXT.test(name) || relative(dist, p) === 'index.html') continue;
    const raw = readFileSync(p);
    if (raw.length < MIN_BYTES) continue;
    const g = gzipSync(raw, { level: 9 });
    const b = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    if (g.length < raw.length) { writeFileSync(p + '.gz', g); gz += g.length; }
    if (b.length < raw.length) { writeFileSync(p + '.br', b); br += b.length; }
    files++; before += raw.length;
  }
}
walk(dist);
const kb = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`compress-dist: ${files} files, ${kb(before)} → gzip ${kb(gz)}, brotli ${kb(br)}`);
