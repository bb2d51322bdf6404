// Cloth through the JS API: grid and mesh builders, zero-copy views, stats, errors, both builds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';


// two quads as a three.js PlaneGeometry would give them, but with the middle column duplicated
function splitPlane() {
  return {
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, -1, 0, 1, -1, 0, 1, 0, 0, 2, 0, 0, 1, -1, 0, 2, -1, 0]),
    indices: new Uint32Array([0, 2, 1, 2, 3, 1, 4, 6, 5, 6, 7, 5]),
  };
}

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: a grid cloth hangs from its pinned row with zero-copy positions and normals`, () => {
    const world = wisp.createWorld({ substeps: 16 });
    const cloth = world.addCloth({ grid: { width: 1, height: 1, resolutionX: 10, resolutionY: 10, position: [-0.5, 2, 0] }, pinned: [...Array(11).keys()] });
    assert.equal(cloth.count, 121);
    assert.equal(cloth.indices.length, 600);
    for (let i = 0; i < 120; i++) world.step(1 / 60);
    const p = cloth.positions, n = cloth.normals;
    assert.equal(p.length, 363);
    assert.equal(n.length, 363);
    for (let i = 0; i < 121; i++) assert.ok(Math.abs(Math.hypot(n[3 * i], n[3 * i + 1], n[3 * i + 2]) - 1) < 1e-5);
    assert.deepEqual([p[0], p[1], p[2]], [-0.5, 2, 0], 'pinned corner exact');
    assert.ok(p[3 * 120 + 1] < 1.02 && p[3 * 120 + 1] > 0.97, `bottom corner at y = ${p[3 * 120 + 1]}`);
    const s = cloth.stats();
    assert.ok(s.maxStrain < 0.01, `strain ${s.maxStrain}`);
    assert.equal(s.stretchConstraints, 220);
    assert.equal(s.shearConstraints, 200);
    assert.equal(world.stats().cloths, 1);
    world.dispose();
  });

  test(`${name}: a mesh cloth welds duplicate vertices and maps them`, () => {
    const world = wisp.createWorld();
    const cloth = world.addCloth({ mesh: splitPlane(), pinned: [0] });
    assert.equal(cloth.count, 6);
    assert.deepEqual([...cloth.vertexMap], [0, 1, 2, 3, 1, 4, 3, 5]);
    assert.equal(cloth.stats().bendConstraints, 3);
    world.step(1 / 60);
    world.dispose();
  });

  test(`${name}: bad cloth input is rejected and changes nothing`, () => {
    const world = wisp.createWorld();
    const cloth = world.addCloth({ grid: { width: 1, height: 1, resolutionX: 4, resolutionY: 4 } });
    const h = world.stateHash();
    const mesh = splitPlane();
    rejects(() => world.addCloth({ mesh: { positions: mesh.positions, indices: [0, 1, 99] } }), 'out-of-range', /indices\[2\]/);
    rejects(() => world.addCloth({ mesh: { positions: mesh.positions, indices: [0, 1, -1] } }), 'out-of-range', /indices\[2\]/);
    rejects(() => world.addCloth({ mesh: { positions: [0, 0, 0, 1, 0, 0, 2, 0, 0], indices: [0, 1, 2] } }), 'invalid-argument', /zero area/);
    rejects(() => world.addCloth({ mesh: { positions: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 1] } }), 'invalid-argument', /degenerate/);
    rejects(() => world.addCloth({ mesh: { positions: [0, 0, 0, 1, NaN, 0, 0, 1, 0], indices: [0, 1, 2] } }), 'invalid-argument', /positions\[1\]/);
    rejects(() => world.addCloth({ mesh: { positions: [0, 0, 0, 1, 0], indices: [0, 1, 2] } }), 'invalid-argument', /triples/);
    rejects(() => world.addCloth({ grid: { width: 1, height: 1, resolutionX: 0, resolutionY: 4 } }), 'invalid-argument', /resolutionX/);
    rejects(() => world.addCloth({ grid: { width: NaN, height: 1 } }), 'invalid-argument', /width/);
    rejects(() => world.addCloth({ grid: {}, mesh: mesh }), 'invalid-argument', /exactly one of grid or mesh/);
    rejects(() => world.addCloth({}), 'invalid-argument', /exactly one of grid or mesh/);
    for (const p of ['radius', 'stretchCompliance', 'shearCompliance', 'bendCompliance', 'damping', 'dragCoefficient', 'liftCoefficient', 'airDensity', 'tetherSlack']) {
      rejects(() => cloth.set({ [p]: NaN }), 'invalid-argument', new RegExp(p));
      rejects(() => world.addCloth({ grid: { width: 1, height: 1 }, [p]: Infinity }), 'invalid-argument', new RegExp(p));
    }
    rejects(() => cloth.set({ bendCompliance: 0 }), 'invalid-argument', /bendCompliance/);
    rejects(() => cloth.pin(25, world.addAnchor()), 'out-of-range', /particle 25/);
    assert.equal(world.stats().cloths, 1);
    cloth.dispose();
    rejects(() => cloth.positions, 'disposed');
    world.dispose();
    assert.notEqual(h, '');
  });

  test(`${name}: 2,000 cloth create/dispose cycles return the heap to its baseline`, () => {
    const cycle = () => {
      const world = wisp.createWorld();
      const cloth = world.addCloth({ mesh: splitPlane(), pinned: [0, 1] });
      cloth.normals;
      world.step(1 / 60);
      cloth.dispose();
      world.addCloth({ grid: { width: 1, height: 1, resolutionX: 6, resolutionY: 6 }, pinned: [0] });
      world.dispose();
    };
    for (let i = 0; i < 20; i++) cycle();
    const baseline = wisp.heapUsed();
    for (let i = 0; i < 2000; i++) cycle();
    assert.equal(wisp.heapUsed(), baseline);
  });
}

test('cloth gives the same hash on the threaded build (1-4 threads) and the single-threaded build', () => {
  const run = (wisp, threads) => {
    const world = wisp.createWorld({ threads, wind: { direction: [1, 0, 0.3], speed: 6, turbulence: 0.5, seed: 3 } });
    world.addCollider({ type: 'sphere', radius: 0.3, position: [0, 1, 0.3] });
    world.addCloth({ grid: { width: 2, height: 2, resolutionX: 72, resolutionY: 72, position: [-1, 2, 0] }, pinned: [0, 72] });
    for (let k = 0; k < 4; k++) world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 8, resolutionY: 8, position: [k, 2, 1] }, pinned: [0] });
    for (let f = 0; f < 30; f++) world.step(1 / 60);
    const h = world.stateHash();
    world.dispose();
    return h;
  };
  const reference = run(builds.single, 1);
  for (const t of [1, 2, 4]) assert.equal(run(builds.threaded, t), reference, `${t} threads`);
});

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: snapshots (binary and JSON) restore a rope + cloth world bit for bit`, () => {
    const world = wisp.createWorld({ wind: { direction: [1, 0, 0], speed: 5, turbulence: 0.5, seed: 2 } });
    const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 12, pinned: [0] });
    const cloth = world.addCloth({ grid: { width: 1, height: 1, resolutionX: 10, resolutionY: 10, position: [0, 2, 1] }, pinned: [0, 10] });
    const hand = world.addAnchor([0, 2, 0]);
    rope.pin(0, hand);
    const move = (f) => hand.setPosition([0.02 * (f % 30), 2, 0]);
    for (let f = 0; f < 40; f++) { move(f); world.step(1 / 50); }
    const bytes = world.saveSnapshot();
    const json = world.saveSnapshotJson();
    assert.ok(bytes instanceof Uint8Array && bytes.length > 1000);
    assert.equal(JSON.parse(json).format, 'wisp-snapshot');
    for (let f = 40; f < 90; f++) { move(f); world.step(1 / 50); }
    const expected = world.stateHash();
    for (const load of [() => world.loadSnapshot(bytes), () => world.loadSnapshotJson(json)]) {
      load();
      for (let f = 40; f < 90; f++) { move(f); world.step(1 / 50); }
      assert.equal(world.stateHash(), expected);
      assert.equal(cloth.positions.length, 363);
    }
    rejects(() => world.loadSnapshot(bytes.slice(0, 100)), 'invalid-argument', /snapshot rejected/);
    rejects(() => world.loadSnapshotJson('{"format":"x"}'), 'invalid-argument', /not a Wisp JSON snapshot/);
    rejects(() => world.loadSnapshot('nope'), 'invalid-argument', /Uint8Array/);
    assert.equal(world.stateHash(), expected);
    world.dispose();
  });
}

test('wind zones through the JS API', () => {
  const world = builds.single.createWorld();
  const zone = world.addWindZone({ shape: 'sphere', position: [0, 1, 0], radius: 2, falloff: 0.25, wind: { direction: [0, 0, 1], speed: 4 } });
  assert.deepEqual(world.airVelocityAt([0, 1, 0]), [0, 0, 4]);
  assert.ok(Math.abs(world.airVelocityAt([1.8, 1, 0])[2] - 1.6) < 1e-5);
  zone.set({ shape: 'box', position: [0, 1, 0], halfExtents: [1, 1, 1], falloff: 0, wind: { direction: [1, 0, 0], speed: 2 } });
  assert.deepEqual(world.airVelocityAt([0.9, 1.9, 0]), [2, 0, 0]);
  rejects(() => world.addWindZone({ shape: 'cone' }), 'invalid-argument', /shape/);
  rejects(() => world.addWindZone({ shape: 'sphere', radius: NaN }), 'invalid-argument', /radius/);
  rejects(() => zone.set({ shape: 'sphere', falloff: 3 }), 'invalid-argument', /falloff/);
  zone.dispose();
  assert.deepEqual(world.airVelocityAt([0, 1, 0]), [0, 0, 0]);
  rejects(() => zone.set({ shape: 'sphere' }), 'disposed');
  world.dispose();
});

test('pins with a maximum distance through the JS API', () => {
  const world = builds.threaded.createWorld();
  const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 4, resolutionY: 4, position: [0, 2, 0] } });
  const bone = world.addAnchor([0.125, 2, 0]);
  cloth.pin(1, bone, { maxDistance: 0.1 });
  cloth.pin(0, world.addAnchor([0, 2, 0]));
  for (let f = 0; f < 60; f++) world.step(1 / 60);
  const p = cloth.positions;
  const gap = Math.hypot(p[3] - 0.125, p[4] - 2, p[5]);
  assert.ok(gap <= 0.1 * 1.0001 && gap > 0.01, `gap ${gap}`);
  assert.ok(cloth.particle(1).invMass > 0);
  rejects(() => cloth.pin(2, bone, { maxDistance: -1 }), 'invalid-argument', /maxDistance/);
  world.dispose();
});
