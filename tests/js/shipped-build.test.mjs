// The package's WebAssembly build holds no test scenes or test hooks: those are in the self-test
// build (build/wasm/selftest/, scripts/build-wasm.sh --tests), which the tests that need them load.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { builds, rejects } from './load.mjs';
import { selftest } from './selftest.mjs';

const HOOKS = ['determinismSceneHash', 'growMemoryFromWorker', 'releaseGrownMemory', 'injectFault'];
const dist = new URL('../../wasm/dist/', import.meta.url);

// What embind registered: the module's functions and the World class's methods.
function exportsOf(module) {
  const fns = Object.keys(module).filter((k) => typeof module[k] === 'function');
  return new Set([...fns, ...Object.getOwnPropertyNames(module.World.prototype)]);
}

test("the package's builds export no test hook", () => {
  for (const [name, wisp] of Object.entries(builds)) {
    const names = exportsOf(wisp.module);
    assert.ok(names.has('heapUsed') && names.has('stateHash'), `${name}: the export list is read`);
    assert.deepEqual(HOOKS.filter((h) => names.has(h)), [], `${name} exports test hooks`);
  }
});

test("the package's .wasm files do not contain the test hooks' names", () => {
  const files = ['web', 'node'].flatMap((dir) => fs.readdirSync(new URL(`${dir}/`, dist))
    .filter((f) => f.endsWith('.wasm')).map((f) => new URL(`${dir}/${f}`, dist)));
  assert.ok(files.length >= 2, 'the web build has a threaded and a single-threaded .wasm');
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    assert.ok(bytes.includes('stateHash'), `${file.pathname}: registered names are readable in the binary`);
    for (const hook of HOOKS) assert.ok(!bytes.includes(hook), `${file.pathname} contains ${hook}`);
  }
});

test('the self-test build has every test hook', () => {
  for (const [name, wisp] of Object.entries(selftest)) {
    const names = exportsOf(wisp.module);
    assert.deepEqual(HOOKS.filter((h) => !names.has(h)), [], `${name} lacks test hooks`);
  }
});

test("on the package's build the test hooks throw 'unsupported', saying where they are", () => {
  const wisp = builds.single, world = wisp.createWorld();
  const rope = world.addRope({ start: [0, 1, 0], end: [1, 1, 0], segments: 4 });
  rejects(() => wisp.determinismSceneHash(1, 1), 'unsupported', /determinismSceneHash is a test hook.*build-wasm\.sh --tests/);
  rejects(() => world.injectFault(rope, 1), 'unsupported', /injectFault is a test hook.*build\/wasm\/selftest/);
  world.dispose();
});
