// A/B of two single-threaded WASM builds on 1000 ropes x 32 (the setup of wasm_bench.mjs), in one
// Node process, timed blocks interleaved so that load on a shared machine hits both alike; prints
// the best block of each. Copy wasm/dist/node/ of each build to its own folder first.
//   node bench/rope_lanes_ab.mjs <folder A> <folder B>
import { createWisp } from '../wasm/js/index.js';
const [dirA, dirB] = process.argv.slice(2);
const mods = { A: await createWisp({ threads: false, baseUrl: dirA }), B: await createWisp({ threads: false, baseUrl: dirB }) };
function world(wisp) {
  const w = wisp.createWorld({ substeps: 10, iterations: 1, threads: 1 });
  const seg = 1 / 31;
  for (let k = 0; k < 1000; k++) w.addRope({ start: [0, 2, 0.01 * k], end: [31 * seg, 2, 0.01 * k], segments: 31, pinned: [0] });
  for (let i = 0; i < 20; i++) w.step(1 / 60);
  return w;
}
const ws = { A: world(mods.A), B: world(mods.B) };
const best = { A: Infinity, B: Infinity };
for (let round = 0; round < 8; round++) for (const k of round % 2 ? ['B', 'A'] : ['A', 'B']) {
  let steps = 0; const t0 = performance.now();
  while (steps < 5 || performance.now() - t0 < 300) { ws[k].step(1 / 60); steps++; }
  best[k] = Math.min(best[k], (performance.now() - t0) / steps);
}
console.log(`A ${dirA}: ${best.A.toFixed(3)} ms/step   B ${dirB}: ${best.B.toFixed(3)} ms/step   B/A ${(best.B / best.A).toFixed(3)}`);
