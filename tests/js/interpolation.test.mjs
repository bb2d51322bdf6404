// Render interpolation (the world option `interpolate`): the render arrays show the outputs
// between the last two fixed steps. At alpha 0 and 1 they are the previous and the current
// fixed step's outputs bit for bit; a 144 Hz display over a 60 Hz step moves every frame where
// the plain outputs repeat; the simulation and its hash are the same with the option on or off;
// the three.js adapters draw the render arrays; bad input throws and changes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { builds, rejects } from './load.mjs';
import { RopeMesh, ClothMesh, SpringBoneChain } from '../../web/adapters/index.js';

const FIXED = 1 / 60, DISPLAY = 1 / 144;
const same = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

// A rope pinned at one end starting horizontal (it swings), a cloth pinned at a corner, a chain
// whose root sways: everything moves every fixed step.
function swing(wisp, settings) {
  const world = wisp.createWorld(settings);
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
  const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 4, resolutionY: 4, position: [0, 2, 1] }, pinned: [0] });
  const chain = world.addChain({ points: [0, 2, 2, 0.2, 2, 2, 0.4, 2, 2] });
  const drive = (f) => chain.setRoot([0.3 * Math.sin(0.05 * f), 2, 2]);
  return { world, rope, cloth, chain, drive };
}

for (const [name, wisp] of Object.entries(builds)) {
  test(`${name}: at alpha 0 and 1 the render arrays are the previous and the current fixed step's outputs, bit for bit`, () => {
    const { world, rope, cloth, chain, drive } = swing(wisp, { interpolate: true });
    const outputs = () => [rope.positions, cloth.positions, cloth.normals, chain.positions, chain.rotations, chain.localRotations];
    const shown = () => [rope.renderPositions, cloth.renderPositions, cloth.renderNormals, chain.renderPositions, chain.renderRotations, chain.renderLocalRotations];
    assert.equal(world.interpolate, true);
    shown();
    let prev = outputs().map((a) => Float32Array.from(a)), checked = 0, between = 0;
    for (let f = 0; f < 144; f++) {
      drive(f);
      const k = world.step(DISPLAY);
      assert.ok(world.alpha >= 0 && world.alpha < 1, `alpha ${world.alpha}`);
      if (k === 0) continue;
      const cur = outputs().map((a) => Float32Array.from(a));
      assert.ok(!same(prev[0], cur[0]), 'the rope moved: prev and cur differ');
      if (world.alpha > 0) {
        between++;
        assert.ok(!same(shown()[0], prev[0]) && !same(shown()[0], cur[0]), 'in between: neither');
      }
      world.setAlpha(0);
      shown().forEach((a, i) => assert.ok(same(a, prev[i]), `frame ${f}, array ${i}: alpha 0 is the previous fixed step`));
      world.setAlpha(1);
      shown().forEach((a, i) => assert.ok(same(a, cur[i]), `frame ${f}, array ${i}: alpha 1 is the current fixed step`));
      prev = cur;
      checked++;
    }
    assert.equal(checked, 60);
    assert.ok(between > 20, `${between} steps shown in between`);
    world.dispose();
  });

  test(`${name}: interpolation is output only: the same state hash and outputs with the option on and off`, () => {
    const on = swing(wisp, { interpolate: true }), off = swing(wisp, {});
    on.rope.renderPositions; on.cloth.renderNormals; on.chain.renderRotations;
    for (let f = 0; f < 300; f++) {
      const dt = f % 3 ? DISPLAY : 1 / 30;  // some frames run two fixed steps
      on.drive(f); off.drive(f);
      assert.equal(on.world.step(dt), off.world.step(dt));
    }
    assert.equal(on.world.stateHash(), off.world.stateHash());
    assert.ok(same(on.rope.positions, off.rope.positions) && same(on.chain.rotations, off.chain.rotations));
    on.world.dispose(); off.world.dispose();
  });

  test(`${name}: a 144 Hz display over a 60 Hz step: the shown tip moves every frame, on the line between fixed steps one step behind`, () => {
    const { world, rope } = swing(wisp, { interpolate: true });
    const n = rope.count, tip = 3 * (n - 1);
    const at = (a) => [a[tip], a[tip + 1], a[tip + 2]];
    const steps = [at(rope.positions)];  // the tip after each fixed step: an independent record
    let lastShown = at(rope.renderPositions), lastRaw = at(rope.positions), frames = 0, repeatedRaw = 0, end = 0;
    for (let f = 0; f < 144; f++) {
      const k = world.step(DISPLAY);
      end += DISPLAY;
      if (k === 1) steps.push(at(rope.positions));
      assert.ok(k <= 1);
      const shown = at(rope.renderPositions), raw = at(rope.positions);
      if (steps.length < 3) { lastShown = shown; lastRaw = raw; continue; }  // the display starts one step behind
      frames++;
      if (raw.every((v, i) => v === lastRaw[i])) repeatedRaw++;
      const moved = Math.hypot(shown[0] - lastShown[0], shown[1] - lastShown[1], shown[2] - lastShown[2]);
      assert.ok(moved > 1e-5, `frame ${f}: the shown tip stayed put (${moved} m)`);
      // display time: one fixed step before the frame's end
      const t = (end - FIXED) / FIXED, s = Math.floor(t + 1e-9), frac = t - s;
      const a = steps[s], b = steps[Math.min(s + 1, steps.length - 1)];
      const want = a.map((v, i) => v + (b[i] - v) * frac);
      const off = Math.hypot(shown[0] - want[0], shown[1] - want[1], shown[2] - want[2]);
      assert.ok(off < 1e-5, `frame ${f}: shown tip ${off} m from the line between fixed steps`);
      lastShown = shown; lastRaw = raw;
    }
    assert.ok(repeatedRaw > frames / 2, `without interpolation ${repeatedRaw} of ${frames} frames repeat`);
    world.dispose();
  });

  test(`${name}: normals and rotations shown in between are unit length`, () => {
    const { world, cloth, chain, drive } = swing(wisp, { interpolate: true });
    const normals = cloth.renderNormals, rotations = chain.renderRotations;
    for (let f = 0; f < 100; f++) {
      drive(4 * f);
      world.step(DISPLAY);
      for (let i = 0; i < normals.length; i += 3) assert.ok(Math.abs(Math.hypot(normals[i], normals[i + 1], normals[i + 2]) - 1) < 1e-6);
      for (let i = 0; i < rotations.length; i += 4) assert.ok(Math.abs(Math.hypot(rotations[i], rotations[i + 1], rotations[i + 2], rotations[i + 3]) - 1) < 1e-6);
    }
    world.dispose();
  });

  test(`${name}: a teleport shows at once (nothing to interpolate from); a cut replaces the render array`, () => {
    const { world, rope } = swing(wisp, { interpolate: true });
    const shown = rope.renderPositions;
    for (let f = 0; f < 7; f++) world.step(DISPLAY);
    rope.teleport({ translation: [5, 0, 0] });
    assert.ok(same(rope.renderPositions, rope.positions));
    assert.equal(rope.renderPositions, shown, 'the same array');
    const far = rope.cut(4);
    assert.equal(shown.length, 0, 'the old array is detached');
    assert.equal(rope.renderPositions.length, rope.positions.length);
    assert.ok(same(rope.renderPositions, rope.positions));
    assert.equal(far.renderPositions.length, far.positions.length);
    world.dispose();
  });

  test(`${name}: without the option the render arrays are the output arrays; bad input throws and changes nothing`, () => {
    const plain = swing(wisp, {});
    assert.equal(plain.rope.renderPositions, plain.rope.positions);
    assert.equal(plain.chain.renderLocalRotations, plain.chain.localRotations);
    assert.equal(plain.world.alpha, 1);
    rejects(() => plain.world.setAlpha(0.5), 'unsupported', /interpolate/);
    rejects(() => wisp.createWorld({ interpolate: 'yes' }), 'invalid-argument', /settings\.interpolate/);
    const { world, rope } = swing(wisp, { interpolate: true });
    world.step(DISPLAY); world.step(DISPLAY);
    const before = Float32Array.from(rope.renderPositions), alpha = world.alpha;
    rejects(() => world.setAlpha(1.5), 'out-of-range', /alpha/);
    rejects(() => world.setAlpha(NaN), 'out-of-range', /alpha/);
    rejects(() => world.setAlpha('0'), 'invalid-argument', /alpha/);
    rejects(() => world.set({ interpolate: false }), 'invalid-argument', /interpolate/);
    assert.equal(world.alpha, alpha);
    assert.ok(same(rope.renderPositions, before));
    assert.equal(world.interpolate, true);
    plain.world.dispose(); world.dispose();
  });

  test(`${name}: the three.js adapters draw the render arrays`, () => {
    const { world, rope, cloth, chain } = swing(wisp, { interpolate: true });
    const ropeMesh = new RopeMesh(rope, { sides: 4 });
    const clothMesh = new ClothMesh(cloth);
    const root = new THREE.Object3D(), bones = [new THREE.Bone(), new THREE.Bone(), new THREE.Bone()];
    root.position.set(0, 2, 3);
    root.add(bones[0]); bones[0].add(bones[1]); bones[1].add(bones[2]);
    bones[1].position.set(0.2, 0, 0); bones[2].position.set(0.2, 0, 0);
    const springs = new SpringBoneChain(world, bones);
    let checked = 0;
    for (let f = 0; f < 30; f++) {
      springs.beforeStep();
      world.step(DISPLAY);
      ropeMesh.update(); clothMesh.update(); springs.afterStep();
      if (world.alpha === 0 || world.time === 0) continue;  // shown = positions then
      const p = rope.renderPositions, v = ropeMesh.geometry.attributes.position.array;
      assert.ok(!same(p, rope.positions));
      for (let i = 0; i < rope.count; i++) {  // each ring's centre is the shown particle
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let k = 0; k < 4; k++) sum += v[3 * (4 * i + k) + c];
          assert.ok(Math.abs(sum / 4 - p[3 * i + c]) < 1e-5);
        }
      }
      assert.equal(clothMesh.geometry.attributes.position.array, cloth.renderPositions);
      assert.equal(clothMesh.geometry.attributes.normal.array, cloth.renderNormals);
      const l = springs.chain.renderLocalRotations;
      bones.forEach((b, k) => assert.deepEqual(b.quaternion.toArray(), Array.from(l.subarray(4 * k, 4 * k + 4))));
      checked++;
    }
    assert.ok(checked > 10);
    ropeMesh.dispose(); clothMesh.dispose();
    world.dispose();
  });
}
