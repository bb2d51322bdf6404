// A cloth: a triangle mesh of particles, with normals.
import { objectArg, pick } from './args.js';
import { CLOTH_PARAMS } from './options.js';
import { memoryBuffer } from './views.js';
import { Body } from './body.js';
import { addActivity } from './activity.js';
import { kindCode } from './kinds.js';
import { POINTS, UNIT_VECTORS } from './interpolation.js';

// Where each output array's floats live (views.js); constants, so reading a view makes no closure.
const CLOTH_POSITIONS = (n, id) => n.clothPositionsPtr(id);
const CLOTH_NORMALS = (n, id) => n.clothNormalsPtr(id);

const CLOTH_CALLS = {
  count: 'clothParticleCount', particle: 'clothParticle', setVelocity: 'setClothParticleVelocity', pin: 'pinCloth',
  unpin: 'unpinCloth', teleport: 'teleportCloth', reset: 'resetCloth', remove: 'removeCloth',
};

export class Cloth extends Body {
  #indices = null;
  get _kindCode() { return kindCode(this._world._module, 'cloth'); }
  /** @internal */ _calls() { return CLOTH_CALLS; }
  /** Vertex positions, x y z per particle: an output array (views.js). */
  get positions() { return this._output(0, CLOTH_POSITIONS, POINTS); }
  /** Unit vertex normals, x y z per particle, computed by the solver each step: an output array. */
  get normals() { return this._output(1, CLOTH_NORMALS, UNIT_VECTORS); }
  /** What a renderer shows: with the world option `interpolate`, positions at world.alpha between the last two fixed steps; else `positions`. */
  get renderPositions() { return this._render(0, CLOTH_POSITIONS, POINTS); }
  /** What a renderer shows: with `interpolate`, normals lerped between the last two fixed steps and renormalised; else `normals`. */
  get renderNormals() { return this._render(1, CLOTH_NORMALS, UNIT_VECTORS); }
  /** Triangles as particle indices, 3 per triangle (a copy: they never change). */
  get indices() {
    if (this.#indices === null) {
      const w = this._world, n = w._native, id = this._id;
      const count = n.clothTriangleCount(id);
      this.#indices = new Uint32Array(new Uint32Array(memoryBuffer(w._module), n.clothTrianglesPtr(id), 3 * count));
    }
    return this.#indices;
  }
  /** For a mesh cloth: the particle index of each input vertex (welded vertices share one). A copy. */
  get vertexMap() {
    const w = this._world, n = w._native, id = this._id;
    return new Int32Array(new Int32Array(memoryBuffer(w._module), n.clothVertexMapPtr(id), n.clothVertexCount(id)));
  }
  /** Current parameters (a fresh object). */
  get params() { return this._world._native.clothParams(this._id); }
  /** Changes any subset of ClothParams; validated, nothing changes on error. */
  set(params) {
    const p = pick(objectArg(params, 'params'), CLOTH_PARAMS, 'params');
    this._world._check(this._world._native.setClothParams(this._id, p));
  }
  /** Solver statistics of the last step: constraint counts, strain, substeps, iterations. */
  stats() { return this._world._native.clothStats(this._id); }
}
addActivity(Cloth);
