// Chain links from JavaScript: the API shape, the links' effect, bad input, disposal.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './load.mjs';
import { WispError } from '../../wasm/js/index.js';

const wisp = builds.single;

// n chains of 5 joints hanging in a ring of radius 0.2 m around (0, 1, 0).
function ring(world, n, extra = {}) {
  return Array.from({ length: n }, (_, k) => {
    const a = (2 * Math.PI * k) / n, x = 0.2 * Math.sin(a), z = 0.2 * Math.cos(a);
    const points = [];
    for (let j = 0; j < 5; j++) points.push(x, 1 - 0.1 * j, z);
    return world.addChain({ position: [x, 1, z], points, collide: false, ...extra });
  });
}

test('addChainLinks: counts, pairs, rest lengths, set() and dispose()', () => {
  const world = wisp.createWorld({});
  const chains = ring(world, 6);
  const links = world.addChainLinks(chains, { loop: false, diagonals: false, compliance: 0, stretch: 0.1, collide: true, fromJoint: 1 });
  assert.equal(links.linkCount, 5 * 4);
  const pairs = links.pairs(), rest = links.restLengths();
  assert.ok(pairs instanceof Int32Array);
  assert.ok(rest instanceof Float32Array);
  assert.equal(pairs.length, 4 * links.linkCount);
  assert.equal(rest.length, links.linkCount);
  const side = 2 * 0.2 * Math.sin(Math.PI / 6);  // neighbours on the ring
  for (let i = 0; i < links.linkCount; i++) {
    assert.equal(pairs[4 * i + 2], pairs[4 * i] + 1);
    assert.equal(pairs[4 * i + 1], pairs[4 * i + 3]);
    assert.ok(Math.abs(rest[i] - side) < 1e-5, `rest ${rest[i]} vs ${side}`);
  }
  links.set({ compliance: 1e-4, loop: true });
  assert.equal(links.linkCount, 6 * 4);
  assert.deepEqual(links.params, { loop: true, diagonals: false, compliance: Math.fround(1e-4), stretch: Math.fround(0.1), collide: true, fromJoint: 1 });  // float32 in the core
  links.set({ diagonals: true });
  assert.equal(links.linkCount, 6 * (4 + 2 * 3));
  links.dispose();
  assert.ok(links.disposed);
  assert.throws(() => links.linkCount, WispError);
  for (let f = 0; f < 10; f++) world.step(1 / 60);
  world.dispose();
});

test('linked chains keep their spacing when pulled apart; unlinked ones do not', () => {
  const spread = (linked) => {
    const world = wisp.createWorld({});
    const chains = ring(world, 8, { stiffness: 0 });
    // pushed outward: each chain's joints accelerated away from the ring's axis
    chains.forEach((c, k) => {
      const a = (2 * Math.PI * k) / 8;
      c.set({ externalForce: [6 * Math.sin(a), 0, 6 * Math.cos(a)] });
    });
    if (linked) world.addChainLinks(chains, { loop: true });
    for (let f = 0; f < 180; f++) world.step(1 / 60);
    const p0 = chains[0].positions, p1 = chains[1].positions;
    const d = Math.hypot(p0[12] - p1[12], p0[13] - p1[13], p0[14] - p1[14]);
    world.dispose();
    return d / (2 * 0.2 * Math.sin(Math.PI / 8));
  };
  const linked = spread(true), alone = spread(false);
  assert.ok(linked < 1.1, `linked hem spacing ${linked} x rest`);
  assert.ok(alone > 1.5, `unlinked hem spacing ${alone} x rest`);
});

test('bad input throws a WispError naming the parameter and changes nothing', () => {
  const world = wisp.createWorld({});
  const chains = ring(world, 3);
  const vrm = world.addChain({ points: [2, 1, 0, 2, 0.9, 0], mode: 'vrm', damping: 0.4 });
  const hash = world.stateHash();
  const bad = (fn, re) => {
    assert.throws(fn, (e) => e instanceof WispError && re.test(e.message), String(re));
    assert.equal(world.stateHash(), hash);
  };
  bad(() => world.addChainLinks([chains[0]]), /at least 2 chains \(got 1\)/);
  bad(() => world.addChainLinks([chains[0], chains[0]]), /listed twice/);
  bad(() => world.addChainLinks([chains[0], vrm]), /Vrm mode/);
  bad(() => world.addChainLinks([chains[0], chains[1]], { compliance: NaN }), /compliance must be a finite number \(got nan\)/);
  bad(() => world.addChainLinks([chains[0], chains[1]], { compliance: -1 }), /compliance must be in \[0, 1000000\] \(got -1\)/);
  bad(() => world.addChainLinks([chains[0], chains[1]], { loop: 'yes' }), /loop/);
  bad(() => world.addChainLinks([chains[0], chains[1]], { wrong: 1 }), /wrong/);
  bad(() => world.addChainLinks([chains[0], {}]), /chains\[1\] must be a Chain/);
  bad(() => world.addChainLinks('chains'), /chains must be an array/);
  const other = wisp.createWorld({});
  const foreign = ring(other, 1)[0];
  bad(() => world.addChainLinks([chains[0], foreign]), /chains\[1\] must be a Chain of this world/);
  const gone = ring(world, 1)[0];
  gone.dispose();
  const hash2 = world.stateHash();
  assert.throws(() => world.addChainLinks([chains[0], gone]), /chains\[1\] has been disposed/);
  assert.equal(world.stateHash(), hash2);
  const links = world.addChainLinks(chains);
  assert.throws(() => links.set({ stretch: -1 }), /stretch must be in/);
  assert.throws(() => links.set({ fromJoint: 9 }), /fromJoint must be in \[0, 4\]/);
  assert.equal(links.params.stretch, Math.fround(0.1));
  assert.throws(() => world.addChainLinks([chains[1], chains[2]]), /already in chain links set/);
  other.dispose();
  world.dispose();
});

test('disposing a linked chain drops its links; the others stay linked and keep running', () => {
  const world = wisp.createWorld({});
  const chains = ring(world, 4);
  const links = world.addChainLinks(chains, { loop: true });
  assert.equal(links.linkCount, 16);
  chains[1].dispose();
  assert.equal(links.linkCount, 8);  // 2-3 and 3-0 remain
  for (const [a, , b] of [...Array(links.linkCount).keys()].map((i) => links.pairs().slice(4 * i, 4 * i + 4))) {
    assert.ok(a !== 1 && b !== 1);
  }
  for (let f = 0; f < 30; f++) world.step(1 / 60);
  assert.ok(Number.isFinite(chains[3].positions[14]));
  world.dispose();
});
