// A/B of two builds on one setup, in one Node process: each build's package (a checkout's
// wasm/js/index.js with its wasm/dist/) is loaded once and the two are timed in turns, so load
// from other processes falls on both alike. Prints, per setup and thread count, the best ms per
// step of each over all turns and the ratio, in wall time and in the process's CPU time (on a
// machine shared with other work the CPU time of a one-thread run is the steadier number: time
// spent descheduled does not count; with 2 threads it also counts the spin at barriers).
//   node bench/ab.mjs <checkout A> <checkout B> [--setups cloth128,cloth316,wig,ropes,chains,vrm,vrm-near] [--turns 6] [--one-thread]
// Setups (bench/setups.mjs): clothN (wasm_bench.mjs's N x N cloth), wig, ropes (1000 x 32, as in
// wasm_bench.mjs), chains and vrm (chain_bench.mjs's 1000 chains x 8 joints and 4 spheres, by the
// Wisp rule and the VRM rule; vrm-near: the VRM rule with every chain within the spheres' reach,
// setups.mjs's `near`). To compare a change with its base, copy the base checkout's wasm/js
// and wasm/dist (after scripts/build-wasm.sh) to a folder of their own, as <checkout A>.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { commandLine } from './command_line.mjs';
import { makeSetup as make } from './setups.mjs';

const args = process.argv.slice(2);
// the options that take a value (--one-thread takes none)
const { opt, positional: [dirA, dirB] } = commandLine(args, ['--setups', '--sizes', '--turns']);
if (dirB === undefined) throw new Error('usage: node bench/ab.mjs <checkout A> <checkout B> [--setups cloth128,cloth316,wig,ropes,chains,vrm] [--turns 6] [--one-thread]');
const setups = opt('--setups', opt('--sizes', null)?.split(',').map((n) => `cloth${n}`).join(',') ?? 'cloth128,cloth316').split(',');
const turns = Number(opt('--turns', '6'));
const BLOCK_MS = 300, WARMUP = 10;
const THREADS = [['single-threaded build', 'st', 1], ['threaded build, 1 thread', 'mt', 1], ['threaded build, 2 threads', 'mt', 2]]
  .filter(([, , threads]) => threads === 1 || !args.includes('--one-thread'));

const load = async (dir) => import(pathToFileURL(path.resolve(dir, 'wasm/js/index.js')).href);
const builds = [];
for (const [name, dir] of [['A', dirA], ['B', dirB]]) {
  const { createWisp } = await load(dir);
  builds.push({ name, dir, st: await createWisp({ threads: false }), mt: await createWisp({ threads: true }) });
}

// one block of >= BLOCK_MS: [wall, CPU] ms per frame; `at` counts the frames (the wig's head moves)
function block(run) {
  let steps = 0;
  const t0 = performance.now(), c0 = process.cpuUsage();
  while (steps < 3 || performance.now() - t0 < BLOCK_MS) { run.frame(++run.at); steps++; }
  const c = process.cpuUsage(c0);
  return [(performance.now() - t0) / steps, (c.user + c.system) / 1000 / steps];
}

console.log(`A = ${dirA}\nB = ${dirB}\nbest ms/frame over ${turns} alternating turns of one ${BLOCK_MS} ms block each\n`);
console.log('| setup | A wall | B wall | A / B | A CPU | B CPU | A / B |\n|---|---:|---:|---:|---:|---:|---:|');
for (const setup of setups)
  for (const [label, kind, threads] of THREADS) {
    const runs = builds.map((b) => Object.assign(make(setup, b[kind], threads), { at: 0 }));
    for (const r of runs) for (let i = 0; i < WARMUP; i++) r.frame(++r.at);
    const wall = [Infinity, Infinity], cpu = [Infinity, Infinity];
    for (let t = 0; t < turns; t++)
      runs.forEach((r, i) => {
        const [ms, cms] = block(r);
        wall[i] = Math.min(wall[i], ms);
        cpu[i] = Math.min(cpu[i], cms);
      });
    runs.forEach((r) => r.dispose());
    const f = (x) => x.toFixed(3), q = (x) => `${x.toFixed(2)}x`;
    console.log(`| ${setup}, ${label} | ${f(wall[0])} | ${f(wall[1])} | ${q(wall[0] / wall[1])} | ${f(cpu[0])} | ${f(cpu[1])} | ${q(cpu[0] / cpu[1])} |`);
  }
process.exit(0);
