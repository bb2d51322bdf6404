// Same scene, same bits: both builds, every thread count.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './load.mjs';

function run(wisp, threads, frames = 240) {
  const world = wisp.createWorld({ threads, substeps: 8, wind: { direction: [1, 0, 0.3], speed: 4, turbulence: 0.8, turbulenceScale: 1.5, seed: 7 } });
  world.addCollider({ type: 'plane', position: [0, -2, 0] });
  const ball = world.addCollider({ type: 'sphere', radius: 0.3, position: [0.5, -0.8, 0] });
  world.addCollider({ type: 'box', halfExtents: [0.3, 0.2, 0.3], position: [1.5, -1.5, 0] });
  const mover = world.addAnchor([-1, 1, 0]);
  for (let k = 0; k < 12; k++) {
    const rope = world.addRope({ start: [-1 + 0.05 * k, 1, 0.1 * k - 0.6], end: [1, 1, 0.1 * k - 0.6], segments: 24 + k, bending: k % 2 === 0, radius: 0.02 });
    rope.pin(0, mover);
  }
  world.addRope({ start: [-2, 0.5, 1], end: [4, 0.5, 1], segments: 6000, pinned: [0] });  // the chunked parallel path
  for (let f = 0; f < frames; f++) {
    const u = (f % 120) / 60, tri = u < 1 ? u : 2 - u;
    mover.setPosition([-1 + 0.8 * tri, 1 + 0.2 * tri, 0]);
    ball.setTransform([0.5, -0.8 + 0.3 * tri, 0]);
    world.step(f % 3 === 0 ? 1 / 144 : 1 / 40);
  }
  const hash = world.stateHash();
  world.dispose();
  return hash;
}

test('two runs give the same hash', () => {
  assert.equal(run(builds.single, 1, 60), run(builds.single, 1, 60));
});

test('threaded build with 1, 2, 3, 4 threads equals the single-threaded build', () => {
  const reference = run(builds.single, 1);
  for (const t of [1, 2, 3, 4]) assert.equal(run(builds.threaded, t), reference, `${t} threads`);
});
