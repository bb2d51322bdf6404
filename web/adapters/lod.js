// CharacterLOD: how much of each character is simulated, chosen from the camera. A character is
// a group of Wisp objects (ropes, cloth, chains, or adapters holding them) with a bounding
// sphere. Each update(camera), before world.step():
//   - distance from the camera to the sphere picks a level (wasm/js/levels.js): full, reduced
//     (every 2nd step), slow (every 4th), frozen, off, at thresholds `distances`;
//   - a character outside the view frustum gets at least the `offscreen` level;
//   - hysteresis: a level changes only once the distance is past its threshold by `margin`
//     (either way), and a character counts as leaving the frustum only once its sphere grown by
//     `frustumMargin` is out; so a camera hovering at a threshold does not flip levels each frame.
// The choice is a function of the camera path alone: the same path gives the same levels.
// With a `budget` (wasm/js/budget.js), the levels are caps that the budget may lower further
// (add every object to the budget first: setCap throws for one it does not know). A budget over a
// worker world works the same: its setCap goes to the worker in order with the world's calls.
// No allocation per frame unless a level changes.
import * as THREE from 'three';
import { LEVELS, levelIndex, simulatedObject, applyLevel } from '../../wasm/js/levels.js';
import { fail } from '../../wasm/js/args.js';

const OFF = LEVELS.indexOf('off');

function finiteNonNegative(v, name) {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) fail(`${name} must be a finite number >= 0 (got ${String(v)})`);
  return v;
}

export class CharacterLOD {
  #distances; #margin; #offscreen; #frustumMargin; #budget;
  #frustum = new THREE.Frustum(); #m = new THREE.Matrix4(); #sphere = new THREE.Sphere(); #camera = new THREE.Vector3();
  #pool = [];
  /** The characters added, in order. */
  characters = [];
  /** What the last update() changed: { changes: [{ character, from, to }] } (level names), reused. */
  report = { changes: [] };

  /**
   * @param options.distances  m from the camera to the character's sphere where reduced, slow,
   *                           frozen and off start (4 increasing numbers). Default [10, 20, 40, 80].
   * @param options.margin     m of hysteresis around each threshold. Default 1.
   * @param options.offscreen  the least level outside the frustum. Default 'frozen'.
   * @param options.frustumMargin  m the sphere grows while it counts as on screen. Default 0.5.
   * @param options.budget     a FrameBudget whose caps these levels set, instead of applying them.
   */
  constructor({ distances = [10, 20, 40, 80], margin = 1, offscreen = 'frozen', frustumMargin = 0.5, budget = null } = {}) {
    if (!Array.isArray(distances) || distances.length !== LEVELS.length - 1) fail(`distances must be ${LEVELS.length - 1} numbers (where ${LEVELS.slice(1).join(', ')} start)`);
    distances.forEach((d, i) => {
      finiteNonNegative(d, `distances[${i}]`);
      if (i > 0 && !(d > distances[i - 1])) fail(`distances must increase (distances[${i}] = ${d} after ${distances[i - 1]})`);
    });
    this.#distances = Float64Array.from(distances);
    this.#margin = finiteNonNegative(margin, 'margin');
    this.#offscreen = levelIndex(offscreen, 'offscreen');
    this.#frustumMargin = finiteNonNegative(frustumMargin, 'frustumMargin');
    if (budget !== null && (typeof budget !== 'object' || typeof budget.setCap !== 'function')) fail('budget must be a FrameBudget (or null)');
    this.#budget = budget;
  }

  /**
   * Adds a character: { objects, bounds, radius, hide, onLevel }.
   *   objects  Ropes, Cloths, Chains (or RopeMesh / ClothMesh / SpringBoneChain holding them)
   *   bounds   an Object3D (its world position, with `radius` m, default 1), a THREE.Sphere, or
   *            (target: THREE.Sphere) => void filling in the sphere
   *   hide     Object3Ds made invisible at level 'off' (and visible again above it)
   *   onLevel  (to, from) => void, called on every change (level names)
   * Returns the character: { objects, level, visible, distance } (level a name; updated by update()).
   */
  add({ objects, bounds, radius = 1, hide = [], onLevel = null } = {}) {
    if (!Array.isArray(objects) || objects.length === 0) fail('character.objects must be a non-empty array');
    const list = objects.map((o, i) => simulatedObject(o, `character.objects[${i}]`));
    const isSphere = bounds instanceof THREE.Sphere, isObject = bounds instanceof THREE.Object3D;
    if (!isSphere && !isObject && typeof bounds !== 'function') fail('character.bounds must be an Object3D, a THREE.Sphere or a function (sphere) => void');
    finiteNonNegative(radius, 'character.radius');
    if (!Array.isArray(hide) || hide.some((h) => !(h instanceof THREE.Object3D))) fail('character.hide must be an array of Object3D');
    if (onLevel !== null && typeof onLevel !== 'function') fail('character.onLevel must be a function');
    const c = { objects: list, level: 'full', visible: true, distance: 0, _level: -1, _bounds: bounds, _radius: radius, _hide: hide, _onLevel: onLevel };
    this.characters.push(c);
    return c;
  }

  /** Stops managing a character (its objects keep their current level). */
  remove(character) {
    const i = this.characters.indexOf(character);
    if (i >= 0) this.characters.splice(i, 1);
  }

  /** The level (index) a character at `distance` gets, coming from `level`, with hysteresis. */
  #distanceLevel(distance, level) {
    const t = this.#distances, m = this.#margin;
    let up = 0, down = 0;
    for (let i = 0; i < t.length; i++) {
      if (distance > t[i] + m) up = i + 1;
      if (distance >= t[i] - m) down = i + 1;
    }
    if (level < 0) {  // first update: no history, plain thresholds
      let plain = 0;
      for (let i = 0; i < t.length; i++) if (distance >= t[i]) plain = i + 1;
      return plain;
    }
    if (up > level) return up;
    if (down < level) return down;
    return level;
  }

  /** Chooses and applies every character's level from `camera` (call before world.step()). Returns `report`. */
  update(camera) {
    if (!(camera instanceof THREE.Camera)) fail('update needs a THREE.Camera');
    camera.updateMatrixWorld();
    this.#frustum.setFromProjectionMatrix(this.#m.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
    const eye = this.#camera.setFromMatrixPosition(camera.matrixWorld), sphere = this.#sphere;
    const changes = this.report.changes;
    changes.length = 0;
    for (const c of this.characters) {
      const b = c._bounds;
      if (b instanceof THREE.Sphere) sphere.copy(b);
      else if (b instanceof THREE.Object3D) {
        b.updateWorldMatrix(true, false);
        sphere.center.setFromMatrixPosition(b.matrixWorld);
        sphere.radius = c._radius;
      } else b(sphere);
      c.distance = Math.max(0, eye.distanceTo(sphere.center) - sphere.radius);
      const r = sphere.radius;
      sphere.radius = r + (c.visible ? this.#frustumMargin : 0);
      c.visible = this.#frustum.intersectsSphere(sphere);
      sphere.radius = r;
      let level = this.#distanceLevel(c.distance, c._level);
      if (!c.visible && level < this.#offscreen) level = this.#offscreen;
      if (level !== c._level) this.#change(c, level, changes);
    }
    return this.report;
  }

  #change(c, level, changes) {
    const from = c._level;
    for (const o of c.objects) {
      if (o.disposed) continue;  // removed from the world meanwhile
      if (this.#budget !== null) this.#budget.setCap(o, level);
      else applyLevel(o, from, level);
    }
    if ((from === OFF) !== (level === OFF)) for (const h of c._hide) h.visible = level !== OFF;
    c._level = level;
    c.level = LEVELS[level];
    const entry = this.#pool[changes.length] ?? (this.#pool[changes.length] = { character: null, from: null, to: null });
    entry.character = c;
    entry.from = from < 0 ? null : LEVELS[from];
    entry.to = LEVELS[level];
    changes.push(entry);
    if (c._onLevel !== null) c._onLevel(entry.to, entry.from);
  }
}
