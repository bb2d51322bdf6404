// The command ring of a worker world: the page (worker-world.js) writes its per-frame calls as
// numbers into a SharedArrayBuffer the worker (worker.js) reads, so a frame's calls allocate
// nothing on the page (no message, no command object, no copied arguments).
//
// Layout: RING_DOUBLES float64s, a power of two, indexed modulo its size; a header of int32s:
// WRITE, the position after the last record the page published, and READ, the position after
// the last record the worker ran (positions count doubles and wrap at 2^32; a record may wrap
// around the end). The page owns WRITE, the worker READ; each stores its own with Atomics, the
// page notifies WRITE and the worker waits on it while the ring is empty.
//
// A record: [length in doubles (header included), op, ...]. OP_STEP: [dt, budget id (0: none;
// else the worker steps through that FrameBudget)]. OP_CALL: [id (0 the world), method
// (index in METHODS), argument count, ...arguments]; each argument a tag then its numbers:
//   T_NUM v | T_TRUE | T_FALSE | T_UNDEF | T_F64 n v1..vn (an Array of numbers or a Float64Array)
//   | T_F32 n v1..vn | T_XYZ x y z | T_XYZW x y z w ({x, y, z[, w]}, three.js vectors and
//   quaternions) | T_HANDLE id (an object of the world) | T_OBJ n (key, value) x n (a parameter
//   object: keys by index in PARAM_KEYS, values T_NUM, T_TRUE, T_FALSE or T_F64).
// Any other argument (a nested object, a string, null) sends the whole call by postMessage;
// an OP_POSTED record takes its place in the ring, so the worker runs it in order.
import { ROPE_PARAMS, CLOTH_PARAMS, CHAIN_PARAMS, CHAIN_BOOST, WORLD, ZONE } from './options.js';

export const RING_DOUBLES = 1 << 16;
export const RING_MASK = RING_DOUBLES - 1;
export const WRITE = 0, READ = 1;
/** The longest array argument the ring takes; a longer one goes by postMessage. */
export const MAX_RING_ARRAY = RING_DOUBLES >> 3;

export const OP_CALL = 1, OP_STEP = 2, OP_POSTED = 3, OP_FLUSH = 4, OP_HASH = 5, OP_DISPOSE = 6;
export const T_NUM = 1, T_TRUE = 2, T_FALSE = 3, T_UNDEF = 4, T_F64 = 5, T_F32 = 6, T_XYZ = 7, T_XYZW = 8, T_HANDLE = 9, T_OBJ = 10;

/** The keys a parameter object in the ring may have (set() of ropes, cloths, chains, the world and wind zones, boost()). */
export const PARAM_KEYS = [...new Set([ROPE_PARAMS, CLOTH_PARAMS, CHAIN_PARAMS, CHAIN_BOOST, WORLD, ZONE].flatMap(Object.keys))].sort();
export const PARAM_ID = new Map(PARAM_KEYS.map((k, i) => [k, i]));

// Per kind: the calls forwarded to the worker, and the output arrays [name, render getter,
// floats per particle or joint, interpolation mode (interpolation.js: 0 points, 1 unit vectors,
// 2 rotations)].
export const KINDS = {
  rope: {
    calls: ['set', 'setVelocity', 'pin', 'unpin', 'teleport', 'reset', 'setEnabled', 'wake'],
    outputs: [['positions', 'renderPositions', 3, 0]],
  },
  cloth: {
    calls: ['set', 'setVelocity', 'pin', 'unpin', 'teleport', 'reset', 'setEnabled', 'wake'],
    outputs: [['positions', 'renderPositions', 3, 0], ['normals', 'renderNormals', 3, 1]],
  },
  chain: {
    calls: ['set', 'setRoot', 'setRootMatrix', 'setSpace', 'setSpaceMatrix', 'setPose', 'setPhysicsWeight', 'boost', 'teleport', 'reset',
      'setVelocity', 'setEnabled', 'wake'],
    outputs: [['positions', 'renderPositions', 3, 0], ['rotations', 'renderRotations', 4, 2], ['localRotations', 'renderLocalRotations', 4, 2]],
  },
  chainLinks: { calls: [], outputs: [] },
  anchor: { calls: ['setPosition', 'teleport'], outputs: [] },
  collider: { calls: ['setTransform', 'setMatrix', 'setEnabled', 'setFriction'], outputs: [] },
  windZone: { calls: ['set'], outputs: [] },
};
export const WORLD_CALLS = ['set', 'setGravity', 'setWind', 'shiftOrigin'];
/** The calls of a FrameBudget's forwarder (worker-budget.js) to its host in the worker: objects by id, levels by index. */
export const BUDGET_CALLS = ['add', 'remove', 'setPriority', 'setCap', 'setBudgetMs', 'measure', 'calibrate', 'plan'];

/** Every method a record can name, by index (the same list on both sides). */
export const METHODS = [...new Set([...WORLD_CALLS, 'dispose', 'injectFault', ...Object.values(KINDS).flatMap((k) => k.calls), ...BUDGET_CALLS])];
export const METHOD_ID = Object.fromEntries(METHODS.map((m, i) => [m, i]));

/**
 * The page's records of the calls since the last step(): a growable Float64Array, copied into
 * the ring whole records at a time at step() (what does not fit waits for the next step()).
 */
export class Stage {
  buf = new Float64Array(4096);
  n = 0;
  /** Room for `k` more doubles (grows only when a frame's calls outgrow every frame before). */
  reserve(k) {
    if (this.n + k <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + k) size *= 2;
    const b = new Float64Array(size);
    b.set(this.buf.subarray(0, this.n));
    this.buf = b;
  }
  push(v) { this.buf[this.n++] = v; }

  /**
   * Copies whole records into the ring while they fit, publishes them and wakes the worker.
   * Returns the new write position.
   */
  drain(ring, header, write) {
    const buf = this.buf, n = this.n;
    let free = RING_DOUBLES - ((write - Atomics.load(header, READ)) >>> 0);
    let p = 0, w = write;
    while (p < n) {
      const len = buf[p];
      if (len > free) break;
      for (let i = 0; i < len; i++) ring[(w + i) & RING_MASK] = buf[p + i];
      p += len;
      free -= len;
      w = (w + len) | 0;
    }
    if (p === 0) return write;
    Atomics.store(header, WRITE, w);
    Atomics.notify(header, WRITE);
    buf.copyWithin(0, p, n);
    this.n = n - p;
    return w;
  }
}
