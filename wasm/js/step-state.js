// The small state a worker world publishes with each step's outputs (worker.js writes it into the
// back slot, worker-world.js reads the slot it shows), so that what a World answers at once
// (world.time, events(), stats(); an object's enabled, sleeping, updates, stats(); an anchor's
// position) answers on the page as of the step the output arrays show.
//
// Numbers go as float64 (their bits kept), booleans as 0 or 1. A flat record of numbers and
// booleans (a stats() object) is written by its fields, [name, isBoolean] pairs the worker
// takes from the first record and sends once; the page builds the object back from them.
//
// Per object, SLOTS records of `size` doubles in one SharedArrayBuffer:
//   rope: [activity flags (1 enabled, 2 sleeping), updates, params length]
//   cloth, chain: the same, then the fields of stats()
//   anchor: [x, y, z]
// A rope's, cloth's or chain's flags, updates and stats come from one call into WASM per step for
// all of them (World._objectStates: a record per object, the stats fields in the order of the
// struct's field list, which is the order of stats()' keys), copied here into each object's slot:
// the per-object getters (enabled, sleeping, updates, stats(): five embind calls, stats() building
// an object) cost more per step than a thousand chains' solve. stats() names the fields once, at
// creation.
// The world: per slot [time, event count, events dropped, settings length, events of all steps
// so far, ...the fields of world.stats()]; the events in one buffer per slot (growable where the platform allows): per
// event [type, kind, page id of its object (0: none), message length, ...message char codes].
// Params (an object's; the world's settings) as text (encode()) in one buffer per slot, written
// into a slot only when they differ from what it holds: a set() that changes values every frame
// costs the page nothing until params are read, which decodes the slot shown.
import { SLOTS } from './output-slots.js';

export const EVENT_TYPES = ['reset', 'invariant', 'speed-clamped', 'teleport', 'sleep', 'wake'];
export const EVENT_KINDS = ['rope', 'cloth', 'chain'];
export const WORLD_HEAD = 5;
/** Bytes of a slot's event buffer at first, and at most (a step's events past it are dropped and counted). */
export const EVENT_BYTES = 8 * 1024, EVENT_MAX_BYTES = 16 * 1024 * 1024;
// The most a params text may grow to (a chain's is about 1.5 KB; curves and limits add a few KB):
// each object reserves this much address space three times, and a browser keeps all array
// buffers in one bounded region, shared with WebAssembly memory.
const PARAMS_MAX_BYTES = 256 * 1024;
const ACTIVE = new Set(['rope', 'cloth', 'chain']);
const HEAD = { rope: 3, cloth: 3, chain: 3, anchor: 3 };

/** The fields of a flat record of numbers and booleans. */
export const fieldsOf = (o) => Object.keys(o).map((k) => [k, typeof o[k] === 'boolean']);
export function writeFields(view, at, o, fields) {
  for (let i = 0; i < fields.length; i++) view[at + i] = +o[fields[i][0]];
}
export function readFields(view, at, fields) {
  const o = {};
  for (let i = 0; i < fields.length; i++) {
    const [name, bool] = fields[i];
    o[name] = bool ? view[at + i] !== 0 : view[at + i];
  }
  return o;
}

/**
 * Worker: the state record of a new object of `kind`, every slot holding its state now; null for
 * kinds without one. A rope's, cloth's or chain's state is read as every step reads it
 * (writeObjectStates), for this one object; stats() gives only its fields' names.
 */
export function objectState(kind, obj, memory = null) {
  const head = HEAD[kind];
  if (head === undefined) return null;
  const fields = kind === 'cloth' || kind === 'chain' ? fieldsOf(obj.stats()) : [];
  const size = head + fields.length;
  const json = ACTIVE.has(kind) ? encode(obj.params) : null;
  const made = memory !== null && memory.view.length === SLOTS * size ? memory : stateMemory(kind, fields.length, json);
  const view = made.view;
  const state = { kind, obj, fields, size, view, text: json === null ? null : paramsText(json, made.text) };
  if (!ACTIVE.has(kind)) {
    for (let s = 0; s < SLOTS; s++) writeAnchorState(state, s);
    return state;
  }
  const world = obj._world;
  if (fields.length > world._objectStateStride - 2) throw new Error(`${kind} stats have ${fields.length} fields, more than a state record holds`);
  for (let s = 0; s < SLOTS; s++) writeObjectStates([state], [obj], world, s);
  return state;
}
/**
 * Worker: the shared memory of the state record objectState makes for an object of `kind` with
 * `fieldCount` stats fields and params text `json`: made on its own, so that it can be made
 * before the object has its new shape (a cut: worker.js), and objectState then allocates nothing.
 */
export function stateMemory(kind, fieldCount, json) {
  return {
    view: new Float64Array(new SharedArrayBuffer(8 * SLOTS * (HEAD[kind] + fieldCount))),
    text: ACTIVE.has(kind) ? [0, 1, 2].map(() => textBuffer(2 * json.length)) : null,
  };
}
/**
 * Worker: writes the state of ropes, cloths and chains (`states`, their objects `objects`, in the
 * same order, all of `world`) into slot `s`: one call into WASM for all of them (World._objectStates),
 * then each record copied into its object's slot. Allocates nothing.
 */
export function writeObjectStates(states, objects, world, s) {
  const n = states.length;
  if (n === 0) return;
  const rec = world._objectStates(objects), stride = world._objectStateStride;
  for (let i = 0; i < n; i++) {
    const st = states[i], v = st.view, at = s * st.size, r = i * stride, f = st.fields.length;
    v[at] = rec[r];
    v[at + 1] = rec[r + 1];
    v[at + 2] = writeParams(st.text, s);
    for (let k = 0; k < f; k++) v[at + 3 + k] = rec[r + 2 + k];
  }
}
/** Worker: writes an anchor's position into slot `s`. */
export function writeAnchorState(st, s) {
  const v = st.view, p = st.obj.position, at = s * st.size;
  v[at] = p[0]; v[at + 1] = p[1]; v[at + 2] = p[2];
}

// Params as text: JSON with the numbers JSON cannot hold (-0, NaN, +-Infinity) kept.
const encodeNumber = (k, v) => (typeof v === 'number' && (!Number.isFinite(v) || Object.is(v, -0)) ? { $n: Object.is(v, -0) ? '-0' : String(v) } : v);
const decodeNumber = (k, v) => (v !== null && typeof v === 'object' && typeof v.$n === 'string' ? Number(v.$n) : v);
export const encode = (value) => JSON.stringify(value, encodeNumber);
/** Worker: the params text of an object (or the world), `json` the current one, and per slot the one written there (in `buffers`, three text buffers made for it, or new ones). */
export function paramsText(json, buffers = null) {
  return { json, written: [null, null, null], length: [0, 0, 0], buffers: buffers ?? [0, 1, 2].map(() => textBuffer(2 * json.length)) };
}
/** Worker: writes the current params text into slot `s` if it holds another; returns its length (-1: no room). */
export function writeParams(t, s) {
  if (t.written[s] === t.json) return t.length[s];
  const b = t.buffers[s], json = t.json, need = 2 * json.length;
  if (need > b.byteLength) {
    if (!b.growable || need > b.maxByteLength) {
      t.written[s] = null;
      return -1;
    }
    b.grow(Math.min(b.maxByteLength, 2 * need));
  }
  const chars = new Uint16Array(b);
  for (let i = 0; i < json.length; i++) chars[i] = json.charCodeAt(i);
  t.written[s] = json;
  t.length[s] = json.length;
  return json.length;
}
/** Page: the params `n` chars of text in `buffer` hold; null when they did not fit. */
export function readParams(buffer, n) {
  if (n < 0) return null;
  const chars = new Uint16Array(buffer, 0, n);
  let text = '';
  for (let i = 0; i < n; i += 4096) text += String.fromCharCode.apply(null, chars.subarray(i, i + 4096));
  return JSON.parse(text, decodeNumber);
}
function textBuffer(bytes) {
  const first = Math.max(1024, 2 * bytes);
  try {
    const b = new SharedArrayBuffer(first, { maxByteLength: Math.max(first, PARAMS_MAX_BYTES) });
    if (b.growable) return b;
  } catch { /* no growable shared memory: a fixed buffer */ }
  return new SharedArrayBuffer(Math.max(16384, 4 * bytes));
}

/** Worker: writes `events` (world.events()) into the event buffer `view` (a Float64Array over its SharedArrayBuffer); returns how many it dropped for want of room. */
export function writeEvents(buffer, events, pageIdOf) {
  let view = new Float64Array(buffer), p = 0, dropped = 0;
  for (const e of events) {
    const msg = e.message ?? '', need = p + 4 + msg.length;
    if (need > view.length) {
      const bytes = Math.min(EVENT_MAX_BYTES, Math.max(2 * buffer.byteLength, 8 * need));
      if (buffer.growable && bytes > buffer.byteLength && 8 * need <= bytes) {
        buffer.grow(bytes);
        view = new Float64Array(buffer);
      } else { dropped++; continue; }
    }
    view[p] = EVENT_TYPES.indexOf(e.type); view[p + 1] = EVENT_KINDS.indexOf(e.kind);
    view[p + 2] = e.object ? pageIdOf(e.object) : 0; view[p + 3] = msg.length;
    for (let i = 0; i < msg.length; i++) view[p + 4 + i] = msg.charCodeAt(i);
    p += 4 + msg.length;
  }
  return dropped;
}

/**
 * Page: a step's events: the `count - dropped` the worker wrote (writeEvents), and where some are
 * missing (no room in the buffer, or steps published and never shown), one 'events-dropped'
 * event after them saying how many.
 */
export function readStepEvents(buffer, count, dropped, objectOf) {
  const out = readEvents(buffer, count - dropped, objectOf);
  if (dropped > 0) {
    out.push({
      type: 'events-dropped', kind: null, object: null,
      message: `${dropped} of ${count} events are not shown: they belong to steps the worker ran ahead of the page and never showed, or did not fit the worker's event buffer (${buffer.byteLength} bytes)`,
    });
  }
  return out;
}

/** Page: `count` events from the event buffer, their objects found by `objectOf(page id)`. */
function readEvents(buffer, count, objectOf) {
  const view = new Float64Array(buffer), out = [];
  let p = 0;
  for (let k = 0; k < count; k++) {
    const n = view[p + 3];
    let message = '';
    for (let i = 0; i < n; i++) message += String.fromCharCode(view[p + 4 + i]);
    out.push({ type: EVENT_TYPES[view[p]], kind: EVENT_KINDS[view[p + 1]] ?? null, object: objectOf(view[p + 2]), message });
    p += 4 + n;
  }
  return out;
}

/** A SharedArrayBuffer for one slot's events: growable where the platform allows. */
export function eventBuffer() {
  try {
    const b = new SharedArrayBuffer(EVENT_BYTES, { maxByteLength: EVENT_MAX_BYTES });
    if (b.growable) return b;
  } catch { /* no growable shared memory: a fixed buffer */ }
  return new SharedArrayBuffer(4 * EVENT_BYTES);
}
