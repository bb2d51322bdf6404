// The world: settings, stepping, adding objects, snapshots, events, and the objects it owns.
import { WispError } from './error.js';
import { fail, num, int, vec3, quat, objectArg, pick, numberArray, intArray } from './args.js';
import { COLLIDER_TYPES, COLLIDER_TYPE_NAMES, ROPE_DEF, CLOTH_DEF, GRID, WORLD, COLLIDER, CHAIN_DEF, CHAIN_LINKS_PARAMS } from './options.js';
import { withHeap, scratchOf } from './heap.js';
import { readPose, callRoots, IDENTITY } from './pose.js';
import { memoryBuffer, SNAP, SHIFT, KEEP } from './views.js';
import { renderAlpha, alphaArg } from './interpolation.js';
import { withTestHook } from './test-hooks.js';
import { Rope } from './rope.js';
import { Cloth } from './cloth.js';
import { Chain } from './chain.js';
import { ChainLinks } from './chain-links.js';
import { Anchor } from './anchor.js';
import { kindName } from './kinds.js';
import { EVENT_TYPES } from './step-state.js';
import { Collider } from './collider.js';
import { WindZone, zoneArg } from './wind-zone.js';

const CODE_NAMES = ['ok', 'invalid-argument', 'invalid-handle', 'out-of-range', 'unsupported', 'out-of-memory'];

// setChainRoots, _objectStates: more objects than any scene holds is a bad list, not a block to
// grow (bindings.cpp's kMaxObjectStates)
const MAX_ROOTS = 1 << 24;

export class World {
  #m; #native; #address = 0; #disposed = false; #objects = new Set(); #layout = 0; #views = [];
  // native blocks (#block): chains' animated poses (setPose), setChainRoots' ids, objects' states
  #pose = { grow: 'chainPoseBlock', Type: Float32Array, ptr: 0, size: 0, buffer: null, view: null };
  #roots = { grow: 'chainRootsBlock', Type: Float64Array, ptr: 0, size: 0, buffer: null, view: null };
  // _objectStates' records: `per` doubles an object (the native stride), grown by object count
  #states = { grow: 'objectStatesBlock', Type: Float64Array, ptr: 0, size: 0, buffer: null, view: null, per: 0 };
  // render interpolation: on or off, fixed steps between the two kept outputs, settings.fixedDt
  #io = null;  // _io
  #interpolate = false; #span = 1; #fixedDt = 1 / 60; #alphaBox = new Float64Array(1);
  /** Report of the last step(): reused object, no allocation per frame. */
  lastStep = { fixedSteps: 0, droppedTime: 0, leftover: 0 };
  /**
   * With the option `interpolate`: where the render arrays (rope.renderPositions, ...) are
   * between the outputs of the last two fixed steps (0 the previous, 1 the current), from the
   * time the last step() left over; 1 without the option.
   */
  alpha = 1;

  constructor(module, settings) {
    this.#m = module;
    const { interpolate = false, ...rest } = objectArg(settings, 'settings');
    if (typeof interpolate !== 'boolean') fail(`settings.interpolate must be true or false (got ${String(interpolate)})`);
    const s = pick(rest, WORLD, 'settings');
    this.#native = new module.World();
    this.#address = this.#native.address();
    const code = this.#native.configure(s);
    if (code !== 0) {
      const err = this.#error(code);
      this.#native.delete();
      this.#disposed = true;
      throw err;
    }
    this.#interpolate = interpolate;
    this.#fixedDt = this.#native.settings().fixedDt;
    if (interpolate) this.alpha = 0;
  }

  /** Whether the render arrays interpolate between fixed steps (the option `interpolate`, fixed at creation). */
  get interpolate() { return this.#interpolate; }
  /**
   * Re-renders the render arrays at `alpha` (0..1) between the last two fixed steps, e.g. for a
   * render clock of your own (slow motion, a paused world). Needs the option `interpolate`.
   */
  setAlpha(alpha) {
    this._alive();
    this.alpha = alphaArg(alpha, this.#interpolate);
    this.#interpolateViews();
  }
  #interpolateViews() {
    const v = this.#views, box = this.#alphaBox;
    box[0] = this.alpha;
    for (let i = 0; i < v.length; i++) v[i].interpolate(box);
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
  _poseBlock(floats) { return this.#block(this.#pose, floats); }
  // A view over a native block of at least `size` elements (records of b.per elements, when the
  // block has them), made again only when it must grow or WASM memory grew; growing (b.grow, an
  // embind call) may grow the memory, so the buffer is read after.
  #block(b, size) {
    if (size > b.size) {
      const ptr = this._native[b.grow](size);
      if (ptr === 0) fail(`out of memory for a block of ${size} values (nothing changed)`, 'out-of-memory');
      b.ptr = ptr;
      b.size = size;
      b.buffer = null;
    }
    const buffer = memoryBuffer(this.#m);
    if (b.buffer !== buffer) {
      b.buffer = buffer;
      b.view = new b.Type(buffer, b.ptr, b.size * (b.per || 1));
    }
    return b.view;
  }
  /** @internal Doubles per object in what _objectStates returns (the native stride). */
  get _objectStateStride() {
    const b = this.#states;
    if (b.per === 0) b.per = this.#m.objectStateStride();
    return b.per;
  }
  /**
   * @internal The state of many ropes, cloths and chains in one call into WASM (a worker world
   * publishes it every step, step-state.js): a Float64Array of _objectStateStride doubles per
   * object of `list`, in its order: [activity flags (1 enabled | 2 sleeping), updates, ...the
   * fields of stats() in its order (cloths and chains)], the rest of each record unwritten. The
   * view is reused: read it before the next call. A disposed or foreign object throws before
   * anything is read; allocates nothing.
   */
  _objectStates(list) {
    const n = list.length, stride = this._objectStateStride;
    if (!Number.isInteger(n) || n > MAX_ROOTS) fail(`_objectStates: list.length must be an integer in [0, ${MAX_ROOTS}] (got ${n})`);
    const v = this.#block(this.#states, n);
    for (let i = 0; i < n; i++) {
      const o = list[i];
      if (o._world !== this || o._kindCode === undefined) fail(`_objectStates: list[${i}] must be a Rope, Cloth or Chain of this world`, 'foreign-object');
      v[i * stride] = o._kindCode;
      v[i * stride + 1] = o._id;  // throws 'disposed' for a disposed object
    }
    this._check(this.#m._wisp_object_states(this._address, n));
    return v;
  }
  /**
   * One root pose for many chains, e.g. every hair chain on a head: what chain.setRoot(position,
   * rotation) on each gives, in one call into WASM. The pose is checked once and every chain
   * before any changes: a bad pose, or an entry that is not a live Chain of this world, throws a
   * WispError and changes nothing. Allocates nothing.
   */
  setChainRoots(chains, position, rotation = IDENTITY) {
    if (!chains || typeof chains !== 'object' || typeof chains.length !== 'number') {
      fail(`setChainRoots: chains must be an array of Chain (got ${chains === null ? 'null' : typeof chains})`);
    }
    const n = chains.length;
    if (!Number.isInteger(n) || n < 0 || n > MAX_ROOTS) fail(`setChainRoots: chains.length must be an integer in [0, ${MAX_ROOTS}] (got ${n})`);
    // every entry checked as its id goes into the block (scratch, read only by the call below):
    // a bad list throws before any chain is touched, so it changes nothing
    const ids = this.#block(this.#roots, n);
    for (let i = 0; i < n; i++) {
      const c = chains[i];
      if (!(c instanceof Chain) || c._world !== this) fail(`setChainRoots: chains[${i}] must be a Chain of this world`, 'foreign-object');
      ids[i] = c._id;  // throws 'disposed' for a disposed chain
    }
    callRoots(this, n, readPose(position, rotation));
  }
  /**
   * @internal the per-frame scratch block { ptr, f32, f64 }. Its views are re-made only when they
   * went stale: growing a non-shared memory detaches the old buffer (the views then read length 0);
   * a shared one (the threaded build) never detaches, and views over it stay valid for the block.
   * Reading the memory's buffer on every call (scratchOf) was about a quarter of a setRoot's time.
   */
  get _io() {
    const s = this.#io;
    return s !== null && s.f32.length !== 0 ? s : (this.#io = scratchOf(this.#m));
  }
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
  _refreshViews(how = SNAP) {
    const v = this.#views;
    for (let i = 0; i < v.length; i++) v[i].sync(how);
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
    if (!this.#interpolate) {
      this._refreshViews();
      return r.fixedSteps;
    }
    if (r.fixedSteps > 0) this.#span = r.fixedSteps;
    this._refreshViews(r.fixedSteps > 0 ? SHIFT : KEEP);
    this.alpha = renderAlpha(r.leftover, this.#fixedDt, this.#span);
    this.#interpolateViews();
    return r.fixedSteps;
  }
  /** Simulated time in seconds. */
  get time() { return this._native.time(); }
  /** Current settings (a fresh object). */
  get settings() { return this._native.settings(); }
  /** Changes any subset of the settings; validated as a whole, nothing changes on error. */
  set(settings) {
    if (objectArg(settings, 'settings').interpolate !== undefined) fail('settings.interpolate is fixed when the world is created');
    const s = pick(settings, WORLD, 'settings');
    if (s.wind) s.wind = { ...this._native.settings().wind, ...s.wind };
    this._check(this._native.configure(s));
    this.#fixedDt = this._native.settings().fixedDt;
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

  /**
   * Links neighbouring chains (a skirt around the hips, a cape): joint i of chains[k] to joint i
   * of chains[k + 1] (up to the shorter chain) by XPBD distance constraints whose rest lengths are
   * measured from the animated pose now. Options: loop (also last to first), diagonals (shear),
   * compliance (m/N, 0 = rigid), stretch (a link never pulled past rest * (1 + stretch)), collide
   * (link segments meet colliders), fromJoint (first joint linked; joint 0 rides the root).
   * At least 2 distinct Wisp-mode Chains of this world, each in at most one links set.
   */
  addChainLinks(chains, options = {}) {
    if (!Array.isArray(chains)) fail(`chains must be an array of Chain (got ${chains === null ? 'null' : typeof chains})`);
    const ids = chains.map((c, i) => {
      if (!(c instanceof Chain) || c._world !== this) fail(`chains[${i}] must be a Chain of this world`);
      if (c.disposed) fail(`chains[${i}] has been disposed`, 'disposed');
      return c._id;
    });
    const p = pick(objectArg(options, 'options'), CHAIN_LINKS_PARAMS, 'options');
    const id = this._id(this._native.addChainLinks(ids, p));
    return this._own(new ChainLinks(this, id));
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
      kind: kindName(this.#m, e.kind),
      object: [...this.#objects].find((o) => !o.disposed && o._kindCode === e.kind && o._rawId === e.id) ?? null,
      message: e.message,
    }));
  }
  /** Test hook (the self-test build only: test-hooks.js): writes NaN into particle i of a rope, cloth or chain (to test containment). */
  injectFault(object, i) {
    this._mine(object, 'object');
    if (object._kindCode === undefined) fail('injectFault takes a Rope, Cloth or Chain');
    const m = withTestHook(this.#m, 'injectFault');
    this._check(m.injectFault(this._address, object._kindCode, object._id, int(i, 'particle index')));
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
