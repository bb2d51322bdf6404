// The hand-written index.d.ts compiles and describes real usage (tests/types/usage.ts).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('index.d.ts type-checks a usage example with strict TypeScript', () => {
  const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));
  const project = fileURLToPath(new URL('../types/tsconfig.json', import.meta.url));
  let out = '';
  try {
    out = execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  } catch (e) {
    out = (e.stdout || '') + (e.stderr || '');
  }
  assert.equal(out.trim(), '', out);
});
