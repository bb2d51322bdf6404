// wisp/three: what the adapters draw matches what the solver simulates.
import test from 'node:test';
import assert from 'node:assert/strict';
import { colliderMesh } from '../../web/adapters/collider-mesh.js';

// Signed distance to the hull of a sphere of radius r0 at y = -h and one of radius r1 at +h
// (the round cone; Quilez's formula, bottom sphere moved to the origin).
function roundConeDistance(x, y, z, r0, r1, h) {
  const len = 2 * h, qx = Math.hypot(x, z), qy = y + h;
  if (Math.abs(r0 - r1) >= len) return r0 >= r1 ? Math.hypot(qx, qy) - r0 : Math.hypot(qx, qy - len) - r1;  // one sphere holds the other
  const b = (r0 - r1) / len, a = Math.sqrt(1 - b * b), k = -b * qx + a * qy;
  if (k < 0) return Math.hypot(qx, qy) - r0;
  if (k > a * len) return Math.hypot(qx, qy - len) - r1;
  return a * qx + b * qy - r0;
}

test('a tapered capsule collider is drawn tapered: every vertex on the hull of its two end spheres', () => {
  for (const [radius, radiusTop, halfHeight] of [[0.07, 0.055, 0.12], [0.13, 0.16, 0.14], [0.05, 0.05, 0.1], [0.3, 0.05, 0.05]]) {
    const mesh = colliderMesh({ type: 'capsule', radius, radiusTop, halfHeight });
    const p = mesh.geometry.attributes.position;
    let worst = 0;
    for (let i = 0; i < p.count; i++) worst = Math.max(worst, Math.abs(roundConeDistance(p.getX(i), p.getY(i), p.getZ(i), radius, radiusTop, halfHeight)));
    assert.ok(worst < 1e-6 + 0.002 * Math.max(radius, radiusTop), `radius ${radius}, top ${radiusTop}: a vertex ${worst} m off the hull`);
    mesh.geometry.computeBoundingBox();
    const box = mesh.geometry.boundingBox;
    const bottom = Math.min(-halfHeight - radius, halfHeight - radiusTop), top = Math.max(halfHeight + radiusTop, -halfHeight + radius);
    assert.ok(Math.abs(box.min.y - bottom) < 1e-6 && Math.abs(box.max.y - top) < 1e-6, `extent ${box.min.y}..${box.max.y}, want ${bottom}..${top}`);
  }
});

// A head at 1.5 m and 4 bones hanging from it 0.1 m apart, each `dx` to the side of its parent.
function boneChain(THREE, dx) {
  const head = new THREE.Object3D();
  head.position.set(0, 1.5, 0);
  const bones = [];
  let parent = head;
  for (let k = 0; k < 4; k++) {
    const b = new THREE.Bone();
    b.position.set(dx, k === 0 ? 0 : -0.1, 0);
    parent.add(b);
    bones.push(b);
    parent = b;
  }
  return { head, bones };
}

test('SpringBoneChain with followAnimation follows the animated bone rotations; without it, the rest pose', async () => {
  const THREE = await import('three');
  const { builds } = await import('./load.mjs');
  const { SpringBoneChain } = await import('../../web/adapters/spring-bones.js');
  const run = (followAnimation) => {
    const world = builds.single.createWorld({ gravity: [0, 0, 0] });
    const { bones } = boneChain(THREE, 0);
    const rig = new SpringBoneChain(world, bones, { stiffness: 20, drag: 0, collide: false }, { followAnimation });
    for (let f = 0; f < 180; f++) {
      // the animation mixer's output for this frame: a curl swaying about z
      const angle = 0.3 + 0.05 * Math.sin(f / 30);
      for (const b of bones) b.quaternion.setFromAxisAngle(new THREE.Vector3(0, 0, 1), angle);
      rig.beforeStep();
      world.step(1 / 60);
      rig.afterStep();
    }
    const want = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 0, 1), 0.3 + 0.05 * Math.sin(179 / 30));
    let worst = 0;
    for (const b of bones.slice(0, 3)) worst = Math.max(worst, b.quaternion.angleTo(want));
    world.dispose();
    return worst;
  };
  const followed = run(true), ignored = run(false);
  assert.ok(followed < 0.05, `bones ${followed} rad from the animation with followAnimation`);
  assert.ok(ignored > 0.2, `without followAnimation the chain keeps to the rest pose (${ignored} rad off)`);
});

test('ClothMesh, RopeMesh and SpringBoneChain on a worker world: the attributes are the shared output slots (no copy) and show the main thread\'s bits', async () => {
  const THREE = await import('three');
  const { builds } = await import('./load.mjs');
  const { createWorkerWorld } = await import('../../wasm/js/index.js');
  const { ClothMesh } = await import('../../web/adapters/cloth-mesh.js');
  const { RopeMesh } = await import('../../web/adapters/rope-mesh.js');
  const { SpringBoneChain } = await import('../../web/adapters/spring-bones.js');
  const bonesOf = () => boneChain(THREE, 0.05);
  const clothDef = { grid: { width: 0.5, height: 0.5, resolutionX: 5, resolutionY: 5, position: [0, 2, 1] }, pinned: [0, 5] };
  const ropeDef = { start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] };
  const main = builds.single.createWorld();
  const mc = main.addCloth(clothDef), mr = main.addRope(ropeDef);
  const mrig = bonesOf(), mchain = new SpringBoneChain(main, mrig.bones, { stiffness: 2 });
  const mropeMesh = new RopeMesh(mr);
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const wc = world.addCloth(clothDef), wr = world.addRope(ropeDef);
    const wrig = bonesOf(), wchain = new SpringBoneChain(world, wrig.bones, { stiffness: 2 });
    const wropeMesh = new RopeMesh(wr);  // before the worker made the rope: its buffers come with the first update
    await world.flush();
    const mesh = new ClothMesh(wc);
    assert.deepEqual(Array.from(mesh.geometry.index.array), Array.from(mc.indices));
    const position = mesh.geometry.attributes.position, normal = mesh.geometry.attributes.normal;
    const arrays = new Set();
    for (let f = 0; f < 30; f++) {
      const swing = 0.2 * Math.sin(f / 10);
      mrig.head.rotation.z = swing; wrig.head.rotation.z = swing;
      mchain.beforeStep(); wchain.beforeStep();
      main.step(1 / 60); world.step(1 / 60);
      mchain.afterStep(); wchain.afterStep();
      mesh.update();
      wropeMesh.update();
      assert.equal(mesh.geometry.attributes.position, position, 'the same attribute: only its array is replaced');
      assert.equal(mesh.geometry.attributes.normal, normal);
      assert.equal(position.array, wc.renderPositions, 'the attribute reads the output slot itself');
      assert.equal(normal.array, wc.renderNormals);
      assert.ok(position.array.buffer instanceof SharedArrayBuffer);
      arrays.add(position.array);
      if (f % 5 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    assert.ok(arrays.size >= 2, `the attribute followed the slots (${arrays.size} arrays)`);
    await world.flush();
    mesh.update();
    wchain.afterStep();
    wropeMesh.update();
    mropeMesh.update();
    assert.deepEqual(Array.from(position.array), Array.from(mc.positions));
    assert.deepEqual(Array.from(normal.array), Array.from(mc.normals));
    assert.deepEqual(Array.from(wropeMesh.geometry.attributes.position.array), Array.from(mropeMesh.geometry.attributes.position.array));
    for (let k = 0; k < 4; k++) assert.deepEqual(wrig.bones[k].quaternion.toArray(), mrig.bones[k].quaternion.toArray(), `bone ${k}`);
  } finally {
    await world.dispose();
    main.dispose();
  }
});
