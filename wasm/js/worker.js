// The dedicated worker of a worker world (worker-world.js): owns a real World, runs the page's
// commands in order, and after every step publishes each object's outputs into
// SharedArrayBuffers the page reads in place.
//
// Commands: the per-frame calls arrive in the command ring (command-ring.js); calls with
// structured arguments (adding objects, nested options) arrive by message, each with an
// OP_POSTED record in the ring at its place. The worker runs the ring until it is empty, then
// blocks on the ring's write position (Atomics.wait: no message, no promise per frame). It goes
// back to its event loop only when the ring names a posted call whose message has not arrived
// yet, and resumes when it does: messages and ring records keep one order.
//
// Outputs: three slots (output-slots.js). After a step the worker writes the back slot of every
// output buffer (with render interpolation also the outputs the render arrays start from) and of
// the small per-step state (step-state.js: time, events, stats, activity, anchor positions; the
// ropes', cloths' and chains' activity and stats read in one call into WASM for all of them),
// then publishes it; it never writes the slot the page shows. Params and settings are part of
// that state (as text, written into a slot only when they changed); queries (particle(),
// snapshots, ...) are posted calls answered by message.
//
// A command that throws changes nothing (the World's guarantee); its WispError goes back to the
// page, which throws it at its next call. Node (worker_threads) and browsers (a module Worker)
// differ only in how messages travel.
import { createWisp, FrameBudget } from './index.js';
import { isNode } from './loader.js';
import { LEVELS } from './levels.js';
import {
  RING_DOUBLES, RING_MASK, WRITE, READ, KINDS, METHODS, OP_CALL, OP_STEP, OP_POSTED, OP_FLUSH, OP_HASH, OP_DISPOSE,
  T_NUM, T_TRUE, T_FALSE, T_UNDEF, T_F64, T_F32, T_XYZ, T_XYZW, T_HANDLE, T_OBJ, PARAM_KEYS,
} from './command-ring.js';
import { SLOTS, REPORT, publish as publishSlot } from './output-slots.js';
import {
  WORLD_HEAD, fieldsOf, writeFields, objectState, stateMemory, writeObjectStates, writeAnchorState, writeEvents, eventBuffer, encode, paramsText,
  writeParams,
} from './step-state.js';
import { WispError } from './error.js';

const RealSharedArrayBuffer = globalThis.SharedArrayBuffer;  // what fail-shared-memory restores
const NODE_THREADS = 'node:worker_threads';  // a variable, so no bundler follows it
// No top-level await: bundlers emit workers as classic scripts by default. Node keeps the
// messages that arrive before the listener is attached.
let port = null;
const send = (msg, transfer) => (port ? port.postMessage(msg, transfer) : self.postMessage(msg, transfer));
const listen = (fn) => {
  if (!isNode) { self.addEventListener('message', (e) => fn(e.data)); return; }
  import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_THREADS).then((m) => { port = m.parentPort; port.on('message', fn); });
};

let world = null, interpolate = false;
let ring = null, header = null, read = 0;
let control = null, report = null, back = 2, seq = 0;
let stepAlpha = 1;               // the alpha of the last step the World ran (publish sets the World's to 0)
let stalled = false, ended = false;
const posted = [];            // calls that came by message, waiting for their OP_POSTED record
const objects = new Map();    // page id -> the World's object (or a BudgetHost)
const idOf = new Map();       // the World's object -> page id (the events' objects)
const statesById = new Map(); // page id -> its state record (step-state.js)
let worldDirty = false;       // the world's settings changed since they were last encoded
let eventTotal = 0;           // events of every step published so far
const NO_EVENTS = [];
const published = [];         // { id, arrays: [{ obj, name, render, floats, shared: Float32Array over the SAB }], state (step-state.js) or null }
// The state records (step-state.js) of the ropes, cloths and chains, and their objects, in the
// order they were made: read in one call into WASM per step (writeObjectStates). Anchors' apart.
const activeStates = [], activeObjects = [], anchorStates = [];
let worldState = null, worldFields = [], eventBuffers = [], worldText = null;  // the world's per-step state (step-state.js)

function errorOf(e) {
  return { message: e?.message ?? String(e), code: e?.code ?? 'unknown', name: e?.name };
}

function decode(a) {
  if (a && typeof a === 'object' && !ArrayBuffer.isView(a)) {
    if (a.$h !== undefined) return objects.get(a.$h) ?? { _world: null };
    if (Array.isArray(a)) return a.map(decode);
  }
  return a;
}

// Per argument position, the arrays and vectors ring arguments are read into: reused, as the
// World copies what it is given.
const F64 = [new Map(), new Map(), new Map(), new Map()], F32 = [new Map(), new Map(), new Map(), new Map()];
const XYZ = [0, 1, 2, 3].map(() => ({ x: 0, y: 0, z: 0 })), XYZW = [0, 1, 2, 3].map(() => ({ x: 0, y: 0, z: 0, w: 0 }));
const ARGS = [undefined, undefined, undefined, undefined];
function scratch(pool, k, n, Type) {
  let a = pool[k].get(n);
  if (a === undefined) pool[k].set(n, (a = new Type(n)));
  return a;
}

// Reads argument k at ring position p into ARGS[k]; returns the position after it.
function readArg(k, p) {
  const tag = ring[p & RING_MASK];
  p = (p + 1) | 0;
  if (tag === T_NUM) { ARGS[k] = ring[p & RING_MASK]; return (p + 1) | 0; }
  if (tag === T_TRUE || tag === T_FALSE) { ARGS[k] = tag === T_TRUE; return p; }
  if (tag === T_UNDEF) { ARGS[k] = undefined; return p; }
  if (tag === T_HANDLE) { ARGS[k] = objects.get(ring[p & RING_MASK]) ?? { _world: null }; return (p + 1) | 0; }
  if (tag === T_XYZ || tag === T_XYZW) {
    const v = tag === T_XYZ ? XYZ[k] : XYZW[k];
    v.x = ring[p & RING_MASK]; v.y = ring[(p + 1) & RING_MASK]; v.z = ring[(p + 2) & RING_MASK];
    if (tag === T_XYZW) { v.w = ring[(p + 3) & RING_MASK]; ARGS[k] = v; return (p + 4) | 0; }
    ARGS[k] = v;
    return (p + 3) | 0;
  }
  if (tag === T_OBJ) return readParams(k, p);
  // T_F64 or T_F32
  const n = ring[p & RING_MASK];
  const a = tag === T_F32 ? scratch(F32, k, n, Float32Array) : scratch(F64, k, n, Float64Array);
  p = (p + 1) | 0;
  for (let i = 0; i < n; i++) a[i] = ring[(p + i) & RING_MASK];
  ARGS[k] = a;
  return (p + n) | 0;
}

// A parameter object: a new object (World.set copies what it needs), its arrays plain Arrays.
function readParams(k, p) {
  const n = ring[p & RING_MASK], o = {};
  p = (p + 1) | 0;
  for (let i = 0; i < n; i++) {
    const key = PARAM_KEYS[ring[p & RING_MASK]], tag = ring[(p + 1) & RING_MASK];
    p = (p + 2) | 0;
    if (tag === T_NUM) { o[key] = ring[p & RING_MASK]; p = (p + 1) | 0; } else if (tag === T_TRUE || tag === T_FALSE) o[key] = tag === T_TRUE;
    else {
      const len = ring[p & RING_MASK], a = [];
      for (let j = 0; j < len; j++) a.push(ring[(p + 1 + j) & RING_MASK]);
      o[key] = a;
      p = (p + 1 + len) | 0;
    }
  }
  ARGS[k] = o;
  return p;
}

function runCall(p) {
  const id = ring[p & RING_MASK], method = METHODS[ring[(p + 1) & RING_MASK]], argc = ring[(p + 2) & RING_MASK];
  p = (p + 3) | 0;
  for (let k = 0; k < argc; k++) p = readArg(k, p);
  const target = id === 0 ? world : objects.get(id);
  if (target === undefined) return;  // its creation failed; that error was reported
  const a = ARGS;
  if (argc === 0) target[method]();
  else if (argc === 1) target[method](a[0]);
  else if (argc === 2) target[method](a[0], a[1]);
  else if (argc === 3) target[method](a[0], a[1], a[2]);
  else target[method](a[0], a[1], a[2], a[3]);
  if (method === 'dispose') forget(id);
  else if (MIRRORED.has(method)) mirror(id);
}

// Stops publishing the object's outputs and state (disposed, or cut: made again shorter).
function unshare(id) {
  const entry = published.find((p) => p.id === id);
  if (entry !== undefined) drop(entry);
}
// Removes one published entry (a cut rope has its old and new one for a moment).
function drop(entry) {
  published.splice(published.indexOf(entry), 1);
  const st = entry.state;
  if (st === null) return;
  const k = activeStates.indexOf(st), a = anchorStates.indexOf(st);
  if (k >= 0) { activeStates.splice(k, 1); activeObjects.splice(k, 1); }
  if (a >= 0) anchorStates.splice(a, 1);
  if (statesById.get(entry.id) === st) statesById.delete(entry.id);
}
function forget(id) {
  unshare(id);
  idOf.delete(objects.get(id));
  objects.delete(id);
}

// Writes the back slot of every output buffer and publishes it. `ran`: false for a step the
// World rejected, which keeps the last step's report and alpha (a World's lastStep and alpha do
// not change when step() throws).
function publish(ran) {
  const s = back;
  for (const p of published) {
    const a = p.arrays;
    for (let k = 0; k < a.length; k++) a[k].shared.set(a[k].obj[a[k].name], s * a[k].floats * (interpolate ? 2 : 1));
  }
  for (let i = 0; i < activeStates.length; i++) {
    const t = activeStates[i].text;
    if (t.dirty) { t.json = encode(activeStates[i].obj.params); t.dirty = false; }
  }
  writeObjectStates(activeStates, activeObjects, world, s);
  for (let i = 0; i < anchorStates.length; i++) writeAnchorState(anchorStates[i], s);
  if (worldDirty) { worldText.json = encode(world.settings); worldDirty = false; }
  publishWorld(s, ran);
  const r = world.lastStep, o = REPORT * s;
  if (ran) stepAlpha = world.alpha;
  report[o] = r.fixedSteps; report[o + 1] = r.droppedTime; report[o + 2] = r.leftover; report[o + 3] = stepAlpha;
  if (interpolate) {
    // the render arrays at alpha 0 are the outputs they start from (interpolation.js: exactly prev)
    world.setAlpha(0);
    for (const p of published) {
      const a = p.arrays;
      for (let k = 0; k < a.length; k++) a[k].shared.set(a[k].obj[a[k].render], (2 * s + 1) * a[k].floats);
    }
  }
  back = publishSlot(control, s, ++seq);
}

// The world's time, events and stats into slot s. Its events allocate only in a step that had some.
// A step the World rejected has no events of its own (world.events() still holds the last
// step's). Each slot also holds how many events all steps so far had: the page, which knows the
// total of the step it showed before, finds those of steps it never showed (step-state.js).
function publishWorld(s, ran) {
  const size = WORLD_HEAD + worldFields.length, at = s * size, events = ran ? world.events() : NO_EVENTS;
  eventTotal += events.length;
  worldState[at] = world.time;
  worldState[at + 1] = events.length;
  worldState[at + 2] = events.length === 0 ? 0 : writeEvents(eventBuffers[s], events, pageIdOf);
  worldState[at + 4] = eventTotal;
  worldState[at + 3] = writeParams(worldText, s);
  writeFields(worldState, at + WORLD_HEAD, world.stats(), worldFields);
}
function pageIdOf(obj) { return idOf.get(obj) ?? 0; }

// Makes the shared output buffers of a new object, every slot holding its outputs now (null when
// it has none), and its state record (step-state.js). `memory`: what memoryFor made for it, used
// where its sizes are the object's (else made here).
function share(id, kind, obj, memory = null) {
  const outs = KINDS[kind].outputs, state = objectState(kind, obj, memory?.state ?? null);
  if (outs.length === 0 && state === null) return null;
  const arrays = [], buffers = [];
  const copies = interpolate ? 2 : 1;
  for (let k = 0; k < outs.length; k++) {
    const [name, render] = outs[k];
    const floats = obj[name].length;
    const made = memory?.outputs[k];
    const shared = made !== undefined && made.length === sharedLength(floats) ? made : sharedOutput(floats);
    // with interpolation the worker's World keeps the outputs its render arrays start from once
    // a render getter was read: read it now, so it follows every step from the start
    const start = interpolate ? obj[render] : null;
    for (let s = 0; s < SLOTS; s++) {
      shared.set(obj[name], s * copies * floats);
      if (start !== null) shared.set(start, (s * copies + 1) * floats);
    }
    arrays.push({ obj, name, render, floats, shared });
    buffers.push({ buffer: shared.buffer, floats });
  }
  published.push({ id, arrays, state });
  if (state !== null) {
    statesById.set(id, state);
    if (state.kind === 'anchor') anchorStates.push(state);
    else { activeStates.push(state); activeObjects.push(obj); }
  }
  return { buffers, state: state && { buffer: state.view.buffer, size: state.size, fields: state.fields, text: state.text?.buffers ?? null } };
}

// The floats of the shared buffer of an output of `floats` floats: every slot's, twice with
// interpolation (the outputs and the ones the render arrays start from); one at least.
const sharedLength = (floats) => Math.max(1, SLOTS * (interpolate ? 2 : 1) * floats);
const sharedOutput = (floats) => new Float32Array(new SharedArrayBuffer(4 * sharedLength(floats)));

// The shared memory share() makes for an object of `kind` with `count` particles, `fieldCount`
// stats fields and params text `json`, made before the object has that shape (a cut).
function memoryFor(kind, count, fieldCount, json) {
  return {
    outputs: KINDS[kind].outputs.map(([, , components]) => sharedOutput(components * count)),
    state: stateMemory(kind, fieldCount, json),
  };
}

// `from`: the first step the page shows them from (a cut's ropes; otherwise at once).
function created(id, kind, obj, from, memory = null) {
  const shared = share(id, kind, obj, memory);
  const msg = { type: 'created', id, outputs: shared && shared.buffers.length > 0 ? shared.buffers : null, state: shared?.state ?? null };
  if (from !== undefined) msg.from = from;
  if (kind === 'rope' || kind === 'cloth' || kind === 'chain') msg.count = obj.count;
  if (kind === 'cloth') { msg.indices = obj.indices; msg.vertexMap = obj.vertexMap; }
  send(msg);
}

// Params (settings for the world, id 0) after a call that may have changed them: the text the
// next steps publish (step-state.js), written into a slot only where it differs.
// Only marked here: the text is made once at the next publish (encode reads every parameter
// through the bindings, about twice the cost of a set() itself), however many calls came between.
const MIRRORED = new Set(['set', 'setGravity', 'setWind']);
function mirror(id) {
  if (id === 0) { worldDirty = true; return; }
  const st = statesById.get(id);
  if (st?.text) st.text.dirty = true;
}

// A FrameBudget over this World, driven by the page's forwarder (worker-budget.js): the same
// calls with objects by page id and levels by index; its step() times the World's step with this
// thread's performance.now. Each new plan goes to the page (sendPlan), tagged with the steps
// published so far (the page shows it from that step on) and the calls run (the page forgets
// a removed object's id once a plan has the remove).
class BudgetHost {
  #id; #budget; #entries = new Map(); #sent; #calls = 0;
  constructor(id, options) {
    this.#id = id;
    this.#budget = new FrameBudget(world, options);
    this.#sent = this.#budget.report;  // the page starts from the same empty plan
  }
  // An id with no object here is one whose creation failed (that error was reported, as runCall
  // skips its calls): the budget skips it too, rather than report a second, misleading error.
  add(id, priority) {
    this.#calls++;
    const o = objects.get(id);
    if (o === undefined) return;
    this.#budget.add(o, { priority });
    this.#entries.set(id, o);
    this.sendPlan();
  }
  remove(id) {
    this.#onEntry(id, (o) => {
      this.#budget.remove(o);  // back at its cap: its updateEvery may have changed
      this.#entries.delete(id);
      mirror(id);
    });
  }
  setPriority(id, priority) { this.#onEntry(id, (o) => this.#budget.setPriority(o, priority)); }
  setCap(id, level) { this.#onEntry(id, (o) => this.#budget.setCap(o, level)); }
  // a call on a budgeted object (none: its creation failed, see add), then the plan it made
  #onEntry(id, fn) {
    this.#calls++;
    const o = this.#entries.get(id);
    if (o === undefined) return;
    fn(o);
    this.sendPlan();
  }
  setBudgetMs(ms) { this.#calls++; this.#budget.budgetMs = ms; this.sendPlan(); }
  measure(ms) { this.#calls++; this.#budget.measure(ms); this.sendPlan(); }
  calibrate() { this.#calls++; this.#budget.calibrate(); this.sendPlan(); }
  plan() { this.#calls++; this.#budget.plan(); this.sendPlan(); }
  /** Every object back to its cap (FrameBudget.dispose); runCall then forgets this host. */
  dispose() {
    this.#calls++;
    this.#budget.dispose();
    for (const id of this.#entries.keys()) mirror(id);
  }
  /** The World's step through the budget; runRecord sends its plan once the step is published. */
  step(dt) {
    const fixed = this.#budget.step(dt);
    // a calibration in the step set updateEvery: the step's own slot shows the new params
    if (this.#budget.report !== this.#sent) for (const id of this.#entries.keys()) mirror(id);
    return fixed;
  }
  sendPlan() {
    const r = this.#budget.report;
    if (r === this.#sent) return;
    this.#sent = r;
    for (const id of this.#entries.keys()) mirror(id);  // a plan sets the objects' updateEvery
    const levels = [], idOf = new Map();  // (every object the plan names is budgeted: in #entries)
    for (const [id, o] of this.#entries) {
      levels.push(id, LEVELS.indexOf(this.#budget.levelOf(o)));
      idOf.set(o, id);
    }
    const degraded = r.degraded.map((d) => ({ id: idOf.get(d.object), from: d.from, to: d.to, reason: d.reason }));
    send({ type: 'plan', id: this.#id, step: seq, calls: this.#calls, levels, report: { ...r, degraded } });
  }
}

// A call whose answer the page awaits (worker-world.js, #query), in order with the other calls:
// its value, or its error, goes back by message (an error rejects that Promise only).
const QUERIES = new Set(['particle', 'restLength', 'airVelocityAt', 'saveSnapshot', 'saveSnapshotJson', 'loadSnapshot', 'loadSnapshotJson']);
function query(cmd) {
  let msg;
  try {
    if (!QUERIES.has(cmd.method)) throw new Error(`${cmd.method} cannot be asked of a worker`);
    const target = cmd.id === 0 ? world : objects.get(cmd.id);
    if (target === undefined) throw Object.assign(new Error(`${cmd.method}: the object was not made (its creation failed)`), { code: 'invalid-handle' });
    const args = cmd.args.map(decode);
    const value = cmd.method.startsWith('loadSnapshot') ? loadSnapshot(cmd.method, args[0]) : target[cmd.method](...args);
    msg = { type: 'answer', token: cmd.token, value };
  } catch (e) {
    msg = { type: 'answer', token: cmd.token, error: errorOf(e) };
  }
  send(msg);
}

// A snapshot of the same objects (the same ids, the same particle and joint counts): the page's
// objects and their shared arrays stay valid. Another snapshot is undone and rejected.
function loadSnapshot(method, data) {
  const ids = JSON.stringify(world._native.objects()), lengths = outputLengths(), before = world.saveSnapshot();
  let error = null, same = false;
  try { world[method](data); } catch (e) { error = e; }  // a World whose objects changed fails refreshing their arrays
  try { same = JSON.stringify(world._native.objects()) === ids && outputLengths() === lengths; } catch { /* an object is gone */ }
  if (same && error !== null) throw error;  // bad data: nothing loaded
  if (!same) {
    world.loadSnapshot(before);
    throw Object.assign(new Error(`${method}: a worker world loads only snapshots of its own objects (the same objects, the same particle counts); `
      + 'for another world, make a new worker world and load it there before adding objects'), { code: 'unsupported' });
  }
  mirror(0);
  for (const p of published) mirror(p.id);
  return undefined;
}
function outputLengths() {
  return published.map((p) => p.arrays.map((a) => a.obj[a.name].length).join(',')).join(';');
}

// A call that came by message: adding an object, or a call with structured arguments.
function runPosted(cmd) {
  if (cmd.op === 'budget') {
    objects.set(cmd.id, new BudgetHost(cmd.id, cmd.options));
    return;
  }
  if (cmd.op === 'add') {
    const maker = cmd.of === 0 ? world : objects.get(cmd.of);
    if (cmd.method === 'cut') {
      cut(maker, cmd);
      return;
    }
    if (maker === undefined) return;  // its creation failed; that error was reported
    const obj = maker[cmd.method](...cmd.args.map(decode));
    objects.set(cmd.id, obj);
    idOf.set(obj, cmd.id);
    created(cmd.id, cmd.kind, obj);
    return;
  }
  if (cmd.op === 'query') {
    query(cmd);
    return;
  }
  const target = cmd.id === 0 ? world : objects.get(cmd.id);
  if (target === undefined) return;
  target[cmd.method](...cmd.args.map(decode));
  if (cmd.method === 'dispose') forget(cmd.id);
  else if (MIRRORED.has(cmd.method)) mirror(cmd.id);
}

// rope.cut: the rope cut is shorter, so its outputs get new shared arrays; the page shows both
// ropes' new arrays from the first step after the cut, and none of those steps before its 'cut'
// message, sent last, whether the cut was made or failed (its error is reported as any call's).
// Both ropes' shared memory is made before the World cuts, for the counts the cut leaves (the
// rope keeps particles 0..segment, the far part gets the rest: World::cutRope): when it cannot
// be made, the error is 'out-of-memory' and nothing is cut. A segment the cut rejects needs none.
function cut(rope, cmd) {
  const from = seq + 1;
  try {
    if (rope === undefined) return;  // its creation failed; that error was reported
    const args = cmd.args.map(decode), s = args[0], n = rope.count;
    let memory = [null, null];
    if (Number.isInteger(s) && s >= 0 && s < n - 1) {
      try {
        const json = encode(rope.params);  // the far part's params are the rope's
        memory = [memoryFor('rope', s + 1, 0, json), memoryFor('rope', n - s - 1, 0, json)];
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        throw new WispError(`rope.cut(${s}): out of memory for the shared arrays of the two ropes (${e.message}); nothing was cut`, 'out-of-memory');
      }
    }
    const piece = rope.cut(...args);
    objects.set(cmd.id, piece);
    idOf.set(piece, cmd.id);
    const old = published.find((p) => p.id === cmd.of);
    created(cmd.of, 'rope', rope, from, memory[0]);
    if (old !== undefined) drop(old);
    created(cmd.id, 'rope', piece, from, memory[1]);
  } finally {
    send({ type: 'cut', from });
  }
}

// Runs one record at `p` of operation `op`; false when the world ended.
function runRecord(p, op) {
  const q = (p + 2) | 0;
  try {
    if (op === OP_CALL) runCall(q);
    else if (op === OP_STEP) {
      // A step the World rejects (a bad dt, or one over rejectFrameDt after a background tab)
      // changes nothing but is still published, unchanged, so that the page counts one completed
      // step per step() call and pendingSteps returns to 0.
      const budget = ring[(q + 1) & RING_MASK], by = budget === 0 ? world : objects.get(budget);
      let ran = false;
      try { by.step(ring[q & RING_MASK]); ran = true; } finally { publish(ran); }
      if (budget !== 0) by.sendPlan();  // a calibration during the step: shown from this step on
    }
    else if (op === OP_POSTED) {
      const cmd = posted.shift();
      if (cmd.seq !== ring[q & RING_MASK]) throw new Error(`posted call ${cmd.seq} where the ring names ${ring[q & RING_MASK]}`);
      runPosted(cmd);
    } else if (op === OP_FLUSH) send({ type: 'done', token: ring[q & RING_MASK] });
    else if (op === OP_HASH) send({ type: 'hash', token: ring[q & RING_MASK], hash: world.stateHash() });
    else if (op === OP_DISPOSE) {
      world.dispose();
      ended = true;
      send({ type: 'disposed' });
      return false;
    }
  } catch (e) {
    send({ type: 'error', error: errorOf(e) });
  }
  return true;
}

// Runs the ring until it is empty, then waits for more; returns only to wait for a posted call's
// message (the message handler calls it again) or when the world ended.
function pump() {
  stalled = false;
  for (;;) {
    const w = Atomics.load(header, WRITE);
    while (read !== w) {
      const op = ring[(read + 1) & RING_MASK];
      if (op === OP_POSTED && posted.length === 0) { stalled = true; return; }
      const go = runRecord(read, op);
      read = (read + ring[read & RING_MASK]) | 0;
      Atomics.store(header, READ, read);
      if (!go) return;
    }
    Atomics.wait(header, WRITE, w);
  }
}

listen(async (msg) => {
  if (msg.type === 'init') {
    try {
      const wisp = await createWisp(msg.load);
      world = wisp.createWorld(msg.settings);
      interpolate = world.interpolate;
      stepAlpha = world.alpha;
      ring = new Float64Array(msg.ring);
      header = new Int32Array(msg.header);
      control = new Int32Array(msg.control);
      report = new Float64Array(msg.report);
      if (ring.length !== RING_DOUBLES) throw new Error('the command ring has the wrong size');
      worldFields = fieldsOf(world.stats());
      worldState = new Float64Array(new SharedArrayBuffer(8 * SLOTS * (WORLD_HEAD + worldFields.length)));
      for (let s = 0; s < SLOTS; s++) eventBuffers.push(eventBuffer());
      worldText = paramsText(encode(world.settings));
      for (let s = 0; s < SLOTS; s++) publishWorld(s);
      send({ type: 'ready', threaded: wisp.threaded, state: worldState.buffer, fields: worldFields, events: eventBuffers, settings: worldText.buffers });
    } catch (e) {
      send({ type: 'error', error: errorOf(e), fatal: true });
      return;
    }
    pump();
    return;
  }
  if (msg.type === 'posted') {
    for (const cmd of msg.commands) posted.push(cmd);
    if (stalled && !ended) pump();
  }
  // Fault injection for tests/js/worker.test.mjs (WorkerWorld._failSharedMemory): from the
  // count-th SharedArrayBuffer made from now on, every one fails, as when memory has run out,
  // until a count of 0 ends it.
  if (msg.type === 'fail-shared-memory') {
    globalThis.SharedArrayBuffer = RealSharedArrayBuffer;
    let left = msg.count;
    if (left > 0) {
      globalThis.SharedArrayBuffer = new Proxy(RealSharedArrayBuffer, {
        construct(target, args) {
          if (--left > 0) return Reflect.construct(target, args);
          throw new RangeError('Array buffer allocation failed');
        },
      });
    }
  }
});
