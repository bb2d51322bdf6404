// The loaded module: makes worlds, and tells what the build can do.
import { int } from './args.js';
import { World } from './world.js';
import { withTestHook } from './test-hooks.js';

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
   * frames every build on every machine gives DETERMINISM_GOLDEN_HASH. A test hook: only the
   * self-test build has it (test-hooks.js); the package's build throws 'unsupported'.
   */
  determinismSceneHash(threads = 1, frames = 600) {
    const m = withTestHook(this.#module, 'determinismSceneHash');
    return m.determinismSceneHash(int(threads, 'threads'), int(frames, 'frames'));
  }
  /** Bytes of WASM heap in use (malloc'd), for leak checks. */
  heapUsed() { return this.#module.heapUsed(); }
  /** The raw Emscripten module (advanced use). */
  get module() { return this.#module; }
}
