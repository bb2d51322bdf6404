// VRM limits and wind through the three.js adapter: a rig whose glTF json carries
// VRMC_springBone_limit (draft 1.0) on its spring joints gets limited chains, and every limited
// bone stays inside its limit after every step (measured here from the bones' world transforms
// with three.js's own math); the wind, off by default, blows the chain downwind when on.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { builds, rejects } from './load.mjs';
import { buildRig, poseHead } from './rig.mjs';
import { VRMSpringBoneRig } from '../../web/adapters/spring-bones.js';
import { fromVRMLimit } from '../../wasm/js/index.js';

const DT = 1 / 60, TOL = 1e-4;  // rad

// Joint k's limit extension (VRM joint k: bone k to bone k + 1); joint 4 has none.
const TURN = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), 0.6).toArray();
const LIMITS = [
  { cone: { angle: 0.35 } },
  { hinge: { angle: 0.3, rotation: TURN } },
  { spherical: { pitch: 0.4, yaw: 0.15 } },
  { cone: { angle: 0.2, rotation: TURN } },
  null,
];

// The glTF a loader would hand over: spring joints naming nodes, and the parser's map from each
// node object back to its index.
function gltfFor(rig, limits = LIMITS) {
  const associations = new Map();
  rig.bones.forEach((b, i) => associations.set(b, { nodes: 10 + i }));
  const joints = rig.bones.map((b, i) => {
    const j = { node: 10 + i };
    if (limits[i]) j.extensions = { VRMC_springBone_limit: { specVersion: '1.0-draft', limit: limits[i] } };
    return j;
  });
  return { parser: { associations, json: { extensions: { VRMC_springBone: { specVersion: '1.0', springs: [{ joints }] } } } } };
}

// The worst excess (rad) of bone k over its limit: the limit frame is the parent's world rotation,
// the bone's rest local rotation, the shortest arc from +Y onto the child's rest offset, then the
// limit's rotation; the tail direction comes from the bones' world positions.
function excess(rig, restQ, k, ext) {
  const bone = rig.bones[k], child = rig.bones[k + 1];
  const parentQ = new THREE.Quaternion();
  bone.parent.getWorldQuaternion(parentQ);
  const axis = rig.restOffsets[k + 1].clone().normalize();
  const arc = axis.y <= -1 ? new THREE.Quaternion(1, 0, 0, 0) : new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), axis);
  const shape = ext.cone ?? ext.hinge ?? ext.spherical;
  const rot = new THREE.Quaternion().fromArray(shape.rotation ?? [0, 0, 0, 1]);
  const frame = parentQ.multiply(restQ[k]).multiply(arc).multiply(rot);
  const a = new THREE.Vector3(), b = new THREE.Vector3();
  bone.getWorldPosition(a);
  child.getWorldPosition(b);
  const t = b.sub(a).normalize().applyQuaternion(frame.invert());
  if (ext.cone) return Math.atan2(Math.hypot(t.x, t.z), t.y) - ext.cone.angle;
  if (ext.hinge) return Math.max(Math.asin(Math.min(1, Math.abs(t.x))), Math.atan2(Math.abs(t.z), t.y) - ext.hinge.angle);
  return Math.max(Math.abs(Math.atan2(t.z, t.y)) - ext.spherical.pitch, Math.asin(Math.min(1, Math.abs(t.x))) - ext.spherical.yaw);
}

function run({ limits = LIMITS, gltf = true, vrmWind = 0, wind = 0, strongGravity = true, frames = 240, onFrame } = {}) {
  const settings = [0, 1, 2, 3, 4].map(() => ({
    stiffness: 0.2, dragForce: 0.2, gravityPower: strongGravity ? 3 : 0.2,
    gravityDir: new THREE.Vector3(0.6, -0.5, 0.6).normalize(), hitRadius: 0.02,
  }));
  const rig = buildRig({ settings, colliders: false });
  rig.restOffsets = rig.bones.map((b) => b.position.clone());
  const restQ = rig.bones.map((b) => b.quaternion.clone());
  const world = builds.single.createWorld({});
  if (wind) world.setWind({ direction: [1, 0, 0], speed: wind });
  const wisp = new VRMSpringBoneRig(world, rig.manager, { gltf: gltf ? gltfFor(rig, limits) : null, vrmWind });
  for (let f = 0; f < frames; f++) {
    poseHead(rig.head, (f + 1) * DT);
    wisp.beforeStep();
    world.step(DT);
    wisp.afterStep();
    rig.scene.updateMatrixWorld();
    if (onFrame) onFrame(rig, restQ, f);
  }
  const tip = new THREE.Vector3(), head = new THREE.Vector3();
  rig.bones[5].getWorldPosition(tip);
  rig.bones[0].getWorldPosition(head);
  const params = wisp.chains[0].chain.params;
  wisp.dispose();
  world.dispose();
  return { tipOffset: tip.sub(head), params };
}

test('a rig whose glTF carries VRMC_springBone_limit gets limited chains', () => {
  const { params } = run({ frames: 1 });
  assert.equal(params.mode, 'vrm');
  assert.deepEqual(params.vrmLimits.map((l) => l.type), ['cone', 'hinge', 'spherical', 'cone', 'none']);
  assert.ok(Math.abs(params.vrmLimits[2].yaw - 0.15) < 1e-7);
  const none = run({ frames: 1, gltf: false }).params;
  assert.deepEqual(none.vrmLimits, [], 'no glTF, no limits');
});

test('every limited bone is inside its cone, hinge or spherical limit after every step', () => {
  let worst = -Infinity, at = '';
  run({
    onFrame(rig, restQ, f) {
      for (let k = 0; k < LIMITS.length; k++) {
        if (!LIMITS[k]) continue;
        const e = excess(rig, restQ, k, LIMITS[k]);
        assert.ok(Number.isFinite(e), `frame ${f}, bone ${k}: not finite`);
        if (e > worst) { worst = e; at = `frame ${f}, bone ${k}`; }
      }
    },
  });
  console.log(`VRM limits: worst excess ${worst.toExponential(2)} rad (${at})`);
  assert.ok(worst < TOL, `${worst} rad past the limit at ${at}`);
  // the same motion without limits goes well past them: the test means something
  let free = -Infinity;
  run({
    gltf: false,
    onFrame(rig, restQ) { for (let k = 0; k < 4; k++) free = Math.max(free, excess(rig, restQ, k, LIMITS[k])); },
  });
  assert.ok(free > 0.2, `without limits the bones stay within ${free} rad of them`);
});

test('VRM wind: off by default and bit-identical to no wind; on, the chain moves downwind', () => {
  const still = run({ gltf: false, strongGravity: false }).tipOffset;
  const windOff = run({ gltf: false, strongGravity: false, wind: 8 }).tipOffset;
  const windOn = run({ gltf: false, strongGravity: false, wind: 8, vrmWind: 1 }).tipOffset;
  assert.deepEqual(windOff.toArray(), still.toArray(), 'the world wind moved a chain with vrmWind 0');
  assert.ok(windOn.x - still.x > 0.05, `the tip moved only ${windOn.x - still.x} m downwind`);
});

test('bad limits: the importer and chain.set name the value', () => {
  assert.throws(() => fromVRMLimit({ limit: { cone: { angle: -1 } } }), /limit\.cone\.angle must be a number >= 0 \(got -1\)/);
  assert.throws(() => fromVRMLimit({ limit: { cone: { angle: 1 }, hinge: { angle: 1 } } }), /exactly one of cone, hinge, spherical \(got cone, hinge\)/);
  assert.deepEqual(fromVRMLimit({ limit: { spherical: { pitch: 5, yaw: 3 } } }), { type: 'spherical', pitch: Math.PI, yaw: Math.PI / 2 });
  const world = builds.single.createWorld({});
  const chain = world.addChain({ mode: 'vrm', damping: 0.4, points: [0, 1, 0, 0, 0.9, 0, 0, 0.8, 0] });
  const before = world.stateHash();
  rejects(() => chain.set({ vrmLimits: [null, { type: 'cone', angle: -0.5 }] }), 'invalid-argument', /vrmLimits\[1\]\.angle.*-0\.5/);
  rejects(() => chain.set({ vrmLimits: [{ type: 'spherical', pitch: 0.1, yaw: 2 }] }), 'invalid-argument', /vrmLimits\[0\]\.yaw.*2/);
  rejects(() => chain.set({ vrmLimits: [{ type: 'twist' }] }), 'invalid-argument', /vrmLimits\[0\]\.type must be one of/);
  rejects(() => chain.set({ vrmLimits: [null, null, null] }), 'invalid-argument', /vrmLimits has 3 entries, more than the chain's 2 bones/);
  rejects(() => chain.set({ vrmWind: -1 }), 'invalid-argument', /vrmWind.*-1/);
  assert.equal(world.stateHash(), before, 'rejected calls changed the world');
  chain.set({ vrmLimits: [{ type: 'hinge', angle: 0.2, rotation: [0, 0, 0, 2] }], vrmWind: 0.5 });
  const p = chain.params;
  assert.equal(p.vrmLimits[0].type, 'hinge');
  assert.equal(p.vrmWind, 0.5);
  world.dispose();
});
