// Spring bones for three.js skeletons: a Wisp chain per bone chain of a SkinnedMesh (or of a
// loaded VRM's spring-bone extension), driven from the animated parent bone and written back
// into bone.quaternion. Each frame:
//     rig.beforeStep();  world.step(dt);  rig.afterStep();
// Neither call allocates: the root's world matrix goes to WASM as numbers, and the local
// rotations are read from a zero-copy view.
import { poseFromMatrix } from '../../wasm/js/index.js';
import { fromVRMSpring, fromVRMLimit } from '../../wasm/js/presets.js';

/**
 * One chain over `bones` (bones[k + 1] a child of bones[k]); the root is bones[0].parent, whose
 * world matrix is the animated transform the chain follows. `params` are ChainParams.
 * With `followAnimation`, beforeStep() also hands the bones' current local rotations (what the
 * animation mixer wrote this frame) to the chain as its animated pose (Chain.setPose): the chain
 * then moves around the animation instead of around the rest pose. A bone the animation did not
 * write this frame still holds the rotation afterStep() wrote: its last animated rotation is kept.
 */
export class SpringBoneChain {
  constructor(world, bones, params = {}, { endLength = 0, followAnimation = false } = {}) {
    if (!bones || bones.length < 2) throw new TypeError('SpringBoneChain needs at least 2 bones');
    if (!bones[0].parent) throw new TypeError('the first bone needs a parent: the transform the chain follows');
    this.bones = bones;
    this.root = bones[0].parent;
    this.root.updateWorldMatrix(true, false);
    const joints = bones.map((b) => ({
      position: [b.position.x, b.position.y, b.position.z],
      rotation: [b.quaternion.x, b.quaternion.y, b.quaternion.z, b.quaternion.w],
    }));
    const e = this.root.matrixWorld.elements;
    this.chain = world.addChain({ joints, endLength, ...params, ...poseFromMatrix(e) });
    this.followAnimation = !!followAnimation;
    // the animated local rotations (x y z w per bone) and what afterStep() last wrote
    this._pose = new Float32Array(4 * bones.length);
    this._written = new Float32Array(4 * bones.length).fill(NaN);
    for (let k = 0; k < bones.length; k++) bones[k].quaternion.toArray(this._pose, 4 * k);
  }

  /** Hands the root's current world matrix (after animation), and with followAnimation the bones' local rotations, to the chain. */
  beforeStep() {
    this.root.updateWorldMatrix(true, false);
    this.chain.setRootMatrix(this.root.matrixWorld.elements);
    if (this.followAnimation) {
      const pose = this._pose, written = this._written, bones = this.bones;
      for (let k = 0; k < bones.length; k++) {
        const q = bones[k].quaternion, o = 4 * k;
        // still what afterStep() wrote: the animation did not touch it, keep its last pose
        if (q.x === written[o] && q.y === written[o + 1] && q.z === written[o + 2] && q.w === written[o + 3]) continue;
        pose[o] = q.x; pose[o + 1] = q.y; pose[o + 2] = q.z; pose[o + 3] = q.w;
      }
      this.chain.setPose(pose);
    }
  }

  /** Writes the simulated rotations into the bones (local, relative to each parent; with the world option `interpolate`, at world.alpha between the last two fixed steps). */
  afterStep() {
    const l = this.chain.renderLocalRotations;  // interpolated with the world option `interpolate`
    const bones = this.bones;
    if (l.length < 4 * bones.length) return;  // a worker world's chain the worker has not made yet: no outputs
    for (let k = 0; k < bones.length; k++) {
      const b = bones[k];
      b.quaternion.fromArray(l, 4 * k);  // not set(x, y, z, w): four boxed doubles per bone if not inlined
      if (!b.matrixAutoUpdate) b.updateMatrix();  // three-vrm's joints switch auto-update off
    }
    if (this.followAnimation) {
      const written = this._written;  // (not set(l.subarray(...)): subarray makes an object per call)
      for (let i = 0; i < written.length; i++) written[i] = l[i];
    }
  }

  /** Jump (respawn, cut): the chain keeps its shape and gains no velocity. */
  teleport() {
    this.root.updateWorldMatrix(true, false);
    const p = poseFromMatrix(this.root.matrixWorld.elements);
    this.chain.teleport(p.position, p.rotation);
  }

  dispose() { this.chain.dispose(); }
}

/**
 * The spring bones of a three-vrm VRMSpringBoneManager (vrm.springBoneManager of a loaded VRM):
 * its joints grouped into chains (following joint.child), each a Wisp chain in mode 'vrm' with
 * VRM's per-joint settings, and its sphere and capsule colliders as world colliders, moved with
 * their bones each frame. Call setInitState() on the manager first (the loader does) and stop
 * calling manager.update(): this rig replaces it.
 *
 * Options: `gltf`, the loaded glTF (GLTFLoader's result: gltf.parser.json and
 * gltf.parser.associations): a joint whose VRMC_springBone joint carries a VRMC_springBone_limit
 * extension (draft 1.0) gets that limit (ChainParams.vrmLimits); without it, no limits.
 * `vrmWind` (default 0, off: three-vrm's update exactly) couples the chains to the world's wind.
 */
export class VRMSpringBoneRig {
  constructor(world, manager, { gltf = null, vrmWind = 0 } = {}) {
    this.world = world;
    this.chains = [];
    this.colliders = [];
    const colliderIndex = new Map();
    const groupBits = new Map();
    for (const joint of manager.joints) {
      for (const g of joint.colliderGroups) {
        if (!groupBits.has(g)) groupBits.set(g, 1 << Math.min(groupBits.size, 31));
        for (const c of g.colliders) {
          if (!colliderIndex.has(c)) colliderIndex.set(c, { collider: c, groups: 0 });
          colliderIndex.get(c).groups |= groupBits.get(g);
        }
      }
    }
    for (const entry of colliderIndex.values()) {
      const shape = entry.collider.shape;
      const def = shape.type === 'sphere'
        ? { type: 'sphere', radius: shape.radius, inside: !!shape.inside }
        : shape.type === 'capsule'
          ? { type: 'capsule', radius: shape.radius, inside: !!shape.inside, halfHeight: 0.5 * shape.tail.clone().sub(shape.offset).length() }
          : { type: 'plane' };
      entry.wisp = world.addCollider({ ...def, groups: entry.groups });
      this.colliders.push(entry);
    }
    const limitOf = vrmLimitsByBone(gltf);
    // chains: start at joints whose bone is no other joint's child
    const byBone = new Map();
    for (const j of manager.joints) byBone.set(j.bone, j);
    const children = new Set();
    for (const j of manager.joints) if (j.child) children.add(j.child);
    for (const start of manager.joints) {
      if (children.has(start.bone)) continue;
      const joints = [start];
      while (joints[joints.length - 1].child && byBone.has(joints[joints.length - 1].child)) joints.push(byBone.get(joints[joints.length - 1].child));
      const last = joints[joints.length - 1];
      const bones = joints.map((j) => j.bone);
      if (last.child) bones.push(last.child);
      if (bones.length < 2) continue;
      const settings = joints.map((j) => ({
        stiffness: j.settings.stiffness, dragForce: j.settings.dragForce, gravityPower: j.settings.gravityPower,
        gravityDir: j.settings.gravityDir, hitRadius: j.settings.hitRadius,
      }));
      while (settings.length < bones.length) settings.push(settings[settings.length - 1]);  // the tail joint
      const lengths = bones.slice(1).map((b) => b.position.length());
      const { params } = fromVRMSpring(settings, lengths);
      // a limit per bone: joint k's, for the bone to its child (a last joint without one has no bone)
      const limits = joints.slice(0, bones.length - 1).map((j) => limitOf(j.bone));
      if (limits.some((l) => l !== null)) params.vrmLimits = limits;
      if (vrmWind !== 0) params.vrmWind = vrmWind;
      let mask = 0;
      for (const g of start.colliderGroups) mask |= groupBits.get(g);
      params.colliderMask = mask >>> 0;
      params.collide = mask !== 0;
      this.chains.push(new SpringBoneChain(world, bones, params));
    }
  }

  beforeStep() {
    const chains = this.chains, colliders = this.colliders;
    for (let i = 0; i < chains.length; i++) chains[i].beforeStep();
    for (let i = 0; i < colliders.length; i++) {
      const entry = colliders[i], c = entry.collider;
      c.updateWorldMatrix(true, false);
      colliderPose(c);
      entry.wisp.setTransform(POS, ROT);
    }
  }

  afterStep() {
    const chains = this.chains;
    for (let i = 0; i < chains.length; i++) chains[i].afterStep();
  }

  dispose() {
    for (const c of this.chains) c.dispose();
    for (const e of this.colliders) e.wisp.dispose();
    this.chains = [];
    this.colliders = [];
  }
}

// bone -> its joint's VRMC_springBone_limit as a VrmLimit (or null): the glTF's spring joints
// name nodes, and GLTFLoader's parser.associations maps each node object back to its index.
function vrmLimitsByBone(gltf) {
  const parser = gltf && gltf.parser;
  const springs = parser && parser.json && parser.json.extensions && parser.json.extensions.VRMC_springBone
    ? parser.json.extensions.VRMC_springBone.springs || [] : [];
  const byNode = new Map();
  springs.forEach((spring, s) => (spring.joints || []).forEach((joint, k) => {
    const ext = joint.extensions && joint.extensions.VRMC_springBone_limit;
    if (ext) byNode.set(joint.node, fromVRMLimit(ext, `VRMC_springBone.springs[${s}].joints[${k}].extensions.VRMC_springBone_limit`));
  }));
  if (byNode.size === 0) return () => null;
  const associations = parser.associations;
  if (!associations || typeof associations.get !== 'function') throw new TypeError('gltf.parser.associations is needed to find the bones of VRMC_springBone_limit joints');
  return (bone) => {
    const a = associations.get(bone);
    return a && byNode.has(a.nodes) ? byNode.get(a.nodes) : null;
  };
}

// World pose of a three-vrm collider, into POS and ROT (no allocation): for a capsule, the
// midpoint of offset..tail with local Y along it (Wisp's capsule axis); for a plane, local Y
// along its normal. Given with setTransform (scale 1), not setMatrix: three-vrm moves offset and
// tail by the collider's whole matrixWorld but keeps `radius` in world units whatever the bone's
// world scale (VRMSpringBoneColliderShapeSphere/Capsule.calculateCollision), so a scaled matrix
// here would scale the radius where three-vrm does not.
// Numbers travel in these arrays rather than as arguments: a double passed to a call V8 does not
// inline is boxed, an allocation per frame.
const POS = new Float64Array(3), ROT = new Float64Array(4), A = new Float64Array(3), B = new Float64Array(3), D = new Float64Array(3);
function transformPoint(e, v, out) {
  out[0] = e[0] * v.x + e[4] * v.y + e[8] * v.z + e[12];
  out[1] = e[1] * v.x + e[5] * v.y + e[9] * v.z + e[13];
  out[2] = e[2] * v.x + e[6] * v.y + e[10] * v.z + e[14];
}
function colliderPose(c) {
  const e = c.matrixWorld.elements;
  const shape = c.shape;
  transformPoint(e, shape.offset, POS);
  ROT[0] = 0; ROT[1] = 0; ROT[2] = 0; ROT[3] = 1;
  if (shape.type === 'capsule') {
    transformPoint(e, shape.offset, A);
    transformPoint(e, shape.tail, B);
    for (let i = 0; i < 3; i++) POS[i] = 0.5 * (A[i] + B[i]);
    D[0] = B[0] - A[0]; D[1] = B[1] - A[1]; D[2] = B[2] - A[2];
    fromUnitY(D, ROT);
  } else if (shape.type === 'plane') {
    const n = shape.normal;
    D[0] = e[0] * n.x + e[4] * n.y + e[8] * n.z; D[1] = e[1] * n.x + e[5] * n.y + e[9] * n.z; D[2] = e[2] * n.x + e[6] * n.y + e[10] * n.z;
    fromUnitY(D, ROT);
  }
}

// The shortest rotation taking +Y onto d = (d[0], d[1], d[2]), into out: (Y x d, 1 + Y.d) normalised.
function fromUnitY(d, out) {
  const dx = d[0], dy = d[1], dz = d[2];
  const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(l > 0)) { out[0] = 0; out[1] = 0; out[2] = 0; out[3] = 1; return; }
  const x = dx / l, y = dy / l, z = dz / l, r = y + 1;
  if (r < 1e-6) { out[0] = 1; out[1] = 0; out[2] = 0; out[3] = 0; return; }
  const n = Math.sqrt(z * z + x * x + r * r);
  out[0] = z / n; out[1] = 0; out[2] = -x / n; out[3] = r / n;
}
