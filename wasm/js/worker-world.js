// A world stepped in a dedicated worker (worker.js): the same method names and arguments as
// World, with the calls queued and sent to the worker in order, once per step().
//
//   const world = await createWorkerWorld({ substeps: 8 });
//   const rope = world.addRope({ start: [0, 2, 0], end: [2, 2, 0], segments: 32, pinned: [0] });
//   world.step(dt);       // returns at once; the worker steps meanwhile
//   rope.positions;       // the outputs of the last step the worker completed
//
// Outputs: the worker writes every object's outputs into SharedArrayBuffers after each step, two
// slots and a sequence number (worker.js). step() first copies the newest completed step into
// the arrays it hands out (the same array objects for the object's life, as with World), then
// sends the queued calls. So the arrays hold one whole step, never part of one, and lag the
// calls by the steps the worker has not finished yet: `world.completedSteps` says which step they
// are (one per step() call, counted from 1), `world.pendingSteps` how many are still running.
// `await world.flush()` waits for every call sent so far and refreshes the arrays.
//
// Errors: arguments are checked by the worker's World; a bad call changes nothing there and its
// WispError is thrown on this thread by the next call (or rejects flush()).
// Calls that read state back synchronously (params, particle(), snapshots, events, cut, ...)
// throw WispError 'unsupported': the state lives in the worker. stateHash() returns a Promise.
import { WispError } from './error.js';
import { fail, num } from './args.js';
import { isNode } from './loader.js';

const NODE_THREADS = 'node:worker_threads';  // a variable, so no bundler follows it

// Per kind: the calls forwarded to the worker, and the output arrays.
const KINDS = {
  rope: { calls: ['set', 'setVelocity', 'pin', 'unpin', 'teleport', 'reset', 'setEnabled', 'wake'], outputs: ['positions'] },
  cloth: { calls: ['set', 'setVelocity', 'pin', 'unpin', 'teleport', 'reset', 'setEnabled', 'wake'], outputs: ['positions', 'normals'] },
  chain: {
    calls: ['set', 'setRoot', 'setRootMatrix', 'setSpace', 'setSpaceMatrix', 'setPose', 'setPhysicsWeight', 'boost', 'teleport', 'reset',
      'setVelocity', 'setEnabled', 'wake'],
    outputs: ['positions', 'rotations', 'localRotations'],
  },
  chainLinks: { calls: [], outputs: [] },
  anchor: { calls: ['setPosition', 'teleport'], outputs: [] },
  collider: { calls: ['setTransform', 'setMatrix', 'setEnabled', 'setFriction'], outputs: [] },
  windZone: { calls: ['set'], outputs: [] },
};
const UNSUPPORTED = {
  rope: ['count', 'params', 'particle', 'restLength', 'cut', 'enabled', 'sleeping', 'updates', 'renderPositions'],
  cloth: ['count', 'params', 'particle', 'indices', 'vertexMap', 'stats', 'enabled', 'sleeping', 'updates', 'renderPositions', 'renderNormals'],
  chain: ['count', 'params', 'particle', 'stats', 'enabled', 'sleeping', 'updates', 'renderPositions', 'renderRotations', 'renderLocalRotations'],
  anchor: ['position'],
  collider: [],
  chainLinks: [],
  windZone: [],
};
const WORLD_UNSUPPORTED = ['settings', 'time', 'setAlpha', 'snapshot', 'snapshotJson', 'loadSnapshot', 'loadSnapshotJson', 'events',
  'injectFault', 'objects', 'stats', 'airVelocityAt'];
const EMPTY = new Float32Array(0);

function unsupported(what) {
  fail(`${what} is not available on a worker world: the state lives in the worker (see WorkerWorld in index.d.ts)`, 'unsupported');
}

function detach(array) {
  const b = array.buffer;
  if (b.byteLength === 0) return;
  if (typeof b.transfer === 'function') b.transfer(0);
  else structuredClone(b, { transfer: [b] });
}

/** An object of a worker world: forwards its calls, holds its output arrays. */
class WorkerObject {
  #world; #id; #kind; #disposed = false;
  /** @internal name -> { array, shared, floats } */ _outputs = new Map();
  constructor(world, id, kind) { this.#world = world; this.#id = id; this.#kind = kind; }
  get _id() { return this.#id; }
  get _world() { return this.#world; }
  get kind() { return this.#kind; }
  get disposed() { return this.#disposed; }
  _alive() {
    if (this.#disposed) fail(`this ${this.#kind} has been disposed`, 'disposed');
    this.#world._alive();
  }
  _call(method, args) {
    this._alive();
    this.#world._queue({ op: 'call', id: this.#id, method, args: args.map((a) => this.#world._encode(a, method)) });
  }
  _output(name) {
    this._alive();
    return this._outputs.get(name)?.array ?? EMPTY;
  }
  _kill() {
    this.#disposed = true;
    for (const o of this._outputs.values()) detach(o.array);
    this._outputs.clear();
  }
  dispose() {
    if (this.#disposed) return;
    if (!this.#world.disposed) this._call('dispose', []);
    this.#world._forget(this);
    this._kill();
  }
}

const CLASSES = {};
for (const [kind, { calls, outputs }] of Object.entries(KINDS)) {
  const cls = class extends WorkerObject {};
  for (const m of calls) cls.prototype[m] = function (...args) { this._call(m, args); };
  for (const o of outputs) Object.defineProperty(cls.prototype, o, { get() { return this._output(o); } });
  for (const u of UNSUPPORTED[kind]) {
    if (u.startsWith('render')) {
      // without render interpolation (not offered on worker worlds) a render getter is the output array
      const base = u[6].toLowerCase() + u.slice(7);
      Object.defineProperty(cls.prototype, u, { get() { return this._output(base); } });
      continue;
    }
    const desc = { get() { return unsupported(`${kind}.${u}`); } };
    // `obj.enabled = false` is a call, as on the main thread; only reading it needs the state
    if (u === 'enabled') desc.set = function (on) { this.setEnabled(on); };
    Object.defineProperty(cls.prototype, u, desc);
  }
  CLASSES[kind] = cls;
}

async function startWorker() {
  if (isNode) {
    const { Worker } = await import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_THREADS);
    const w = new Worker(new URL('./worker.js', import.meta.url));
    return { post: (m) => w.postMessage(m), on: (fn) => w.on('message', fn), onError: (fn) => w.on('error', fn), end: () => w.terminate() };
  }
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  return {
    post: (m) => w.postMessage(m), on: (fn) => w.addEventListener('message', (e) => fn(e.data)),
    onError: (fn) => w.addEventListener('error', (e) => fn(e.error ?? new Error(e.message))), end: () => w.terminate(),
  };
}

export class WorkerWorld {
  #worker; #commands = []; #objects = new Map(); #nextId = 1; #disposed = false; #error = null;
  #control; #report; #read = 0; #sent = 0; #batches = 0; #waiters = []; #hashes = new Map(); #token = 0;
  /** Report of the last completed step (fixedSteps, droppedTime, leftover): reused, as World.lastStep. */
  lastStep = { fixedSteps: 0, droppedTime: 0, leftover: 0 };
  /** Render interpolation is not offered on worker worlds. */
  alpha = 1;
  get interpolate() { return false; }

  /** @internal use createWorkerWorld() */
  constructor(worker, control, report) {
    this.#worker = worker;
    this.#control = new Int32Array(control);
    this.#report = new Float64Array(report);
    worker.on((m) => this.#receive(m));
  }

  /** @internal */ _alive() {
    if (this.#disposed) fail('this World has been disposed', 'disposed');
    const e = this.#error;
    if (e !== null) {
      this.#error = null;
      throw e;
    }
  }
  /** @internal */ _forget(o) { this.#objects.delete(o._id); }
  /** @internal */ _queue(cmd) { this.#commands.push(cmd); }
  /** @internal handles become references the worker resolves; everything else is copied now (the caller may reuse its arrays) */
  _encode(a, what) {
    if (a instanceof WorkerObject) {
      if (a._world !== this) fail(`${what}: the object belongs to another world`, 'foreign-object');
      a._alive();
      return { $h: a._id };
    }
    if (Array.isArray(a)) return a.map((x) => this._encode(x, what));
    if (typeof a === 'function') fail(`${what}: a function cannot be sent to the worker`);
    return a !== null && typeof a === 'object' ? structuredClone(a) : a;
  }

  #receive(m) {
    if (m.type === 'created') {
      const o = this.#objects.get(m.id);
      if (!o || !m.outputs) return;
      for (const [name, { buffer, floats }] of Object.entries(m.outputs)) {
        const shared = new Float32Array(buffer);
        const array = new Float32Array(floats);
        array.set(shared.subarray(0, floats));
        o._outputs.set(name, { array, shared, floats });
      }
    } else if (m.type === 'error') {
      const e = new WispError(m.error.message, m.error.code);
      if (this.#error === null) this.#error = e;
      if (m.fatal) this.#settle(e);
    } else if (m.type === 'done') {
      this.#batches = m.batch;
      this.#settle(null);
    } else if (m.type === 'hash') {
      this.#hashes.get(m.token)?.(m.hash);
      this.#hashes.delete(m.token);
    }
  }
  #settle(err) {
    const still = [];
    for (const w of this.#waiters) {
      if (err !== null) w.reject(err);
      else if (this.#batches >= w.batch) w.resolve();
      else still.push(w);
    }
    this.#waiters = still;
  }

  // Copies the newest completed step into the handed-out arrays: read the sequence, the slot it
  // names, then the sequence again; if the worker published twice meanwhile the slot may have
  // been rewritten, so read again.
  #copy() {
    const c = this.#control;
    for (;;) {
      const seq = Atomics.load(c, 0);
      if (seq === this.#read) return;
      const slot = seq & 1;
      for (const o of this.#objects.values()) {
        for (const out of o._outputs.values()) out.array.set(out.shared.subarray(slot * out.floats, (slot + 1) * out.floats));
      }
      const r = this.#report, s = this.lastStep;
      s.fixedSteps = r[0]; s.droppedTime = r[1]; s.leftover = r[2];
      if (Atomics.load(c, 0) - seq < 2) {
        this.#read = seq;
        return;
      }
    }
  }

  /** Steps the worker has completed (one per step() call); the output arrays show the last of them. */
  get completedSteps() { return this.#read; }
  /** Steps sent to the worker and not yet shown in the output arrays. */
  get pendingSteps() { return this.#sent - this.#read; }
  get disposed() { return this.#disposed; }

  /**
   * Queues a step of `dt` seconds behind the calls made since the last step, sends them to the
   * worker and returns at once, after refreshing the output arrays to the newest completed step.
   * Returns lastStep.fixedSteps of that completed step.
   */
  step(dt) {
    this._alive();
    const d = num(dt, 'dt');
    if (!(d > 0)) fail(`dt must be a positive number of seconds (got ${d})`, 'out-of-range');
    this.#copy();
    this.#commands.push({ op: 'step', dt: d });
    this.#sent++;
    this.#send();
    return this.lastStep.fixedSteps;
  }
  #send() {
    const commands = this.#commands;
    this.#commands = [];
    this.#worker.post({ type: 'commands', commands, batch: ++this.#lastBatch });
  }
  #lastBatch = 0;

  /** Sends the calls queued so far and resolves when the worker has run them; the output arrays then show the last step. */
  flush() {
    this._alive();
    if (this.#commands.length > 0) this.#send();
    const batch = this.#lastBatch;
    if (this.#batches >= batch) { this.#copy(); return Promise.resolve(); }
    return new Promise((resolve, reject) => this.#waiters.push({ batch, resolve, reject })).then(() => { this._alive(); this.#copy(); });
  }

  /** The state hash after every call made so far (a Promise: the state lives in the worker). */
  async stateHash() {
    await this.flush();
    const token = ++this.#token;
    const hash = new Promise((resolve) => this.#hashes.set(token, resolve));
    this.#worker.post({ type: 'hash', token });
    return hash;
  }

  #add(kind, method, args) {
    this._alive();
    const id = this.#nextId++;
    const o = new CLASSES[kind](this, id, kind);
    this.#commands.push({ op: 'add', id, kind, method, args: args.map((a) => this._encode(a, method)) });
    this.#objects.set(id, o);
    return o;
  }
  addRope(def) { return this.#add('rope', 'addRope', [def]); }
  addCloth(def) { return this.#add('cloth', 'addCloth', [def]); }
  addChain(def) { return this.#add('chain', 'addChain', [def]); }
  addChainLinks(chains, options = {}) { return this.#add('chainLinks', 'addChainLinks', [chains, options]); }
  addAnchor(position = [0, 0, 0]) { return this.#add('anchor', 'addAnchor', [position]); }
  addCollider(def) {
    const o = this.#add('collider', 'addCollider', [def]);
    Object.defineProperty(o, 'type', { value: def?.type });
    return o;
  }
  addWindZone(def) { return this.#add('windZone', 'addWindZone', [def]); }
  set(settings) { this.#call('set', [settings]); }
  setGravity(g) { this.#call('setGravity', [g]); }
  setWind(w) { this.#call('setWind', [w]); }
  shiftOrigin(offset) { this.#call('shiftOrigin', [offset]); }
  #call(method, args) {
    this._alive();
    this.#commands.push({ op: 'call', id: 0, method, args: args.map((a) => this._encode(a, method)) });
  }

  /**
   * Ends the worker and frees the world: every output array is detached (length 0) and further
   * use throws 'disposed'. Returns a Promise that resolves when the worker has ended.
   */
  dispose() {
    if (this.#disposed) return Promise.resolve();
    this.#disposed = true;
    for (const o of this.#objects.values()) o._kill();
    this.#objects.clear();
    const gone = new WispError('this World has been disposed', 'disposed');
    this.#settle(gone);
    for (const r of this.#hashes.values()) r(null);
    this.#hashes.clear();
    const w = this.#worker;
    return new Promise((resolve) => {
      const end = () => { clearTimeout(timer); Promise.resolve(w.end()).then(() => resolve(), () => resolve()); };
      const timer = setTimeout(end, 2000);
      w.on((m) => { if (m.type === 'disposed') end(); });
      w.post({ type: 'dispose' });
    });
  }
}
for (const name of WORLD_UNSUPPORTED) {
  Object.defineProperty(WorkerWorld.prototype, name, {
    get() { return unsupported(`world.${name}`); },
  });
}

/**
 * Creates a world stepped in a dedicated worker. `settings` as for Wisp.createWorld (without
 * `interpolate`); `load` as for createWisp (threads, baseUrl, timeout), used by the worker.
 * Resolves once the worker has loaded the solver and made the world; bad settings reject with
 * the WispError the world gives.
 */
export async function createWorkerWorld(settings = {}, load = {}) {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) fail('settings must be an object');
  if (settings.interpolate !== undefined && settings.interpolate !== false) {
    fail('settings.interpolate is not available on a worker world (read the outputs of the last completed step)', 'unsupported');
  }
  if (load === null || typeof load !== 'object') fail('load options must be an object');
  if (typeof SharedArrayBuffer === 'undefined') {
    fail('a worker world needs SharedArrayBuffer: serve the page cross-origin isolated (COOP same-origin, COEP require-corp)', 'unsupported');
  }
  const { print, printErr, ...loadOptions } = load;  // functions cannot reach the worker
  // a URL object cannot be posted, and a relative one would resolve against the worker's script
  if (loadOptions.baseUrl !== undefined) loadOptions.baseUrl = isNode ? String(loadOptions.baseUrl) : new URL(loadOptions.baseUrl, globalThis.location?.href).href;
  const worker = await startWorker();
  const control = new SharedArrayBuffer(8), report = new SharedArrayBuffer(32);
  const ready = new Promise((resolve, reject) => {
    worker.on((m) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'error' && m.fatal) reject(new WispError(m.error.message, m.error.code));
    });
    worker.onError((e) => reject(new WispError(`the worker failed to start (${e?.message ?? e})`, 'load-failed')));
  });
  worker.post({ type: 'init', settings: { ...settings, interpolate: false }, load: loadOptions, control, report });
  try {
    await ready;
  } catch (e) {
    await worker.end();
    throw e;
  }
  return new WorkerWorld(worker, control, report);
}
