// The JS boundary under game conditions: output arrays die with their object, running out of
// WASM memory is an error the module survives, and a restored snapshot hands out handles.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';

function scene(world) {
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 4, resolutionY: 4, position: [0, 2, 1] }, pinned: [0, 4] });
  const chain = world.addChain({ points: [0, 2, 2, 0.1, 2, 2, 0.2, 2, 2], stiffness: 0 });
  world.step(1 / 60);
  const views = {
    'rope.positions': rope.positions, 'cloth.positions': cloth.positions, 'cloth.normals': cloth.normals,
    'chain.positions': chain.positions, 'chain.rotations': chain.rotations, 'chain.localRotations': chain.localRotations,
  };
  return { rope, cloth, chain, views };
}

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: output arrays obtained before dispose() read nothing afterwards`, () => {
    // object dispose
    const world = wisp.createWorld();
    const { rope, cloth, chain, views } = scene(world);
    for (const [k, v] of Object.entries(views)) assert.ok(v.length > 0, `${k} has data while alive`);
    rope.dispose(); cloth.dispose(); chain.dispose();
    // the freed memory is reused by new objects of the same sizes...
    scene(world);
    world.step(1 / 60);
    for (const [k, v] of Object.entries(views)) {
      assert.equal(v.length, 0, `${k} is detached after its object's dispose()`);
      assert.equal(v[0], undefined, `${k} reads nothing`);
    }
    // world dispose
    const { views: alive } = scene(world);
    world.dispose();
    for (const [k, v] of Object.entries(alive)) assert.equal(v.length, 0, `${k} is detached after the world's dispose()`);
  });

  test(`${name}: output arrays stay the same object, current after every step and teleport`, () => {
    const world = wisp.createWorld();
    const { rope, chain, views } = scene(world);
    const p = rope.positions, before = Float32Array.from(p);
    world.step(1 / 60);
    assert.equal(rope.positions, p, 'the same array');
    assert.notDeepEqual([...p], [...before], 'refreshed by the step');
    rope.teleport({ translation: [0, 0, 5] });
    assert.equal(p[5], rope.particle(1).position[2], 'refreshed by teleport');
    chain.teleport([0, 3, 2]);
    assert.equal(chain.positions[1], chain.particle(0).position[1], 'chain refreshed by teleport');
    const tail = rope.cut(3);
    assert.equal(p.length, 0, 'a cut replaces the array of the rope that was cut');
    assert.equal(rope.positions.length, 3 * 4);
    assert.equal(tail.positions.length, 3 * 5);
    assert.ok(views['chain.positions'].length > 0);
    world.dispose();
  });

  test(`${name}: running out of WASM memory throws out-of-memory, changes nothing, and the module keeps working`, () => {
    const world = wisp.createWorld({ threads: name === 'threaded' ? 2 : 1 });
    const small = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
    world.step(1 / 60);
    const big = [];
    let error = null;
    // about 120 MB each: the 2 GiB heap runs out after some 16
    for (let i = 0; i < 40 && !error; i++) {
      const heap = wisp.heapUsed(), hash = world.stateHash(), count = world.stats().ropes;
      try {
        big.push(world.addRope({ start: [0, 0, i], end: [1000, 0, i], segments: 1000000 }));
      } catch (e) {
        error = e;
        assert.equal(e.name, 'WispError', `a WispError, not ${e}`);
        assert.equal(e.code, 'out-of-memory', e.message);
        assert.match(e.message, /rope/);
        // (up to the error message, which the binding keeps for lastError())
        assert.ok(wisp.heapUsed() - heap <= e.message.length + 64, `the failed call freed what it took (${wisp.heapUsed() - heap} bytes more)`);
        assert.equal(world.stateHash(), hash, 'and changed nothing');
        assert.equal(world.stats().ropes, count);
      }
    }
    assert.ok(error, 'the heap ran out');
    assert.ok(big.length >= 4, `several big ropes fit first (${big.length})`);
    // the module keeps working: a cloth that cannot fit is refused as well, the world steps on
    rejects(() => world.addCloth({ grid: { width: 1, height: 1, resolutionX: 1024, resolutionY: 1024 } }), 'out-of-memory', /cloth/);
    world.step(1 / 60);
    for (const r of big) r.dispose();
    const again = world.addRope({ start: [0, 1, 0], end: [1000, 1, 0], segments: 1000000 });
    assert.equal(again.count, 1000001, 'after freeing, big objects fit again');
    world.step(1 / 60);
    assert.ok(Number.isFinite(small.positions[4]));
    world.dispose();
    const fresh = wisp.createWorld();
    fresh.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8 });
    fresh.step(1 / 60);
    fresh.dispose();
  });

  test(`${name}: after loadSnapshot into a fresh world, objects() hands out handles that drive the restored scene`, () => {
    const build = (world) => {
      const hand = world.addAnchor([0, 2, 0]);
      const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8 });
      rope.pin(0, hand);
      const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 4, resolutionY: 4, position: [0, 2, 1] }, pinned: [0, 4] });
      const chain = world.addChain({ points: [0, 2, 2, 0, 1.9, 2, 0, 1.8, 2] });
      const ball = world.addCollider({ type: 'capsule', radius: 0.1, halfHeight: 0.2, position: [0.5, 1.7, 0] });
      const zone = world.addWindZone({ shape: 'sphere', radius: 1, wind: { direction: [1, 0, 0], speed: 2 } });
      return { hand, rope, cloth, chain, ball, zone };
    };
    const drive = (o, f) => {
      o.hand.setPosition([0.2 * Math.sin(f / 10), 2, 0]);
      o.chain.setRoot([0, 2, 2 + 0.1 * Math.sin(f / 7)]);
      o.ball.setTransform([0.5, 1.7 + 0.1 * Math.sin(f / 5), 0]);
    };
    const a = wisp.createWorld();
    const oa = build(a);
    for (let f = 0; f < 30; f++) { drive(oa, f); a.step(1 / 60); }
    const same = a.objects();
    assert.equal(same.ropes[0], oa.rope, 'objects made through the wrapper come back as themselves');
    assert.equal(same.colliders[0], oa.ball);

    const b = wisp.createWorld();
    b.loadSnapshot(a.saveSnapshot());
    const objs = b.objects();
    assert.deepEqual(Object.fromEntries(Object.entries(objs).map(([k, v]) => [k, v.length])),
      { ropes: 1, cloths: 1, chains: 1, anchors: 3, colliders: 1, windZones: 1 }, 'two anchors hold the cloth\'s pins');
    assert.equal(objs.colliders[0].type, 'capsule');
    assert.deepEqual(b.objects().ropes, objs.ropes, 'the same handles each call');
    const ob = { hand: objs.anchors[0], rope: objs.ropes[0], cloth: objs.cloths[0], chain: objs.chains[0], ball: objs.colliders[0], zone: objs.windZones[0] };
    assert.equal(ob.rope.positions.length, oa.rope.positions.length);
    for (let f = 30; f < 90; f++) {
      drive(oa, f); a.step(1 / 60);
      drive(ob, f); b.step(1 / 60);
    }
    assert.equal(b.stateHash(), a.stateHash(), 'the restored world, driven through its handles, follows the original bit for bit');
    assert.deepEqual([...ob.rope.positions], [...oa.rope.positions]);
    ob.zone.dispose(); ob.cloth.dispose();
    assert.equal(b.objects().cloths.length, 0);
    a.dispose(); b.dispose();
  });
}
