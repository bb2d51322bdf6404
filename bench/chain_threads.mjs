// How chains scale from one thread to two as WebAssembly (the threaded build): N chains x 8
// joints in the VRM rule (bench/chain_bench.mjs's chains, without colliders), each frame
// world.setChainRoots for all of them and world.step(1/60); threads 1, 2, 1, 2 in one process.
// Prints setRoots and step ms per frame, the best of 5 blocks of >= 300 ms after 20 warm-up frames.
//   node bench/chain_threads.mjs [chains ...]   (default 500 1000 2000)
import os from 'node:os';
import { createWisp } from '../wasm/js/index.js';
import { bestBlockMs } from './best_block.mjs';

const counts = process.argv.slice(2).map(Number);
const OFFSETS = [[0, 0.05, -0.12], ...Array.from({ length: 7 }, () => [0, -0.05, -0.01])];
const mt = await createWisp({ threads: true });
console.log(`# Chain thread scaling\n\nNode ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}; ` +
  'chains of 8 joints, VRM rule (stiffness 1, drag 0.4, gravity 0.5, radius 0.02), no colliders, threaded build; ' +
  'best of 5 blocks of >= 300 ms after 20 warm-up frames\n');
console.log('| chains | threads | setChainRoots ms | step ms |\n|---:|---:|---:|---:|');
for (const n of counts.length > 0 ? counts : [500, 1000, 2000]) {
  for (const threads of [1, 2, 1, 2]) {
    const world = mt.createWorld({ threads, substeps: 8 });
    const chains = [];
    for (let c = 0; c < n; c++) {
      chains.push(world.addChain({ joints: OFFSETS.map((o, j) => ({ position: j === 0 ? [o[0] + 0.01 * c, o[1], o[2]] : o })), position: [0, 1.6, 0],
        mode: 'vrm', stiffness: 1, damping: 0.4, gravity: [0, -1, 0], gravityScale: 0.5, radius: 0.02 }));
    }
    const root = (f) => [0, Math.sin(f / 100), 0, Math.cos(f / 100)];
    const options = { warmup: 20, blocks: 5, blockMs: 300, minCalls: 3 };
    const rootsMs = bestBlockMs((f) => world.setChainRoots(chains, [0, 1.6, 0], root(f)), options);
    const stepMs = bestBlockMs((f) => { world.setChainRoots(chains, [0, 1.6, 0], root(f)); world.step(1 / 60); }, options) - rootsMs;
    console.log(`| ${n} | ${world.stats().threads} | ${rootsMs.toFixed(3)} | ${stepMs.toFixed(3)} |`);
    world.dispose();
  }
}
process.exit(0);
