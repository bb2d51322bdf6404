// The JS API: errors are WispErrors with codes and messages, and a failed call changes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';


function scene(wisp) {
  const world = wisp.createWorld({ substeps: 8 });
  const rope = world.addRope({ start: [0, 1, 0], end: [1, 1, 0], segments: 10, pinned: [0] });
  const anchor = world.addAnchor([0, 2, 0]);
  const ball = world.addCollider({ type: 'sphere', radius: 0.2, position: [0.5, 0.5, 0] });
  world.step(1 / 60);
  return { world, rope, anchor, ball };
}

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: builds report what they are`, () => {
    assert.equal(wisp.threaded, name === 'threaded');
    assert.equal(wisp.simd, true);
    assert.equal(wisp.maxThreads, name === 'threaded' ? 4 : 1);
  });

  test(`${name}: a rope hangs and swings`, () => {
    const { world, rope } = scene(wisp);
    const tip0 = rope.positions[31];
    for (let i = 0; i < 60; i++) world.step(1 / 60);
    assert.equal(rope.positions.length, 33);
    assert.ok(rope.positions[31] < tip0 - 0.5, 'the tip fell');
    assert.deepEqual([...rope.positions.slice(0, 3)], [0, 1, 0], 'the pin held');
    world.dispose();
  });

  test(`${name}: bad numbers are rejected with the parameter's name and change nothing`, () => {
    const { world, rope, anchor, ball } = scene(wisp);
    const h = world.stateHash();
    const params = ['radius', 'stretchCompliance', 'bendCompliance', 'damping', 'drag', 'gravityScale', 'yieldRatio', 'plasticity'];
    for (const p of params) {
      for (const bad of [NaN, Infinity, -Infinity]) {
        rejects(() => rope.set({ [p]: bad }), 'invalid-argument', new RegExp(p));
        rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 4, [p]: bad }), 'invalid-argument', new RegExp(p));
      }
    }
    for (const bad of [NaN, Infinity]) {
      rejects(() => world.set({ gravity: [0, bad, 0] }), 'invalid-argument', /gravity/);
      rejects(() => world.set({ wind: { speed: bad } }), 'invalid-argument', /speed/);
      rejects(() => world.set({ wind: { turbulence: bad } }), 'invalid-argument', /turbulence/);
      rejects(() => world.set({ wind: { direction: [bad, 0, 0] } }), 'invalid-argument', /direction/);
      rejects(() => world.set({ fixedDt: bad }), 'invalid-argument', /fixedDt/);
      rejects(() => world.set({ maxFrameDt: bad }), 'invalid-argument', /maxFrameDt/);
      rejects(() => anchor.setPosition([bad, 0, 0]), 'invalid-argument', /anchor position/);
      rejects(() => anchor.teleport([0, bad, 0]), 'invalid-argument', /anchor position/);
      rejects(() => ball.setTransform([0, 0, bad]), 'invalid-argument', /position/);
      rejects(() => ball.setTransform([0, 0, 0], [0, 0, bad, 1]), 'invalid-argument', /rotation/);
      rejects(() => ball.setFriction(bad), 'invalid-argument', /friction/);
      rejects(() => rope.setVelocity(2, [bad, 0, 0]), 'invalid-argument', /velocity/);
      rejects(() => rope.teleport({ translation: [bad, 0, 0] }), 'invalid-argument', /translation/);
      rejects(() => world.addCollider({ type: 'capsule', radius: bad }), 'invalid-argument', /radius/);
      rejects(() => world.addCollider({ type: 'box', halfExtents: [1, bad, 1] }), 'invalid-argument', /halfExtents/);
      rejects(() => world.addRope({ start: [0, bad, 0], end: [1, 0, 0], segments: 3 }), 'invalid-argument', /start/);
      rejects(() => world.addRope({ points: [0, 0, 0, 1, bad, 0] }), 'invalid-argument', /points\[1\]/);
      rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 3, massPerLength: bad }), 'invalid-argument', /massPerLength/);
    }
    for (const segments of [0, -1, -5]) {
      rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments }), 'invalid-argument', /segments/);
    }
    rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 2.5 }), 'invalid-argument', /integer/);
    rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: '4' }), 'invalid-argument', /number/);
    rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segmnets: 4 }), 'invalid-argument', /segmnets is not a known option/);
    rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], grid: {} }), 'invalid-argument', /rope.grid is not a known option/);
    rejects(() => world.addCollider({ type: 'sphere', points: [] }), 'invalid-argument', /collider.points is not a known option/);
    rejects(() => world.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 4, pinned: [9] }), 'out-of-range', /pinned/);
    rejects(() => world.addCollider({ type: 'cone' }), 'invalid-argument', /collider.type/);
    rejects(() => world.set({ substeps: 0 }), 'invalid-argument', /substeps/);
    rejects(() => world.set({ iterations: -2 }), 'invalid-argument', /iterations/);
    rejects(() => rope.cut(10), 'out-of-range', /segment 10/);
    rejects(() => rope.cut(-1), 'out-of-range', /segment/);
    rejects(() => rope.pin(11, anchor), 'out-of-range', /particle 11/);
    rejects(() => rope.particle(-1), 'out-of-range', /particle/);
    assert.equal(world.stateHash(), h, 'nothing changed');
    assert.equal(world.stats().ropes, 1);
    world.step(1 / 60);  // and the world still works
    world.dispose();
  });

  test(`${name}: frame times of 0, -1 and NaN are errors and change nothing; 0.5 s and 10 s are clamped; rejectFrameDt is opt-in`, () => {
    const { world } = scene(wisp);
    world.step(0.004);
    const h = world.stateHash();
    for (const dt of [0, -1, NaN, Infinity]) rejects(() => world.step(dt), 'invalid-argument', /frameDt/);
    rejects(() => world.step('0.016'), 'invalid-argument', /dt must be a number/);
    assert.equal(world.stateHash(), h);
    assert.equal(world.step(0.5), 6);
    assert.ok(Math.abs(world.lastStep.droppedTime - 0.4) < 1e-12);
    assert.equal(world.step(10), 6, 'a background tab: clamped, not thrown');
    assert.ok(Math.abs(world.lastStep.droppedTime - 9.9) < 1e-12);
    world.set({ rejectFrameDt: 1 });
    const h2 = world.stateHash();
    rejects(() => world.step(10), 'invalid-argument', /rejectFrameDt/);
    assert.equal(world.stateHash(), h2);
    world.dispose();
  });

  test(`${name}: disposed, double-disposed and foreign objects throw; the module keeps working`, () => {
    const a = scene(wisp), b = scene(wisp);
    const r2 = a.world.addRope({ start: [0, 0, 1], end: [1, 0, 1], segments: 3 });
    r2.dispose();
    r2.dispose();  // a second dispose is a no-op
    rejects(() => r2.positions, 'disposed', /Rope has been disposed/);
    rejects(() => r2.set({ damping: 1 }), 'disposed');
    rejects(() => a.rope.pin(1, b.anchor), 'foreign-object', /another world/);
    rejects(() => a.rope.pin(1, {}), 'foreign-object');
    a.anchor.dispose();
    rejects(() => a.rope.pin(1, a.anchor), 'disposed', /Anchor has been disposed/);
    a.world.dispose();
    a.world.dispose();
    rejects(() => a.world.step(1 / 60), 'disposed', /World has been disposed/);
    rejects(() => a.rope.positions, 'disposed');
    rejects(() => a.ball.setTransform([0, 0, 0]), 'disposed');
    b.world.step(1 / 60);
    assert.equal(b.rope.positions.length, 33);
    b.world.dispose();
  });

  test(`${name}: cut makes two ropes and keeps every particle`, () => {
    const { world, rope } = scene(wisp);
    for (let i = 0; i < 10; i++) world.step(1 / 60);
    const before = Float32Array.from(rope.positions);
    const tail = rope.cut(4);
    assert.equal(rope.count, 5);
    assert.equal(tail.count, 6);
    assert.deepEqual([...rope.positions, ...tail.positions], [...before]);
    world.step(1 / 60);
    assert.equal(world.stats().particles, 11);
    world.dispose();
  });

  test(`${name}: collider matrices from three.js layout`, () => {
    const world = wisp.createWorld({ gravity: [0, 0, 0] });
    const box = world.addCollider({ type: 'box', halfExtents: [0.5, 0.5, 0.5] });
    // 90 degrees about Z, scaled by 2, at (1, 2, 3), column-major
    box.setMatrix([0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1], { teleport: true });
    const rope = world.addRope({ points: [1, 2.1, 3, 1, 3, 3] });
    world.step(1 / 60);
    // the particle inside the box near its centre is pushed out through the nearest face (+Y here)
    assert.ok(rope.positions[1] >= 2.5, `y = ${rope.positions[1]}`);
    world.dispose();
  });
}
