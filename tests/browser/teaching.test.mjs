// The teaching views: Verlet vs PBD vs XPBD, the pendulum and catenary lab, the frame-rate sweep,
// live plots, the particle inspector and the timeline. Each asserts the physics it teaches against
// an independent answer (closed forms, a separately integrated reference, the 60 Hz run).
import test from 'node:test';
import assert from 'node:assert/strict';
import { servePlayground } from './playground-server.mjs';

const { base, page, problems } = await servePlayground({ width: 1280, height: 800 });
await page.goto(`${base}?test=1&scene=solvers`, { waitUntil: 'load' });
await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
await page.evaluate(() => __app.hold(true));

// Runs `scene` for `frames` frames of 1/60 s with the given substeps and iterations.
function run(scene, frames, substeps, iterations, params = {}) {
  return page.evaluate(([scene, frames, substeps, iterations, params]) => {
    __app.start(scene);
    for (const [k, v] of Object.entries({ substeps, iterations, ...params })) {
      __app.gui.controllersRecursive().find((c) => c.property === k).setValue(v);
    }
    __app.advance(frames);
    const s = __app.sceneState;
    return { measured: s.measured, expected: s.expected, strain: s.strain && [0, 1, 2].map((i) => s.strain.latest(i)), plotSamples: s.strain?.count ?? s.angle?.count, info: __app.info() };
  }, [scene, frames, substeps, iterations, params]);
}

test('Verlet vs PBD vs XPBD: with more substeps PBD stiffens without limit, XPBD settles on α·T/L', async () => {
  const coarse = await run('solvers', 600, 8, 1);
  const fine = await run('solvers', 600, 32, 1);
  const [, pbd8, xpbd8] = coarse.strain, [, pbd32, xpbd32] = fine.strain;
  assert.ok(pbd32 < pbd8 / 5, `PBD strain ${pbd8.toFixed(2)}% at 8 substeps, ${pbd32.toFixed(2)}% at 32`);
  assert.ok(Math.abs(xpbd32 / fine.expected - 1) < 0.03, `XPBD ${xpbd32.toFixed(3)}% vs α·T/L ${fine.expected.toFixed(3)}%`);
  assert.ok(Math.abs(xpbd8 / coarse.expected - 1) < 0.25, `XPBD at 8 substeps ${xpbd8.toFixed(3)}% vs ${coarse.expected.toFixed(3)}%`);
  // the material property: twice the compliance, twice the stretch
  const soft = await run('solvers', 600, 32, 1, { compliance: 0.001 });
  assert.ok(Math.abs(soft.strain[2] / xpbd32 - 2) < 0.1, `compliance ×2: strain ${xpbd32.toFixed(3)}% -> ${soft.strain[2].toFixed(3)}%`);
  // the textbook rope: its iterations are its stiffness
  const stiff = await run('solvers', 600, 8, 16);
  assert.ok(stiff.strain[0] < coarse.strain[0] / 5, `Verlet strain ${coarse.strain[0].toFixed(1)}% at 1 iteration, ${stiff.strain[0].toFixed(1)}% at 16`);
  assert.equal(coarse.plotSamples, 600, 'the strain plot got a sample every frame');
  assert.match(coarse.info, /α·T\/L = 9\.56%/);
});

test('Verlet vs PBD vs XPBD on cloth: PBD\'s stiffness follows the substeps, XPBD\'s its compliance', async () => {
  const cloth = async (substeps, clothCompliance) => {
    await page.goto(`${base}?test=1&scene=solvers&subject=cloth&substeps=${substeps}&clothCompliance=${clothCompliance}`, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
    return page.evaluate(() => { __app.hold(true); __app.advance(600); const s = __app.sceneState; return { subject: s.subject, strain: [0, 1, 2].map((i) => s.strain.latest(i)) }; });
  };
  const coarse = await cloth(8, 0.01), fine = await cloth(32, 0.01), soft = await cloth(32, 0.02);
  assert.equal(fine.subject, 'cloth');
  assert.ok(fine.strain[1] < coarse.strain[1] / 5, `PBD cloth strain ${coarse.strain[1].toFixed(2)}% at 8 substeps, ${fine.strain[1].toFixed(2)}% at 32`);
  const x = fine.strain[2] / coarse.strain[2];
  assert.ok(x > 0.6 && x < 1.3, `XPBD cloth strain ${coarse.strain[2].toFixed(2)}% at 8 substeps, ${fine.strain[2].toFixed(2)}% at 32`);
  const d = soft.strain[2] / fine.strain[2];
  assert.ok(d > 1.7 && d < 2.5, `XPBD cloth: compliance ×2, strain ×${d.toFixed(2)}`);
  await page.goto(`${base}?test=1&scene=solvers`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.__ready === true, null, { timeout: 60000 });
  await page.evaluate(() => __app.hold(true));
});

test('lab: the pendulum\'s period matches the exact large-angle period, the reference and the catenary', async () => {
  const r = await run('lab', 600, 8, 1);
  const m = r.measured;
  assert.ok(m.amplitude > 0.5, `amplitude ${m.amplitude}`);
  assert.ok(Math.abs(m.period / m.exact - 1) < 0.01, `simulated ${m.period} s vs exact ${m.exact} s`);
  assert.ok(Math.abs(m.reference / 2.1528747 - 1) < 0.001, `reference pendulum ${m.reference} s vs exact 2.1528747 s at 60°`);
  assert.ok(m.small < 0.95 * m.exact, 'the small-angle formula is visibly off at this amplitude');
  const fine = await run('lab', 600, 32, 1);
  assert.ok(Math.abs(fine.measured.sag / fine.measured.sagAnalytic - 1) < 0.01, `sag ${fine.measured.sag} vs catenary ${fine.measured.sagAnalytic}`);
  assert.ok(fine.measured.maxDeviation < 0.01, `rope ${fine.measured.maxDeviation} m from the catenary`);
  assert.match(r.info, /exact for that amplitude/);
});

test('frame-rate sweep: the clip at 24, 30, 120 and 240 Hz stays with the 60 Hz one', async () => {
  const worst = await page.evaluate(() => {
    __app.start('framerate');
    __app.gui.controllersRecursive().find((c) => c.property === 'speed').setValue(0.5);
    __app.advance(300);
    return Array.from(__app.sceneState.worst);
  });
  // lanes: 24, 30, 60, 120, 240 Hz. Frames that land on fixed steps see the same anchor path: the
  // same bits. 24 and 30 Hz sample the clip more coarsely (a polyline through fewer points), which
  // is all that separates them.
  assert.ok(worst[3] < 1e-6 && worst[4] < 1e-6, `120 Hz ${worst[3]} m, 240 Hz ${worst[4]} m from 60 Hz`);
  assert.ok(worst[0] < 0.008 && worst[1] < 0.003, `24 Hz ${worst[0]} m, 30 Hz ${worst[1]} m from 60 Hz`);
});

test('inspector: alt-click shows a rope point\'s state and its segments; a cloth point\'s edges', async () => {
  await page.evaluate(() => { __app.start('rope'); __app.advance(60); });
  const [x, y] = await page.evaluate(() => __app.screenOf(0, 20));
  await page.keyboard.down('Alt');
  await page.mouse.click(x, y);
  await page.keyboard.up('Alt');
  await page.evaluate(() => __app.advance(10));
  const text = await page.evaluate(() => __app.inspector());
  assert.match(text, /rope particle \d+/);
  assert.match(text, /velocity \(/);
  assert.match(text, /invMass +\d/);
  assert.equal((text.match(/segment \d+-\d+ +strain [+-]\d/g) ?? []).length, 2, text);
  assert.equal(await page.evaluate(() => __app.ropeCount()), 2, 'inspecting did not cut or grab');
  await page.evaluate(() => { __app.start('flag'); __app.advance(30); });
  const [cx, cy] = await page.evaluate(() => __app.clothScreenOf(0, 40));
  await page.keyboard.down('Alt');
  await page.mouse.click(cx, cy);
  await page.keyboard.up('Alt');
  const cloth = await page.evaluate(() => __app.inspector());
  assert.match(cloth, /cloth particle \d+/);
  assert.ok((cloth.match(/edge \d+-\d+ +strain/g) ?? []).length >= 3, cloth);
});

test('timeline: scrub back to a snapshot, resume, and the replay is bit for bit the first run', async () => {
  const r = await page.evaluate(() => {
    __app.start('lab');
    __app.advance(120);                  // t = 2 s
    const at2 = __app.hash();
    __app.advance(120);                  // t = 4 s
    const at4 = __app.hash();
    const tl = __app.timeline;
    const k = tl.entries.findIndex((e) => Math.abs(e.time - 2) < 1e-6);
    tl.scrub(k);
    const back = { hash: __app.hash(), paused: __app.params.paused, time: tl.entries[k].time };
    tl.resume();
    __app.advance(120);
    return { at2, at4, back, replay: __app.hash(), entries: tl.entries.length };
  });
  assert.equal(r.back.hash, r.at2, 'scrubbed to the state at 2 s');
  assert.ok(r.back.paused, 'scrubbing pauses');
  assert.equal(r.replay, r.at4, 'resumed run reaches the same state at 4 s');
  assert.ok(r.entries >= 3);
  assert.deepEqual(problems, []);
});
