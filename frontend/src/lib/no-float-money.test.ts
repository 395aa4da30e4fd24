// Money never becomes a float (style.md, issue 6): amounts stay the API's
// strings and go to formatINR. This test fails on any parseFloat, Number(),
// parseInt or toFixed in src/. A line that converts something that is not
// money (an id, a page number) says so with a `// not money` comment.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(process.cwd(), 'src'); // vitest runs in frontend/
const FORBIDDEN = /\bparseFloat\b|\bNumber\s*\(|\bNumber\.parse(Float|Int)\b|\bparseInt\s*\(|\.toFixed\s*\(|\bparseDecimal\b/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(ts|tsx)$/.test(name) && !/\.(test|gen)\.tsx?$/.test(name) ? [p] : [];
  });
}

describe('no float money', () => {
  it('finds no number conversion outside lines marked "not money"', () => {
    const offences: string[] = [];
    for (const f of files(SRC)) {
      readFileSync(f, 'utf8').split('\n').forEach((line, i) => {
        if (FORBIDDEN.test(line) && !line.includes('// not money')) offences.push(`${relative(SRC, f)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offences, 'format money with formatINR on the string; mark other conversions `// not money`').toEqual([]);
  });
});
