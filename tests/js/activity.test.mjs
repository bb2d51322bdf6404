// Switching objects off, sleep and update rates from JavaScript: a switched-off rope keeps its
// state and is not simulated, switched on again far from where it was it starts at rest on its
// anchor, a settled rope sleeps and wakes with events, and bad input throws and changes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';
import { selftest } from './selftest.mjs';

const fastest = (o) => {
  let v = 0;
  for (let i = 0; i < o.count; i++) v = Math.max(v, Math.hypot(...o.particle(i).velocity));
  return v;
};

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: enabled = false skips the rope and keeps its state; true again starts at rest on the moved anchor`, () => {
    const world = wisp.createWorld({});
    const anchor = world.addAnchor([0, 2, 0]);
    const rope = world.addRope({ start: [0, 2, 0], end: [0, 1, 0], segments: 10 });
    rope.pin(0, anchor);
    const chain = world.addChain({ points: [3, 2, 0, 3, 1.9, 0, 3, 1.8, 0] });
    for (let i = 0; i < 20; i++) world.step(1 / 60);
    assert.equal(rope.enabled, true);
    assert.equal(rope.updates, 20);
    rope.enabled = false;
    chain.setEnabled(false);
    const before = Float32Array.from(rope.positions);
    for (let i = 1; i <= 100; i++) {
      anchor.setPosition([0.05 * i, 2, 0]);
      chain.setRoot([3, 2, 0.05 * i]);
      world.step(1 / 60);
    }
    assert.deepEqual(Float32Array.from(rope.positions), before, 'bit for bit');
    assert.equal(rope.updates, 20, 'not simulated');
    assert.equal(rope.enabled, false);
    rope.enabled = true;
    chain.enabled = true;
    world.step(1 / 60);
    assert.ok(fastest(rope) < 0.1, `rope: ${fastest(rope)} m/s`);
    assert.ok(fastest(chain) < 0.1, `chain: ${fastest(chain)} m/s`);
    assert.ok(Math.abs(rope.positions[0] - 5) < 1e-5 && Math.abs(rope.positions[1] - 2) < 1e-5);
    assert.ok(Math.abs(chain.positions[2] - 5) < 1e-4);
    rejects(() => { rope.enabled = 'yes'; }, 'invalid-argument', /enabled must be true or false/);
    assert.equal(rope.enabled, true);
    world.dispose();
  });

  test(`${name}: a settled rope sleeps ('sleep' event) and wakes on the step its anchor moves ('wake' event)`, () => {
    const world = wisp.createWorld({});
    const anchor = world.addAnchor([0, 2, 0]);
    const rope = world.addRope({ start: [0, 2, 0], end: [0, 1, 0], segments: 10, sleepSpeed: 0.001, sleepTime: 1 });
    rope.pin(0, anchor);
    let slept = null;
    for (let i = 0; i < 1200 && !slept; i++) {
      world.step(1 / 60);
      slept = world.events().find((e) => e.type === 'sleep') ?? null;
    }
    assert.ok(slept, 'fell asleep within 20 s');
    assert.equal(slept.object, rope);
    assert.equal(rope.sleeping, true);
    const updates = rope.updates;
    world.step(1 / 60);
    assert.equal(rope.updates, updates, 'asleep: not simulated');
    anchor.setPosition([0.1, 2, 0]);
    world.step(1 / 60);
    assert.equal(rope.sleeping, false);
    assert.equal(rope.updates, updates + 1);
    const woke = world.events().find((e) => e.type === 'wake');
    assert.ok(woke && woke.object === rope && /anchors moved/.test(woke.message), JSON.stringify(woke?.message));
    rejects(() => rope.set({ updateEvery: 0 }), 'invalid-argument', /RopeParams.updateEvery/);
    assert.equal(rope.params.updateEvery, 1);
    world.dispose();
  });

  test(`${name}: object kinds are the core's codes; an unknown code is an error, not a chain`, () => {
    // the self-test build: the same bindings plus injectFault, to make a chain report an event
    const world = selftest[name].createWorld({});
    const kinds = selftest[name].module.ObjectKind;
    assert.deepEqual([kinds.rope.value, kinds.cloth.value, kinds.chain.value], [0, 1, 2], 'the snapshot and events use these');
    const chain = world.addChain({ points: [0, 2, 0, 0, 1.9, 0, 0, 1.8, 0] });
    assert.notEqual(world._native.setEnabled(7, chain._id, false), 0);
    assert.match(world._native.lastError(), /object kind 7 is not a kind of this build/);
    assert.equal(chain.enabled, true, 'changed nothing');
    world.injectFault(chain, 1);
    world.step(1 / 60);
    assert.deepEqual(world.events().map((e) => [e.type, e.kind, e.object === chain]), [['reset', 'chain', true]]);
    world.dispose();
  });
}
