// Big worlds and discontinuities through the JS API: mirrored and non-uniformly scaled matrices,
// world.shiftOrigin, teleport and speed-cap events, background-tab frames.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';
import { poseFromMatrix } from '../../wasm/js/index.js';

// Column-major 4x4 (three.js Matrix4.elements): diagonal scale (sx, sy, sz), translation t.
const scaled = (sx, sy, sz, t = [0, 0, 0]) => [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0, t[0], t[1], t[2], 1];

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: a mirrored matrix is an error, never read as another pose; chain roots and colliders reject non-uniform scale`, () => {
    const world = wisp.createWorld({});
    const chain = world.addChain({ points: [0, 1, 0, 0, 0.9, 0, 0, 0.8, 0] });
    const ball = world.addCollider({ type: 'sphere', radius: 0.1 });
    const h = world.stateHash();
    // before: x = -1 was read as the identity
    rejects(() => chain.setRootMatrix(scaled(-1, 1, 1)), 'invalid-argument', /mirrored/);
    rejects(() => chain.setSpaceMatrix(scaled(1, 1, -1)), 'invalid-argument', /mirrored/);
    rejects(() => ball.setMatrix(scaled(1, -1, 1)), 'invalid-argument', /mirrored/);
    rejects(() => poseFromMatrix(scaled(-2, -2, -2)), 'invalid-argument', /mirrored/);
    rejects(() => chain.setRootMatrix(scaled(1, 2, 1)), 'invalid-argument', /chain\.setRootMatrix: matrix has a non-uniform scale \(1, 2, 1\)/);
    // before: the collider's scale was removed, non-uniform or not
    rejects(() => ball.setMatrix(scaled(1, 3, 1, [0, 0, 1])), 'invalid-argument', /collider\.setMatrix: matrix has a non-uniform scale \(1, 3, 1\)/);
    rejects(() => ball.setMatrix(scaled(1e5, 1e5, 1e5)), 'invalid-argument', /collider scale/);
    assert.equal(world.stateHash(), h, 'a rejected call changes nothing');
    chain.setRootMatrix(scaled(2, 2, 2, [0, 1, 0]));
    ball.setMatrix(scaled(3, 3, 3, [0, 0, 1]), { teleport: true });
    // a half turn about Y (det +1) is a rotation, not a mirror
    assert.deepEqual(poseFromMatrix(scaled(-1, 1, -1)).rotation.map((v) => Math.abs(v)), [0, 1, 0, 0]);
    world.step(1 / 60);
    world.dispose();
  });

  test(`${name}: shiftOrigin re-expresses the world near the new origin; the motion goes on`, () => {
    const far = [10000, 0, 10000];
    const make = (o) => {
      const world = wisp.createWorld({});
      const hand = world.addAnchor([o[0], o[1] + 2, o[2]]);
      const rope = world.addRope({ start: [o[0], o[1] + 2, o[2]], end: [o[0] + 1, o[1] + 2, o[2]], segments: 16 });
      rope.pin(0, hand);
      return { world, hand, rope };
    };
    const home = make([0, 0, 0]);
    const away = make(far);
    away.world.shiftOrigin(far);
    for (let f = 0; f < 120; f++) {
      const x = 0.25 * (f % 16) / 16;
      home.hand.setPosition([x, 2, 0]);
      away.hand.setPosition([x, 2, 0]);
      home.world.step(1 / 60);
      away.world.step(1 / 60);
    }
    assert.deepEqual([...away.rope.positions], [...home.rope.positions]);
    assert.equal(away.world.stateHash(), home.world.stateHash());
    assert.deepEqual(away.hand.position, home.hand.position);
    const h = away.world.stateHash();
    rejects(() => away.world.shiftOrigin([NaN, 0, 0]), 'invalid-argument', /shiftOrigin/);
    assert.equal(away.world.stateHash(), h);
    home.world.dispose();
    away.world.dispose();
  });

  test(`${name}: a rope, cape and chain 10 and 100 km out simulate as at the origin, without shiftOrigin`, () => {
    const make = (o) => {
      const at = (x, y, z) => [o[0] + x, o[1] + y, o[2] + z];
      const world = wisp.createWorld({});
      const hand = world.addAnchor(at(0, 2, 0));
      const hold = world.addAnchor(at(0.75, 2, 0));
      const rope = world.addRope({ start: at(0, 2, 0), end: at(1, 2, 0), segments: 16 });
      rope.pin(0, hand);
      rope.pin(16, hold);
      const cape = world.addCloth({ grid: { width: 0.5, height: 0.75, resolutionX: 8, resolutionY: 12, position: at(2, 1.5, 0) }, pinned: [0, 8] });
      world.addCollider({ type: 'sphere', radius: 0.25, position: at(2.25, 1, 0.25) });
      const chain = world.addChain({ position: at(-2, 2, 0), points: [...at(-2, 2, 0), ...at(-1.75, 2, 0), ...at(-1.5, 2, 0), ...at(-1.25, 2, 0)] });
      world.addCollider({ type: 'capsule', radius: 0.05, halfHeight: 0.25, position: at(-1.5, 1.75, 0), rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] });
      const drive = (f) => {
        const sway = 0.25 * (f % 16) / 16;  // dyadic: the same floats near and far
        hand.setPosition(at(sway, 2, 0));
        chain.setRoot(at(-2, 2 + 0.5 * sway, 0));
      };
      return { world, rope, cape, chain, drive };
    };
    for (const far of [[10000, 0, 10000], [100000, 0, 0]]) {
      const away = make(far);
      const check = make([0, 0, 0]);
      let differ = 0;
      for (let f = 0; f < 120; f++) {
        check.drive(f);
        away.drive(f);
        check.world.step(1 / 60);
        away.world.step(1 / 60);
        for (const k of ['rope', 'cape', 'chain']) {
          const p = check[k].positions, q = away[k].positions;
          for (let i = 0; i < p.length; i++) if (q[i] !== Math.fround(p[i] + far[i % 3])) differ++;
        }
      }
      // before: 10 km out the scene ended ~0.2 m off
      assert.equal(differ, 0, `${differ} output floats differ from the origin scene's moved out to ${far}`);
      away.world.shiftOrigin(far);
      assert.equal(away.world.stateHash(), check.world.stateHash());
      away.world.dispose();
      check.world.dispose();
    }
  });

  test(`${name}: an anchor jump is a teleport event, a 10 s frame is clamped, maxSpeed caps and reports`, () => {
    const world = wisp.createWorld({});
    const hand = world.addAnchor([0, 2, 0]);
    const rope = world.addRope({ start: [0, 2, 0], end: [0, 1, 0], segments: 20 });
    rope.pin(0, hand);
    for (let i = 0; i < 60; i++) world.step(1 / 60);
    hand.setPosition([100, 2, 0]);
    world.step(1 / 60);
    const ev = world.events();
    assert.equal(ev.length, 1);
    assert.equal(ev[0].type, 'teleport');
    assert.equal(ev[0].object, rope);
    const fastest = () => Math.max(...Array.from({ length: rope.count }, (_, i) => Math.hypot(...rope.particle(i).velocity)));
    assert.ok(fastest() < 0.05, `at rest after the jump (${fastest()} m/s; before: 6,000 m/s)`);
    assert.equal(world.step(10), 6, 'a background tab: clamped, not thrown');
    assert.ok(fastest() < 0.05);
    rope.set({ teleportDistance: 0, teleportAngle: 0, maxSpeed: 5 });
    assert.equal(rope.params.maxSpeed, 5);
    hand.setPosition([105, 2, 0]);
    world.step(1 / 60);
    assert.equal(world.events()[0].type, 'speed-clamped');
    assert.ok(fastest() <= 5 * (1 + 1e-6));
    // anchor.teleport and rope.teleport commute
    const a = [], b = [];
    for (const [out, anchorFirst] of [[a, true], [b, false]]) {
      const w = wisp.createWorld({});
      const h2 = w.addAnchor([0, 2, 0]);
      const r = w.addRope({ start: [0, 2, 0], end: [0, 1, 0], segments: 20 });
      r.pin(0, h2);
      w.step(1 / 60);
      if (anchorFirst) { h2.teleport([30, 2, 0]); r.teleport({ translation: [30, 0, 0] }); }
      else { r.teleport({ translation: [30, 0, 0] }); h2.teleport([30, 2, 0]); }
      w.step(1 / 60);
      out.push(w.stateHash());
      w.dispose();
    }
    assert.deepEqual(a, b);
    world.dispose();
  });
}

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: a chain and its colliders on uniformly scaled matrices are the unscaled scene scaled`, () => {
    // a rotated matrix with uniform scale s and translation t (column-major)
    const turned = (s, a, t) => {
      const c = Math.cos(a) * s, n = Math.sin(a) * s;
      return [c, n, 0, 0, -n, c, 0, 0, 0, 0, s, 0, t[0] * s, t[1] * s, t[2] * s, 1];
    };
    const run = (s) => {
      const world = wisp.createWorld({});
      const chain = world.addChain({ points: [0, 0, 0, 0, -0.1, 0, 0, -0.2, 0, 0, -0.3, 0], stiffness: 2 });
      // colliders made at their unscaled sizes, given the scene's scale by their matrices
      const ball = world.addCollider({ type: 'sphere', radius: 0.08 });
      const rod = world.addCollider({ type: 'capsule', radius: 0.03, halfHeight: 0.1 });
      const block = world.addCollider({ type: 'box', halfExtents: [0.05, 0.05, 0.05] });
      for (let f = 0; f < 120; f++) {
        const t = f / 60;
        chain.setRootMatrix(scaled(s, s, s, [0.1 * s * Math.sin(3 * t), 0, 0.1 * s * Math.cos(3 * t) - 0.1 * s]));
        ball.setMatrix(turned(s, 0, [0.12, -0.25, 0.02]));
        rod.setMatrix(turned(s, 1.2, [-0.1, -0.2, -0.05]));
        block.setMatrix(turned(s, 0.3, [0.02, -0.3, -0.14]));
        world.step(1 / 60);
      }
      const p = [...chain.positions].map((v) => v / s);
      world.dispose();
      return p;
    };
    const unit = run(1);
    for (const s of [0.01, 100]) {
      const p = run(s);
      const worst = Math.max(...unit.map((v, i) => Math.abs(v - p[i])));
      assert.ok(worst < 0.01 * 0.3, `scale ${s}: ${worst} m off (before: the root's scale was dropped, then the colliders' scale)`);
    }
  });
}
