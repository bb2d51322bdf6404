// The per-step state a worker world publishes for its ropes, cloths and chains, read in one call
// into WASM (World._objectStates, the binding's objectStates): each record holds what the
// per-object getters answer (enabled, sleeping, updates, the fields of stats() in its key order),
// the stride is what the larger stats struct needs, and a bad record fails with the World's
// error, leaving it and every record after it as they were.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';
import { memoryBuffer } from '../../wasm/js/views.js';

// A rope, a switched-off cloth, a chain that sleeps, a second chain: flags, updates and stats that differ.
function scene(world) {
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0], updateEvery: 2 });
  const cloth = world.addCloth({ grid: { width: 0.4, height: 0.4, resolutionX: 4, resolutionY: 4, position: [0, 2, 1] }, pinned: [0, 4] });
  const chain = world.addChain({ points: [0, 2, 2, 0.1, 1.9, 2, 0.2, 1.8, 2], sleepSpeed: 0.5, sleepTime: 0.05 });
  const chain2 = world.addChain({ points: [1, 2, 2, 1.1, 1.9, 2, 1.2, 1.8, 2, 1.3, 1.7, 2] });
  for (let k = 0; k < 40; k++) {
    if (k === 20) cloth.enabled = false;
    chain2.setRoot([1, 2, 2 + 0.05 * Math.sin(0.3 * k)]);
    world.step(1 / 60);
  }
  return [rope, cloth, chain, chain2];
}
// What the getters answer: [flags, updates, ...the values of stats() in its key order].
function expectedRecord(o) {
  return [(o.enabled ? 1 : 0) | (o.sleeping ? 2 : 0), o.updates, ...(o.stats ? Object.values(o.stats()).map(Number) : [])];
}
// Record i of the view, as long as the getters' answer for `o`.
const recordOf = (v, i, stride, o) => Array.from(v.subarray(i * stride, i * stride + expectedRecord(o).length));

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: _objectStates gives, per object in the list's order, the getters' flags, updates and stats() fields in their order`, () => {
    const world = wisp.createWorld({});
    const objects = scene(world);
    const [rope, cloth, chain] = objects;
    assert.equal(cloth.enabled, false);
    assert.equal(chain.sleeping, true, 'the scene has a sleeping chain');
    assert.notEqual(rope.updates, chain.updates);
    const stride = world._objectStateStride;
    assert.equal(stride, wisp.module.objectStateStride());
    assert.equal(stride, 2 + Math.max(Object.keys(cloth.stats()).length, Object.keys(chain.stats()).length), 'the larger stats struct sets the stride');
    const list = [chain, rope, objects[3], cloth, chain];  // any order, repeats allowed
    const v = world._objectStates(list);
    list.forEach((o, i) => assert.deepEqual(recordOf(v, i, stride, o), expectedRecord(o), `record ${i}`));
    // the same view, written again: the records follow the world
    world.step(1 / 60);
    assert.equal(world._objectStates(list), v);
    list.forEach((o, i) => assert.deepEqual(recordOf(v, i, stride, o), expectedRecord(o), `record ${i} after a step`));
    assert.doesNotThrow(() => world._objectStates([]), 'an empty list reads nothing');
    world.dispose();
  });

  test(`${name}: _objectStates checks its list before reading: a disposed object or an anchor throws`, () => {
    const world = wisp.createWorld({});
    const [rope, cloth] = scene(world);
    const anchor = world.addAnchor([0, 0, 0]);
    rejects(() => world._objectStates([rope, anchor]), 'foreign-object', /list\[1\]/);
    const other = wisp.createWorld({});
    rejects(() => world._objectStates([other.addRope({ start: [0, 0, 0], end: [1, 0, 0], segments: 2 })]), 'foreign-object');
    other.dispose();
    cloth.dispose();
    rejects(() => world._objectStates([rope, cloth]), 'disposed');
    world.dispose();
  });

  test(`${name}: objectStates (the binding): a stale id or a bad kind fails with the World's error; it and the records after it are not written`, () => {
    const world = wisp.createWorld({});
    const [rope, cloth, chain, chain2] = scene(world);
    const m = wisp.module, native = world._native, stride = m.objectStateStride();
    const staleId = chain2._id, chainKind = chain2._kindCode;
    chain2.dispose();
    const ptr = native.objectStatesBlock(5);
    assert.notEqual(ptr, 0);
    const block = () => new Float64Array(memoryBuffer(m), ptr, 5 * stride);
    const fill = (records) => {
      const v = block();
      v.fill(-7);  // beyond each record's [kind, id]: what must stay unless written
      records.forEach(([kind, id], i) => { v[i * stride] = kind; v[i * stride + 1] = id; });
      return Array.from(v);
    };
    const call = (n) => m._wisp_object_states(world._address, n);
    const ok = [[rope._kindCode, rope._id], [cloth._kindCode, cloth._id], [chain._kindCode, chain._id]];
    // all good: every record written, the fifth (beyond the count) not
    let before = fill([...ok, [rope._kindCode, rope._id]]);
    assert.equal(call(3), 0);
    let v = Array.from(block());
    [rope, cloth, chain].forEach((o, i) => {
      const n = expectedRecord(o).length;
      assert.deepEqual(v.slice(i * stride, i * stride + n), expectedRecord(o), `record ${i}`);
      assert.deepEqual(v.slice(i * stride + n, (i + 1) * stride), before.slice(i * stride + n, (i + 1) * stride), `record ${i}: nothing written past its fields`);
    });
    assert.deepEqual(v.slice(3 * stride), before.slice(3 * stride), 'nothing written past the count');
    // a stale id in the second record
    const cases = [
      ['a stale chain id', [chainKind, staleId], 'invalid-handle'],
      ['an id no cloth has', [cloth._kindCode, cloth._id + 1], 'invalid-handle'],
      ['no kind', [7, cloth._id], 'invalid-argument'],
      ['a kind that is not a number', [NaN, cloth._id], 'invalid-argument'],
      ['an id that is not an integer', [rope._kindCode, 0.5], 'invalid-handle'],
    ];
    const CODES = ['ok', 'invalid-argument', 'invalid-handle'];
    for (const [what, bad, code] of cases) {
      before = fill([ok[0], bad, ok[2], ok[1]]);
      const c = call(4);
      assert.equal(CODES[c], code, `${what}: ${native.lastError()}`);
      assert.equal(native.lastCode(), c, what);
      assert.ok(native.lastError().length > 0, what);
      v = Array.from(block());
      assert.deepEqual(v.slice(0, 2), expectedRecord(rope), `${what}: the record before it is written`);
      assert.deepEqual(v.slice(stride), before.slice(stride), `${what}: it and the records after it are as they were`);
    }
    // more records than the block holds: nothing read or written
    before = fill(ok);
    assert.equal(CODES[call(6)], 'invalid-argument');
    assert.match(native.lastError(), /6 objects/);
    assert.deepEqual(Array.from(block()), before);
    assert.equal(CODES[call(-1)], 'invalid-argument');
    assert.deepEqual(Array.from(block()), before);
    // and the World's next call reports its own state again
    assert.equal(call(3), 0);
    assert.equal(native.lastCode(), 0);
    assert.equal(native.objectStatesBlock(-1), 0, 'a negative count grows nothing');
    world.dispose();
  });
}
