// The playground as a person meets it: grabbing either side of the comparison, help text that
// says what each scene offers, tooltips, URL state that survives a reload, stats per fixed step,
// and a phone in portrait (folded panel, the scene on screen, touch grab and touch cut).
import test from 'node:test';
import assert from 'node:assert/strict';
import { watch } from './chromium.mjs';
import { servePlayground } from './playground-server.mjs';

const { base, browser, page, problems } = await servePlayground({ width: 1280, height: 800 });

async function open(p, query) {
  await p.goto(`${base}?${query}`, { waitUntil: 'load', timeout: 120000 });
  await p.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
  await p.evaluate(() => __app.hold(true));
}

// Drags cloth particle i of cloth k up by 100 px with the mouse; returns how far the particle
// followed and the anchors of the cloth's world during and after the drag.
async function dragCloth(k, i) {
  const [x, y] = await page.evaluate(([k, i]) => __app.clothScreenOf(k, i), [k, i]);
  const before = await page.evaluate((k) => __app.clothWorldStats(k).anchors, k);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let s = 1; s <= 5; s++) {
    await page.mouse.move(x, y - 20 * s);
    await page.evaluate(() => __app.advance(6));
  }
  const [gx, gy] = await page.evaluate(([k, i]) => __app.clothScreenOf(k, i), [k, i]);
  const during = await page.evaluate((k) => __app.clothWorldStats(k).anchors, k);
  const strain = await page.evaluate((k) => __app.clothStats(k).maxStrain, k);
  await page.mouse.up();
  const after = await page.evaluate((k) => __app.clothWorldStats(k).anchors, k);
  return { moved: Math.hypot(gx - x, gy - (y - 100)), followed: (y - gy) / 100, before, during, after, strain };
}

test('compare: either cape can be grabbed, the camera stays, no anchor is left behind', async () => {
  await open(page, 'test=1&scene=compare&whip=0');
  await page.evaluate(() => __app.advance(30));
  const camera0 = await page.evaluate(() => __app.camera.position.toArray());
  for (const k of [0, 1]) {
    const r = await dragCloth(k, 18 * 13 + 6);  // a point in the lower middle of the cape
    // a spring grab: the point comes most of the way, the cloth is not torn
    assert.ok(r.followed > 0.6, `cape ${k}: the grabbed point came ${(100 * r.followed).toFixed(0)}% of the way to the mouse`);
    assert.ok(r.strain < 0.2, `cape ${k}: strain ${r.strain} while grabbed`);
    assert.equal(r.during, r.before + 1, `cape ${k}: one grab anchor while dragging`);
    assert.equal(r.after, r.before, `cape ${k}: the grab anchor is gone after release`);
  }
  assert.deepEqual(await page.evaluate(() => __app.camera.position.toArray()), camera0, 'the camera did not orbit');
  const stats = await page.evaluate(() => __app.statsText());
  assert.match(stats, /left: tethers/);
  assert.match(stats, /right: no tethers/);
  assert.deepEqual(await page.evaluate(() => __app.labels()), ['left: tethers', 'right: no tethers']);
  assert.deepEqual(problems, []);
});

test('a cloth dragged past where it can reach is pulled by a spring, not torn', async () => {
  await page.evaluate(() => { __app.start('flag'); __app.world.set({ wind: { speed: 0 } }); __app.advance(60); });
  const corner = await page.evaluate(() => { const n = __app.clothPositions(0).length / 3; return n - 1; });
  const [x, y] = await page.evaluate((i) => __app.clothScreenOf(0, i), corner);
  await page.mouse.move(x, y);
  await page.mouse.down();
  let worst = 0;
  for (let s = 1; s <= 10; s++) {
    await page.mouse.move(x + 30 * s, y);
    worst = Math.max(worst, await page.evaluate(() => { __app.advance(3); return __app.clothStats(0).maxStrain; }));
  }
  const [gx] = await page.evaluate((i) => __app.clothScreenOf(0, i), corner);
  await page.mouse.up();
  assert.ok(gx > x + 20, `the corner was pulled toward the mouse (${x} -> ${gx}, mouse at ${x + 300})`);
  assert.ok(worst < 1.5, `worst strain ${(100 * worst).toFixed(0)}% (a hard pin: edges stretched 20-fold)`);
});

test('each scene\'s help says what it offers, and nothing it does not', async () => {
  const scenes = await page.evaluate(() => __app.scenes);
  for (const name of scenes) {
    const r = await page.evaluate((name) => { __app.start(name); return { help: __app.help(), offers: __app.offers() }; }, name);
    assert.equal(/yellow handle/.test(r.help), r.offers.handles > 0, `${name}: "${r.help}"`);
    assert.equal(/cut/.test(r.help), r.offers.ropes > 0, `${name}: "${r.help}"`);
    assert.equal(/rope point/.test(r.help), r.offers.ropes > 0, `${name}: "${r.help}"`);
    assert.equal(/cloth point/.test(r.help), r.offers.cloths > 0, `${name}: "${r.help}"`);
    assert.match(r.help, /orbit/);
  }
});

test('every control has a tooltip; the scene\'s controls come first; world controls are folded', async () => {
  for (const name of ['rope', 'flag', 'ponytail', 'wig', 'compare', 'character', 'crowd']) {
    const r = await page.evaluate((name) => {
      __app.start(name);
      const rows = [...document.querySelectorAll('.lil-gui .lil-controller')];
      return {
        missing: rows.filter((c) => c.querySelector('.lil-name').textContent !== 'scene' && !c.title).map((c) => c.querySelector('.lil-name').textContent),
        // selects show their whole value (lil-gui draws the value in a .lil-display over the select)
        truncated: [...document.querySelectorAll('.lil-gui .lil-controller.lil-option .lil-display')].filter((d) => d.scrollWidth > d.clientWidth + 1).map((d) => d.textContent),
        folders: __app.gui.folders.map((f) => f._title),
        worldClosed: __app.gui.folders.find((f) => f._title === 'World')._closed,
      };
    }, name);
    assert.deepEqual(r.missing, [], `${name}: controls without a tooltip`);
    assert.deepEqual(r.truncated, [], `${name}: select values cut off`);
    assert.equal(r.folders[r.folders.length - 1], 'World', `${name}: folders ${r.folders}`);
    assert.ok(r.worldClosed, `${name}: the World folder starts closed`);
  }
  const options = await page.evaluate(() => [...document.querySelectorAll('.lil-controller')].find((c) => c.dataset.param === 'threads').querySelectorAll('option').length);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  assert.equal(options, 1 + Math.min(cores, 4), 'threads menu: auto + one entry per core');
});

test('URL state: the scene and changed parameters round-trip through a reload', async () => {
  await open(page, 'test=1&scene=flag&liftCoefficient=1.25&windSpeed=7&damping=nonsense');
  const r = await page.evaluate(() => ({ lift: __app.params.liftCoefficient, wind: __app.params.windSpeed, damping: __app.params.damping, world: __app.world.settings.wind.speed }));
  assert.equal(r.lift, 1.25);
  assert.equal(r.wind, 7);
  assert.equal(r.damping, 0.2, 'a value that is not a number keeps the default');
  assert.ok(Math.abs(r.world - 7) < 1e-6, 'the world got the wind from the URL');
  await page.evaluate(() => __app.gui.controllersRecursive().find((c) => c.property === 'dragCoefficient').setValue(2));
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('scene'), 'flag');
  assert.equal(url.searchParams.get('dragCoefficient'), '2');
  assert.equal(url.searchParams.get('liftCoefficient'), '1.25');
  assert.equal(url.searchParams.has('turbulence'), false, 'defaults are left out');
  await open(page, url.search.slice(1));
  assert.equal(await page.evaluate(() => __app.params.dragCoefficient), 2);
  await page.evaluate(() => __app.reset());
  assert.equal(new URL(page.url()).searchParams.has('dragCoefficient'), false, 'reset clears the URL');
});

test('stats are per fixed step, with render fps and the reason for the thread count', async () => {
  await open(page, 'test=1&scene=rope');
  await page.evaluate(() => { __app.hold(false); });
  await page.waitForTimeout(1500);
  const text = await page.evaluate(() => __app.statsText());
  assert.match(text, /fixed step +\d+\.\d+ ms +\(1\/60 s: 8 substeps × 1 iteration\)/);
  assert.match(text, /render +\d+ fps/);
  assert.match(text, /threads +1 \(.*(2,048|single-threaded|auto|as asked)/);
  assert.deepEqual(problems, []);
});

test('a slider that rebuilds the scene rebuilds once, after the drag', async () => {
  await open(page, 'test=1&scene=curtain');
  const r = await page.evaluate(async () => {
    const c = __app.gui.controllersRecursive().find((c) => c.property === 'ropes');
    const world0 = __app.world;
    const worlds = new Set();
    for (const v of [200, 250, 300, 350, 400]) { c.setValue(v); worlds.add(__app.world); }
    const same = worlds.size === 1 && worlds.has(world0);
    await new Promise((r) => setTimeout(r, 600));
    return { same, rebuilt: __app.world !== world0, particles: __app.world.stats().particles };
  });
  assert.ok(r.same, 'no rebuild while the value is still changing');
  assert.ok(r.rebuilt, 'rebuilt after it stopped');
  assert.equal(r.particles, 400 * 25);
});

test('phone in portrait: folded panel, the scene on screen, touch grab and double-tap cut', async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 });
  const p = await phone.newPage();
  const phoneProblems = watch(p);
  await open(p, 'test=1&scene=rope');
  const r = await p.evaluate(() => ({ closed: __app.guiClosed(), handle: __app.handleScreen(0), rope: [0, 20, 40].map((i) => __app.screenOf(0, i)), help: __app.help() }));
  assert.ok(r.closed, 'the panel starts folded');
  for (const [x, y] of [r.handle, ...r.rope]) assert.ok(x > 0 && x < 390 && y > 0 && y < 844, `point (${x}, ${y}) off screen`);
  assert.match(r.help, /double-tap a rope to cut it/);
  for (const name of ['ponytail', 'flag', 'character']) {
    const inside = await p.evaluate((name) => {
      __app.start(name); __app.advance(10);
      const pts = name === 'ponytail' ? [__app.chainPositions(0).slice(-3)] : [__app.clothPositions(0).slice(0, 3), __app.clothPositions(0).slice(-3)];
      return pts.map(([x, y, z]) => { const v = new __app.camera.position.constructor(x, y, z).project(__app.camera); return [(v.x * 0.5 + 0.5) * innerWidth, (-v.y * 0.5 + 0.5) * innerHeight]; });
    }, name);
    for (const [x, y] of inside) assert.ok(x > 0 && x < 390 && y > 0 && y < 844, `${name}: (${x}, ${y}) off screen`);
  }
  // touch grab: a finger on a rope point drags it
  await p.evaluate(() => { __app.start('rope'); __app.advance(120); });
  const cdp = await phone.newCDPSession(p);
  const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
  const [x, y] = await p.evaluate(() => __app.screenOf(0, 20));
  await touch('touchStart', x, y);
  // touch moves reach the page with a later animation frame: wait until the page has seen each
  await p.evaluate(() => addEventListener('pointermove', (e) => { window.__lastMoveY = e.clientY; }));
  for (let k = 1; k <= 4; k++) {
    await touch('touchMove', x, y - 20 * k);
    await p.waitForFunction((want) => Math.abs(window.__lastMoveY - want) < 1, y - 20 * k);
    await p.evaluate(() => __app.advance(4));
  }
  const [gx, gy] = await p.evaluate(() => __app.screenOf(0, 20));
  await touch('touchEnd');
  assert.ok(Math.hypot(gx - x, gy - (y - 80)) < 8, `touch-dragged point at (${gx}, ${gy}), finger at (${x}, ${y - 80})`);
  // double tap: cut
  await p.evaluate(() => { __app.reset(); __app.advance(60); });
  const before = await p.evaluate(() => __app.ropeCount());
  const [ax, ay] = await p.evaluate(() => __app.screenOf(0, 10));
  const [bx, by] = await p.evaluate(() => __app.screenOf(0, 11));
  // sent back to back (in order, without waiting for each answer) so a loaded machine keeps them a double tap
  const mid = [(ax + bx) / 2, (ay + by) / 2];
  await Promise.all([touch('touchStart', ...mid), touch('touchEnd'), touch('touchStart', ...mid), touch('touchEnd')]);
  const after = await p.evaluate(() => { __app.advance(5); return __app.ropeCount(); });
  assert.equal(after, before + 1, 'a double tap cut the rope');
  assert.deepEqual(phoneProblems, []);
  await phone.close();
});
