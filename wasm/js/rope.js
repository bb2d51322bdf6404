// A rope: a line of particles.
import { int, objectArg, pick } from './args.js';
import { ROPE_PARAMS } from './options.js';
import { Body } from './body.js';
import { addActivity } from './activity.js';
import { kindCode } from './kinds.js';
import { POINTS } from './interpolation.js';

// Where each output array's floats live (views.js); constants, so reading a view makes no closure.
const ROPE_POSITIONS = (n, id) => n.ropePositionsPtr(id);

const ROPE_CALLS = {
  count: 'ropeParticleCount', particle: 'particle', setVelocity: 'setParticleVelocity', pin: 'pin', unpin: 'unpin',
  teleport: 'teleportRope', reset: 'resetRope', remove: 'removeRope',
};

export class Rope extends Body {
  get _kindCode() { return kindCode(this._world._module, 'rope'); }
  /** @internal */ _calls() { return ROPE_CALLS; }
  /** Particle positions, x y z per particle: an output array (views.js), refreshed by every step; replaced when the rope is cut. */
  get positions() { return this._output(0, ROPE_POSITIONS, POINTS); }
  /** What a renderer shows: with the world option `interpolate`, positions at world.alpha between the last two fixed steps (its own array); else `positions`. */
  get renderPositions() { return this._render(0, ROPE_POSITIONS, POINTS); }
  /** Current parameters (a fresh object). */
  get params() { return this._world._native.ropeParams(this._id); }
  /** Changes any subset of RopeParams; validated, nothing changes on error. */
  set(params) {
    const p = pick(objectArg(params, 'params'), ROPE_PARAMS, 'params');
    this._world._check(this._world._native.setRopeParams(this._id, p));
  }
  /** Rest length (m) of segment s; grows under plastic stretch. */
  restLength(s) {
    const len = this._world._native.segmentRestLength(this._id, int(s, 'segment'));
    if (Number.isNaN(len)) this._world._check(this._world._native.lastCode());
    return len;
  }
  /** Cuts segment s (between particles s and s+1); returns the new rope made of the far part. */
  cut(s) {
    const w = this._world;
    const id = w._id(w._native.cutRope(this._id, int(s, 'segment')));
    w._bump();
    w._refreshViews();  // this rope is shorter: its positions array is replaced
    return w._own(new Rope(w, id));
  }
}
addActivity(Rope);
