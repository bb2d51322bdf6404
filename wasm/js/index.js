// Wisp: the JavaScript API over the WebAssembly solver.
//
//   import { createWisp } from 'wisp';
//   const wisp = await createWisp();            // threaded build when it can run, else single-threaded
//   const world = wisp.createWorld({ substeps: 8 });
//   const rope = world.addRope({ start: [0, 2, 0], end: [2, 2, 0], segments: 32, pinned: [0] });
//   world.step(dt);                             // every frame
//   rope.positions;                             // Float32Array (x, y, z per particle), refreshed by every step
//   world.dispose();
//
// Every failure throws a WispError with a `code` ('invalid-argument', 'invalid-handle',
// 'out-of-range', 'disposed', 'foreign-object', 'unsupported', 'load-failed') and a message naming the culprit.
//
// The pieces: loader.js (finding and starting the WebAssembly build), wisp.js (the loaded module),
// world.js, one file per kind of object (rope.js, cloth.js, chain.js, anchor.js, collider.js,
// wind-zone.js, with body.js, handle.js and activity.js for what they share), args.js and
// options.js (argument checks and option tables), kinds.js (object kind codes), pose.js (pose math), heap.js, views.js (output
// arrays), error.js, test-hooks.js (what only the self-test build has),
// worker-world.js and worker.js (a world stepped in a dedicated worker), budget.js and levels.js
// (the frame budget and detail levels; worker-budget.js: a budget over a worker world).

import { loadModule } from './loader.js';
import { Wisp } from './wisp.js';

/** The state hash of the determinism scene after 600 frames (Wisp.determinismSceneHash). */
export const DETERMINISM_GOLDEN_HASH = '82c31487f5f484dc';

export { WispError } from './error.js';
export { canUseThreads } from './loader.js';

/**
 * Loads the solver. options.threads: 'auto' (default), true (fail if impossible) or false;
 * options.baseUrl: where the build's files live (default: this package's wasm/dist/);
 * options.timeout: ms before a load that has not finished is rejected (default 30 000).
 * How the files are found and what each failure says: loader.js.
 */
export async function createWisp(options = {}) {
  const { module, threaded } = await loadModule(options);
  return new Wisp(module, threaded);
}

export { Wisp } from './wisp.js';
export { WorkerWorld, createWorkerWorld } from './worker-world.js';
export { World } from './world.js';
export { Rope } from './rope.js';
export { Cloth } from './cloth.js';
export { Chain } from './chain.js';
export { ChainLinks } from './chain-links.js';
export { WindZone } from './wind-zone.js';
export { Anchor } from './anchor.js';
export { Collider } from './collider.js';
export { poseFromMatrix } from './pose.js';
export { COLLIDER_TYPE_NAMES as colliderTypes } from './options.js';
export { FrameBudget } from './budget.js';
export { LEVELS as detailLevels } from './levels.js';

export * from './presets.js';
