import { int, num, vec3, quat, objectArg } from './args.js';
import { Handle } from './handle.js';
import { OutputArrays } from './views.js';

// What ropes and cloths share: particles, pins, teleport, reset. `kind` names the native calls.
class Body extends Handle {
  #outputs = new OutputArrays(this, 2);  // positions; a cloth's normals
  /** @internal */ _calls() { throw new Error('abstract'); }
  /** @internal output array k (views.js), made on first use: 0 positions, 1 normals; `mode` how it interpolates (interpolation.js) */
  _output(k, ptrFn, mode) { return this.#outputs.get(k, ptrFn, 3, mode); }
  /** @internal what a renderer shows of output array k (views.js: interpolated with the world option `interpolate`) */
  _render(k, ptrFn, mode) { return this.#outputs.render(k, ptrFn, 3, mode); }
  /** Number of particles. */
  get count() { return this._world._native[this._calls().count](this._id); }
  /** { position, velocity, invMass, pinned } of particle i. */
  particle(i) {
    const n = this._world._native;
    const r = n[this._calls().particle](this._id, int(i, 'particle index'));
    if (r === null) this._world._check(n.lastCode());
    return r;
  }
  setVelocity(i, v) {
    const p = vec3(v, 'velocity');
    this._world._check(this._world._native[this._calls().setVelocity](this._id, int(i, 'particle index'), p[0], p[1], p[2]));
  }
  /**
   * Pins particle i to an anchor of the same world: exactly, or with { maxDistance } (m) kept
   * within that distance of it and free to swing inside (a vertex skinned to a bone with slack).
   */
  pin(i, anchor, options = {}) {
    this._world._mine(anchor, 'anchor');
    const { maxDistance = 0, compliance = 0 } = objectArg(options, 'options');
    this._world._check(this._world._native[this._calls().pin](this._id, int(i, 'particle index'), anchor._id,
      num(maxDistance, 'maxDistance'), num(compliance, 'compliance')));
    this._world._refreshViews();
  }
  unpin(i) {
    this._world._check(this._world._native[this._calls().unpin](this._id, int(i, 'particle index')));
    this._world._refreshViews();
  }
  /** Moves it rigidly without adding velocity: rotation (quaternion) about pivot, then translation. */
  teleport({ translation = [0, 0, 0], rotation = [0, 0, 0, 1], pivot = [0, 0, 0] } = {}) {
    const t = vec3(translation, 'translation'), q = quat(rotation, 'rotation'), p = vec3(pivot, 'pivot');
    this._world._check(this._world._native[this._calls().teleport](this._id, t[0], t[1], t[2], q[0], q[1], q[2], q[3], p[0], p[1], p[2]));
    this._world._refreshViews();
  }
  /** Back to the creation pose, at rest. */
  reset() {
    this._world._check(this._world._native[this._calls().reset](this._id));
    this._world._refreshViews();
  }
  dispose() {
    if (this.disposed) return;
    this.#outputs.drop();
    this._dispose((n, id) => n[this._calls().remove](id));
    if (!this._world.disposed) this._world._bump();
  }
}

export { Body };
