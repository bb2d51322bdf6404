// The determinism scene gives the golden hash in headless Chromium, on 1 and 2 threads: the
// self-test build (build/wasm/selftest/web/, scripts/build-wasm.sh --tests; the package's build
// has no test scenes) loaded by the package's wrapper in a cross-origin-isolated page.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, watch } from './chromium.mjs';
import { serve } from '../consumer/serve.mjs';

const repo = new URL('../../', import.meta.url);

test('the determinism scene gives the golden hash in the browser, on 1 and 2 threads', async (t) => {
  assert.ok(fs.existsSync(new URL('build/wasm/selftest/web/wisp.wasm', repo)), 'the self-test build exists (scripts/build-wasm.sh --tests)');
  const server = await serve(new URL('.', repo).pathname, { isolated: true });
  const browser = await launch();
  t.after(async () => { await browser.close(); await server.close(); });
  const page = await browser.newPage();
  const problems = watch(page);
  await page.goto(`${server.url}tests/browser/selftest.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__ready !== undefined, null, { timeout: 60000 });
  const ready = await page.evaluate(() => ({ ready: window.__ready, coi: self.crossOriginIsolated, threaded: window.__wisp?.threaded }));
  assert.equal(ready.ready, true, `the self-test build loads: ${ready.ready}`);
  assert.equal(ready.coi, true);
  assert.equal(ready.threaded, true);
  // no timeout: 600 frames of the scene take seconds alone, minutes on a loaded machine
  const r = await page.evaluate(() => ({ golden: __golden, one: __wisp.determinismSceneHash(1), two: __wisp.determinismSceneHash(2) }));
  assert.equal(r.one, r.golden);
  assert.equal(r.two, r.golden);
  assert.deepEqual(problems, []);
});
