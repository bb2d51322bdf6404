// A/B of two WASM builds on the cloth of bench/wasm_bench.mjs, in one Node process: each build's
// package (a checkout's wasm/js/index.js with its wasm/dist/) is loaded once, and the two are
// timed in turns, so load from other processes falls on both alike. Prints, per setup, the best
// ms/step of each over all turns and the ratio, in wall time and in the process's CPU time (on a
// machine shared with other work the CPU time of a one-thread run is the steadier number: time
// spent descheduled does not count; with 2 threads it also counts the spin at barriers).
//   node bench/cloth_ab.mjs <checkout A> <checkout B> [--sizes 128,316] [--turns 6] [--one-thread]
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const [dirA, dirB] = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
const sizes = opt('--sizes', '128,316').split(',').map(Number);
const turns = Number(opt('--turns', '6'));
const BLOCK_MS = 300, WARMUP = 10;
const SETUPS = [['single-threaded build', 'st', 1], ['threaded build, 1 thread', 'mt', 1], ['threaded build, 2 threads', 'mt', 2]]
  .filter(([, , threads]) => threads === 1 || !args.includes('--one-thread'));

const load = async (dir) => import(pathToFileURL(path.resolve(dir, 'wasm/js/index.js')).href);
const builds = [];
for (const [name, dir] of [['A', dirA], ['B', dirB]]) {
  const { createWisp } = await load(dir);
  builds.push({ name, dir, st: await createWisp({ threads: false }), mt: await createWisp({ threads: true }) });
}

function cloth(wisp, n, threads) {
  const world = wisp.createWorld({ substeps: 10, iterations: 1, threads });
  world.addCloth({ grid: { width: 1, height: 1, resolutionX: n, resolutionY: n, position: [0, 2, 0] }, pinned: [...Array(n + 1).keys()], bending: false, tethers: false, dragCoefficient: 0, liftCoefficient: 0 });
  return world;
}
// one block of >= BLOCK_MS: [wall, CPU] ms per step
function block(world) {
  let steps = 0;
  const t0 = performance.now(), c0 = process.cpuUsage();
  while (steps < 3 || performance.now() - t0 < BLOCK_MS) { world.step(1 / 60); steps++; }
  const c = process.cpuUsage(c0);
  return [(performance.now() - t0) / steps, (c.user + c.system) / 1000 / steps];
}

console.log(`A = ${dirA}\nB = ${dirB}\nbest ms/step over ${turns} alternating turns of one ${BLOCK_MS} ms block each\n`);
console.log('| setup | A wall | B wall | A / B | A CPU | B CPU | A / B |\n|---|---:|---:|---:|---:|---:|---:|');
for (const n of sizes)
  for (const [label, kind, threads] of SETUPS) {
    const worlds = builds.map((b) => cloth(b[kind], n, threads));
    for (const w of worlds) for (let i = 0; i < WARMUP; i++) w.step(1 / 60);
    const wall = [Infinity, Infinity], cpu = [Infinity, Infinity];
    for (let t = 0; t < turns; t++)
      worlds.forEach((w, i) => {
        const [ms, cms] = block(w);
        wall[i] = Math.min(wall[i], ms);
        cpu[i] = Math.min(cpu[i], cms);
      });
    worlds.forEach((w) => w.dispose());
    const f = (x) => x.toFixed(3), r = (x) => `${x.toFixed(2)}x`;
    console.log(`| cloth ${n}, ${label} | ${f(wall[0])} | ${f(wall[1])} | ${r(wall[0] / wall[1])} | ${f(cpu[0])} | ${f(cpu[1])} | ${r(cpu[0] / cpu[1])} |`);
  }
