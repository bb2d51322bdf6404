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

export class OutputView {
  #owner; #ptr; #width;
  #heap = null; #heapBuffer = null; #layout = -1;
  /** The array handed out. */
  array = EMPTY;

  /**
   * @param owner  the Rope/Cloth/Chain (its _world, _id and count)
   * @param ptr    (native, id) => the address of the object's output floats
   * @param width  floats per particle or joint
   */
  constructor(owner, ptr, width) {
    this.#owner = owner;
    this.#ptr = ptr;
    this.#width = width;
    owner._world._addView(this);
    this.sync();
  }

  /** Copies the object's current output into the array (re-reading the address after a layout change or memory growth). */
  sync() {
    const w = this.#owner._world, buffer = memoryBuffer(w._module);
    if (this.#heapBuffer !== buffer || this.#layout !== w._layout) {
      const n = this.#width * this.#owner.count;
      this.#heap = new Float32Array(buffer, this.#ptr(w._native, this.#owner._id), n);
      this.#heapBuffer = buffer;
      this.#layout = w._layout;
      if (this.array.length !== n) {
        detach(this.array.buffer);
        this.array = new Float32Array(n);
      }
    }
    this.array.set(this.#heap);
  }

  /** Detaches the array for good (the object is gone). */
  kill() {
    detach(this.array.buffer);
    this.array = EMPTY;
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

  /** Array `k`: `ptr` (native, id) => the address of its floats, `width` floats per particle or joint. */
  get(k, ptr, width) {
    this.#owner._alive();
    const v = this.#views[k];
    if (v !== null) return v.array;
    return (this.#views[k] = new OutputView(this.#owner, ptr, width)).array;
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
