// Parameters and settings cross the JS boundary whole: every option set from JavaScript reads
// back with the value set (to float32 precision) and with no key missing or extra, and an
// object read back is accepted by set() and changes nothing. The expected objects below are
// written out by hand, independent of the field lists the bindings use.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './load.mjs';

const f32 = (v) => (typeof v === 'number' ? Math.fround(v) : Array.isArray(v) ? v.map(f32) : v);
// float32 for the members stored as float; doubles (fixedDt, maxFrameDt, rejectFrameDt) stay exact
function expected(obj, doubles = []) {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, doubles.includes(k) ? v : f32(v)]));
}
function sameKeysAndValues(actual, want, what) {
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(want).sort(), `${what}: the keys`);
  for (const k of Object.keys(want)) assert.deepEqual(actual[k], want[k], `${what}.${k}`);
}

const ROPE = {
  radius: 0.02, stretchCompliance: 1e-5, bending: true, bendCompliance: 0.002, damping: 0.3, drag: 0.7,
  gravityScale: -0.5, yieldRatio: 1.2, plasticity: 2, collide: false, tethers: false, colliderMask: 5,
  maxSpeed: 40, teleportDistance: 2.5, teleportAngle: 1.2, sleepSpeed: 0.002, sleepTime: 1.5, updateEvery: 2,
  maxSubsteps: 16,
};
const CLOTH = {
  radius: 0.02, stretchCompliance: 1e-6, shearCompliance: 2e-4, bendCompliance: 0.01, bending: false, tethers: false,
  tetherSlack: 0.1, tetherCompliance: 0.001, damping: 0.2, gravityScale: 0.5, dragCoefficient: 1.5,
  liftCoefficient: 0.2, airDensity: 1.0, residualTolerance: 0.001, pressure: 0, volumeCompliance: 1e-6,
  collide: false, selfCollision: true, colliderMask: 3, maxSpeed: 50, teleportDistance: 0.5, teleportAngle: 2,
  sleepSpeed: 0.003, sleepTime: 2, updateEvery: 3, maxSubsteps: 32,
};
const curve = (a) => [[0, 1], [1, a]];
const CHAIN = {
  mode: 'wisp', space: 'relative', damping: 3, stiffness: 5, elasticity: 0.5, inertia: 0.25, gravityScale: -1,
  gravity: [0, -5, 0], externalForce: [1, 0, 0], drag: 0.25, radius: 0.03, limitAngle: 1, hinge: true,
  hingeAxis: [0, 0, 1], collide: false, colliderMask: 6, spaceInertia: 0.5, teleportDistance: 2, teleportAngle: 1,
  warmupSteps: 30, maxDistance: 0.25, maxDistanceCurve: curve(0.35),
  dampingCurve: curve(0.5), stiffnessCurve: curve(0.6), elasticityCurve: curve(0.7), inertiaCurve: curve(0.8),
  gravityCurve: curve(0.9), externalForceCurve: curve(0.4), radiusCurve: curve(0.3), limitAngleCurve: curve(0.2),
  sleepSpeed: 0.004, sleepTime: 0.5, updateEvery: 4,
  backstop: true, backstopNormal: [0, 0, 1], backstopDistance: 0.02, backstopRadius: 0.5, backstopCurve: curve(0.5),
  vrmLimits: [
    { type: 'cone', angle: 0.5, pitch: 3, yaw: 1.5, rotation: [0, 0, 0, 1] },
    { type: 'spherical', angle: 3, pitch: 0.25, yaw: 0.75, rotation: [0, 0.5, 0, 0.5] },
  ],
  vrmWind: 0.5,
};
const SETTINGS = {
  gravity: [0, -5, 0], fixedDt: 1 / 120, substeps: 4, iterations: 2, maxFrameDt: 0.05, rejectFrameDt: 0.5,
  collisions: false, debugChecks: true, threads: 1,
  wind: { direction: [0, 0, 1], speed: 3, turbulence: 0.5, turbulenceScale: 4, seed: 7 },
};

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: every option reads back as set, and what reads back is accepted back`, () => {
    const world = wisp.createWorld({});
    const rope = world.addRope({ start: [0, 1, 0], end: [1, 1, 0], segments: 8, pinned: [0] });
    const cloth = world.addCloth({ grid: { width: 1, height: 1, resolutionX: 4, resolutionY: 4 }, pinned: [0] });
    const chain = world.addChain({ points: [0, 1, 0, 0, 0.9, 0, 0, 0.8, 0] });

    rope.set(ROPE);
    sameKeysAndValues(rope.params, expected(ROPE), 'rope.params');
    cloth.set(CLOTH);
    sameKeysAndValues(cloth.params, expected(CLOTH), 'cloth.params');
    chain.set(CHAIN);
    sameKeysAndValues(chain.params, expected(CHAIN), 'chain.params');
    world.set(SETTINGS);
    const s = world.settings;
    sameKeysAndValues({ ...s, wind: undefined }, { ...expected(SETTINGS, ['fixedDt', 'maxFrameDt', 'rejectFrameDt']), wind: undefined }, 'settings');
    sameKeysAndValues(s.wind, expected(SETTINGS.wind), 'settings.wind');

    chain.set({ gravity: null, mode: 'vrm', damping: 0.4, stiffness: 1 });
    assert.equal(chain.params.gravity, null, 'null gravity: the world\'s');
    assert.equal(chain.params.mode, 'vrm');

    for (let i = 0; i < 30; i++) world.step(1 / 60);
    const hash = world.stateHash();
    rope.set(rope.params);
    cloth.set(cloth.params);
    chain.set(chain.params);
    world.set(world.settings);
    assert.equal(world.stateHash(), hash);
    for (let i = 0; i < 30; i++) world.step(1 / 60);
    assert.ok(world.events().length === 0, 'the debug checks found nothing');
    world.dispose();
  });
}
