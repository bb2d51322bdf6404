// A procedural spring-bone rig for tests and benchmarks: a head Object3D with a 6-bone ponytail
// whose bones have varied local rotations (so frames and axes are exercised), and three-vrm's
// spring-bone joints, sphere and capsule colliders on it.
import * as THREE from 'three';
import {
  VRMSpringBoneManager, VRMSpringBoneJoint, VRMSpringBoneCollider,
  VRMSpringBoneColliderShapeSphere, VRMSpringBoneColliderShapeCapsule,
} from '@pixiv/three-vrm-springbone';

export const JOINT_SETTINGS = [0, 1, 2, 3, 4].map((k) => ({
  stiffness: 1.0 - 0.1 * k, dragForce: 0.4 + 0.05 * k, gravityPower: 0.2 + 0.1 * k,
  gravityDir: new THREE.Vector3(0, -1, 0), hitRadius: 0.02,
}));

export function buildRig({ settings = JOINT_SETTINGS, colliders = true } = {}) {
  const head = new THREE.Object3D();
  head.position.set(0, 1.5, 0);
  const bones = [];
  let parent = head;
  for (let k = 0; k < 6; k++) {
    const b = new THREE.Bone();
    if (k === 0) b.position.set(0, 0.05, -0.12);
    else b.position.set(0.004 * k, -0.07, -0.012);
    b.quaternion.setFromEuler(new THREE.Euler(0.15 * Math.sin(k + 1), 0.3 * Math.cos(k), 0.1 * k));
    parent.add(b);
    bones.push(b);
    parent = b;
  }
  const scene = new THREE.Scene();
  scene.add(head);
  const group = { colliders: [] };
  if (colliders) {
    const sphere = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new THREE.Vector3(0, 0, 0), radius: 0.1 }));
    const capsule = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeCapsule({
      offset: new THREE.Vector3(0, -0.12, 0.02), tail: new THREE.Vector3(0, -0.3, -0.05), radius: 0.06,
    }));
    head.add(sphere, capsule);
    group.colliders.push(sphere, capsule);
  }
  // Matrices first, as for a loaded model: a joint switches its bone's matrixAutoUpdate off.
  scene.updateMatrixWorld(true);
  const manager = new VRMSpringBoneManager();
  for (let k = 0; k < bones.length - 1; k++) {
    manager.addJoint(new VRMSpringBoneJoint(bones[k], bones[k + 1], settings[k], colliders ? [group] : []));
  }
  scene.updateMatrixWorld(true);
  for (const c of group.colliders) c.updateWorldMatrix(true, false);
  manager.setInitState();
  return { scene, head, bones, manager, colliders: group.colliders };
}

// Head motion: turn, nod, tilt, a little bounce and sway; t in seconds.
export function poseHead(head, t) {
  head.position.set(0.3 * Math.sin(2 * t), 1.5 + 0.05 * Math.sin(5 * t), 0.2 * Math.sin(1.3 * t));
  head.rotation.set(0.4 * Math.sin(3 * t), 0.8 * Math.sin(2 * t), 0.2 * Math.sin(4 * t));
}

// A frame of an app using three-vrm: animate (the caller posed the head), update the spring
// bones (the manager refreshes the head's and the colliders' world matrices itself), then the
// renderer's matrix update.
export function updateThreeVrm(rig, dt) {
  rig.manager.update(dt);
  rig.scene.updateMatrixWorld();
}
