// The chain API from JavaScript: creation, views, errors, disposal, presets.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { builds, rejects } from './load.mjs';
import { selftest } from './selftest.mjs';
import { fromDynamicBone, fromKawaiiPhysics, fromVRMSpring, savePreset, loadPreset, DETERMINISM_GOLDEN_HASH } from '../../wasm/js/index.js';

const wisp = builds.single;

function ponytail(world, extra = {}) {
  return world.addChain({
    position: [0, 1.6, 0],
    joints: [{ position: [0, 0, -0.13] }, ...Array.from({ length: 7 }, () => ({ position: [0, -0.06, -0.01] }))],
    ...extra,
  });
}

test('a chain hangs from its root with exact bone lengths; views are zero-copy and stable', () => {
  const world = wisp.createWorld({});
  const chain = ponytail(world, { endLength: 0.03 });
  assert.equal(chain.count, 9);
  const p = chain.positions, r = chain.rotations, l = chain.localRotations;
  assert.equal(p.length, 27);
  assert.equal(r.length, 36);
  assert.equal(l.length, 36);
  for (let f = 0; f < 120; f++) {
    chain.setRoot([Math.sin(f * 0.1) * 0.3, 1.6, 0], [0, Math.sin(f * 0.05), 0, Math.cos(f * 0.05)]);
    world.step(1 / 60);
  }
  assert.equal(chain.positions, p, 'the same array object');
  assert.ok(chain.stats().maxLengthError < 2e-6);
  for (let j = 0; j < chain.count; j++) {
    const n = Math.hypot(l[4 * j], l[4 * j + 1], l[4 * j + 2], l[4 * j + 3]);
    assert.ok(Math.abs(n - 1) < 1e-5, `joint ${j} local rotation is a unit quaternion`);
  }
  assert.equal(world.stats().chains, 1);
  world.dispose();
});

test('bad chain input throws WispError naming the parameter and changes nothing', () => {
  const world = wisp.createWorld({});
  const chain = ponytail(world);
  world.step(1 / 60);
  const hash = world.stateHash();
  rejects(() => world.addChain({ points: [0, 0, 0] }), 'invalid-argument', /at least 2 joints/);
  rejects(() => world.addChain({}), 'invalid-argument', /exactly one of joints or points/);
  rejects(() => world.addChain({ points: [0, 0, 0, 0, 1] }), 'invalid-argument', /multiple of 3/);
  rejects(() => world.addChain({ points: [0, 0, 0, 0, 0, 0] }), 'invalid-argument', /zero length/);
  rejects(() => ponytail(world, { stiffness: NaN }), 'invalid-argument', /ChainParams\.stiffness/);
  rejects(() => ponytail(world, { mode: 'dynamic' }), 'invalid-argument', /chain\.mode must be one of/);
  rejects(() => ponytail(world, { radiusCurve: [[0, 1], [0, 2]] }), 'invalid-argument', /radiusCurve\[1\]\.t must be greater/);
  rejects(() => ponytail(world, { radiusCurve: [[0, 1], [2, 2]] }), 'invalid-argument', /radiusCurve\[1\]\.t/);
  rejects(() => ponytail(world, { radiusCurve: [1, 2] }), 'invalid-argument', /radiusCurve\[0\] must be/);
  rejects(() => ponytail(world, { stiffnes: 3 }), 'invalid-argument', /chain\.stiffnes is not a known option/);
  rejects(() => chain.set({ limitAngle: 4 }), 'invalid-argument', /ChainParams\.limitAngle/);
  rejects(() => chain.setRoot([NaN, 0, 0]), 'invalid-argument', /position/);
  rejects(() => chain.setRoot([0, 0, 0], [0, 0, 0, 0]), 'invalid-argument', /zero quaternion/);
  rejects(() => chain.setRootMatrix(new Float32Array(15)), 'invalid-argument', /16 elements/);
  rejects(() => chain.particle(99), 'out-of-range');
  assert.equal(world.stateHash(), hash);
  chain.dispose();
  chain.dispose();  // twice is fine
  rejects(() => chain.positions, 'disposed');
  rejects(() => chain.setRoot([0, 0, 0]), 'disposed');
  world.dispose();
});

// Hair on a head: three chains (VRM and Wisp rule) whose root is set per chain in one world and
// with world.setChainRoots in another, arrays and three.js objects, a Float64Array position.
test('world.setChainRoots gives each chain what chain.setRoot gives it, bit for bit', () => {
  const each = wisp.createWorld({}), all = wisp.createWorld({});
  const defs = [{}, { mode: 'vrm', stiffness: 1, damping: 0.4 }, { radius: 0.03 }];
  const a = defs.map((d) => ponytail(each, d)), b = defs.map((d) => ponytail(all, d));
  const q = new THREE.Quaternion(), p = new Float64Array(3);
  for (let f = 0; f < 90; f++) {
    q.setFromAxisAngle(new THREE.Vector3(0, 1, 0), 0.8 * Math.sin(f * 0.07));
    p[0] = 0.2 * Math.sin(f * 0.1); p[1] = 1.6; p[2] = 0.01 * f;
    const rotation = f % 2 ? q : [q.x, q.y, q.z, q.w];
    for (const c of a) c.setRoot(p, rotation);
    all.setChainRoots(b, p, rotation);
    each.step(1 / 60);
    all.step(1 / 60);
    assert.equal(all.stateHash(), each.stateHash(), `frame ${f}`);
    for (let c = 0; c < a.length; c++) assert.deepEqual(b[c].positions, a[c].positions, `frame ${f}, chain ${c}`);
  }
  all.setChainRoots([], [0, 1.6, 0]);  // no chains: nothing to do
  each.dispose();
  all.dispose();
});

test('world.setChainRoots with a bad pose or a bad chain throws and changes nothing', () => {
  const world = wisp.createWorld({}), other = wisp.createWorld({});
  const chains = [ponytail(world), ponytail(world, { mode: 'vrm', damping: 0.4 }), ponytail(world)];
  const foreign = ponytail(other), gone = ponytail(world);
  gone.dispose();
  world.step(1 / 60);
  const hash = world.stateHash();
  rejects(() => world.setChainRoots(chains, [NaN, 1.6, 0]), 'invalid-argument', /setChainRoots: root\.position/);
  rejects(() => world.setChainRoots(chains, [0, Infinity, 0]), 'invalid-argument', /setChainRoots: root\.position/);
  rejects(() => world.setChainRoots(chains, [0, 1.6, 0], [0, 0, 0, 0]), 'invalid-argument', /setChainRoots: root\.rotation/);
  rejects(() => world.setChainRoots(chains, [0, 1.6, 0], [0, NaN, 0, 1]), 'invalid-argument', /setChainRoots: root\.rotation/);
  rejects(() => world.setChainRoots(chains, [0, 1.6]), 'invalid-argument', /position/);
  rejects(() => world.setChainRoots(chains, [0, 1.6, 0], { x: 0, y: 0, z: 0, w: '1' }), 'invalid-argument', /rotation\.w/);
  rejects(() => world.setChainRoots([chains[0], foreign, chains[2]], [0, 1.7, 0]), 'foreign-object', /chains\[1\]/);
  rejects(() => world.setChainRoots([chains[0], {}, chains[2]], [0, 1.7, 0]), 'foreign-object', /chains\[1\]/);
  rejects(() => world.setChainRoots([chains[0], chains[1], gone], [0, 1.7, 0]), 'disposed');
  rejects(() => world.setChainRoots(null, [0, 1.7, 0]), 'invalid-argument', /chains must be an array/);
  // a list that claims more entries than any scene holds is refused before the id block grows,
  // and the world's next lists still fit (it had wedged the block at the old size)
  rejects(() => world.setChainRoots({ length: 2 ** 31 }, [0, 1.7, 0]), 'invalid-argument', /chains\.length/);
  rejects(() => world.setChainRoots({ length: 1.5 }, [0, 1.7, 0]), 'invalid-argument', /chains\.length/);
  assert.equal(world.stateHash(), hash);
  // stepped, the world that had the rejected calls is one that never had them
  const twin = wisp.createWorld({});
  const twins = [ponytail(twin), ponytail(twin, { mode: 'vrm', damping: 0.4 }), ponytail(twin)];
  ponytail(twin).dispose();
  twin.step(1 / 60);
  for (let f = 0; f < 30; f++) { world.step(1 / 60); twin.step(1 / 60); }
  assert.equal(world.stateHash(), twin.stateHash());
  assert.deepEqual(chains[2].positions, twins[2].positions);
  world.dispose();
  other.dispose();
  twin.dispose();
  rejects(() => world.setChainRoots([], [0, 0, 0]), 'disposed');
});

test('the determinism self-test gives the golden hash (single-threaded build)', () => {
  assert.equal(selftest.single.determinismSceneHash(1), DETERMINISM_GOLDEN_HASH);
});

test('Dynamic Bone, KawaiiPhysics and VRM presets convert by the documented formulas', () => {
  const db = fromDynamicBone({ damping: 0.2, elasticity: 0.09, stiffness: 0, inert: 0.5, radius: 0.03, gravity: [0, -0.001, 0], endLength: 0.5,
    dampingDistrib: [{ time: 0, value: 1 }, { time: 1, value: 0.5 }] });
  assert.ok(Math.abs(db.params.damping - -Math.log(0.8) * 60) < 1e-9);
  assert.ok(Math.abs(db.params.stiffness - 60 * 0.3) < 1e-9);
  assert.ok(Math.abs(db.params.limitAngle - Math.PI) < 1e-12);
  assert.ok(Math.abs(db.params.gravity[1] - -3.6) < 1e-9);
  assert.ok(Math.abs(db.params.dampingCurve[1][1] - Math.log(0.9) / Math.log(0.8)) < 1e-9, 'curve keys map through the same formula');
  assert.equal(db.endLengthRatio, 0.5);
  assert.equal(fromDynamicBone({ stiffness: 1 }).params.limitAngle, 0);
  const k = fromKawaiiPhysics({ Radius: 5, LimitAngle: 30, Gravity: [0, 0, -981], WorldDampingLocation: 0.75 });
  assert.equal(k.params.radius, 0.05);
  assert.ok(Math.abs(k.params.limitAngle - Math.PI / 6) < 1e-12);
  assert.deepEqual(k.params.gravity, [0, -9.81, -0]);
  assert.equal(k.params.inertia, 0.25);
  const v = fromVRMSpring([{ stiffness: 1, dragForce: 0.4, hitRadius: 0.02 }, { stiffness: 0.5, dragForce: 0.6 }, {}], [0.1, 0.3]);
  assert.equal(v.params.mode, 'vrm');
  assert.deepEqual(v.params.stiffnessCurve, [[0, 1], [0.25, 1], [1, 0.5]]);
  // every converted set is accepted by the solver
  const world = wisp.createWorld({});
  for (const params of [db.params, k.params]) ponytail(world, params);
  world.addChain({ points: [0, 1, 0, 0, 0.9, 0, 0, 0.6, 0], ...v.params });
  // presets round-trip as JSON
  const back = loadPreset(savePreset(db.params, 'ponytail'));
  assert.equal(back.name, 'ponytail');
  assert.deepEqual(back.params, JSON.parse(JSON.stringify(db.params)));
  assert.throws(() => loadPreset('{"format":"other"}'), /format/);
  assert.throws(() => loadPreset('not json'), /not JSON/);
  world.dispose();
});

test('containment: a corrupted object is reset and reported; the others continue untouched', () => {
  for (const wisp of [selftest.single, selftest.threaded]) {  // injectFault: a test hook
    const make = () => {
      const world = wisp.createWorld({ threads: 2 });
      const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 12, pinned: [0] });
      const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 6, resolutionY: 6, position: [1, 2, 0] }, pinned: [0, 6] });
      const chain = ponytail(world);
      for (let f = 0; f < 20; f++) world.step(1 / 60);
      return { world, rope, cloth, chain };
    };
    const a = make(), b = make();
    a.world.injectFault(a.cloth, 10);
    a.world.step(1 / 60);
    b.world.step(1 / 60);
    const events = a.world.events();
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'reset');
    assert.equal(events[0].kind, 'cloth');
    assert.equal(events[0].object, a.cloth);
    assert.match(events[0].message, /non-finite/);
    assert.ok(a.cloth.positions.every(Number.isFinite));
    assert.deepEqual(Array.from(a.rope.positions), Array.from(b.rope.positions));
    assert.deepEqual(Array.from(a.chain.positions), Array.from(b.chain.positions));
    assert.equal(b.world.events().length, 0);
    assert.equal(b.world.events(), b.world.events(), 'no allocation when nothing happened');
    a.world.dispose();
    b.world.dispose();
  }
});

test('cloth pressure: accepted on a closed mesh, a clear error on an open one', () => {
  const world = wisp.createWorld({});
  const t = (1 + Math.sqrt(5)) / 2;
  const positions = [-1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, 0, 0, -1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, t, 0, -1, t, 0, 1, -t, 0, -1, -t, 0, 1].map((v) => v * 0.2);
  const indices = [0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
    3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1];
  const ball = world.addCloth({ mesh: { positions, indices }, pressure: 1.2, bendCompliance: 1 });
  for (let f = 0; f < 30; f++) world.step(1 / 60);
  assert.equal(ball.params.pressure, Math.fround(1.2));
  assert.ok(ball.positions.every(Number.isFinite));
  rejects(() => world.addCloth({ grid: { width: 1, height: 1, resolutionX: 4, resolutionY: 4 }, pressure: 1 }), 'invalid-argument', /closed mesh/);
  world.dispose();
});

// Joint positions of the animated pose by forward kinematics (root at `root`, identity root rotation).
function forwardKinematics(root, offsets, locals) {
  const out = [];
  const p = new THREE.Vector3(...root), q = new THREE.Quaternion();
  for (let j = 0; j < offsets.length; j++) {
    p.add(new THREE.Vector3(...offsets[j]).applyQuaternion(q));
    q.multiply(new THREE.Quaternion(...locals.slice(4 * j, 4 * j + 4)).normalize());
    out.push(p.clone());
  }
  return out;
}

test('setPose: the spring pulls toward the animated pose (not the rest pose); bad poses throw and change nothing', () => {
  const world = wisp.createWorld({ gravity: [0, 0, 0] });
  const offsets = [[0, 0, 0], [0, -0.1, 0], [0, -0.1, 0], [0, -0.1, 0]];
  const chain = world.addChain({ position: [0, 1, 0], joints: offsets.map((position) => ({ position })), stiffness: 20, drag: 0, collide: false });
  const s = Math.sin(0.15), c = Math.cos(0.15);
  const pose = new Float32Array([0, 0, s, c, 0, 0, s, c, 0, 0, s, c, 0, 0, s, c]);  // 0.3 rad about z at every joint
  for (let f = 0; f < 180; f++) { chain.setPose(pose); world.step(1 / 60); }
  const want = forwardKinematics([0, 1, 0], offsets, Array.from(pose));
  let worst = 0;
  for (let j = 0; j < 4; j++) worst = Math.max(worst, Math.hypot(chain.positions[3 * j] - want[j].x, chain.positions[3 * j + 1] - want[j].y, chain.positions[3 * j + 2] - want[j].z));
  assert.ok(worst < 1e-4, `a joint ${worst} m from the animated pose (without setPose the tip stays 0.13 m away)`);
  const hash = world.stateHash();
  rejects(() => chain.setPose(new Float32Array(6)), 'invalid-argument', /4 numbers/);
  rejects(() => chain.setPose(new Float32Array(20)), 'invalid-argument', /count must be 1\.\.4/);
  rejects(() => chain.setPose([0, 0, 0, 1, 0, 0, 0, 0]), 'invalid-argument', /joint 1/);
  rejects(() => chain.setPose([0, 0, 0, 1, 0, 0, 'a', 1]), 'invalid-argument', /localRotations\[6\]/);
  assert.equal(world.stateHash(), hash);
  chain.dispose();
  rejects(() => chain.setPose(pose), 'disposed');
  world.dispose();
});

test('setPhysicsWeight: 0 shows the animated pose exactly, a timed fade gets there without a jump; bad weights throw', () => {
  const world = wisp.createWorld({});
  const offsets = [[0, 0, 0], [0, -0.1, 0], [0, -0.1, 0], [0, -0.1, 0]];
  const chain = world.addChain({ position: [0, 1, 0], joints: offsets.map((position) => ({ position })), stiffness: 2, collide: false });
  const s = Math.sin(0.2), c = Math.cos(0.2);
  const pose = [0, 0, s, c, 0, 0, s, c, 0, 0, s, c, 0, 0, s, c];
  const want = forwardKinematics([0, 1, 0], offsets, pose);
  const gap = () => Math.max(...want.map((p, j) => Math.hypot(chain.positions[3 * j] - p.x, chain.positions[3 * j + 1] - p.y, chain.positions[3 * j + 2] - p.z)));
  for (let f = 0; f < 30; f++) { chain.setPose(pose); world.step(1 / 60); }
  assert.ok(gap() > 0.05, 'the simulated chain sags away from the curl');
  chain.setPhysicsWeight(0, 0.25);
  let previous = Array.from(chain.positions), jump = 0;
  for (let f = 0; f < 20; f++) {
    chain.setPose(pose);
    world.step(1 / 60);
    for (let i = 0; i < previous.length; i += 3) jump = Math.max(jump, Math.hypot(chain.positions[i] - previous[i], chain.positions[i + 1] - previous[i + 1], chain.positions[i + 2] - previous[i + 2]));
    previous = Array.from(chain.positions);
  }
  assert.equal(chain.stats().physicsWeight, 0);
  assert.ok(gap() < 1e-6, `weight 0: ${gap()} m from the animated pose`);
  assert.ok(jump < 0.03, `a frame of the fade moved a joint ${jump} m`);
  const hash = world.stateHash();
  rejects(() => chain.setPhysicsWeight(2), 'invalid-argument', /weight/);
  rejects(() => chain.setPhysicsWeight(0.5, -1), 'invalid-argument', /seconds/);
  rejects(() => chain.setPhysicsWeight('1'), 'invalid-argument', /weight must be a number/);
  assert.equal(world.stateHash(), hash);
  world.dispose();
});

test('backstop: a joint never goes behind the plane under its animated position; bad values throw and change nothing', () => {
  const world = wisp.createWorld({});
  const offsets = [[0, 0, 0], [0, -0.1, 0], [0, -0.1, 0], [0, -0.1, 0]];
  // the pose turns joint 0 a quarter turn about z: the bones point along +x; local +x of the parent frame is world up
  const s = Math.SQRT1_2, pose = [0, 0, s, s, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
  const make = (backstop) => world.addChain({
    position: [0, 1, 0], joints: offsets.map((position) => ({ position })), stiffness: 0.5, collide: false,
    backstop, backstopNormal: [1, 0, 0], backstopDistance: 0.01,
  });
  const held = make(true), free = make(false);
  let worstHeld = 1, worstFree = 1;
  for (let f = 0; f < 60; f++) {
    held.setPose(pose); free.setPose(pose);
    world.step(1 / 60);
    // the animated joints are at y = 1: the plane is 1 cm below them
    for (let j = 1; j < 4; j++) {
      worstHeld = Math.min(worstHeld, held.positions[3 * j + 1] - 1 + 0.01);
      worstFree = Math.min(worstFree, free.positions[3 * j + 1] - 1 + 0.01);
    }
  }
  assert.ok(worstHeld > -1e-5, `held: ${worstHeld} m behind the backstop`);
  assert.ok(worstFree < -0.05, `without it gravity takes the chain ${worstFree} m through`);
  assert.deepEqual(held.params.backstopNormal.map(Number), [1, 0, 0]);
  const hash = world.stateHash();
  rejects(() => held.set({ backstopDistance: -1 }), 'invalid-argument', /backstopDistance/);
  rejects(() => held.set({ backstopNormal: [0, 0, 0] }), 'invalid-argument', /backstopNormal/);
  rejects(() => held.set({ backstopRadius: NaN }), 'invalid-argument', /backstopRadius/);
  assert.equal(world.stateHash(), hash);
  world.dispose();
});

test('boost: stiffness x3 pulls toward the pose faster during its window, then the chain is the unboosted one; bad input throws and changes nothing', () => {
  const offsets = [[0, 0, 0], [0, -0.1, 0], [0, -0.1, 0], [0, -0.1, 0]];
  const sz = Math.sin(0.2), cz = Math.cos(0.2);
  const pose = [0, 0, sz, cz, 0, 0, sz, cz, 0, 0, sz, cz, 0, 0, sz, cz];
  const want = forwardKinematics([0, 1, 0], offsets, pose);
  const run = (boost) => {
    const world = wisp.createWorld({ gravity: [0, 0, 0] });
    const chain = world.addChain({ position: [0, 1, 0], joints: offsets.map((position) => ({ position })), stiffness: 10, collide: false });
    if (boost) chain.boost({ stiffness: 3 }, 0.5);
    for (let f = 0; f < 15; f++) { chain.setPose(pose); world.step(1 / 60); }
    const tip = Math.hypot(chain.positions[9] - want[3].x, chain.positions[10] - want[3].y, chain.positions[11] - want[3].z);
    world.dispose();
    return tip;
  };
  const plain = run(false), boosted = run(true);
  assert.ok(boosted < 0.7 * plain, `tip ${boosted} m off with the boost, ${plain} m without`);
  // a gravity boost on a chain without gravity changes nothing while it runs; gravity on after it faded: the same bits
  const faded = (boost, on = 30) => {
    const world = wisp.createWorld({ gravity: [6, -8, 0] });  // across the chain: straight down it would not move it
    const chain = world.addChain({ position: [0, 1, 0], joints: offsets.map((position) => ({ position })), gravityScale: 0 });
    if (boost) chain.boost({ gravity: 3 }, 0.3);
    for (let f = 0; f < 90; f++) { if (f === on) chain.set({ gravityScale: 1 }); world.step(1 / 60); }
    const out = { hash: world.stateHash(), positions: [...chain.positions] };
    world.dispose();
    return out;
  };
  assert.deepEqual(faded(true), faded(false));
  assert.notDeepEqual(faded(true, 6).positions, faded(false, 6).positions, 'while the boost runs it shows');
  const world = wisp.createWorld({});
  const chain = world.addChain({ position: [0, 1, 0], joints: offsets.map((position) => ({ position })) });
  chain.boost({ stiffness: 2 }, 1);
  const hash = world.stateHash();
  rejects(() => chain.boost({ stiffness: -1 }, 1), 'invalid-argument', /stiffness/);
  rejects(() => chain.boost({ drag: NaN }, 1), 'invalid-argument', /drag/);
  rejects(() => chain.boost({ gravity: 2 }, -1), 'invalid-argument', /seconds/);
  rejects(() => chain.boost({ stiff: 2 }, 1), 'invalid-argument', /stiff/);
  rejects(() => chain.boost(null, 1), 'invalid-argument', /multipliers/);
  assert.equal(world.stateHash(), hash);
  world.dispose();
});
