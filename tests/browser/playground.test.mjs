// The playground in headless Chromium, served by the same Vite config as `npm start`:
// cross-origin isolated with the threaded build, a visible rope, sliders and the mouse change
// the simulation, and not one console error or warning.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { servePlayground, repo } from './playground-server.mjs';

const shotPath = new URL('build/playground.png', repo);
const { base, page, problems } = await servePlayground();

// Counts pixels of the swinging rope's orange in the WebGL canvas, read in the same task as the
// render so the drawing buffer is still there.
function ropePixels() {
  return page.evaluate(() => {
    __app.advance(0);
    const src = __app.renderer.domElement;
    const c = document.createElement('canvas');
    c.width = src.width; c.height = src.height;
    const g = c.getContext('2d');
    g.drawImage(src, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 150 && d[i + 1] > 50 && d[i + 1] < 150 && d[i + 2] < 80) n++;
    return n;
  });
}

test('loads cross-origin isolated with the threaded SIMD build', async () => {
  await page.goto(`${base}?test=1`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
  const state = await page.evaluate(() => ({
    coi: self.crossOriginIsolated, kind: __app.kind, stats: __app.world.stats(), scenes: __app.scenes,
  }));
  assert.equal(state.coi, true);
  assert.equal(state.kind, 'mt');
  assert.equal(state.stats.simd, true);
  assert.ok(state.stats.threads >= 1);
  assert.deepEqual(state.scenes, ['rope', 'curtain', 'flag', 'character', 'crowd', 'tablecloth', 'compare', 'ponytail', 'wig', 'solvers', 'lab', 'framerate']);
  assert.deepEqual(problems, []);
});

test('renders a rope (not a blank canvas)', async () => {
  await page.evaluate(() => { __app.hold(true); __app.reset(); __app.advance(30); });
  const n = await ropePixels();
  assert.ok(n > 300, `only ${n} rope-coloured pixels`);
  fs.mkdirSync(new URL('build/', repo), { recursive: true });
  fs.writeFileSync(shotPath, await page.screenshot());
  assert.ok(fs.statSync(shotPath).size > 20000, 'screenshot has content');
});

test('dragging the wind slider changes the simulation', async () => {
  const baseline = await page.evaluate(() => { __app.reset(); __app.advance(90); return { hash: __app.hash(), tip: __app.positions(0).slice(-3) }; });
  const again = await page.evaluate(() => { __app.reset(); __app.advance(90); return __app.hash(); });
  assert.equal(again, baseline.hash, 'the test mode is deterministic');
  await page.evaluate(() => __app.reset());
  // a real click on the (folded) World folder, then a real mouse drag on the lil-gui slider
  await page.locator('.lil-title', { hasText: 'World' }).click();
  const slider = page.locator('.lil-controller', { has: page.locator('.lil-name', { hasText: 'wind speed (m/s)' }) }).locator('.lil-slider');
  await slider.scrollIntoViewIfNeeded();  // waits for the folder to open, and for it to be on screen
  const box = await slider.boundingBox();
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 6 });
  await page.mouse.up();
  const speed = await page.evaluate(() => __app.params.windSpeed);
  assert.ok(Math.abs(speed - 15) < 1.5, `slider set wind speed to ${speed}`);
  const windy = await page.evaluate(() => { __app.advance(90); return { hash: __app.hash(), tip: __app.positions(0).slice(-3), settings: __app.world.settings }; });
  assert.ok(Math.abs(windy.settings.wind.speed - speed) < 1e-4, 'the world got the new wind');
  assert.notEqual(windy.hash, baseline.hash);
  assert.ok(windy.tip[0] > baseline.tip[0] + 0.05, `wind along +x pushed the tip: ${baseline.tip[0]} -> ${windy.tip[0]}`);
});

test('the mouse grabs a rope point and drags it', async () => {
  await page.evaluate(() => { __app.reset(); __app.advance(120); });
  const [x, y] = await page.evaluate(() => __app.screenOf(0, 20));
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let k = 1; k <= 5; k++) {
    await page.mouse.move(x, y - 24 * k);
    await page.evaluate(() => __app.advance(4));
  }
  const [gx, gy] = await page.evaluate(() => __app.screenOf(0, 20));
  await page.mouse.up();
  assert.ok(Math.hypot(gx - x, gy - (y - 120)) < 6, `point at (${gx}, ${gy}), mouse at (${x}, ${y - 120})`);
  // released: it falls again
  await page.evaluate(() => __app.advance(30));
  const [, fy] = await page.evaluate(() => __app.screenOf(0, 20));
  assert.ok(fy > gy + 5, 'released point falls');
});

test('dragging the yellow handle moves the pinned end', async () => {
  await page.evaluate(() => { __app.reset(); __app.advance(30); });
  const [hx, hy] = await page.evaluate(() => __app.handleScreen(0));
  await page.mouse.move(hx, hy);
  await page.mouse.down();
  await page.mouse.move(hx + 150, hy + 40, { steps: 5 });
  await page.mouse.up();
  await page.evaluate(() => __app.advance(2));
  const [px, py] = await page.evaluate(() => __app.screenOf(0, 0));
  assert.ok(Math.hypot(px - hx - 150, py - hy - 40) < 4, `pinned end at (${px}, ${py})`);
});

test('shift-click cuts a rope in two', async () => {
  await page.evaluate(() => { __app.reset(); __app.advance(60); });
  const before = await page.evaluate(() => ({ ropes: __app.ropeCount(), particles: __app.world.stats().particles }));
  const [ax, ay] = await page.evaluate(() => __app.screenOf(0, 10));
  const [bx, by] = await page.evaluate(() => __app.screenOf(0, 11));
  await page.keyboard.down('Shift');
  await page.mouse.click((ax + bx) / 2, (ay + by) / 2);
  await page.keyboard.up('Shift');
  const after = await page.evaluate(() => { __app.advance(10); return { ropes: __app.ropeCount(), particles: __app.world.stats().particles }; });
  assert.equal(after.ropes, before.ropes + 1);
  assert.equal(after.particles, before.particles);
});

test('the curtain scene runs on several threads like on one', async () => {
  const hashes = await page.evaluate(() => {
    const out = [];
    for (const threads of [1, 0]) {
      __app.start('curtain');
      __app.world.set({ threads });
      __app.advance(60);
      out.push([__app.world.stats().threads, __app.hash()]);
    }
    return out;
  });
  assert.equal(hashes[0][0], 1);
  assert.equal(hashes[1][1], hashes[0][1], `threads ${hashes[1][0]} vs 1`);
  const n = await page.evaluate(() => __app.world.stats().particles);
  assert.equal(n, 160 * 25);
});

test('the flag flaps in the wind and the lift slider changes it', async () => {
  const run = (lift) => page.evaluate((lift) => {
    __app.start('flag');
    if (lift !== null) __app.gui.controllersRecursive().find((c) => c.property === 'liftCoefficient').setValue(lift);
    __app.advance(120);
    const p = __app.clothPositions(0);
    let maxX = -Infinity;
    for (let i = 0; i < p.length; i += 3) maxX = Math.max(maxX, p[i]);
    return { hash: __app.hash(), maxX, stats: __app.clothStats(0) };
  }, lift);
  const base = await run(null);
  assert.ok(base.maxX > 1.0, `the flag streams downwind (x up to ${base.maxX})`);
  assert.ok(base.stats.maxStrain < 0.1, `strain ${base.stats.maxStrain}`);
  const lifted = await run(1.5);
  assert.notEqual(lifted.hash, base.hash);
  // cloth pixels are drawn (the flag's blue)
  const blue = await page.evaluate(() => {
    __app.advance(0);
    const src = __app.renderer.domElement, c = document.createElement('canvas');
    c.width = src.width; c.height = src.height;
    const g = c.getContext('2d');
    g.drawImage(src, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 2] > 120 && d[i] < 90 && d[i + 2] > d[i] + 60) n++;
    return n;
  });
  assert.ok(blue > 2000, `${blue} flag pixels`);
});

test('every scene runs without errors, and cloth scenes agree across thread counts', async () => {
  for (const name of ['character', 'tablecloth', 'compare']) {
    const r = await page.evaluate((name) => {
      const out = [];
      for (const threads of [1, 0]) {
        __app.start(name);
        __app.world.set({ threads });
        __app.advance(60);
        out.push(__app.hash());
      }
      return out;
    }, name);
    assert.equal(r[1], r[0], name);
  }
  assert.deepEqual(problems, []);
});

test('ponytail: skinned strands follow the moving head with exact bone lengths; the stiffness slider changes them', async () => {
  const r = await page.evaluate(() => {
    __app.start('ponytail');
    __app.advance(120);
    const tipA = __app.chainPositions(0).slice(-3);
    const err = Math.max(...[0, 1, 2].map((k) => __app.chainStats(k).maxLengthError));
    const base = __app.hash();
    __app.start('ponytail');
    __app.gui.controllersRecursive().find((c) => c.property === 'stiffness').setValue(20);
    __app.advance(120);
    // the skinned mesh's bones carry the simulated rotations
    return { tipA, err, base, stiff: __app.hash(), chains: __app.chainCount() };
  });
  assert.equal(r.chains, 3);
  assert.ok(r.err < 1e-5, `bone length error ${r.err} m`);
  assert.notEqual(r.stiff, r.base);
  assert.ok(r.tipA.every(Number.isFinite));
  assert.deepEqual(problems, []);
});

test('the anti-gravity wig: 240 strands of 9 joints rise above the head', async () => {
  const r = await page.evaluate(() => {
    __app.start('wig');
    __app.advance(90);
    let above = 0;
    const n = __app.chainCount();
    for (let k = 0; k < n; k++) {
      const p = __app.chainPositions(k);
      if (p[p.length - 2] > p[1] + 0.1) above++;  // tip higher than the root joint
    }
    return { n, above, joints: __app.chainStats(0).joints };
  });
  assert.equal(r.n, 240);
  assert.equal(r.joints, 9);
  assert.ok(r.above > 0.9 * r.n, `${r.above} of ${r.n} strands rise`);
  assert.deepEqual(problems, []);
});

test('no console errors or warnings, no failed requests', async () => {
  await page.evaluate(() => __app.hold(false));
  await page.waitForTimeout(500);
  assert.deepEqual(problems, []);
});
