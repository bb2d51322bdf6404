// What the spring-bone scenes share: chain parameter sliders and how they map onto ChainParams,
// a procedurally animated head (nod, turn, run, jump), head and shoulder colliders that move
// with it, skinned strands driven by the three.js adapter, and debug drawing of joints, radii,
// limit cones and colliders.
import * as THREE from 'three';
import { SpringBoneChain } from '../adapters/spring-bones.js';
import { skinnedRings } from './skinned-rings.js';

export const chainParamSpecs = {
  motion: { value: 'all', options: ['still', 'nod', 'turn', 'run', 'jump', 'all'], label: 'head motion', tip: 'The head\'s scripted animation: the chains follow its root motion.' },
  motionSpeed: { value: 1, min: 0, max: 3, step: 0.01, label: 'motion speed', tip: 'Plays the head animation faster or slower (×).' },
  stiffness: { field: 'ChainParams.stiffness', value: 5, min: 0, max: 30, step: 0.1, label: 'stiffness (1/s)', tip: 'Angular frequency of the pull back toward the rest (animated) pose (1/s). 0 = limp.' },
  stiffnessTip: { value: 0.5, min: 0, max: 2, step: 0.01, label: 'stiffness at tip (×)', tip: 'Stiffness at the last joint, as a multiple of the root\'s (a linear curve along the chain).' },
  elasticity: { field: 'ChainParams.elasticity', value: 0.3, min: 0, max: 1, step: 0.01, label: 'elasticity', tip: '0 = the pull never overshoots (critically damped), 1 = an undamped spring (dimensionless).' },
  damping: { field: 'ChainParams.damping', value: 2, min: 0, max: 20, step: 0.1, label: 'damping (1/s)', tip: 'Velocity decay rate (1/s): dv/dt = −damping·v.' },
  inertia: { field: 'ChainParams.inertia', value: 0.2, min: 0, max: 1, step: 0.01, label: 'inertia (root motion kept)', tip: 'Share of the root\'s motion carried rigidly (0..1): 1 = the hair moves with the head, no lag.' },
  gravityScale: { field: 'ChainParams.gravityScale', value: 1, min: -2, max: 2, step: 0.01, label: 'gravity scale', tip: 'Multiplies the world gravity for these chains: negative values float upward.' },
  drag: { field: 'ChainParams.drag', value: 0.5, min: 0, max: 5, step: 0.01, label: 'air drag (1/s)', tip: 'Coupling to the air (1/s): relaxes joint velocity toward the wind.' },
  externalX: { field: 'ChainParams.externalForce', value: 0, min: -10, max: 10, step: 0.1, label: 'external force x (m/s²)', tip: 'A constant acceleration along x (m/s²), e.g. a scripted gust.' },
  radius: { field: 'ChainParams.radius', value: 0.02, min: 0, max: 0.06, step: 0.001, label: 'radius (m)', tip: 'Radius of the capsule around each bone for collisions (m).' },
  radiusTip: { value: 0.6, min: 0, max: 2, step: 0.01, label: 'radius at tip (×)', tip: 'Radius at the last bone, as a multiple of the root\'s.' },
  limitAngle: { field: 'ChainParams.limitAngle', toField: (degrees) => (degrees * Math.PI) / 180, value: 180, min: 0, max: 180, step: 1, label: 'limit angle (°)', tip: 'Each bone stays inside a cone this wide around its rest direction (°). 180 = free.' },
  space: { field: 'ChainParams.space', value: 'world', options: ['world', 'relative'], label: 'simulation space (relative: the body)', tip: 'world: the chains feel all of the body\'s motion. relative: simulated in the body\'s frame, feeling only part of it.' },
  spaceInertia: { field: 'ChainParams.spaceInertia', value: 0.2, min: 0, max: 1, step: 0.01, label: 'space inertia (body motion felt)', tip: 'relative space only: share of the body\'s motion that is not felt (0..1).' },
  hinge: { field: 'ChainParams.hinge', value: false, label: 'hinge (swing sideways only)', tip: 'Bones swing in one plane only (sideways), like a hinge.' },
  collide: { field: 'ChainParams.collide', value: true, label: 'chain collisions', tip: 'Bones collide with the head and shoulder colliders.' },
  headCollider: { value: true, label: 'head collider', tip: 'The sphere around the head.' },
  shoulderCollider: { value: true, label: 'shoulder colliders', tip: 'The tapered capsules over the shoulders.' },
  debug: { value: false, label: 'debug: joints, radii, limits, colliders', tip: 'Draws joints, collision radii, limit cones and colliders.' },
};

export function chainParams(p) {
  return {
    stiffness: p.stiffness,
    stiffnessCurve: [[0, 1], [1, p.stiffnessTip]],
    elasticity: p.elasticity,
    damping: p.damping,
    inertia: p.inertia,
    gravityScale: p.gravityScale,
    drag: p.drag,
    externalForce: [p.externalX, 0, 0],
    radius: p.radius,
    radiusCurve: [[0, 1], [1, p.radiusTip]],
    limitAngle: chainParamSpecs.limitAngle.toField(p.limitAngle),
    hinge: p.hinge,
    hingeAxis: [0, 0, 1],
    collide: p.collide,
    space: p.space,
    spaceInertia: p.spaceInertia,
  };
}

// ---- the head ----------------------------------------------------------------------------------
const HEAD_HEIGHT = 1.6;
const e = new THREE.Euler();
/** Pose of the head at time t (s) for a motion: writes position and quaternion of `obj`. */
export function poseHead(obj, motion, t, body) {
  e.set(0, 0, 0);
  obj.position.set(0, HEAD_HEIGHT, 0);
  const all = motion === 'all';
  if (motion === 'nod' || all) e.x += 0.45 * Math.sin(t * 5);
  if (motion === 'turn' || all) e.y += 1.3 * Math.sin(t * (all ? 1.7 : 3));
  if (motion === 'run' || all) {
    const r = 0.5, w = all ? 1.4 : 3;  // run around a small circle in view, bobbing
    obj.position.x = r * Math.sin(t * w);
    obj.position.z = r * Math.cos(t * w);
    obj.position.y += 0.05 * Math.abs(Math.sin(t * 9));
    e.y += t * w + Math.PI / 2;
  }
  if (motion === 'jump' || all) {
    const phase = (t * (all ? 0.6 : 1.2)) % 1;
    obj.position.y += phase < 0.45 ? 0.35 * 4 * phase * (0.45 - phase) / (0.45 * 0.45) : 0;
  }
  obj.quaternion.setFromEuler(e);
  // the body: where the head is carried by running and jumping, facing the run direction,
  // without the nod and turn (the space of ChainSpace 'relative')
  if (body) {
    body.position.copy(obj.position);
    body.position.y -= 0.5;
    const run = motion === 'run' || all;
    body.quaternion.setFromAxisAngle(Y, run ? t * (all ? 1.4 : 3) + Math.PI / 2 : 0);
  }
}
const Y = new THREE.Vector3(0, 1, 0);

/**
 * A head with colliders (a sphere, and tapered shoulder capsules below it) that move with it.
 * Returns { head (Object3D to parent strands to), update(params, t) }.
 */
export function makeHead(ctx, root) {
  const head = new THREE.Object3D();
  const body = new THREE.Object3D();
  root.add(head);
  const skin = new THREE.Mesh(new THREE.SphereGeometry(0.1, 32, 16), new THREE.MeshStandardMaterial({ color: 0xe0b89a, roughness: 0.7 }));
  const nose = new THREE.Mesh(new THREE.ConeGeometry(0.018, 0.05, 12), new THREE.MeshStandardMaterial({ color: 0xd9a88a }));
  nose.rotation.x = Math.PI / 2;
  nose.position.set(0, -0.005, 0.105);
  head.add(skin, nose);
  const colliders = [
    { key: 'headCollider', local: [0, 0, 0], rot: [0, 0, 0, 1], c: ctx.addCollider({ type: 'sphere', radius: 0.105, position: [0, HEAD_HEIGHT, 0] }) },
    { key: 'shoulderCollider', local: [-0.14, -0.27, -0.01], rot: [0, 0, 0.7071068, 0.7071068],
      c: ctx.addCollider({ type: 'capsule', radius: 0.07, radiusTop: 0.055, halfHeight: 0.12, position: [0, 1.3, 0] }) },
    { key: 'shoulderCollider', local: [0.14, -0.27, -0.01], rot: [0, 0, -0.7071068, 0.7071068],
      c: ctx.addCollider({ type: 'capsule', radius: 0.07, radiusTop: 0.055, halfHeight: 0.12, position: [0, 1.3, 0] }) },
    { key: 'shoulderCollider', local: [0, -0.45, 0], rot: [0, 0, 0, 1],
      c: ctx.addCollider({ type: 'capsule', radius: 0.13, radiusTop: 0.16, halfHeight: 0.14, position: [0, 1.15, 0] }) },
  ];
  // the head mesh stands for the head collider; the debug view shows it as a wireframe
  colliders[0].c.mesh.visible = false;
  const v = new THREE.Vector3(), q = new THREE.Quaternion(), lq = new THREE.Quaternion();
  const pos = [0, 0, 0], rot = [0, 0, 0, 1];
  return {
    head,
    body,
    colliders,
    update(params, t) {
      poseHead(head, params.motion, t * params.motionSpeed, body);
      head.updateMatrixWorld(true);
      for (const c of colliders) {
        v.set(c.local[0], c.local[1], c.local[2]).applyMatrix4(head.matrixWorld);
        q.copy(head.quaternion).multiply(lq.set(c.rot[0], c.rot[1], c.rot[2], c.rot[3]));
        pos[0] = v.x; pos[1] = v.y; pos[2] = v.z;
        rot[0] = q.x; rot[1] = q.y; rot[2] = q.z; rot[3] = q.w;
        c.c.move(pos, rot);
      }
    },
    apply(params) {
      for (const c of colliders) {
        c.c.collider.setEnabled(!!params[c.key]);
        c.c.mesh.visible = !!params[c.key] && (params.debug || c !== colliders[0]);
        c.c.mesh.material.wireframe = params.debug;
      }
    },
  };
}

// ---- skinned strands --------------------------------------------------------------------------
/**
 * A tapered tube skinned to a fresh bone chain under `parent`: bone k at `offsets[k]` in its
 * parent's frame. The three.js adapter drives the bones from a Wisp chain.
 */
export function skinnedStrand(world, parent, offsets, params, { radius = 0.03, tipRadius = 0.008, color = 0x3b2a20, endLength = 0 } = {}) {
  const bones = [];
  let p = parent;
  for (const o of offsets) {
    const b = new THREE.Bone();
    b.position.set(o[0], o[1], o[2]);
    p.add(b);
    bones.push(b);
    p = b;
  }
  parent.updateMatrixWorld(true);
  // geometry in the strand's bind pose (world space at creation), one ring per 4 per bone
  const rings = (bones.length - 1) * 4 + 1, sides = 10;
  const positions = [], skinIndex = [], skinWeight = [];
  const a = new THREE.Vector3(), b = new THREE.Vector3(), dir = new THREE.Vector3(), n1 = new THREE.Vector3(), n2 = new THREE.Vector3();
  for (let r = 0; r < rings; r++) {
    const seg = Math.min(Math.floor(r / 4), bones.length - 2), f = r / 4 - seg;
    bones[seg].getWorldPosition(a);
    bones[seg + 1].getWorldPosition(b);
    dir.subVectors(b, a).normalize();
    const c = a.clone().lerp(b, f);
    n1.set(1, 0, 0).cross(dir);
    if (n1.lengthSq() < 1e-6) n1.set(0, 0, 1).cross(dir);
    n1.normalize();
    n2.crossVectors(dir, n1);
    const u = r / (rings - 1), rad = radius + (tipRadius - radius) * u;
    for (let s = 0; s < sides; s++) {
      const ang = (s / sides) * Math.PI * 2;
      positions.push(c.x + rad * (Math.cos(ang) * n1.x + Math.sin(ang) * n2.x), c.y + rad * (Math.cos(ang) * n1.y + Math.sin(ang) * n2.y),
        c.z + rad * (Math.cos(ang) * n1.z + Math.sin(ang) * n2.z));
      // blend the two bones around each joint
      skinIndex.push(seg, Math.min(seg + 1, bones.length - 1), 0, 0);
      skinWeight.push(1 - f, f, 0, 0);
    }
  }
  const mesh = skinnedRings(positions, skinIndex, skinWeight, sides, bones, new THREE.MeshStandardMaterial({ color, roughness: 0.6 }));
  const rig = new SpringBoneChain(world, bones, params, { endLength });
  return { mesh, bones, rig };
}

// ---- debug drawing: the package's debug drawer (wisp/three) ------------------------------------
export { ChainDebug, restOf } from '../adapters/debug-drawer.js';
