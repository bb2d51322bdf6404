// Wisp: the JavaScript API over the WebAssembly solver.
//
//   import { createWisp } from 'wisp';
//   const wisp = await createWisp();            // threaded build when it can run, else single-threaded
//   const world = wisp.createWorld({ substeps: 8 });
//   const rope = world.addRope({ start: [0, 2, 0], end: [2, 2, 0], segments: 32, pinned: [0] });
//   world.step(dt);                             // every frame
//   rope.positions;                             // Float32Array (x, y, z per particle), refreshed by every step
//   world.dispose();
//
// Every failure throws a WispError with a `code` ('invalid-argument', 'invalid-handle',
// 'out-of-range', 'disposed', 'foreign-object', 'unsupported', 'load-failed') and a message naming the culprit.

import { WispError } from './error.js';
import { loadModule } from './loader.js';

import { OutputView, memoryBuffer } from './views.js';

const CODE_NAMES = ['ok', 'invalid-argument', 'invalid-handle', 'out-of-range', 'unsupported', 'out-of-memory'];
const COLLIDER_TYPES = { sphere: 0, capsule: 1, plane: 2, box: 3 };
const COLLIDER_TYPE_NAMES = ['sphere', 'capsule', 'plane', 'box'];

/** The state hash of the determinism scene after 600 frames (Wisp.determinismSceneHash). */
export const DETERMINISM_GOLDEN_HASH = 'f3a537e7905f80fd';

export { WispError } from './error.js';
export { canUseThreads } from './loader.js';

/**
 * Loads the solver. options.threads: 'auto' (default), true (fail if impossible) or false;
 * options.baseUrl: where the build's files live (default: this package's wasm/dist/);
 * options.timeout: ms before a load that has not finished is rejected (default 30 000).
 * How the files are found and what each failure says: loader.js.
 */
export async function createWisp(options = {}) {
  const { module, threaded } = await loadModule(options);
  return new Wisp(module, threaded);
}

// ---- argument checks: types here, values (NaN, ranges) in the core --------------------------

function fail(message, code = 'invalid-argument') { throw new WispError(message, code); }
function num(v, name) {
  if (typeof v !== 'number') fail(`${name} must be a number (got ${v === null ? 'null' : typeof v})`);
  return v;
}
function int(v, name) {
  num(v, name);
  if (!Number.isInteger(v)) fail(`${name} must be an integer (got ${v})`);
  return v;
}
function bool(v, name) {
  if (typeof v !== 'boolean') fail(`${name} must be a boolean (got ${typeof v})`);
  return v;
}
function vec3(v, name) {
  if (!v || typeof v !== 'object' || typeof v.length !== 'number' || v.length !== 3) {
    // also accept {x, y, z} (three.js Vector3)
    if (v && typeof v === 'object' && 'x' in v && 'y' in v && 'z' in v) return [num(v.x, `${name}.x`), num(v.y, `${name}.y`), num(v.z, `${name}.z`)];
    fail(`${name} must be [x, y, z] or {x, y, z}`);
  }
  return [num(v[0], `${name}[0]`), num(v[1], `${name}[1]`), num(v[2], `${name}[2]`)];
}
function quat(v, name) {
  if (v && typeof v === 'object' && 'w' in v && 'x' in v) return [num(v.x, `${name}.x`), num(v.y, `${name}.y`), num(v.z, `${name}.z`), num(v.w, `${name}.w`)];
  if (!v || typeof v.length !== 'number' || v.length !== 4) fail(`${name} must be [x, y, z, w] or {x, y, z, w}`);
  return [num(v[0], `${name}[0]`), num(v[1], `${name}[1]`), num(v[2], `${name}[2]`), num(v[3], `${name}[3]`)];
}
function objectArg(v, name) {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object') fail(`${name} must be an object`);
  return v;
}
// The options of `spec` present in `src`, type-checked; any key neither in `spec` nor in
// `handled` (keys the caller reads itself) is an error.
function pick(src, spec, where, handled = []) {
  const out = {};
  for (const [key, check] of Object.entries(spec)) {
    if (src[key] !== undefined) out[key] = check(src[key], `${where}.${key}`);
  }
  for (const key of Object.keys(src)) {
    if (!(key in spec) && !handled.includes(key)) fail(`${where}.${key} is not a known option`);
  }
  return out;
}

const ROPE_PARAMS = {
  radius: num, stretchCompliance: num, bending: bool, bendCompliance: num, damping: num, drag: num,
  gravityScale: num, yieldRatio: num, plasticity: num, collide: bool, tethers: bool, colliderMask: (v, n) => uint32(v, n),
  maxSpeed: num, teleportDistance: num, teleportAngle: num, sleepSpeed: num, sleepTime: num, updateEvery: int,
};
const ROPE_DEF = { ...ROPE_PARAMS, start: vec3, end: vec3, segments: int, massPerLength: num };
const CLOTH_PARAMS = {
  radius: num, stretchCompliance: num, shearCompliance: num, bendCompliance: num, bending: bool, tethers: bool,
  tetherSlack: num, damping: num, gravityScale: num, dragCoefficient: num, liftCoefficient: num, airDensity: num,
  residualTolerance: num, pressure: num, tetherCompliance: num, volumeCompliance: num, collide: bool, selfCollision: bool, colliderMask: (v, n) => uint32(v, n),
  maxSpeed: num, teleportDistance: num, teleportAngle: num, sleepSpeed: num, sleepTime: num, updateEvery: int,
};
const CLOTH_DEF = { ...CLOTH_PARAMS, weldDistance: num, areaDensity: num };
const GRID = { width: num, height: num, resolutionX: int, resolutionY: int, position: vec3, rotation: quat };
const WIND = { direction: vec3, speed: num, turbulence: num, turbulenceScale: num, seed: (v, n) => { int(v, n); if (v < 0 || v > 0xffffffff) fail(`${n} must be in [0, 4294967295]`); return v; } };
const WORLD = {
  gravity: vec3, fixedDt: num, substeps: int, iterations: int, maxFrameDt: num, rejectFrameDt: num,
  collisions: bool, debugChecks: bool, threads: (v, n) => (v === 'auto' ? 0 : int(v, n)), wind: (v, n) => pick(objectArg(v, n), WIND, n),
};
const ZONE = { position: vec3, rotation: quat, radius: num, halfExtents: vec3, falloff: num, wind: (v, n) => pick(objectArg(v, n), WIND, n) };
const ZONE_SHAPES = { sphere: 0, box: 1 };
function uint32(v, name) {
  int(v, name);
  if (v < 0 || v > 0xffffffff) fail(`${name} must be in [0, 4294967295] (got ${v})`);
  return v;
}
const COLLIDER = {
  position: vec3, rotation: quat, radius: num, radiusTop: num, halfHeight: num, halfExtents: vec3, friction: num,
  enabled: bool, inside: bool, groups: uint32,
};
// A curve over the chain's length: [[t, value], ...] or [{ t, value }, ...].
function curve(v, name) {
  if (!Array.isArray(v)) fail(`${name} must be an array of [t, value] keys`);
  return v.map((k, i) => {
    if (Array.isArray(k) && k.length === 2) return [num(k[0], `${name}[${i}][0]`), num(k[1], `${name}[${i}][1]`)];
    if (k && typeof k === 'object' && 't' in k && 'value' in k) return [num(k.t, `${name}[${i}].t`), num(k.value, `${name}[${i}].value`)];
    fail(`${name}[${i}] must be [t, value] or { t, value }`);
  });
}
function oneOf(names) {
  return (v, name) => {
    if (!(v in names)) fail(`${name} must be one of ${Object.keys(names).map((k) => `'${k}'`).join(', ')} (got ${String(v)})`);
    return names[v];
  };
}
function nameOf(names, code) { return Object.keys(names).find((k) => names[k] === code); }
const CHAIN_MODES = { wisp: 0, vrm: 1 };
const CHAIN_SPACES = { world: 0, relative: 1 };
const CHAIN_PARAMS = {
  mode: oneOf(CHAIN_MODES), space: oneOf(CHAIN_SPACES), damping: num, stiffness: num, elasticity: num, inertia: num,
  gravityScale: num, gravity: (v, n) => (v === null ? null : vec3(v, n)), externalForce: vec3, drag: num, radius: num,
  limitAngle: num, hinge: bool, hingeAxis: vec3, collide: bool, colliderMask: uint32, spaceInertia: num,
  teleportDistance: num, teleportAngle: num, warmupSteps: int, maxDistance: num,
  dampingCurve: curve, stiffnessCurve: curve, elasticityCurve: curve, inertiaCurve: curve, gravityCurve: curve,
  externalForceCurve: curve, radiusCurve: curve, limitAngleCurve: curve, maxDistanceCurve: curve,
  sleepSpeed: num, sleepTime: num, updateEvery: int,
};
const CHAIN_DEF = { ...CHAIN_PARAMS, position: vec3, rotation: quat, endLength: num };

// ---- the module -----------------------------------------------------------------------------

export class Wisp {
  #module;
  constructor(module, threaded) {
    this.#module = module;
    /** true when the pthread build is loaded */
    this.threaded = threaded;
    /** true when the SIMD kernels are compiled in */
    this.simd = module.simdEnabled();
    /** largest `threads` setting that has an effect */
    this.maxThreads = module.maxThreads();
  }
  /** Creates a world. See WorldSettings in index.d.ts for the options and their defaults. */
  createWorld(settings = {}) { return new World(this.#module, settings); }
  /**
   * Self-test: runs the library's determinism scene (ropes, cloth, chains, every collider, wind)
   * for `frames` frames of 1/60 s on `threads` threads and returns its state hash. After 600
   * frames every build on every machine gives DETERMINISM_GOLDEN_HASH.
   */
  determinismSceneHash(threads = 1, frames = 600) {
    return this.#module.determinismSceneHash(int(threads, 'threads'), int(frames, 'frames'));
  }
  /** Bytes of WASM heap in use (malloc'd), for leak checks. */
  heapUsed() { return this.#module.heapUsed(); }
  /** The raw Emscripten module (advanced use). */
  get module() { return this.#module; }
}

function numberArray(v, name) {
  if (!v || typeof v !== 'object' || typeof v.length !== 'number') fail(`${name} must be a typed array or an array of numbers`);
  return v;
}
function intArray(v, name) {
  numberArray(v, name);
  for (let i = 0; i < v.length; i++) int(v[i], `${name}[${i}]`);
  return v;
}

// Copies arrays to the WASM heap for one call: specs are [TypedArray, array|null, name?]; fn
// gets [pointer, length] per spec. Elements of named arrays are type-checked on the way.
function withHeap(m, specs, fn) {
  const ptrs = [];
  try {
    const args = specs.map(([Type, arr, name]) => {
      if (!arr || arr.length === 0) return [0, 0];
      const bytes = arr.length * Type.BYTES_PER_ELEMENT;
      const ptr = m._malloc(bytes);
      if (ptr === 0) fail(`${name ?? 'an input array'} needs ${bytes} bytes, more than the WASM heap can give; nothing was changed`, 'out-of-memory');
      ptrs.push(ptr);
      const view = new Type(memoryBuffer(m), ptr, arr.length);
      if (name) for (let i = 0; i < arr.length; i++) view[i] = num(arr[i], `${name}[${i}]`);
      else view.set(arr);
      return [ptr, arr.length];
    });
    return fn(...args);
  } finally {
    for (const p of ptrs) m._free(p);
  }
}

export class World {
  #m; #native; #address = 0; #disposed = false; #objects = new Set(); #layout = 0; #views = [];
  #pose = { ptr: 0, floats: 0, buffer: null, f32: null };
  /** Report of the last step(): reused object, no allocation per frame. */
  lastStep = { fixedSteps: 0, droppedTime: 0, leftover: 0 };

  constructor(module, settings) {
    this.#m = module;
    const s = pick(objectArg(settings, 'settings'), WORLD, 'settings');
    this.#native = new module.World();
    this.#address = this.#native.address();
    const code = this.#native.configure(s);
    if (code !== 0) {
      const err = this.#error(code);
      this.#native.delete();
      this.#disposed = true;
      throw err;
    }
  }

  #error(code) { return new WispError(this.#native.lastError(), CODE_NAMES[code] ?? 'unknown'); }
  /** @internal */ _check(code) { if (code !== 0) throw this.#error(code); }
  /** @internal */ _id(id) { if (id < 0) throw this.#error(this.#native.lastCode()); return id; }
  /** @internal */ get _native() { this._alive(); return this.#native; }
  /** @internal */ get _module() { return this.#m; }
  /** @internal the native world for the per-frame WASM exports (checked alive) */
  get _address() { this._alive(); return this.#address; }
  /**
   * @internal A Float32Array over the native block that receives chains' animated poses, holding
   * at least `floats` floats: made again only when it must grow or WASM memory grew.
   */
  _poseBlock(floats) {
    const p = this.#pose;
    if (floats > p.floats) {
      p.ptr = this._native.chainPoseBlock(floats);  // may grow the memory: read the buffer after
      p.floats = floats;
      p.buffer = null;
    }
    const buffer = memoryBuffer(this.#m);
    if (p.buffer !== buffer) {
      p.buffer = buffer;
      p.f32 = new Float32Array(buffer, p.ptr, p.floats);
    }
    return p.f32;
  }
  /** @internal the per-frame scratch block { ptr, f32, f64 } */
  get _io() { return scratchOf(this.#m); }
  /** @internal */ get _layout() { return this.#layout; }
  /** @internal */ _bump() { this.#layout++; }
  /** @internal */ _forget(obj) { this.#objects.delete(obj); }
  /** @internal */ _own(obj) { this.#objects.add(obj); return obj; }
  /** @internal */ _addView(v) { this.#views.push(v); }
  /** @internal */ _dropView(v) {
    const i = this.#views.indexOf(v);
    if (i >= 0) this.#views.splice(i, 1);
    v.kill();
  }
  /** @internal copies every object's output into its arrays (after a step or a call that moved particles) */
  _refreshViews() {
    const v = this.#views;
    for (let i = 0; i < v.length; i++) v[i].sync();
  }
  /** @internal */ _alive() { if (this.#disposed) fail('this World has been disposed', 'disposed'); }
  /** @internal */ _mine(obj, what) {
    if (!obj || obj._world !== this) fail(`${what} belongs to another world (or is not a Wisp object)`, 'foreign-object');
    obj._alive();
  }

  get disposed() { return this.#disposed; }

  /**
   * Advances the simulation by `dt` seconds of real time (fixed internal steps; the rest is kept
   * for the next call). Returns the number of fixed steps taken. dt <= 0 or NaN throws (and, when
   * settings.rejectFrameDt is set, longer than it); longer than maxFrameDt (a background tab) is
   * clamped and reported in lastStep.droppedTime.
   */
  step(dt) {
    const a = this._address, io = scratchOf(this.#m), f = io.f64;
    f[0] = num(dt, 'dt');
    this._check(this.#m._wisp_step(a, io.ptr));
    const r = this.lastStep;
    r.fixedSteps = f[0];
    r.droppedTime = f[1];
    r.leftover = f[2];
    this._refreshViews();
    return r.fixedSteps;
  }
  /** Simulated time in seconds. */
  get time() { return this._native.time(); }
  /** Current settings (a fresh object). */
  get settings() { return this._native.settings(); }
  /** Changes any subset of the settings; validated as a whole, nothing changes on error. */
  set(settings) {
    const s = pick(objectArg(settings, 'settings'), WORLD, 'settings');
    if (s.wind) s.wind = { ...this._native.settings().wind, ...s.wind };
    this._check(this._native.configure(s));
  }
  setGravity(g) { this.set({ gravity: g }); }
  setWind(wind) { this.set({ wind }); }

  /**
   * Adds a rope: { start, end, segments } or { points: Float32Array|number[] (xyz...) }, with
   * optional pinned (particle indices), massPerLength and any RopeParams.
   */
  addRope(def) {
    const d = objectArg(def, 'rope');
    const clean = pick(d, ROPE_DEF, 'rope', ['points', 'pinned']);
    const m = this.#m;
    let points = null;  // checked element by element when copied to the heap
    if (d.points !== undefined) {
      const p = d.points;
      if (!p || typeof p.length !== 'number') fail('rope.points must be a Float32Array or an array of numbers (x, y, z, ...)');
      if (p.length % 3 !== 0) fail(`rope.points must hold x, y, z triples (length ${p.length} is not a multiple of 3)`);
      points = p;
    }
    const pinned = intArray(d.pinned ?? [], 'rope.pinned');
    const native = this._native;
    const id = withHeap(m, [[Float32Array, points, 'rope.points'], [Int32Array, pinned]],
      ([pp, np], [qp, nq]) => this._id(native.addRope(clean, pp, np / 3, qp, nq)));
    this.#layout++;
    return this._own(new Rope(this, id));
  }

  /**
   * Adds a cloth: { grid: { width, height, resolutionX, resolutionY, position, rotation } } or
   * { mesh: { positions, indices } } (three.js BufferGeometry arrays; duplicate vertices are welded
   * within weldDistance), with optional pinned (particle indices), areaDensity and any ClothParams.
   */
  addCloth(def) {
    const d = objectArg(def, 'cloth');
    const clean = pick(d, CLOTH_DEF, 'cloth', ['grid', 'mesh', 'pinned']);
    if ((d.grid === undefined) === (d.mesh === undefined)) fail('cloth needs exactly one of grid or mesh');
    let positions = null, indices = null;
    if (d.grid !== undefined) clean.grid = pick(objectArg(d.grid, 'cloth.grid'), GRID, 'cloth.grid');
    if (d.mesh !== undefined) {
      const mesh = objectArg(d.mesh, 'cloth.mesh');
      positions = numberArray(mesh.positions, 'cloth.mesh.positions');
      if (positions.length % 3 !== 0) fail(`cloth.mesh.positions must hold x, y, z triples (length ${positions.length})`);
      indices = numberArray(mesh.indices, 'cloth.mesh.indices');
      for (let i = 0; i < indices.length; i++) {
        if (!Number.isInteger(indices[i]) || indices[i] < 0) fail(`cloth.mesh.indices[${i}] must be a non-negative integer (got ${indices[i]})`, 'out-of-range');
      }
    }
    const pinned = intArray(d.pinned ?? [], 'cloth.pinned');
    const id = withHeap(this.#m, [
      [Float32Array, positions, 'cloth.mesh.positions'], [Uint32Array, indices], [Int32Array, pinned],
    ], ([pp, np], [ip, ni], [qp, nq]) => this._id(this._native.addCloth(clean, pp, np / 3, ip, ni, qp, nq)));
    this.#layout++;
    return this._own(new Cloth(this, id));
  }

  /**
   * Adds a spring-bone chain rooted on a transform you move every frame (setRoot): either
   * { joints: [{ position, rotation }, ...] } (a bone hierarchy, each joint in its parent's frame,
   * joint 0 in the root's) or { points } (world rest positions, x y z ...), with the root's
   * { position, rotation }, an optional endLength and any ChainParams.
   */
  addChain(def) {
    const d = objectArg(def, 'chain');
    const clean = pick(d, CHAIN_DEF, 'chain', ['joints', 'points']);
    if ((d.joints === undefined) === (d.points === undefined)) fail('chain needs exactly one of joints or points');
    let joints = null, points = null;
    if (d.joints !== undefined) {
      if (!Array.isArray(d.joints)) fail('chain.joints must be an array of { position, rotation }');
      joints = new Float64Array(7 * d.joints.length);
      d.joints.forEach((j, i) => {
        const o = objectArg(j, `chain.joints[${i}]`);
        pick(o, { position: vec3, rotation: quat }, `chain.joints[${i}]`);
        const p = vec3(o.position ?? [0, 0, 0], `chain.joints[${i}].position`);
        const q = quat(o.rotation ?? [0, 0, 0, 1], `chain.joints[${i}].rotation`);
        joints.set([...p, ...q], 7 * i);
      });
    } else {
      points = numberArray(d.points, 'chain.points');
      if (points.length % 3 !== 0) fail(`chain.points must hold x, y, z triples (length ${points.length} is not a multiple of 3)`);
    }
    const id = withHeap(this.#m, [[Float32Array, joints], [Float32Array, points, 'chain.points']],
      ([jp, nj], [pp, np]) => this._id(this._native.addChain(clean, jp, nj / 7, pp, np / 3)));
    this.#layout++;
    return this._own(new Chain(this, id));
  }

  /** Adds a kinematic anchor at `position`; pin rope particles to it and move it every frame. */
  addAnchor(position = [0, 0, 0]) {
    const p = vec3(position, 'anchor position');
    const id = this._id(this._native.addAnchor(p[0], p[1], p[2]));
    return this._own(new Anchor(this, id));
  }

  /** Adds a collider: { type: 'sphere'|'capsule'|'plane'|'box', position, rotation, radius, halfHeight, halfExtents, friction, enabled }. */
  addCollider(def) {
    const d = objectArg(def, 'collider');
    const type = COLLIDER_TYPES[d.type];
    if (type === undefined) fail(`collider.type must be one of ${Object.keys(COLLIDER_TYPES).join(', ')} (got ${String(d.type)})`);
    const clean = pick(d, COLLIDER, 'collider', ['type']);
    clean.type = type;
    const id = this._id(this._native.addCollider(clean));
    return this._own(new Collider(this, id, d.type));
  }

  /**
   * The full state as bytes (a Uint8Array copy). Loading it later and stepping on gives
   * bit-identical results to never having stopped.
   */
  saveSnapshot() { return this._native.saveSnapshot(); }
  /** Replaces this world's state with a snapshot; invalid data throws and changes nothing. */
  loadSnapshot(bytes) {
    if (!(bytes instanceof Uint8Array)) fail('snapshot must be a Uint8Array');
    withHeap(this.#m, [[Uint8Array, bytes]], ([ptr, n]) => this._check(this._native.loadSnapshot(ptr, n)));
    this.#layout++;
    this._refreshViews();
  }
  /** The full state as JSON text (readable, for debugging; same content as saveSnapshot). */
  saveSnapshotJson() { return this._native.saveSnapshotJson(); }
  loadSnapshotJson(json) {
    if (typeof json !== 'string') fail('snapshot JSON must be a string');
    this._check(this._native.loadSnapshotJson(json));
    this.#layout++;
    this._refreshViews();
  }

  /**
   * Adds a wind zone: { shape: 'sphere'|'box', position, rotation, radius | halfExtents, falloff,
   * wind: { direction, speed, turbulence, turbulenceScale, seed } }, added to the global wind inside it.
   */
  addWindZone(def) {
    const id = this._id(this._native.addWindZone(zoneArg(def)));
    return this._own(new WindZone(this, id));
  }
  /** The air velocity [x, y, z] (m/s) at a point now: global wind plus zones. */
  airVelocityAt(point) {
    const p = vec3(point, 'point');
    return this._native.airVelocityAt(p[0], p[1], p[2]);
  }

  /**
   * What the last step() noticed: [{ type: 'reset' | 'invariant', kind: 'rope' | 'cloth' | 'chain',
   * object (the Rope/Cloth/Chain, or null if not made through this wrapper), message }]. 'reset':
   * the object's state went non-finite and it was put back in its rest pose on its anchors, the
   * rest of the world untouched; 'invariant': a debug check failed (settings.debugChecks).
   * An empty array (shared, not allocated) when nothing happened.
   */
  events() {
    const n = this._native;
    if (n.eventCount() === 0) return NO_EVENTS;
    return n.events().map((e) => ({
      type: EVENT_TYPES[e.type],
      kind: OBJECT_KINDS[e.kind],
      object: [...this.#objects].find((o) => !o.disposed && o._kindCode === e.kind && o._rawId === e.id) ?? null,
      message: e.message,
    }));
  }
  /** Test hook: writes NaN into particle i of a rope, cloth or chain (to test containment). */
  injectFault(object, i) {
    this._mine(object, 'object');
    if (object._kindCode === undefined) fail('injectFault takes a Rope, Cloth or Chain');
    this._check(this._native.injectFault(object._kindCode, object._id, int(i, 'particle index')));
  }

  /**
   * Moves the coordinate origin to `offset` (m, in the current coordinates), for open worlds:
   * every position the world holds becomes position - offset (particles, anchors and their
   * targets, colliders, wind zones, chain roots); the motion goes on unchanged. Move your own
   * objects by the same offset. Far from the origin floats lose precision (10 km out: ~1 mm), so
   * keep the origin near the player, as with PhysX's shiftOrigin.
   */
  shiftOrigin(offset) {
    const v = readPose(offset, IDENTITY);
    this._check(this._native.shiftOrigin(v[0], v[1], v[2]));
  }

  /**
   * Handles for every live object: { ropes, cloths, chains, anchors, colliders, windZones }, each
   * an array in creation-slot order. Objects made through this wrapper come back as the same
   * handles; others (restored by loadSnapshot, or anchors made for `pinned`) get new ones, owned
   * by this world like any other. Allocates: call it after loading, not every frame.
   */
  objects() {
    const ids = this._native.objects();
    const known = new Map();
    const kinds = [Rope, Cloth, Chain, Anchor, Collider, WindZone];  // names do not survive minifiers
    for (const o of this.#objects) if (!o.disposed) known.set(`${kinds.indexOf(o.constructor)}:${o._rawId}`, o);
    const handle = (Class, id, make) => known.get(`${kinds.indexOf(Class)}:${id}`) ?? this._own(make(id));
    return {
      ropes: ids.ropes.map((id) => handle(Rope, id, () => new Rope(this, id))),
      cloths: ids.cloths.map((id) => handle(Cloth, id, () => new Cloth(this, id))),
      chains: ids.chains.map((id) => handle(Chain, id, () => new Chain(this, id))),
      anchors: ids.anchors.map((id) => handle(Anchor, id, () => new Anchor(this, id))),
      colliders: ids.colliders.map(([id, type]) => handle(Collider, id, () => new Collider(this, id, COLLIDER_TYPE_NAMES[type]))),
      windZones: ids.windZones.map((id) => handle(WindZone, id, () => new WindZone(this, id))),
    };
  }

  /** Hex string of the full simulation state; equal strings mean bit-identical states. */
  stateHash() { return this._native.stateHash(); }
  /** Counts of objects, the thread count in use, SIMD on/off. */
  stats() { return this._native.stats(); }

  /** Frees the world and everything in it. Further use of it or its objects throws. */
  dispose() {
    if (this.#disposed) return;
    for (const o of this.#objects) o._markDisposed();
    this.#objects.clear();
    for (const v of this.#views) v.kill();
    this.#views = [];
    this.#native.delete();
    this.#disposed = true;
  }
}

const NO_EVENTS = Object.freeze([]);
const OBJECT_KINDS = ['rope', 'cloth', 'chain'];
const EVENT_TYPES = ['reset', 'invariant', 'speed-clamped', 'teleport', 'sleep', 'wake'];

class Handle {
  #world; #id; #disposed = false;
  constructor(world, id) { this.#world = world; this.#id = id; }
  get _world() { return this.#world; }
  get _rawId() { return this.#id; }
  get _id() { this._alive(); return this.#id; }
  get disposed() { return this.#disposed; }
  _alive() {
    if (this.#disposed) fail(`this ${this.constructor.name} has been disposed`, 'disposed');
    this.#world._alive();
  }
  _markDisposed() { this.#disposed = true; }
  _dispose(remove) {
    if (this.#disposed) return;
    if (!this.#world.disposed) {
      this.#world._check(remove(this.#world._native, this.#id));
      this.#world._forget(this);
    }
    this.#disposed = true;
  }
}

// What ropes and cloths share: particles, pins, teleport, reset. `kind` names the native calls.
class Body extends Handle {
  #view = null;
  /** @internal */ _calls() { throw new Error('abstract'); }
  /** @internal the positions array (views.js), made on first use */
  _view(ptrFn) {
    this._alive();
    if (this.#view === null) this.#view = new OutputView(this, ptrFn, 3);
    return this.#view.array;
  }
  /** @internal */ _forgetViews() {
    if (this.#view !== null) this._world._dropView(this.#view);
    this.#view = null;
  }
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
    this._forgetViews();
    this._dispose((n, id) => n[this._calls().remove](id));
    if (!this._world.disposed) this._world._bump();
  }
}

// Where each output array's floats live (views.js); constants, so reading a view makes no closure.
const ROPE_POSITIONS = (n, id) => n.ropePositionsPtr(id);
const CLOTH_POSITIONS = (n, id) => n.clothPositionsPtr(id);
const CLOTH_NORMALS = (n, id) => n.clothNormalsPtr(id);
const CHAIN_POSITIONS = (n, id) => n.chainPositionsPtr(id);
const CHAIN_ROTATIONS = (n, id) => n.chainRotationsPtr(id);
const CHAIN_LOCAL_ROTATIONS = (n, id) => n.chainLocalRotationsPtr(id);

const ROPE_CALLS = {
  count: 'ropeParticleCount', particle: 'particle', setVelocity: 'setParticleVelocity', pin: 'pin', unpin: 'unpin',
  teleport: 'teleportRope', reset: 'resetRope', remove: 'removeRope',
};
const CLOTH_CALLS = {
  count: 'clothParticleCount', particle: 'clothParticle', setVelocity: 'setClothParticleVelocity', pin: 'pinCloth',
  unpin: 'unpinCloth', teleport: 'teleportCloth', reset: 'resetCloth', remove: 'removeCloth',
};

export class Rope extends Body {
  get _kindCode() { return 0; }
  /** @internal */ _calls() { return ROPE_CALLS; }
  /** Particle positions, x y z per particle: an output array (views.js), refreshed by every step; replaced when the rope is cut. */
  get positions() { return this._view(ROPE_POSITIONS); }
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

export class Cloth extends Body {
  #normals = null; #indices = null;
  get _kindCode() { return 1; }
  /** @internal */ _calls() { return CLOTH_CALLS; }
  /** Vertex positions, x y z per particle: an output array (views.js). */
  get positions() { return this._view(CLOTH_POSITIONS); }
  /** Unit vertex normals, x y z per particle, computed by the solver each step: an output array. */
  get normals() {
    this._alive();
    if (this.#normals === null) this.#normals = new OutputView(this, CLOTH_NORMALS, 3);
    return this.#normals.array;
  }
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
  /** @internal */ _forgetViews() {
    super._forgetViews();
    if (this.#normals !== null) this._world._dropView(this.#normals);
    this.#normals = null;
  }
}

// Per-frame setters fill this scratch pose (x y z, qx qy qz qw) instead of making arrays, so a
// frame's calls allocate nothing. The numbers are checked in place, not handed to num(): a double
// passed to a call V8 does not inline is boxed (an allocation per frame).
const POSE = new Float64Array(8);  // x y z, qx qy qz qw, uniform scale
function readPose(position, rotation) {
  POSE[7] = 1;
  readPosition(position);
  readRotation(rotation);
  return POSE;
}
// Every kind of argument has its own loads, and positions and rotations their own functions: one
// load that sees both small-integer arrays ([0, 0, 0, 1]) and Float64Arrays, or objects and
// arrays, makes the optimizing compiler box what it reads — an allocation per call in a program
// that passes both, as the three.js adapters and their users do (tests/js/alloc-probe.mjs).
function readPosition(v) {
  if (v && typeof v === 'object' && 'x' in v) {
    const x = v.x, y = v.y, z = v.z;
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') checkNumbers(v, 'position');
    POSE[0] = x; POSE[1] = y; POSE[2] = z;
  } else if (ArrayBuffer.isView(v)) {
    if (v.length !== 3) fail('position must have 3 elements');
    POSE[0] = v[0]; POSE[1] = v[1]; POSE[2] = v[2];
  } else {
    if (!v || v.length !== 3) fail('position must be [x, y, z] or {x, y, z}');
    const x = v[0], y = v[1], z = v[2];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') checkNumbers(v, 'position');
    POSE[0] = x; POSE[1] = y; POSE[2] = z;
  }
}
function readRotation(q) {
  if (q && typeof q === 'object' && 'w' in q) {
    const x = q.x, y = q.y, z = q.z, w = q.w;
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number') checkNumbers(q, 'rotation');
    POSE[3] = x; POSE[4] = y; POSE[5] = z; POSE[6] = w;
  } else if (ArrayBuffer.isView(q)) {
    if (q.length !== 4) fail('rotation must have 4 elements');
    POSE[3] = q[0]; POSE[4] = q[1]; POSE[5] = q[2]; POSE[6] = q[3];
  } else {
    if (!q || q.length !== 4) fail('rotation must be [x, y, z, w] or {x, y, z, w}');
    const x = q[0], y = q[1], z = q[2], w = q[3];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number') checkNumbers(q, 'rotation');
    POSE[3] = x; POSE[4] = y; POSE[5] = z; POSE[6] = w;
  }
}
// Throws the error num() would for the first non-number of a vector or quaternion.
function checkNumbers(v, name) {
  if ('x' in v) for (const k of ['x', 'y', 'z', 'w']) { if (k in v || k !== 'w') num(v[k], `${name}.${k}`); }
  else for (let i = 0; i < v.length; i++) num(v[i], `${name}[${i}]`);
}
// A column-major 4x4 matrix (three.js Matrix4.elements) into POSE; the rotation has the scale
// removed and POSE[7] holds the x scale. A mirrored matrix (negative determinant) has no rigid
// pose: it is an error, never read as another pose. With `uniform`, a non-uniform scale is an
// error too (a chain root: bones cannot follow it).
// Numbers pass through ROTATION, not as arguments: a double handed to a call V8 does not inline
// is boxed, an allocation per frame.
const ROTATION = new Float64Array(9);
function readMatrix(e, uniform = false) {
  if (!e || e.length !== 16) fail('matrix must have 16 elements (column-major)');
  // (not Math.hypot: its variadic builtin allocates on every call)
  const sx = Math.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  const sy = Math.sqrt(e[4] * e[4] + e[5] * e[5] + e[6] * e[6]);
  const sz = Math.sqrt(e[8] * e[8] + e[9] * e[9] + e[10] * e[10]);
  if (!(sx > 0 && sy > 0 && sz > 0)) fail('matrix has a zero-length axis');
  const det = e[0] * (e[5] * e[10] - e[6] * e[9]) - e[4] * (e[1] * e[10] - e[2] * e[9]) + e[8] * (e[1] * e[6] - e[2] * e[5]);
  if (!(det > 0)) fail(`matrix is mirrored (determinant ${det} <= 0): a mirrored transform has no rotation; mirror the rest pose instead`);
  if (uniform && (Math.abs(sx - sy) > 1e-3 * sx || Math.abs(sx - sz) > 1e-3 * sx)) {
    fail(`matrix has a non-uniform scale (${sx}, ${sy}, ${sz}): a chain root takes rotation, translation and a uniform scale only`);
  }
  POSE[7] = sx;
  POSE[0] = e[12]; POSE[1] = e[13]; POSE[2] = e[14];
  const R = ROTATION;
  R[0] = e[0] / sx; R[1] = e[4] / sy; R[2] = e[8] / sz;
  R[3] = e[1] / sx; R[4] = e[5] / sy; R[5] = e[9] / sz;
  R[6] = e[2] / sx; R[7] = e[6] / sy; R[8] = e[10] / sz;
  quatFromRotation(R, POSE, 3);
  return POSE;
}
/** The rigid pose of a column-major 4x4 matrix (three.js Matrix4.elements), scale removed: { position, rotation }. Throws for a mirrored matrix. */
export function poseFromMatrix(elements) {
  const P = readMatrix(elements);
  return { position: [P[0], P[1], P[2]], rotation: [P[3], P[4], P[5], P[6]] };
}
// `which` of the native wisp_set_pose export (bindings.cpp).
const POSE_COLLIDER = 0, POSE_COLLIDER_TELEPORT = 1, POSE_CHAIN_ROOT = 2, POSE_CHAIN_SPACE = 3, POSE_CHAIN_TELEPORT = 4;
function callPose(world, which, id, P) {
  const io = world._io, f = io.f32;
  f[0] = P[0]; f[1] = P[1]; f[2] = P[2]; f[3] = P[3]; f[4] = P[4]; f[5] = P[5]; f[6] = P[6]; f[7] = P[7];
  world._check(world._module._wisp_set_pose(world._address, which, id, io.ptr));
}

// The scratch block through which per-frame calls pass their numbers (bindings.cpp says why):
// 64 bytes of WASM memory per module, with views re-made when the memory grows.
const SCRATCH = new WeakMap();
function scratchOf(m) {
  let s = SCRATCH.get(m);
  if (s === undefined) {
    const ptr = m._malloc(64);
    if (ptr === 0) fail('no WASM memory for the per-frame scratch block', 'out-of-memory');
    s = { ptr, f32: null, f64: null, buffer: null };
    SCRATCH.set(m, s);
  }
  const buffer = memoryBuffer(m);
  if (s.buffer !== buffer) {
    s.f32 = new Float32Array(buffer, s.ptr, 16);
    s.f64 = new Float64Array(buffer, s.ptr, 8);
    s.buffer = buffer;
  }
  return s;
}

/**
 * A spring-bone chain. Joint 0 rides the root; the others follow it. Outputs per joint, as
 * output arrays (views.js) refreshed every step: positions (xyz), rotations (world, xyzw) and
 * localRotations (relative to the parent joint, the root for joint 0: what bone.quaternion takes).
 */
export class Chain extends Handle {
  #views = [null, null, null];
  get _kindCode() { return 2; }
  #viewOf(k, ptr, width) {
    this._alive();
    if (this.#views[k] === null) this.#views[k] = new OutputView(this, ptr, width);
    return this.#views[k].array;
  }
  /** Number of joints, with the end tip if endLength > 0. */
  get count() { return this._world._native.chainJointCount(this._id); }
  get positions() { return this.#viewOf(0, CHAIN_POSITIONS, 3); }
  get rotations() { return this.#viewOf(1, CHAIN_ROTATIONS, 4); }
  get localRotations() { return this.#viewOf(2, CHAIN_LOCAL_ROTATIONS, 4); }
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
  setRootMatrix(elements) { callPose(this._world, POSE_CHAIN_ROOT, this._id, readMatrix(elements, true)); }
  /** The pose of the simulation space (params.space = 'relative'), e.g. the hips. */
  setSpace(position, rotation = IDENTITY) { callPose(this._world, POSE_CHAIN_SPACE, this._id, readPose(position, rotation)); }
  setSpaceMatrix(elements) { callPose(this._world, POSE_CHAIN_SPACE, this._id, readMatrix(elements, true)); }
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
    for (const v of this.#views) if (v !== null) this._world._dropView(v);
    this.#views = [null, null, null];
    this._dispose((n, id) => n.removeChain(id));
    if (!this._world.disposed) this._world._bump();
  }
}

function zoneArg(def) {
  const d = objectArg(def, 'wind zone');
  const shape = ZONE_SHAPES[d.shape];
  if (shape === undefined) fail(`wind zone shape must be 'sphere' or 'box' (got ${String(d.shape)})`);
  const { shape: _, ...rest } = d;
  const clean = pick(rest, ZONE, 'wind zone');
  clean.shape = shape;
  return clean;
}

// Activity, shared by ropes, cloth and chains: switched off (skipped by the step, state kept; on
// again: carried at rest onto its current anchors or root), asleep when settled (params.sleepSpeed),
// simulated every params.updateEvery-th step. Setting `enabled` allocates nothing: a game may
// switch characters on and off every frame.
function activityFlags(o) {
  const w = o._world;
  const f = w._native.activityFlags(o._kindCode, o._id);
  if (f < 0) w._check(w._native.lastCode());
  return f;
}
const ACTIVITY = {
  /** false: skipped by the step (no solver time), state kept exactly. true again: carried at rest onto its current anchors (a chain: its root). */
  get enabled() { return (activityFlags(this) & 1) !== 0; },
  set enabled(on) { this.setEnabled(on); },
  setEnabled(on) {
    if (typeof on !== 'boolean') fail(`enabled must be true or false (got ${String(on)})`);
    const w = this._world;
    w._check(w._native.setEnabled(this._kindCode, this._id, on));
    if (on) w._refreshViews();
  },
  /** true while it sleeps (params.sleepSpeed / sleepTime): skipped until something disturbs it. */
  get sleeping() { return (activityFlags(this) & 2) !== 0; },
  /** Wakes it now (it runs from the next step). */
  wake() { this._world._check(this._world._native.wake(this._kindCode, this._id)); },
  /** Fixed steps it has been simulated (a solver counter: disabled, sleeping and skipped steps do not count). */
  get updates() {
    const w = this._world;
    const n = w._native.activityUpdates(this._kindCode, this._id);
    if (n < 0) w._check(w._native.lastCode());
    return n;
  },
};
for (const cls of [Rope, Cloth, Chain]) Object.defineProperties(cls.prototype, Object.getOwnPropertyDescriptors(ACTIVITY));

export class WindZone extends Handle {
  /** Replaces the zone's definition (move it, change its wind). */
  set(def) { this._world._check(this._world._native.setWindZone(this._id, zoneArg(def))); }
  dispose() { this._dispose((n, id) => n.removeWindZone(id)); }
}

export class Anchor extends Handle {
  /**
   * Target position for the end of the next world.step(dt); the fixed steps inside the frame see
   * it at their own time on the line from the previous target (see index.d.ts).
   */
  setPosition(p) {
    const v = readPose(p, IDENTITY);  // no allocation: called every frame
    const w = this._world, id = this._id, io = w._io, f = io.f32;
    f[0] = v[0]; f[1] = v[1]; f[2] = v[2];
    w._check(w._module._wisp_set_anchor_position(w._address, id, io.ptr));
  }
  /** Jumps there at once; pinned particles follow without gaining velocity. */
  teleport(p) {
    const v = vec3(p, 'anchor position');
    this._world._check(this._world._native.teleportAnchor(this._id, v[0], v[1], v[2]));
    this._world._refreshViews();
  }
  get position() { return this._world._native.anchorPosition(this._id); }
  dispose() { this._dispose((n, id) => n.removeAnchor(id)); }
}

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
  /** Pose from a column-major 4x4 matrix (three.js Matrix4.elements); scale is removed. */
  setMatrix(e, options) {
    const teleport = options !== undefined && objectArg(options, 'options').teleport;
    callPose(this._world, teleport ? POSE_COLLIDER_TELEPORT : POSE_COLLIDER, this._id, readMatrix(e));
  }
  setEnabled(on) { this._world._check(this._world._native.setColliderEnabled(this._id, bool(on, 'enabled'))); }
  setFriction(mu) { this._world._check(this._world._native.setColliderFriction(this._id, num(mu, 'friction'))); }
  dispose() { this._dispose((n, id) => n.removeCollider(id)); }
}

// Shepperd's method: pick the largest of w, x, y, z to divide by. R: the row-major rotation;
// writes x y z w at out[o..].
function quatFromRotation(R, out, o) {
  const m00 = R[0], m01 = R[1], m02 = R[2], m10 = R[3], m11 = R[4], m12 = R[5], m20 = R[6], m21 = R[7], m22 = R[8];
  const tr = m00 + m11 + m22;
  let x, y, z, w;
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    x = (m21 - m12) * s; y = (m02 - m20) * s; z = (m10 - m01) * s; w = 0.25 / s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s; w = (m21 - m12) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s; w = (m02 - m20) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s; w = (m10 - m01) / s;
  }
  out[o] = x; out[o + 1] = y; out[o + 2] = z; out[o + 3] = w;
}
const IDENTITY = Object.freeze([0, 0, 0, 1]);

export { COLLIDER_TYPE_NAMES as colliderTypes };

export * from './presets.js';
