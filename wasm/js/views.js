// The arrays through which JavaScript reads a simulated object: rope and cloth positions, cloth
// normals, chain positions and rotations.
//
// Contract: each is a Float32Array over a buffer the wrapper owns, not over WASM memory. The
// wrapper copies the object's output into it after every world.step() and after every call that
// moves particles (teleport, reset, pin, cut, loadSnapshot), so the array a renderer holds stays
// the same object and stays current, also after WASM memory grows. When its object or world is
// disposed (or a cut changes the object's particle count) the array is detached: length 0,
// reading nothing. A view straight over the heap could not promise that: WebAssembly memory
// cannot be detached piecewise (and a SharedArrayBuffer never), so a stale view would read
// whatever the allocator put there next. Writing into an output array does not move particles.
// The copy is one memcpy per array per step, and allocates nothing.
//
// Render arrays (the world option `interpolate`, interpolation.js): an output array read through
// a render getter (rope.renderPositions, ...) also keeps the outputs of the previous fixed step
// and a third array, the one handed out, holding the outputs at world.alpha between the two. A
// step that ran fixed steps shifts current to previous; a call that moves particles (teleport,
// reset, cut, loadSnapshot, enabling) shows its result at once, with nothing to interpolate from.
// Without the option the render getters return the output arrays themselves.
import { interpolate } from './interpolation.js';

export function memoryBuffer(module) {
  return module.wasmMemory ? module.wasmMemory.buffer : module.HEAPF32.buffer;
}

// Detaches an ArrayBuffer without copying it: every typed array over it reads length 0.
function detach(buffer) {
  if (buffer.byteLength === 0) return;
  if (typeof buffer.transfer === 'function') buffer.transfer(0);
  else structuredClone(buffer, { transfer: [buffer] });
}

const EMPTY = new Float32Array(0);

function sameFloats(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(a[i] !== a[i] && b[i] !== b[i])) return false;
  return true;
}

/** How a view's copy relates to the previous one: a jump (nothing to interpolate from), after a step that ran fixed steps, after one that ran none. */
export const SNAP = 0, SHIFT = 1, KEEP = 2;

export class OutputView {
  #owner; #ptr; #width; #mode;
  #heap = null; #heapBuffer = null; #layout = -1;
  /** The array handed out: the outputs after the last fixed step. */
  array = EMPTY;
  /** With render interpolation: the outputs after the fixed step before, and the array shown (null until a render getter asks). */
  prev = null; shown = null;

  /**
   * @param owner  the Rope/Cloth/Chain (its _world, _id and count)
   * @param ptr    (native, id) => the address of the object's output floats
   * @param width  floats per particle or joint
   * @param mode   interpolation.js: POINTS, UNIT_VECTORS or ROTATIONS
   */
  constructor(owner, ptr, width, mode) {
    this.#owner = owner;
    this.#ptr = ptr;
    this.#width = width;
    this.#mode = mode;
    owner._world._addView(this);
    this.sync();
  }

  /** Copies the object's current output into the array (re-reading the address after a layout change or memory growth); `how`: SNAP, SHIFT or KEEP. */
  sync(how = SNAP) {
    const w = this.#owner._world, buffer = memoryBuffer(w._module);
    let resized = false;
    if (this.#heapBuffer !== buffer || this.#layout !== w._layout) {
      const n = this.#width * this.#owner.count;
      this.#heap = new Float32Array(buffer, this.#ptr(w._native, this.#owner._id), n);
      this.#heapBuffer = buffer;
      this.#layout = w._layout;
      if (this.array.length !== n) {
        detach(this.array.buffer);
        this.array = new Float32Array(n);
        resized = true;
      }
    }
    const rendering = this.shown !== null;
    // a call that moved nothing of this object (another object's teleport) keeps its interpolation
    if (rendering && how === SNAP && !resized && sameFloats(this.array, this.#heap)) return;
    if (rendering && resized) this.#startRendering();
    else if (rendering && how === SHIFT) this.prev.set(this.array);
    this.array.set(this.#heap);
    if (rendering && (how === SNAP || resized)) {
      this.prev.set(this.array);
      this.shown.set(this.array);
    }
  }

  /** The shown array, made (equal to the outputs) on first use. */
  render() {
    if (this.shown === null) this.#startRendering();
    return this.shown;
  }

  #startRendering() {
    if (this.shown !== null) detach(this.shown.buffer);
    this.prev = new Float32Array(this.array);
    this.shown = new Float32Array(this.array);
  }

  /** Writes the outputs at alpha = at[0] (a Float64Array: see interpolation.js) between the last two fixed steps into the shown array. */
  interpolate(at) {
    if (this.shown !== null) interpolate(this.#mode, this.prev, this.array, at, this.shown);
  }

  /** Detaches the array for good (the object is gone). */
  kill() {
    detach(this.array.buffer);
    this.array = EMPTY;
    if (this.shown !== null) detach(this.shown.buffer);
    this.prev = this.shown = null;
    this.#heap = null;
    this.#heapBuffer = null;
  }
}

/**
 * The output arrays of one object (a Rope, Cloth or Chain), each made on first use and detached
 * together when the object goes. Reading one made before allocates nothing.
 */
export class OutputArrays {
  #owner; #views;
  /** @param owner  the object; @param slots  how many arrays it can have */
  constructor(owner, slots) {
    this.#owner = owner;
    this.#views = new Array(slots).fill(null);
  }

  /** Array `k`: `ptr` (native, id) => the address of its floats, `width` floats per particle or joint, `mode` how it interpolates. */
  get(k, ptr, width, mode) { return this.#view(k, ptr, width, mode).array; }

  /** What a renderer shows of array `k`: interpolated with the world option `interpolate`, else the array itself. */
  render(k, ptr, width, mode) {
    const v = this.#view(k, ptr, width, mode);
    if (!this.#owner._world.interpolate) return v.array;
    return v.render();
  }

  #view(k, ptr, width, mode) {
    this.#owner._alive();
    const v = this.#views[k];
    if (v !== null) return v;
    return (this.#views[k] = new OutputView(this.#owner, ptr, width, mode));
  }

  /** Detaches every array made so far (the object is disposed). */
  drop() {
    const views = this.#views;
    for (let k = 0; k < views.length; k++) {
      if (views[k] !== null) this.#owner._world._dropView(views[k]);
      views[k] = null;
    }
  }
}
