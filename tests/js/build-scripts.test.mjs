// The build scripts work from a moved or copied clone: a build dir whose CMake cache names
// another source tree is wiped and configured again; one configured for this tree is kept.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));

function configure(cacheSource) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wisp-build-'));
  fs.writeFileSync(path.join(dir, 'CMakeCache.txt'), `CMAKE_HOME_DIRECTORY:INTERNAL=${cacheSource}\n`);
  fs.writeFileSync(path.join(dir, 'build.ninja'), '');
  const out = execFileSync('bash', ['-c', `source scripts/cmake-configure.sh && wisp_configure "${dir}" install -D /dev/null "${dir}/configured"`], { cwd: repo, encoding: 'utf8' });
  const configured = fs.existsSync(path.join(dir, 'configured'));
  fs.rmSync(dir, { recursive: true, force: true });
  return { out, configured };
}

test('a build dir configured for another source tree is configured again', () => {
  const r = configure('/somewhere/else/wisp');
  assert.ok(r.configured);
  assert.match(r.out, /was configured for \/somewhere\/else\/wisp/);
});

test('a build dir configured for this source tree is kept', () => {
  const r = configure(fs.realpathSync(repo).replace(/\/$/, ''));
  assert.equal(r.configured, false);
  assert.equal(r.out, '');
});
