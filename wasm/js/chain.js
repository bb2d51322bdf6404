// A spring-bone chain (hair, tails, ponytails).
import { fail, num, int, vec3, objectArg, pick, nameOf } from './args.js';
import { CHAIN_PARAMS, CHAIN_BOOST, CHAIN_MODES, CHAIN_SPACES } from './options.js';
import { readPose, readMatrix, callPose, IDENTITY, POSE_CHAIN_ROOT, POSE_CHAIN_SPACE, POSE_CHAIN_TELEPORT } from './pose.js';
import { Handle } from './handle.js';
import { OutputArrays } from './views.js';
import { addActivity } from './activity.js';
import { kindCode } from './kinds.js';
import { POINTS, ROTATIONS } from './interpolation.js';

// Where each output array's floats live (views.js); constants, so reading a view makes no closure.
const CHAIN_POSITIONS = (n, id) => n.chainPositionsPtr(id);
const CHAIN_ROTATIONS = (n, id) => n.chainRotationsPtr(id);
const CHAIN_LOCAL_ROTATIONS = (n, id) => n.chainLocalRotationsPtr(id);

/**
 * A spring-bone chain. Joint 0 rides the root; the others follow it. Outputs per joint, as
 * output arrays (views.js) refreshed every step: positions (xyz), rotations (world, xyzw) and
 * localRotations (relative to the parent joint, the root for joint 0: what bone.quaternion takes).
 */
export class Chain extends Handle {
  #outputs = new OutputArrays(this, 3);
  get _kindCode() { return kindCode(this._world._module, 'chain'); }
  /** Number of joints, with the end tip if endLength > 0. */
  get count() { return this._world._native.chainJointCount(this._id); }
  get positions() { return this.#outputs.get(0, CHAIN_POSITIONS, 3, POINTS); }
  get rotations() { return this.#outputs.get(1, CHAIN_ROTATIONS, 4, ROTATIONS); }
  get localRotations() { return this.#outputs.get(2, CHAIN_LOCAL_ROTATIONS, 4, ROTATIONS); }
  /**
   * What a renderer shows: with the world option `interpolate`, the outputs at world.alpha
   * between the last two fixed steps (positions lerped, rotations nlerped), each its own array;
   * else the output arrays above.
   */
  get renderPositions() { return this.#outputs.render(0, CHAIN_POSITIONS, 3, POINTS); }
  get renderRotations() { return this.#outputs.render(1, CHAIN_ROTATIONS, 4, ROTATIONS); }
  get renderLocalRotations() { return this.#outputs.render(2, CHAIN_LOCAL_ROTATIONS, 4, ROTATIONS); }
  /** Current parameters (a fresh object that set() accepts back). */
  get params() {
    const p = this._world._native.chainParams(this._id);
    p.mode = nameOf(CHAIN_MODES, p.mode);
    p.space = nameOf(CHAIN_SPACES, p.space);
    return p;
  }
  /** Changes any subset of ChainParams; validated against the joints, nothing changes on error. */
  set(params) {
    const p = pick(objectArg(params, 'params'), CHAIN_PARAMS, 'params');
    this._world._check(this._world._native.setChainParams(this._id, p));
  }
  /** The root's pose from animation, reached at the end of the next step (interpolated across it). */
  setRoot(position, rotation = IDENTITY) { callPose(this._world, POSE_CHAIN_ROOT, this._id, readPose(position, rotation)); }
  /**
   * setRoot from a column-major 4x4 world matrix (three.js Matrix4.elements). A uniform scale s
   * scales the chain (bone lengths, radii, gravity and external force, teleport distance) about its
   * root; a non-uniform scale or a mirror (negative determinant) throws.
   */
  setRootMatrix(elements) { callPose(this._world, POSE_CHAIN_ROOT, this._id, readMatrix(elements, 'chain.setRootMatrix')); }
  /** The pose of the simulation space (params.space = 'relative'), e.g. the hips. */
  setSpace(position, rotation = IDENTITY) { callPose(this._world, POSE_CHAIN_SPACE, this._id, readPose(position, rotation)); }
  setSpaceMatrix(elements) { callPose(this._world, POSE_CHAIN_SPACE, this._id, readMatrix(elements, 'chain.setSpaceMatrix')); }
  /**
   * The animated pose for the end of the next step: local rotations x, y, z, w of joints 0..n-1
   * (joint 0 relative to the root, each other to its parent joint), n = length / 4, at most
   * `count`; the other joints keep their rest rotations. The pose spring, limits and outputs
   * follow it instead of the rest pose. Copied into WASM memory; allocates nothing.
   */
  setPose(localRotations) {
    const q = localRotations;
    if (!q || typeof q !== 'object' || typeof q.length !== 'number' || q.length === 0 || (q.length & 3) !== 0) {
      fail(`setPose: localRotations must hold 4 numbers (x, y, z, w) per joint (got length ${q && typeof q === 'object' ? q.length : typeof q})`);
    }
    const w = this._world, block = w._poseBlock(q.length);
    for (let i = 0; i < q.length; i++) {
      const v = q[i];
      if (typeof v !== 'number') num(v, `localRotations[${i}]`);
      block[i] = v;
    }
    w._check(w._module._wisp_set_chain_pose(w._address, this._id, q.length >> 2));
  }
  /**
   * How much of the simulation the outputs show over the animated pose: 0 = the animated pose
   * (setPose; the rest pose without it) exactly, 1 = fully simulated (the default), reached
   * linearly over `seconds` of simulated time (0 = at once). The simulation runs underneath.
   */
  setPhysicsWeight(weight, seconds = 0) {
    this._world._check(this._world._native.setChainPhysicsWeight(this._id, num(weight, 'weight'), num(seconds, 'seconds')));
  }
  /**
   * Timed multipliers, e.g. boost({ stiffness: 3 }, 0.3) during a fast turn: each given parameter
   * times its multiplier, fading linearly back to 1 over `seconds` of simulated time (per fixed
   * step). Replaces a running boost; seconds 0 ends it.
   */
  boost(multipliers, seconds) {
    const m = pick(objectArg(multipliers, 'multipliers'), CHAIN_BOOST, 'multipliers');
    this._world._check(this._world._native.boostChain(this._id, m, num(seconds, 'seconds')));
  }
  /** Jumps the root there now, carrying the chain rigidly: same shape, no velocity added. */
  teleport(position, rotation = IDENTITY) {
    callPose(this._world, POSE_CHAIN_TELEPORT, this._id, readPose(position, rotation));
    this._world._refreshViews();
  }
  /** The rest pose on the current root, at rest. */
  reset() {
    this._world._check(this._world._native.resetChain(this._id));
    this._world._refreshViews();
  }
  /** { joints, maxLengthError (m), maxSpeed (m/s), teleports } after the last step. */
  stats() { return this._world._native.chainStats(this._id); }
  /** { position, velocity, invMass, pinned } of joint i. */
  particle(i) {
    const n = this._world._native;
    const r = n.chainParticle(this._id, int(i, 'joint index'));
    if (r === null) this._world._check(n.lastCode());
    return r;
  }
  setVelocity(i, v) {
    const p = vec3(v, 'velocity');
    this._world._check(this._world._native.setChainParticleVelocity(this._id, int(i, 'joint index'), p[0], p[1], p[2]));
  }
  dispose() {
    if (this.disposed) return;
    this.#outputs.drop();
    this._dispose((n, id) => n.removeChain(id));
    if (!this._world.disposed) this._world._bump();
  }
}
addActivity(Chain);
