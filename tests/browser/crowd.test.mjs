// The crowd scene in headless Chromium: 50+ animated characters with ponytails and capes load and
// run with finite particles and no page error; pulling the camera far back lowers their LOD
// levels, and a lower step budget degrades more of them.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { servePlayground, repo } from './playground-server.mjs';

const { base, page, problems } = await servePlayground();

// The scene's probe after `frames` more frames at 1/60 s.
const run = (frames) => page.evaluate((n) => { __app.advance(n); return __app.sceneState.probe(); }, frames);
const setParam = (k, v) => page.evaluate(([k, v]) => __app.gui.controllersRecursive().find((x) => x.property === k).setValue(v), [k, v]);
const moveCamera = (position, target) => page.evaluate(([p, t]) => {
  const { camera, controls } = __app.sceneState.ctx;
  camera.position.set(...p);
  controls.target.set(...t);
  camera.lookAt(...t);
}, [position, target]);
const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);

test('loads the crowd: 50+ characters run for 3 s with finite particles and no errors', async () => {
  await page.goto(`${base}?test=1&scene=crowd`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 120000 });
  await page.evaluate(() => __app.hold(true));
  assert.ok((await page.evaluate(() => __app.scenes)).includes('crowd'));
  const a = await run(1);
  assert.ok(a.characters >= 50, `${a.characters} characters`);
  assert.equal(sum(a.lod), a.characters);
  assert.equal(sum(a.running), a.characters);
  // the bodies move: the hips of walkers and runners go round their circles
  const hips = () => page.evaluate(() => __app.sceneState.characters.map((c) => c.bones.hips.getWorldPosition(new __app.sceneState.ctx.three.Vector3()).toArray()));
  const h0 = await hips();
  let p;
  for (let s = 0; s < 6; s++) {
    p = await run(30);
    assert.ok(p.finite, `a particle is not finite after ${(s + 1) * 0.5} s`);
  }
  const h1 = await hips();
  const moved = h0.filter((h, i) => Math.hypot(h[0] - h1[i][0], h[2] - h1[i][2]) > 0.5).length;
  assert.ok(moved >= a.characters / 2, `${moved} of ${a.characters} characters moved more than 0.5 m in 3 s`);
  assert.ok(p.particles > 50 * 60, `${p.particles} simulated particles`);
  assert.ok(p.calibrations >= 1, 'the budget calibrated from measured steps');
  assert.match(await page.evaluate(() => __app.info()), /running at\s+full \d+/);
  fs.mkdirSync(new URL('build/', repo), { recursive: true });
  fs.writeFileSync(new URL('build/crowd.png', repo), await page.screenshot());
  assert.deepEqual(problems, []);
});

test('moving the camera far away drops the characters\' levels', async () => {
  await setParam('budgetMs', 30);  // the budget out of the way: levels are the LOD's
  await moveCamera([0, 6, 16], [0, 0.5, 0]);
  const near = await run(10);
  await moveCamera([0, 40, 95], [0, 0.5, 0]);
  const far = await run(10);
  const ahead = (c) => c.full + c.reduced;  // characters at full or every-2nd-step
  assert.ok(ahead(near.lod) > 0, `near: ${JSON.stringify(near.lod)}`);
  assert.ok(ahead(far.lod) < ahead(near.lod), `near ${JSON.stringify(near.lod)}, far ${JSON.stringify(far.lod)}`);
  assert.ok(far.lod.frozen + far.lod.off > near.lod.frozen + near.lod.off, `near ${JSON.stringify(near.lod)}, far ${JSON.stringify(far.lod)}`);
  assert.equal(far.lod.full, 0, 'nobody is within 16 m of a camera 95 m away');
  // what runs never exceeds the LOD's level: every character is counted once at its level or lower
  assert.equal(sum(far.running), far.characters);
  const frozenCapes = await page.evaluate(() => __app.sceneState.characters.filter((c) => c.carried).length);
  assert.ok(frozenCapes > 0, 'frozen capes are carried with their characters');
  const q = await run(60);
  assert.ok(q.finite);
  assert.deepEqual(problems, []);
});

test('lowering the budget slider degrades more characters', async () => {
  await moveCamera([0, 6, 16], [0, 0.5, 0]);
  await setParam('budgetMs', 30);
  const high = await run(70);  // past a calibration at this view
  assert.ok(high.msPerUnit > 0, 'calibrated');
  // a tenth of the estimate at the caps: the budget has to lower most of them
  const low = Math.max(0.1, Math.round(10 * high.estimateMs * 0.1) / 10);
  await setParam('budgetMs', low);
  const after = await run(1);
  assert.ok(after.degraded > high.degraded, `degraded objects ${high.degraded} at 30 ms, ${after.degraded} at ${low} ms (estimate ${high.estimateMs} ms)`);
  assert.ok(after.degradedCharacters > high.degradedCharacters, `degraded characters ${high.degradedCharacters} -> ${after.degradedCharacters}`);
  // the running counts shift toward slower levels (level index summed over the characters)
  const lowered = (c) => Object.values(c).reduce((s, k, i) => s + i * k, 0);
  assert.ok(lowered(after.running) > lowered(high.running), `running ${JSON.stringify(high.running)} -> ${JSON.stringify(after.running)}`);
  const q = await run(60);
  assert.ok(q.finite);
  assert.match(await page.evaluate(() => __app.info()), /degraded [1-9]\d* objects/);
  fs.writeFileSync(new URL('build/crowd-budget.png', repo), await page.screenshot());
  assert.deepEqual(problems, []);
});
