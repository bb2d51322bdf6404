// A worker world (createWorkerWorld) steps in a cross-origin-isolated page, one step per
// animation frame, and ends with the state hash and outputs of the same scene stepped on the page;
// an interpolating one ends with the page world's alpha and render arrays; state read back
// (per step, mirrored, by Promise) equals the page world's.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, watch } from './chromium.mjs';
import { serve } from '../consumer/serve.mjs';

const repo = new URL('../../', import.meta.url);

test('a worker world steps in the page and matches the page\'s own world', async (t) => {
  assert.ok(fs.existsSync(new URL('wasm/dist/web/wisp.wasm', repo)), 'the web build exists (scripts/build-wasm.sh)');
  const server = await serve(new URL('.', repo).pathname, { isolated: true });
  const browser = await launch();
  t.after(async () => { await browser.close(); await server.close(); });
  const page = await browser.newPage();
  const problems = watch(page);
  await page.goto(`${server.url}tests/browser/worker.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__result !== undefined && (window.__result.error || window.__result.afterDispose !== undefined), null, { timeout: 120000 });
  const r = await page.evaluate(() => window.__result);
  assert.equal(r.error, undefined, r.error);
  assert.equal(r.completed, 60);
  assert.equal(r.worker, r.main);
  assert.equal(r.positions, true, 'the same output bits');
  assert.equal(r.length, 51);
  assert.equal(r.shared, true, 'the output arrays are views of the shared slots');
  assert.equal(r.alphaSame, true, 'an interpolating worker world has the page world\'s alpha');
  assert.equal(r.renderSame, true, 'and its render arrays at the same alpha');
  assert.equal(r.readsSame, true, 'time, stats, activity, params, settings, and particle() read back as the page world\'s');
  assert.equal(r.afterDispose, 51, 'an array held past dispose keeps the last step shown');
  assert.deepEqual(problems, []);
});
