// How chains scale from one thread to two as WebAssembly (the threaded build): N chains x 8
// joints in the VRM rule (bench/chain_bench.mjs's chains, without colliders), each frame
// world.setChainRoots for all of them and world.step(1/60); threads 1, 2, 1, 2 in one process.
// Prints setChainRoots and step ms per frame (each call timed), the best of 5 blocks of >= 300 ms
// after 20 warm-up steps.
//   node bench/chain_threads.mjs [chains ...]   (default 500 1000 2000)
import os from 'node:os';
import { createWisp } from '../wasm/js/index.js';
import { chainDef } from './setups.mjs';

const counts = process.argv.slice(2).map(Number);
const mt = await createWisp({ threads: true });
console.log(`# Chain thread scaling\n\nNode ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}; ` +
  'chains of 8 joints, VRM rule (stiffness 1, drag 0.4, gravity 0.5, radius 0.02), no colliders, threaded build; ' +
  'each call timed, best of 5 blocks of >= 300 ms after 20 warm-up steps\n');
console.log('| chains | threads | setChainRoots ms | step ms |\n|---:|---:|---:|---:|');
for (const n of counts.length > 0 ? counts : [500, 1000, 2000]) {
  for (const threads of [1, 2, 1, 2]) {
    const world = mt.createWorld({ threads, substeps: 8 });
    const chains = [];
    for (let c = 0; c < n; c++) chains.push(world.addChain(chainDef(c, 'vrm')));
    for (let i = 0; i < 20; i++) world.step(1 / 60);
    // per block: frames of setChainRoots (the head turning) then step, each call timed; the best block's means
    let rootsMs = Infinity, stepMs = Infinity;
    for (let b = 0; b < 5; b++) {
      let roots = 0, step = 0, f = 0;
      const t0 = performance.now();
      while (f < 3 || performance.now() - t0 < 300) {
        const a = performance.now();
        world.setChainRoots(chains, [0, 1.6, 0], [0, Math.sin(f / 100), 0, Math.cos(f / 100)]);
        const m = performance.now();
        world.step(1 / 60);
        roots += m - a;
        step += performance.now() - m;
        f++;
      }
      rootsMs = Math.min(rootsMs, roots / f);
      stepMs = Math.min(stepMs, step / f);
    }
    console.log(`| ${n} | ${world.stats().threads} | ${rootsMs.toFixed(3)} | ${stepMs.toFixed(3)} |`);
    world.dispose();
  }
}
process.exit(0);
