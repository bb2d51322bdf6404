// Memory: dispose returns everything; views follow memory growth.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './load.mjs';
import { selftest } from './selftest.mjs';

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: 10,000 create/dispose cycles return the heap to its baseline`, () => {
    const cycle = () => {
      const world = wisp.createWorld({ threads: name === 'threaded' ? 2 : 1 });
      const rope = world.addRope({ start: [0, 1, 0], end: [1, 1, 0], segments: 16, pinned: [0] });
      const anchor = world.addAnchor([0, 2, 0]);
      rope.pin(3, anchor);
      world.addCollider({ type: 'capsule', radius: 0.1, halfHeight: 0.2 });
      const tail = rope.cut(8);
      const chain = world.addChain({ points: [0, 2, 0, 0, 1.9, 0, 0, 1.8, 0], stiffnessCurve: [[0, 1], [1, 0.5]] });
      chain.setRoot([0.1, 2, 0]);
      world.step(1 / 60);
      chain.dispose();
      tail.dispose();
      world.dispose();
    };
    for (let i = 0; i < 50; i++) cycle();  // warm-up: the thread pool and allocator reach their size
    const baseline = wisp.heapUsed();
    for (let i = 0; i < 10000; i++) cycle();
    const after = wisp.heapUsed();
    assert.equal(after, baseline, `heap grew by ${after - baseline} bytes over 10,000 cycles`);
  });

  test(`${name}: position arrays survive WASM memory growth: the same array, current values`, () => {
    const world = wisp.createWorld();
    const rope = world.addRope({ start: [0, 1, 0], end: [1, 1, 0], segments: 8 });
    world.step(1 / 60);
    const view = rope.positions;
    const memory = wisp.module.HEAPU8.buffer;
    const expected = Float32Array.from(view);
    // grow the heap: big ropes until the memory object changes
    const big = [];
    for (let i = 0; i < 40 && wisp.module.HEAPU8.buffer === memory; i++) {
      big.push(world.addRope({ start: [0, 0, i], end: [1, 0, i], segments: 200000 }));
    }
    assert.notEqual(wisp.module.HEAPU8.buffer, memory, 'memory grew');
    assert.equal(rope.positions, view, 'the same array');
    assert.deepEqual([...view], [...expected], 'reading the same positions');
    world.step(1 / 60);
    assert.notDeepEqual([...view], [...expected], 'and it follows the simulation');
    world.dispose();
  });
}

test('threaded build: output arrays stay current when a worker thread grew the memory', () => {
  const wisp = selftest.threaded;  // growMemoryFromWorker: a test hook
  const world = wisp.createWorld({ threads: 2 });
  const chain = world.addChain({ points: [0, 2, 0, 0.1, 2, 0, 0.2, 2, 0, 0.3, 2, 0], stiffness: 0 });  // horizontal: it swings
  const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 4, resolutionY: 4 } });
  world.step(1 / 60);
  const before = [chain.positions, chain.localRotations, cloth.positions, cloth.normals];
  const values = before.map((v) => Float32Array.from(v));
  assert.equal(wisp.module.growMemoryFromWorker(64 * 1024 * 1024), true, 'a worker allocated 64 MB');
  const after = [chain.positions, chain.localRotations, cloth.positions, cloth.normals];
  after.forEach((v, i) => {
    assert.equal(v, before[i], `array ${i} is the same object after the growth`);
    assert.deepEqual([...v], [...values[i]], `array ${i} reads the same values`);
  });
  world.step(1 / 60);
  assert.notDeepEqual([...chain.positions], [...values[0]], 'and follows the simulation');
  wisp.module.releaseGrownMemory();
  world.dispose();
});
