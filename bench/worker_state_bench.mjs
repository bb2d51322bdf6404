// Worker-world state benchmark (Node): what the worker spends after every step publishing the
// small per-step state of 1000 chains x 8 joints (VRM mode, step-state.js): per chain its
// activity flags, updates, stats() fields and params length, into its slot. Two ways, on the same
// World in the same process, alternated: the per-object getters the worker used before
// (enabled, sleeping, updates, stats(): five embind calls per chain, stats() building an object)
// and the one batched call it makes now (World._objectStates, writeObjectStates). The World's
// own step is timed in the same run for scale. Prints its setup and a Markdown table.
//   node bench/worker_state_bench.mjs [--threads]
import os from 'node:os';
import { createWisp } from '../wasm/js/index.js';
import { objectState, writeObjectStates, writeFields, writeParams } from '../wasm/js/step-state.js';
import { bestBlockMs } from './best_block.mjs';

const CHAINS = 1000, JOINTS = 8, ROUNDS = 3, BLOCKS = 5, BLOCK_MS = 300, WARMUP = 200;
const OFFSETS = [[0, 0.05, -0.12], ...Array.from({ length: JOINTS - 1 }, () => [0, -0.05, -0.01])];
const threads = process.argv.includes('--threads');

// the worker's former writeObjectState (before the batched call), kept here to time it
function writeObjectStateByGetters(st, s) {
  const v = st.view, o = st.obj, at = s * st.size;
  v[at] = (o.enabled ? 1 : 0) | (o.sleeping ? 2 : 0);
  v[at + 1] = o.updates;
  v[at + 2] = writeParams(st.text, s);
  if (st.fields.length > 0) writeFields(v, at + 3, o.stats(), st.fields);
}

// ms per call of fn: the best of BLOCKS blocks of >= BLOCK_MS after a warm-up (best_block.mjs)
const time = (fn) => bestBlockMs(fn, { warmup: WARMUP, blocks: BLOCKS, blockMs: BLOCK_MS, minCalls: 3 });

const wisp = await createWisp({ threads });
const world = wisp.createWorld({ threads: threads ? 2 : 1, substeps: 8 });
const chains = [];
for (let c = 0; c < CHAINS; c++) {
  const joints = OFFSETS.map((o, j) => ({ position: j === 0 ? [o[0] + 0.01 * c, o[1], o[2]] : o }));
  chains.push(world.addChain({ joints, position: [0, 1.6, 0], mode: 'vrm', stiffness: 1, damping: 0.4, gravity: [0, -1, 0], gravityScale: 0.5, radius: 0.02 }));
}
const states = chains.map((c) => objectState('chain', c));
const root = (f) => [0.2 * Math.sin(f / 20), 1.6, 0];
for (let f = 0; f < 30; f++) { world.setChainRoots(chains, root(f)); world.step(1 / 60); }

// both ways write the same slots
writeObjectStates(states, chains, world, 0);
for (const st of states) writeObjectStateByGetters(st, 1);
for (const st of states) {
  const a = st.view.subarray(0, st.size), b = st.view.subarray(st.size, 2 * st.size);
  if (a.some((x, i) => !Object.is(x, b[i]))) throw new Error(`the two ways differ: ${Array.from(a)} against ${Array.from(b)}`);
}

const getters = (k) => { for (let i = 0; i < states.length; i++) writeObjectStateByGetters(states[i], k % 3); };
const batched = (k) => writeObjectStates(states, chains, world, k % 3);
let f = 30;
const step = () => { world.setChainRoots(chains, root(f++)); world.step(1 / 60); };

console.log(`# Worker-world per-step state\n\nNode ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}, ` +
  `${new Date().toISOString().slice(0, 16)} UTC, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`${CHAINS} chains x ${JOINTS} joints, VRM mode, WASM ${threads ? 'threaded (2 threads)' : 'single-threaded'}, one World; ` +
  `each number the best of ${BLOCKS} blocks of >= ${BLOCK_MS} ms, ways alternated ${ROUNDS} times.\n`);
console.log('| round | per-object getters, ms/step | batched call, ms/step | ratio | world.step (VRM, 1/60 s), ms |\n|---|---:|---:|---:|---:|');
const best = [Infinity, Infinity, Infinity];
for (let r = 1; r <= ROUNDS; r++) {
  const g = time(getters), b = time(batched), s = time(step);
  best[0] = Math.min(best[0], g); best[1] = Math.min(best[1], b); best[2] = Math.min(best[2], s);
  console.log(`| ${r} | ${g.toFixed(3)} | ${b.toFixed(4)} | ${(g / b).toFixed(1)}x | ${s.toFixed(3)} |`);
}
console.log(`| best | ${best[0].toFixed(3)} | ${best[1].toFixed(4)} | ${(best[0] / best[1]).toFixed(1)}x | ${best[2].toFixed(3)} |`);
console.log(`\nBatched: ${(1e6 * best[1] / CHAINS).toFixed(1)} ns per chain, ${(100 * best[1] / best[2]).toFixed(1)}% of the step ` +
  `(getters: ${(100 * best[0] / best[2]).toFixed(0)}%).`);
world.dispose();
process.exit(0);
