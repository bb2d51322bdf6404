// Numbers into WASM memory: arrays copied to the heap for one call, and the per-frame scratch block.
import { fail, num } from './args.js';
import { memoryBuffer } from './views.js';

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

export { withHeap, scratchOf };
