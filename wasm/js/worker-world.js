// A world stepped in a dedicated worker (worker.js): the same method names and arguments as
// World, with the calls queued in order and handed to the worker at step().
//
//   const world = await createWorkerWorld({ substeps: 8 });
//   const rope = world.addRope({ start: [0, 2, 0], end: [2, 2, 0], segments: 32, pinned: [0] });
//   world.step(dt);       // returns at once; the worker steps meanwhile
//   rope.positions;       // the outputs of the last step the worker completed (re-read after step())
//
// Calls: per-frame calls (numbers, vectors, quaternions, matrices, typed arrays, objects of the
// world, flat parameter objects as arguments) are written as numbers into a SharedArrayBuffer
// ring (command-ring.js): a frame allocates nothing on this thread. Other calls (adding objects,
// nested options) go by postMessage, with a record at their place in the ring, so every call
// runs in the order it was made.
//
// Outputs, zero-copy: each output array (positions, normals, rotations, localRotations) is a
// Float32Array over a SharedArrayBuffer slot the worker filled (three slots: output-slots.js).
// step() and flush() switch the arrays to the newest step the worker completed, so the getters
// return a different array object after a step() that found a newer step: read them again after
// step() (the wisp/three adapters do), and do not keep one across step() calls. Between two
// step()/flush() calls the arrays are the page's alone: the worker never writes the slot shown,
// so they hold one whole step, never part of one. They lag the calls by the steps the worker
// has not finished: `world.completedSteps` says which step they are (one per step() call,
// counted from 1), `world.pendingSteps` how many are still running; `await world.flush()` waits
// for every call made so far and switches the arrays to its last step.
//
// Render interpolation (settings.interpolate): the worker's World keeps, per array, the outputs
// the render arrays start from, and publishes them with the outputs and alpha; the render arrays
// (renderPositions, ...) are this thread's own Float32Arrays (the same object for the object's
// life), interpolated here by interpolation.js at step() and setAlpha(): the bits a World's
// render arrays hold at the same alpha after the same calls.
//
// Errors: arguments are checked by the worker's World; a bad call changes nothing there and its
// WispError is thrown on this thread by the next call (or rejects flush()).
//
// Reading state back: what changes with each step (world.time, events(), stats(); an object's
// enabled, sleeping, updates, stats(); an anchor's position) is published with each step's
// outputs (step-state.js) and answers at once, as of the step the output arrays show
// (completedSteps); so do params and world.settings, the worker's own values (as text, decoded
// when read: a set() that changes values every frame costs the page nothing). What needs the whole state or a query of it (particle(), restLength(),
// airVelocityAt(), saveSnapshot*, loadSnapshot*) returns a Promise of the answer after every
// call made before it, as stateHash() does. rope.cut(s) returns the far part at once; both
// ropes' arrays show the cut from the first step after it (the worker makes the cut rope new,
// shorter arrays and the page switches to them when it shows that step). world.objects() throws
// 'unsupported'.
// A FrameBudget over a worker world runs in the worker (worker-budget.js).
import { WispError } from './error.js';
import { fail, num, int } from './args.js';
import { isNode } from './loader.js';
import { interpolate, alphaArg } from './interpolation.js';
import {
  RING_DOUBLES, READ, MAX_RING_ARRAY, KINDS, WORLD_CALLS, METHODS, METHOD_ID, Stage,
  OP_CALL, OP_STEP, OP_POSTED, OP_FLUSH, OP_HASH, OP_DISPOSE, T_NUM, T_TRUE, T_FALSE, T_UNDEF, T_F64, T_F32, T_XYZ, T_XYZW, T_HANDLE, T_OBJ, PARAM_ID,
} from './command-ring.js';
import { SLOTS, MIDDLE, REPORT, CONTROL_BYTES, REPORT_BYTES, acquire, acquireBefore, stepOf } from './output-slots.js';
import { WORLD_HEAD, readFields, readStepEvents, readParams } from './step-state.js';
import { readPose, IDENTITY } from './pose.js';

const NODE_THREADS = 'node:worker_threads';  // a variable, so no bundler follows it

// what the worker sends once it has made the object (fixed for the object's life)
const INFO = { rope: ['count'], cloth: ['count', 'indices', 'vertexMap'], chain: ['count'] };
// objects() would hand out objects the page never made (anchors made for `pinned`)
const WORLD_UNSUPPORTED = ['objects'];
// the calls of objects that answer by Promise (world.#query)
const QUERIES = { rope: ['particle', 'restLength'], cloth: ['particle'], chain: ['particle'] };
const EMPTY = new Float32Array(0);
const NO_EVENTS = Object.freeze([]);

function unsupported(what) {
  fail(`${what} is not available on a worker world: the state lives in the worker (see WorkerWorld in index.d.ts)`, 'unsupported');
}
function shownParams(buffer, n, what) {
  const p = readParams(buffer, n);
  if (p === null) fail(`${what}: too long for the shared memory of this platform (it has no growable SharedArrayBuffer)`, 'unsupported');
  return p;
}
const notYet = (kind, name) => fail(`${kind}.${name} is not known on this thread until the worker has made the ${kind}: await world.flush() first`, 'unsupported');

function detach(array) {
  const b = array.buffer;
  if (b.byteLength === 0) return;
  if (typeof b.transfer === 'function') b.transfer(0);
  else structuredClone(b, { transfer: [b] });
}

/** An object of a worker world: forwards its calls, shows its output arrays. */
class WorkerObject {
  #world; #id; #kind; #disposed = false;
  /** @internal per output array { cur: [slot views], prev: [slot views] or null, shown, mode }; null until the worker made the object */
  _outs = null;
  /** @internal what the worker told of the object once made (count, cloth indices and vertexMap) */
  _info = null;
  /** @internal its per-step state (step-state.js) { view, size, fields, text }; null until the worker made the object */
  _state = null;
  constructor(world, id, kind) { this.#world = world; this.#id = id; this.#kind = kind; }
  get _id() { return this.#id; }
  get _world() { return this.#world; }
  get kind() { return this.#kind; }
  get disposed() { return this.#disposed; }
  _alive() {
    if (this.#disposed) fail(`this ${this.#kind} has been disposed`, 'disposed');
    this.#world._alive();
  }
  _output(k) {
    this._alive();
    const o = this._outs;
    return o === null ? EMPTY : o[k].cur[this.#world._front];
  }
  _render(k) {
    this._alive();
    const o = this._outs;
    if (o === null) return EMPTY;
    return o[k].shown ?? o[k].cur[this.#world._front];
  }
  _known(name) {
    this._alive();
    if (this._info === null) notYet(this.#kind, name);
    return this._info[name];
  }
  // Where this object's state record in the slot shown starts (step-state.js).
  _at(name) {
    this._alive();
    const s = this._state;
    if (s === null) notYet(this.#kind, name);
    return this.#world._front * s.size;
  }
  _params(name) {
    const at = this._at(name), s = this._state;
    return shownParams(s.text[this.#world._front], s.view[at + 2], `${this.#kind}.${name}`);
  }
  _kill() {
    this.#disposed = true;
    // the shared slots cannot be detached; the worker stops writing them, so an array kept
    // from before holds the last step shown, whole
    if (this._outs !== null) for (const o of this._outs) if (o.shown !== null) detach(o.shown);
    this._outs = null;
  }
  dispose() {
    if (this.#disposed) return;
    // An earlier call's error is thrown by the next call, this one too; the object is still
    // disposed (the error is thrown once, so the second try queues the dispose).
    let error = null;
    if (!this.#world.disposed) {
      try { this.#world._call(this.#id, METHOD_ID.dispose, 0); } catch (e) { error = e; this.#world._call(this.#id, METHOD_ID.dispose, 0); }
    }
    this.#world._forget(this);
    this._kill();
    if (error !== null) throw error;
  }
}

// What an object reads of the step shown (its state record: step-state.js) or of its mirrored
// params, per kind as a World's objects have them.
const READ_MEMBERS = {
  get enabled() {
    const at = this._at('enabled');
    return (this._state.view[at] & 1) !== 0;
  },
  // `obj.enabled = false` is a call, as on the main thread
  set enabled(on) { this.setEnabled(on); },
  get sleeping() {
    const at = this._at('sleeping');
    return (this._state.view[at] & 2) !== 0;
  },
  get updates() {
    const at = this._at('updates');
    return this._state.view[at + 1];
  },
  stats() {
    const at = this._at('stats'), s = this._state;
    return readFields(s.view, at + 3, s.fields);
  },
  get position() {
    const at = this._at('position'), v = this._state.view;
    return [v[at], v[at + 1], v[at + 2]];
  },
  get params() { return this._params('params'); },
};
const ACTIVE = ['enabled', 'sleeping', 'updates', 'params'];
const READS = { rope: ACTIVE, cloth: [...ACTIVE, 'stats'], chain: [...ACTIVE, 'stats'], anchor: ['position'] };

const CLASSES = {};
for (const [kind, { calls, outputs }] of Object.entries(KINDS)) {
  const cls = class extends WorkerObject {};
  for (const m of calls) {
    const method = METHOD_ID[m];
    // named parameters, not ...args: a rest array would be an allocation per call
    cls.prototype[m] = function (a, b, c, d) { this._world._call(this._id, method, arguments.length, a, b, c, d, this); };
  }
  outputs.forEach(([name, render], k) => {
    Object.defineProperty(cls.prototype, name, { get() { return this._output(k); } });
    Object.defineProperty(cls.prototype, render, { get() { return this._render(k); } });
  });
  for (const name of INFO[kind] ?? []) Object.defineProperty(cls.prototype, name, { get() { return this._known(name); } });
  for (const q of QUERIES[kind] ?? []) cls.prototype[q] = function (i) { return this._world._query(this, q, [i]); };
  for (const name of READS[kind] ?? []) Object.defineProperty(cls.prototype, name, Object.getOwnPropertyDescriptor(READ_MEMBERS, name));
  CLASSES[kind] = cls;
}
/** Cuts segment s (between particles s and s+1); returns the new rope made of the far part at once. Both ropes' arrays show the cut from the first step after it. */
CLASSES.rope.prototype.cut = function (s) { return this._world._cut(this, s); };

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
  #worker; #objects = new Map(); #shown = []; #pending = []; #cuts = []; #nextId = 1; #disposed = false; #error = null;
  #ring; #header; #write = 0; #stage = new Stage(); #posted = []; #postSeq = 0; #retry = 0;
  #control; #report; #front = 0; #sent = 0; #waiters = []; #hashes = new Map(); #token = 0;
  #interpolate; #alphaBox = new Float64Array(1); #budgets = new Map();
  #state; #stateSize; #statsFields; #eventBuffers; #settings; #answers = new Map(); #eventsBefore = 0;
  /** Report of the last completed step (fixedSteps, droppedTime, leftover): reused, as World.lastStep. */
  lastStep = { fixedSteps: 0, droppedTime: 0, leftover: 0 };
  /** With the option `interpolate`: where the render arrays are between the last two fixed steps of the step shown (as World.alpha); 1 without. */
  alpha = 1;
  /** Whether the render arrays interpolate between fixed steps (the option `interpolate`, fixed at creation). */
  get interpolate() { return this.#interpolate; }

  /** @internal use createWorkerWorld() */
  constructor(worker, shared, interpolating, ready) {
    this.#worker = worker;
    this.#state = new Float64Array(ready.state);
    this.#statsFields = ready.fields;
    this.#stateSize = WORLD_HEAD + ready.fields.length;
    this.#eventBuffers = ready.events;
    this.#settings = ready.settings;
    this.#ring = new Float64Array(shared.ring);
    this.#header = new Int32Array(shared.header);
    this.#control = new Int32Array(shared.control);
    this.#report = new Float64Array(shared.report);
    this.#interpolate = interpolating;
    if (interpolating) this.alpha = 0;
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
  /** @internal the slot the arrays show */ get _front() { return this.#front; }
  /** @internal whether an error waits to be thrown by the next call */ get _errorPending() { return this.#error !== null; }
  /** @internal */ _forget(o) {
    this.#objects.delete(o._id);
    const i = this.#shown.indexOf(o);
    if (i >= 0) this.#shown.splice(i, 1);
  }
  /** @internal doubles written into the command ring and not yet run by the worker (tests pace themselves by it) */
  get _ringBacklog() { return (this.#write - Atomics.load(this.#header, READ)) >>> 0; }

  /**
   * @internal Queues call `method` (index in METHODS) of object `id` (0: the world) with `argc`
   * arguments: into the ring when they are all numbers and vectors, else by message.
   */
  _call(id, method, argc, a0, a1, a2, a3, self = null) {
    if (self !== null) self._alive(); else this._alive();
    const st = this.#stage, start = st.n;
    st.reserve(5);
    st.push(0); st.push(OP_CALL); st.push(id); st.push(method); st.push(argc);
    let ring;
    try {
      ring = argc <= 4 && (argc < 1 || this.#arg(a0, method)) && (argc < 2 || this.#arg(a1, method))
        && (argc < 3 || this.#arg(a2, method)) && (argc < 4 || this.#arg(a3, method));
    } catch (e) {
      st.n = start;  // a foreign or disposed object: nothing queued
      throw e;
    }
    // a record over half the ring (a parameter object of many long arrays) could never fit
    // beside another: it goes by message instead
    if (!ring || st.n - start > RING_DOUBLES >> 1) {
      st.n = start;
      const args = [a0, a1, a2, a3].slice(0, argc);
      this.#post({ op: 'call', id, method: METHODS[method], args: args.map((a) => this._encode(a, METHODS[method])) });
      return;
    }
    st.buf[start] = st.n - start;
  }
  // One argument into the stage; false when it must go by message.
  #arg(a, method) {
    const st = this.#stage;
    if (typeof a === 'number') { st.reserve(2); st.push(T_NUM); st.push(a); return true; }
    if (typeof a === 'boolean') { st.reserve(1); st.push(a ? T_TRUE : T_FALSE); return true; }
    if (a === undefined) { st.reserve(1); st.push(T_UNDEF); return true; }
    if (a === null || typeof a !== 'object') return false;
    if (a instanceof WorkerObject) {
      this.#mine(a, METHODS[method]);
      st.reserve(2); st.push(T_HANDLE); st.push(a._id);
      return true;
    }
    if (a instanceof Float32Array) return typedArg(st, a, T_F32);
    if (a instanceof Float64Array) return typedArg(st, a, T_F64);
    if (Array.isArray(a)) return arrayArg(st, a);
    return vectorArg(st, a) || paramsArg(st, a);
  }
  #mine(a, what) {
    if (a._world !== this) fail(`${what}: the object belongs to another world`, 'foreign-object');
    a._alive();
  }
  /** @internal handles become references the worker resolves; everything else is copied now (the caller may reuse its arrays) */
  _encode(a, what) {
    if (a instanceof WorkerObject) {
      this.#mine(a, what);
      return { $h: a._id };
    }
    if (Array.isArray(a)) return a.map((x) => this._encode(x, what));
    if (typeof a === 'function') fail(`${what}: a function cannot be sent to the worker`);
    if (a === null || typeof a !== 'object') return a;
    try {
      return structuredClone(a);
    } catch (e) {  // a function or a DOM object inside it
      fail(`${what}: the argument cannot be sent to the worker (${e.message})`);
    }
  }
  // A call that goes by message: sent before the ring records that follow it, named in the ring.
  #post(cmd) {
    cmd.seq = ++this.#postSeq;
    this.#posted.push(cmd);
    this.#record(OP_POSTED, cmd.seq);
  }
  #record(op, value) {
    const st = this.#stage;
    st.reserve(3);
    st.push(3); st.push(op); st.push(value);
  }
  // Hands the worker what is queued: the posted calls first, then the ring records. Records that
  // do not fit (a worker far behind) stay queued and are retried.
  #send() {
    if (this.#posted.length > 0) {
      this.#worker.post({ type: 'posted', commands: this.#posted });
      this.#posted = [];
    }
    this.#write = this.#stage.drain(this.#ring, this.#header, this.#write);
    if (this.#stage.n > 0 && this.#retry === 0 && !this.#disposed) {
      this.#retry = setTimeout(() => { this.#retry = 0; if (!this.#disposed) this.#send(); }, 1);
    }
  }

  #receive(m) {
    if (this.#disposed) return;
    if (m.type === 'created') {
      // a cut's ropes: shown from the first step after the cut, as a World shows it
      if (m.from !== undefined && this.completedSteps < m.from) this.#pending.push(m);
      else this.#made(m);
    } else if (m.type === 'cut') {  // after its ropes' 'created' (or its error): its steps may be shown
      const i = this.#cuts.indexOf(m.from);
      if (i >= 0) this.#cuts.splice(i, 1);
    } else if (m.type === 'error') {
      const e = new WispError(m.error.message, m.error.code);
      if (this.#error === null) this.#error = e;
      if (m.fatal) this.#settle(e, 0);
    } else if (m.type === 'done') {
      this.#settle(null, m.token);
    } else if (m.type === 'plan') {
      this.#budgets.get(m.id)?.(m);
    } else if (m.type === 'answer') {
      const a = this.#answers.get(m.token);
      this.#answers.delete(m.token);
      if (a === undefined) return;
      if (m.error) a.reject(new WispError(m.error.message, m.error.code));
      else a.resolve(m.value);
    } else if (m.type === 'hash') {
      this.#hashes.get(m.token)?.(m.hash);
      this.#hashes.delete(m.token);
    }
  }
  // What the worker sent of an object it made (for a cut rope: made again, shorter): its count
  // and mesh, its state record and its output arrays.
  #made(m) {
    const o = this.#objects.get(m.id);
    if (!o || o.disposed) return;
    // a cut rope's render arrays are replaced, as a World's (the old ones detached)
    if (o._outs !== null) for (const x of o._outs) if (x.shown !== null) detach(x.shown);
    o._info = { count: m.count, indices: m.indices, vertexMap: m.vertexMap };
    if (m.state !== null) o._state = { view: new Float64Array(m.state.buffer), size: m.state.size, fields: m.state.fields, text: m.state.text };
    if (!m.outputs) return;
    const copies = this.#interpolate ? 2 : 1;
    o._outs = m.outputs.map(({ buffer, floats }, k) => {
      const view = (s, c) => new Float32Array(buffer, 4 * (s * copies + c) * floats, floats);
      const out = { cur: [], prev: null, shown: null, mode: KINDS[o.kind].outputs[k][3] };
      for (let s = 0; s < SLOTS; s++) out.cur.push(view(s, 0));
      if (this.#interpolate) {
        out.prev = [];
        for (let s = 0; s < SLOTS; s++) out.prev.push(view(s, 1));
        out.shown = new Float32Array(floats);
        this.#alphaBox[0] = this.alpha;
        interpolate(out.mode, out.prev[this.#front], out.cur[this.#front], this.#alphaBox, out.shown);
      }
      return out;
    });
    if (!this.#shown.includes(o)) this.#shown.push(o);
  }
  // The ropes of cuts the step now shown has: their arrays from now on.
  #showCuts() {
    const shown = this.completedSteps, later = [];
    for (const m of this.#pending) if (shown >= m.from) this.#made(m); else later.push(m);
    this.#pending = later;
  }
  #settle(err, token) {
    const still = [];
    for (const w of this.#waiters) {
      if (err !== null) w.reject(err);
      else if (token >= w.token) w.resolve();
      else still.push(w);
    }
    this.#waiters = still;
  }

  // Shows the newest step the worker completed (if newer than the one shown), its report and,
  // with interpolation, the render arrays at its alpha.
  #acquire() {
    // read before the exchange: the slot shown until now is the worker's to write after it
    const before = this.#state[this.#front * this.#stateSize + 4];
    // a cut whose ropes the worker has not yet sent: no step from the cut on can be shown
    const f = this.#cuts.length === 0 ? acquire(this.#control, this.#front) : acquireBefore(this.#control, this.#front, this.#cuts[0]);
    if (f !== this.#front) {
      this.#eventsBefore = before;
      this.#front = f;
      const r = this.#report, s = this.lastStep, o = REPORT * f;
      s.fixedSteps = r[o]; s.droppedTime = r[o + 1]; s.leftover = r[o + 2];
      if (this.#pending.length > 0) this.#showCuts();
    }
    if (this.#interpolate) {
      this.alpha = this.#report[REPORT * f + 3];
      this.#render();
    }
  }
  #render() {
    const box = this.#alphaBox, shown = this.#shown, f = this.#front;
    box[0] = this.alpha;
    for (let i = 0; i < shown.length; i++) {
      const outs = shown[i]._outs;
      for (let k = 0; k < outs.length; k++) {
        const o = outs[k];
        interpolate(o.mode, o.prev[f], o.cur[f], box, o.shown);
      }
    }
  }

  /** Steps the worker has completed (one per step() call); the output arrays show the last of them. */
  get completedSteps() { return stepOf(this.#control, this.#front); }
  /** Steps sent to the worker and not yet shown in the output arrays. */
  get pendingSteps() { return this.#sent - this.completedSteps; }
  get disposed() { return this.#disposed; }

  /**
   * Switches the output arrays to the newest completed step, queues a step of `dt` seconds behind
   * the calls made since the last step, hands them to the worker and returns at once.
   * Returns lastStep.fixedSteps of the step shown.
   */
  step(dt) { return this._step(dt, 0); }

  /** @internal step(dt), run by the worker through the FrameBudget of id `budget` (0: none) */
  _step(dt, budget) {
    this._alive();
    const d = num(dt, 'dt');
    if (!(d > 0)) fail(`dt must be a positive number of seconds (got ${d})`, 'out-of-range');
    this.#acquire();
    const st = this.#stage;
    st.reserve(4);
    st.push(4); st.push(OP_STEP); st.push(d); st.push(budget);
    this.#sent++;
    this.#send();
    return this.lastStep.fixedSteps;
  }

  /**
   * Re-renders the render arrays at `alpha` (0..1) between the last two fixed steps of the step
   * shown, as World.setAlpha. Needs the option `interpolate`; the next step() sets alpha again.
   */
  setAlpha(alpha) {
    this._alive();
    this.alpha = alphaArg(alpha, this.#interpolate);
    this.#render();
  }

  /** Sends the calls queued so far and resolves when the worker has run them; the output arrays then show the last step. */
  flush() {
    this._alive();
    const token = ++this.#token;
    this.#record(OP_FLUSH, token);
    this.#send();
    return new Promise((resolve, reject) => this.#waiters.push({ token, resolve, reject })).then(() => { this._alive(); this.#acquire(); });
  }

  /** The state hash after every call made so far (a Promise: the state lives in the worker). */
  async stateHash() {
    await this.flush();
    const token = ++this.#token;
    const hash = new Promise((resolve) => this.#hashes.set(token, resolve));
    this.#record(OP_HASH, token);
    this.#send();
    return hash;
  }

  /**
   * @internal For tests only (tests/js/worker.test.mjs): from the `count`-th SharedArrayBuffer
   * the worker makes from now on, every one fails, as when memory has run out; 0 ends that. The
   * worker takes it before the next call sent by message (adding an object, a cut), so flush()
   * before arming it.
   */
  _failSharedMemory(count) {
    this._alive();
    this.#worker.post({ type: 'fail-shared-memory', count });
  }

  /**
   * @internal Asks the worker `method` of `self` (the world, or one of its objects) with `args`,
   * in order with the calls made before: a Promise of its answer (a WispError rejects this
   * Promise only, not the next call).
   */
  _query(self, method, args) {
    if (self === this) this._alive(); else self._alive();
    // encoded first: an argument that cannot be sent throws here, leaving no Promise behind
    const encoded = args.map((a) => this._encode(a, method));
    const token = ++this.#token;
    const answer = new Promise((resolve, reject) => this.#answers.set(token, { resolve, reject }));
    this.#post({ op: 'query', token, id: self === this ? 0 : self._id, method, args: encoded });
    this.#send();
    return answer;
  }

  // The world's record in the slot shown (step-state.js).
  #at() {
    this._alive();
    return this.#front * this.#stateSize;
  }
  /** Simulated time (s) after the step shown. */
  get time() { return this.#state[this.#at()]; }
  /** What the step shown noticed, as World.events(): a shared empty array when nothing happened. */
  events() {
    // the events of steps published between the one shown before and this one were never shown
    const at = this.#at(), n = this.#state[at + 1], missed = this.#state[at + 4] - n - this.#eventsBefore;
    if (n === 0 && missed === 0) return NO_EVENTS;
    return readStepEvents(this.#eventBuffers[this.#front], n + missed, this.#state[at + 2] + missed, (id) => this.#objects.get(id) ?? null);
  }
  /** World.stats() as of the step shown (a fresh object). */
  stats() { return readFields(this.#state, this.#at() + WORLD_HEAD, this.#statsFields); }
  /** The settings as of the step shown (a fresh object). */
  get settings() {
    const at = this.#at();
    return shownParams(this.#settings[this.#front], this.#state[at + 3], 'world.settings');
  }
  /** The air velocity at `point` after every call made so far (a Promise). */
  airVelocityAt(point) { return this._query(this, 'airVelocityAt', [point]); }
  /** The full state after every call made so far, as bytes (a Promise). */
  saveSnapshot() { return this._query(this, 'saveSnapshot', []); }
  /** The full state after every call made so far, as JSON text (a Promise). */
  saveSnapshotJson() { return this._query(this, 'saveSnapshotJson', []); }
  /**
   * Loads a snapshot of this world's own objects (a Promise); one of other objects rejects with
   * 'unsupported' and changes nothing. The output arrays show it from the next step on.
   */
  loadSnapshot(bytes) {
    if (!(bytes instanceof Uint8Array)) fail('snapshot must be a Uint8Array');
    return this._query(this, 'loadSnapshot', [bytes]);
  }
  loadSnapshotJson(json) {
    if (typeof json !== 'string') fail('snapshot JSON must be a string');
    return this._query(this, 'loadSnapshotJson', [json]);
  }
  /**
   * One root pose for many chains (World.setChainRoots): the list and the pose are checked here
   * (every entry a live Chain of this world; the pose's numbers finite, its rotation not zero)
   * before anything is queued, then each chain's setRoot is queued in order with the other calls;
   * the worker's World checks the rest, as for setRoot. Allocates nothing.
   */
  setChainRoots(chains, position, rotation = IDENTITY) {
    this._alive();
    if (!chains || typeof chains !== 'object' || typeof chains.length !== 'number') {
      fail(`setChainRoots: chains must be an array of Chain (got ${chains === null ? 'null' : typeof chains})`);
    }
    const n = chains.length;
    for (let i = 0; i < n; i++) {
      const c = chains[i];
      if (!(c instanceof CLASSES.chain) || c._world !== this) fail(`setChainRoots: chains[${i}] must be a Chain of this world`, 'foreign-object');
      c._alive();
    }
    // in float32, as the worker's World checks them
    const p = readPose(position, rotation), f = Math.fround;
    for (let k = 0; k < 7; k++) if (!Number.isFinite(f(p[k]))) fail(`setChainRoots: ${k < 3 ? `position[${k}]` : `rotation[${k - 3}]`} must be finite as a float32 (got ${p[k]})`);
    const x = f(p[3]), y = f(p[4]), z = f(p[5]), w = f(p[6]);
    if (!(f(f(f(f(x * x) + f(y * y)) + f(z * z)) + f(w * w)) > f(1e-12))) fail('setChainRoots: rotation must not be a zero quaternion');
    for (let i = 0; i < n; i++) chains[i].setRoot(position, rotation);
  }
  /** Test hook (the self-test build of the module in the worker): queued as the other calls. */
  injectFault(object, i) { this._call(0, METHOD_ID.injectFault, 2, object, i); }

  /**
   * @internal Has the worker make a FrameBudget over its World with (checked) `options`; its
   * plans are given to `onPlan` as they arrive. Returns the budget's id, for _call and _step.
   */
  _addBudget(options, onPlan) {
    this._alive();
    const id = this.#nextId++;
    this.#post({ op: 'budget', id, options });
    this.#budgets.set(id, onPlan);
    return id;
  }

  /** @internal the budget of id `id` sends no more plans (its dispose) */
  _dropBudget(id) { this.#budgets.delete(id); }

  // `of`: the page id of the object whose method makes it (a cut's rope), 0 for the world
  #add(kind, method, args, of = 0) {
    this._alive();
    const id = this.#nextId++;
    const o = new CLASSES[kind](this, id, kind);
    this.#post({ op: 'add', id, of, kind, method, args: args.map((a) => this._encode(a, method)) });
    this.#objects.set(id, o);
    return o;
  }
  addRope(def) { return this.#add('rope', 'addRope', [def]); }
  /** @internal rope.cut(s): the far part as a new rope, at once; the worker cuts in order with the calls */
  // The worker has published as many steps as step() sent when it runs the cut (every step is
  // published once, a rejected one too), so the cut shows from step #sent + 1. Until the
  // worker's 'cut' message is here (after its ropes' arrays) no step from it on is shown: the
  // page may take steps from the shared slots before a message that was sent earlier arrives.
  _cut(rope, s) {
    this.#mine(rope, 'cut');
    const segment = int(s, 'segment');
    const o = this.#add('rope', 'cut', [segment], rope._id);
    this.#cuts.push(this.#sent + 1);
    return o;
  }
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

  /**
   * Ends the worker and frees the world: further use throws 'disposed'. The render arrays are
   * detached (length 0); output arrays kept from before keep the last step shown (shared memory
   * cannot be detached; the worker no longer writes it). Resolves when the worker has ended: at
   * once when the command ring is full (the worker is not left to run what is queued first).
   * Promises of queries (saveSnapshot(), particle(), ...) not yet answered reject with 'disposed'.
   */
  dispose() {
    if (this.#disposed) return Promise.resolve();
    this.#record(OP_DISPOSE, 0);
    this.#send();
    this.#disposed = true;
    clearTimeout(this.#retry);
    for (const o of this.#objects.values()) o._kill();
    this.#objects.clear();
    this.#shown = [];
    this.#pending = [];
    this.#cuts = [];
    this.#budgets.clear();
    const gone = new WispError('this World has been disposed', 'disposed');
    this.#settle(gone, 0);
    for (const r of this.#hashes.values()) r(null);
    this.#hashes.clear();
    for (const a of this.#answers.values()) a.reject(gone);
    this.#answers.clear();
    const w = this.#worker;
    // The dispose record waits in the stage when the ring is full (a worker far behind): the
    // worker would run every call before it first. Nothing it would do is wanted any more: end it
    // now. Otherwise it frees its World and says so (or, stuck in a step, is ended after 2 s).
    const queued = this.#stage.n > 0;
    return new Promise((resolve) => {
      let timer = 0;
      const end = () => { clearTimeout(timer); Promise.resolve(w.end()).then(() => resolve(), () => resolve()); };
      if (queued) { end(); return; }
      timer = setTimeout(end, 2000);
      w.on((m) => { if (m.type === 'disposed') end(); });
    });
  }
}
for (const m of WORLD_CALLS) {
  const method = METHOD_ID[m];
  WorkerWorld.prototype[m] = function (a) { this._call(0, method, arguments.length, a); };
}
for (const name of WORLD_UNSUPPORTED) {
  Object.defineProperty(WorkerWorld.prototype, name, {
    get() { return unsupported(`world.${name}`); },
  });
}

// Typed-array, Array and {x, y, z[, w]} arguments: separate functions, so no load site sees two
// kinds of array (a polymorphic load boxes the numbers it reads: an allocation per call).
function typedArg(st, a, tag) {
  const n = a.length;
  if (n > MAX_RING_ARRAY) return false;
  st.reserve(2 + n);
  st.push(tag); st.push(n);
  for (let i = 0; i < n; i++) st.push(a[i]);
  return true;
}
function arrayArg(st, a) {
  const n = a.length;
  if (n > MAX_RING_ARRAY) return false;
  for (let i = 0; i < n; i++) if (typeof a[i] !== 'number') return false;  // the worker's World names the bad element
  st.reserve(2 + n);
  st.push(T_F64); st.push(n);
  for (let i = 0; i < n; i++) st.push(a[i]);
  return true;
}
function vectorArg(st, v) {
  const x = v.x, y = v.y, z = v.z;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return false;
  if (!('w' in v)) {
    st.reserve(4);
    st.push(T_XYZ); st.push(x); st.push(y); st.push(z);
    return true;
  }
  const w = v.w;
  if (typeof w !== 'number') return false;
  st.reserve(5);
  st.push(T_XYZW); st.push(x); st.push(y); st.push(z); st.push(w);
  return true;
}

// A parameter object ({ stiffness: 2, gravity: [0, -9.8, 0] }): own keys of PARAM_KEYS, values
// numbers, booleans or Arrays of numbers; anything else (a nested object, a string) goes by
// message, and the worker's World names it.
// Values are read by key. One load site for every key (o[k] in the for-in) gives V8 no better
// than a generic load, which boxes each non-integer value it reads (16 bytes). So the first
// VALUE_AT.length values are read each at a site of its own (four functions written out, not
// made by one: closures of one function share their feedback): a site that always sees the same
// key of the same shape of object becomes a field load whose number goes into the stage
// unboxed. A set() with the same keys every frame then allocates nothing; a position that sees
// several keys (calls with different keys in a frame) boxes as before.
const VALUE_AT = [
  (st, o, k) => { const v = o[k]; if (typeof v !== 'number') return otherValue(st, v); st.push(T_NUM); st.push(v); return true; },
  (st, o, k) => { const v = o[k]; if (typeof v !== 'number') return otherValue(st, v); st.push(T_NUM); st.push(v); return true; },
  (st, o, k) => { const v = o[k]; if (typeof v !== 'number') return otherValue(st, v); st.push(T_NUM); st.push(v); return true; },
  (st, o, k) => { const v = o[k]; if (typeof v !== 'number') return otherValue(st, v); st.push(T_NUM); st.push(v); return true; },
];
function otherValue(st, v) {
  if (typeof v === 'number') { st.push(T_NUM); st.push(v); return true; }
  if (typeof v === 'boolean') { st.push(v ? T_TRUE : T_FALSE); return true; }
  return Array.isArray(v) && arrayArg(st, v);
}
function paramsArg(st, o) {
  if (Object.getPrototypeOf(o) !== Object.prototype) return false;
  const start = st.n;
  st.reserve(2);
  st.push(T_OBJ); st.push(0);
  let n = 0;
  for (const k in o) {
    const id = PARAM_ID.get(k);
    if (id === undefined || !Object.hasOwn(o, k)) { st.n = start; return false; }
    st.reserve(3);
    st.push(id);
    if (!(n < VALUE_AT.length ? VALUE_AT[n](st, o, k) : otherValue(st, o[k]))) { st.n = start; return false; }
    n++;
  }
  st.buf[start + 1] = n;
  return true;
}

/**
 * Creates a world stepped in a dedicated worker. `settings` as for Wisp.createWorld (with
 * `interpolate`, the render arrays interpolate as a World's); `load` as for createWisp (threads,
 * baseUrl, timeout), used by the worker. Resolves once the worker has loaded the solver and
 * made the world; bad settings reject with the WispError the world gives.
 */
export async function createWorkerWorld(settings = {}, load = {}) {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) fail('settings must be an object');
  if (load === null || typeof load !== 'object') fail('load options must be an object');
  if (typeof SharedArrayBuffer === 'undefined') {
    fail('a worker world needs SharedArrayBuffer: serve the page cross-origin isolated (COOP same-origin, COEP require-corp)', 'unsupported');
  }
  const { print, printErr, ...loadOptions } = load;  // functions cannot reach the worker
  // a URL object cannot be posted, and a relative one would resolve against the worker's script
  if (loadOptions.baseUrl !== undefined) loadOptions.baseUrl = isNode ? String(loadOptions.baseUrl) : new URL(loadOptions.baseUrl, globalThis.location?.href).href;
  const worker = await startWorker();
  const shared = {
    ring: new SharedArrayBuffer(8 * RING_DOUBLES), header: new SharedArrayBuffer(8),
    control: new SharedArrayBuffer(CONTROL_BYTES), report: new SharedArrayBuffer(REPORT_BYTES),
  };
  // the page shows slot 0, the worker writes slot 2 first, slot 1 is in between
  new Int32Array(shared.control)[MIDDLE] = 1;
  const ready = new Promise((resolve, reject) => {
    worker.on((m) => {
      if (m.type === 'ready') resolve(m);
      else if (m.type === 'error' && m.fatal) reject(new WispError(m.error.message, m.error.code));
    });
    worker.onError((e) => reject(new WispError(`the worker failed to start (${e?.message ?? e})`, 'load-failed')));
  });
  worker.post({ type: 'init', settings, load: loadOptions, ...shared });
  let made;
  try {
    made = await ready;
  } catch (e) {
    await worker.end();
    throw e;
  }
  return new WorkerWorld(worker, shared, settings.interpolate === true, made);
}
