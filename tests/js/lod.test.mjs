// CharacterLOD (web/adapters/lod.js): levels from the camera's distance with hysteresis, frustum
// culling, the same levels for the same camera path, and no snap when a character is simulated
// again after its anchor moved while it was frozen.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { builds, rejects } from './load.mjs';
import { FrameBudget } from '../../wasm/js/index.js';
import { CharacterLOD } from '../../web/adapters/index.js';

const wisp = builds.single;

// A camera at the origin looking down -z.
function camera() {
  const c = new THREE.PerspectiveCamera(60, 1, 0.1, 1000);
  c.updateMatrixWorld();
  return c;
}
// A character: a rope pinned to an anchor at `at`, with its Object3D bounds there.
function character(world, lod, at, extra = {}) {
  const anchor = world.addAnchor(at);
  const rope = world.addRope({ start: at, end: [at[0], at[1] - 1, at[2]], segments: 8 });
  rope.pin(0, anchor);
  const body = new THREE.Object3D();
  body.position.set(...at);
  return { anchor, rope, body, c: lod.add({ objects: [rope], bounds: body, radius: 0.5, ...extra }) };
}
const state = (rope) => (rope.enabled ? `every ${rope.params.updateEvery}` : 'disabled');

test('levels by distance: full, reduced (every 2nd step), slow (every 4th), frozen, off', () => {
  const world = wisp.createWorld({});
  const lod = new CharacterLOD({ distances: [10, 20, 40, 80], margin: 1 });
  const hidden = new THREE.Object3D();
  const chars = [5, 15, 30, 60, 100].map((d) => character(world, lod, [0, 0, -d - 0.5], d === 100 ? { hide: [hidden] } : {}));
  const report = lod.update(camera());
  assert.deepEqual(chars.map(({ c }) => c.level), ['full', 'reduced', 'slow', 'frozen', 'off']);
  assert.deepEqual(chars.map(({ rope }) => state(rope)), ['every 1', 'every 2', 'every 4', 'disabled', 'disabled']);
  assert.equal(report.changes.length, 5);
  assert.equal(hidden.visible, false, "'off' hides what the character draws");
  assert.deepEqual(chars.map(({ c }) => c.distance), [5, 15, 30, 60, 100]);
  world.dispose();
});

test('hysteresis: a level changes only past its threshold by the margin; a camera hovering at a threshold changes nothing', () => {
  const world = wisp.createWorld({});
  const run = (margin, path) => {
    const lod = new CharacterLOD({ distances: [10, 20, 40, 80], margin });
    const { c, body } = character(world, lod, [0, 0, -1]);
    const cam = camera();
    let changes = 0;
    const levels = path.map((d) => {
      body.position.z = -d - 0.5;  // the sphere's surface at d
      changes += lod.update(cam).changes.length;
      return c.level;
    });
    return { levels, changes };
  };
  assert.deepEqual(run(1, [9.5, 10.5, 11.2, 10.5, 9.5, 8.8]).levels, ['full', 'full', 'reduced', 'reduced', 'reduced', 'full']);
  const hover = Array.from({ length: 100 }, (_, i) => (i % 2 ? 10.4 : 9.6));
  assert.equal(run(1, hover).changes, 1, 'the first update only');
  assert.equal(run(0, hover).changes, 100, 'without a margin it flips every frame');
  world.dispose();
});

test('frustum culling: a character outside the view gets the offscreen level; it counts as leaving only past the frustum margin', () => {
  const world = wisp.createWorld({});
  const lod = new CharacterLOD({ offscreen: 'frozen', frustumMargin: 0.5 });
  const front = character(world, lod, [0, 0, -3]);
  const behind = character(world, lod, [0, 0, 3]);
  const cam = camera();
  lod.update(cam);
  assert.equal(front.c.level, 'full');
  assert.equal(front.c.visible, true);
  assert.equal(behind.c.level, 'frozen');
  assert.equal(behind.rope.enabled, false);
  // the camera turns until the front character's sphere (radius 0.5) just leaves the view:
  // with the margin it still counts as on screen; turned further it is culled
  const edge = (degrees) => { cam.rotation.y = THREE.MathUtils.degToRad(degrees); lod.update(cam); return front.c.level; };
  // half the horizontal field of view is 30 degrees; the sphere's centre at 3 m is still in view
  // up to 30 + asin(0.5 / 3) = 39.6 degrees off the axis, the sphere grown by the margin up to
  // 30 + asin(1 / 3) = 49.5
  assert.equal(edge(30 + 12), 'full', 'outside by its radius, inside by radius + margin');
  assert.equal(edge(30 + 20), 'frozen');
  assert.equal(edge(30 + 12), 'frozen', 'coming back: the margin does not count until it is on screen');
  assert.equal(edge(30 + 5), 'full');
  world.dispose();
});

test('the same camera path gives the same levels', () => {
  const run = () => {
    const world = wisp.createWorld({});
    const lod = new CharacterLOD({ distances: [4, 8, 16, 32], margin: 0.5 });
    for (let i = 0; i < 12; i++) character(world, lod, [3 * Math.cos(i), 0, -4 * i]);
    const cam = camera(), log = [];
    for (let f = 0; f < 240; f++) {
      cam.position.set(2 * Math.sin(0.03 * f), 1, -0.2 * f);
      cam.rotation.y = 0.4 * Math.sin(0.05 * f);
      for (const ch of lod.update(cam).changes) log.push(`${f}:${lod.characters.indexOf(ch.character)}:${ch.from}>${ch.to}`);
      world.step(1 / 60);
    }
    world.dispose();
    return log;
  };
  const a = run(), b = run();
  assert.ok(a.length > 20, `${a.length} changes`);
  assert.deepEqual(a, b);
});

test('no snap: a character frozen while its anchor moved 5 m starts at rest on it when the camera comes back', () => {
  const world = wisp.createWorld({});
  const lod = new CharacterLOD({ distances: [20, 40, 60, 80] });
  const { anchor, rope, body, c } = character(world, lod, [0, 2, -5]);
  const cam = camera();
  for (let f = 0; f < 30; f++) { lod.update(cam); world.step(1 / 60); }
  cam.position.z = 70;  // far: frozen
  lod.update(cam);
  assert.equal(c.level, 'frozen');
  for (let f = 1; f <= 50; f++) {
    anchor.setPosition([0, 2, -5 - 0.1 * f]);
    body.position.z = -5 - 0.1 * f;
    lod.update(cam);
    world.step(1 / 60);
  }
  cam.position.z = 0;
  lod.update(cam);
  assert.equal(c.level, 'full');
  world.step(1 / 60);
  let fastest = 0;
  for (let i = 0; i < rope.count; i++) fastest = Math.max(fastest, Math.hypot(...rope.particle(i).velocity));
  assert.ok(fastest < 0.1, `first frame after re-enabling: ${fastest} m/s`);
  assert.ok(Math.abs(rope.positions[2] + 10) < 1e-5, 'on the moved anchor');
  world.dispose();
});

test('with a budget the levels are caps: the budget applies them and may go lower', () => {
  const world = wisp.createWorld({});
  // 9 particles x 8 substeps = 72 units per rope at full; 0.1 ms per unit: one full rope is 7.2 ms
  const budget = new FrameBudget(world, { budgetMs: 10, msPerUnit: 0.1, headroom: 0 });
  const lod = new CharacterLOD({ distances: [10, 20, 40, 80], budget });
  const near = character(world, lod, [0, 0, -3]), mid = character(world, lod, [0, 0, -15.5]);
  budget.add(near.rope, { priority: 2 });
  budget.add(mid.rope, { priority: 1 });
  lod.update(camera());
  assert.deepEqual([near.c.level, mid.c.level], ['full', 'reduced'], 'the LOD levels (caps)');
  // 72 + 36 units = 10.8 ms > 10: the lower priority goes one level below its cap
  assert.deepEqual([budget.levelOf(near.rope), budget.levelOf(mid.rope)], ['full', 'slow']);
  assert.deepEqual(budget.report.degraded.map((d) => [d.from, d.to]), [['reduced', 'slow']]);
  assert.equal(mid.rope.params.updateEvery, 4);
  world.dispose();
});

test('bad options throw a WispError naming them', () => {
  rejects(() => new CharacterLOD({ distances: [10, 5, 40, 80] }), 'invalid-argument', /distances must increase/);
  rejects(() => new CharacterLOD({ distances: [10, 20] }), 'invalid-argument', /distances/);
  rejects(() => new CharacterLOD({ margin: -1 }), 'invalid-argument', /margin/);
  rejects(() => new CharacterLOD({ offscreen: 'hidden' }), 'invalid-argument', /offscreen/);
  const lod = new CharacterLOD();
  rejects(() => lod.add({ objects: [{}], bounds: new THREE.Object3D() }), 'invalid-argument', /objects\[0\]/);
  rejects(() => lod.update({}), 'invalid-argument', /Camera/);
  assert.equal(lod.characters.length, 0);
});
