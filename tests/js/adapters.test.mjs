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

test('SpringBoneChain with followAnimation follows the animated bone rotations; without it, the rest pose', async () => {
  const THREE = await import('three');
  const { builds } = await import('./load.mjs');
  const { SpringBoneChain } = await import('../../web/adapters/spring-bones.js');
  const run = (followAnimation) => {
    const world = builds.single.createWorld({ gravity: [0, 0, 0] });
    const head = new THREE.Object3D();
    head.position.set(0, 1.5, 0);
    const bones = [];
    let parent = head;
    for (let k = 0; k < 4; k++) {
      const b = new THREE.Bone();
      b.position.set(0, k === 0 ? 0 : -0.1, 0);
      parent.add(b);
      bones.push(b);
      parent = b;
    }
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
