// VRM parity: three-vrm's own spring-bone code and Wisp's VRM mode (through the three.js
// adapter, which builds the chains and colliders from the same three-vrm joints), on the same
// procedural rig and head motion, agree joint by joint.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { builds } from './load.mjs';
import { buildRig, poseHead, updateThreeVrm, JOINT_SETTINGS } from './rig.mjs';
import { VRMSpringBoneRig } from '../../web/adapters/spring-bones.js';

const FRAMES = 300, DT = 1 / 60;

// Runs three-vrm on rig A and Wisp on rig B; returns the worst joint distance and where.
function compare(settingsB = JOINT_SETTINGS) {
  const a = buildRig();
  const b = buildRig({ settings: settingsB });
  const world = builds.single.createWorld({});
  const wisp = new VRMSpringBoneRig(world, b.manager);  // rig B's manager is never updated
  const pa = new THREE.Vector3(), pb = new THREE.Vector3();
  let worst = 0, at = '', travel = 0;
  const tip0 = new THREE.Vector3();
  a.bones[5].getWorldPosition(tip0);
  for (let f = 0; f < FRAMES; f++) {
    poseHead(a.head, (f + 1) * DT);
    poseHead(b.head, (f + 1) * DT);
    updateThreeVrm(a, DT);
    wisp.beforeStep();
    world.step(DT);
    wisp.afterStep();
    b.scene.updateMatrixWorld();
    for (let j = 0; j < a.bones.length; j++) {
      a.bones[j].getWorldPosition(pa);
      b.bones[j].getWorldPosition(pb);
      const d = pa.distanceTo(pb);
      if (d > worst) { worst = d; at = `frame ${f}, joint ${j}`; }
    }
    a.bones[5].getWorldPosition(pa);
    travel = Math.max(travel, pa.distanceTo(tip0));
  }
  wisp.dispose();
  world.dispose();
  return { worst, at, travel };
}

test('three-vrm-springbone and Wisp VRM mode agree within 1 mm per joint over 300 frames at 60 Hz', () => {
  const { worst, at, travel } = compare();
  console.log(`three-vrm vs Wisp: worst joint distance ${(worst * 1000).toFixed(4)} mm (${at}); tip travelled up to ${travel.toFixed(2)} m`);
  assert.ok(travel > 0.3, 'the motion is large enough to mean something');
  assert.ok(worst < 1e-3, `worst ${worst} m at ${at}`);
});

test('the comparison can fail: a dragForce 0.05 higher on Wisp\'s side is more than 1 mm off', () => {
  const { worst } = compare(JOINT_SETTINGS.map((s) => ({ ...s, dragForce: s.dragForce + 0.05 })));
  assert.ok(worst > 1e-3, `only ${worst} m apart`);
});
