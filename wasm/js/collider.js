// A collider: sphere, capsule, plane or box, moved by its pose.
import { num, bool, objectArg } from './args.js';
import { readPose, readMatrix, callPose, IDENTITY, POSE_COLLIDER, POSE_COLLIDER_TELEPORT } from './pose.js';
import { Handle } from './handle.js';

export class Collider extends Handle {
  #type;
  constructor(world, id, type) { super(world, id); this.#type = type; }
  get type() { return this.#type; }
  /**
   * Pose reached at the end of the next step: the collider sweeps there across the substeps,
   * pushing what it meets. With { teleport: true } it jumps there and sweeps nothing.
   */
  setTransform(position, rotation = IDENTITY, options) {
    const teleport = options !== undefined && objectArg(options, 'options').teleport;
    callPose(this._world, teleport ? POSE_COLLIDER_TELEPORT : POSE_COLLIDER, this._id, readPose(position, rotation));
  }
  /**
   * Pose and uniform scale from a column-major 4x4 matrix (three.js Matrix4.elements, e.g. a
   * bone's matrixWorld): the shape is the size it was made with times the scale, as a three.js
   * mesh is (a plane has no size). A non-uniform scale or a mirror throws and changes nothing.
   */
  setMatrix(e, options) {
    const teleport = options !== undefined && objectArg(options, 'options').teleport;
    callPose(this._world, teleport ? POSE_COLLIDER_TELEPORT : POSE_COLLIDER, this._id, readMatrix(e, 'collider.setMatrix'));
  }
  setEnabled(on) { this._world._check(this._world._native.setColliderEnabled(this._id, bool(on, 'enabled'))); }
  setFriction(mu) { this._world._check(this._world._native.setColliderFriction(this._id, num(mu, 'friction'))); }
  dispose() { this._dispose((n, id) => n.removeCollider(id)); }
}
