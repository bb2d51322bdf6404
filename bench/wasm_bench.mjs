// WASM benchmark (Node): the Wisp single-threaded and threaded builds and a plain-JS Verlet rope,
// on the same setups, measured in one run. Prints its setup, ms/step and ratios as Markdown.
//   node bench/wasm_bench.mjs [--only ropes|cloth] [--json out.json]
import os from 'node:os';
import fs from 'node:fs';
import { createWisp } from '../wasm/js/index.js';
import { PlainVerletRopes } from './plain_verlet.mjs';
import { PlainCloth } from './plain_cloth.mjs';

const SETUPS = [
  { name: '1000 ropes x 32 particles', count: 1000, particles: 32 },
  { name: '1 rope x 10,000 particles', count: 1, particles: 10000 },
];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const WARMUP = 20, BLOCKS = 5, BLOCK_MS = 300, MIN_STEPS = 5;

// ms per step: the best of BLOCKS timed blocks. On a shared machine other load only ever adds
// time, so the least disturbed block is the best estimate of the code's own cost.
function time(step) {
  for (let i = 0; i < WARMUP; i++) step();
  let best = Infinity;
  for (let b = 0; b < BLOCKS; b++) {
    let steps = 0;
    const t0 = performance.now();
    while (steps < MIN_STEPS || performance.now() - t0 < BLOCK_MS) { step(); steps++; }
    best = Math.min(best, (performance.now() - t0) / steps);
  }
  return best;
}

function wispWorld(wisp, setup, threads) {
  const world = wisp.createWorld({ substeps: 10, iterations: 1, threads });
  const seg = 1 / (setup.particles - 1);
  for (let k = 0; k < setup.count; k++) {
    world.addRope({ start: [0, 2, 0.01 * k], end: [(setup.particles - 1) * seg, 2, 0.01 * k], segments: setup.particles - 1, pinned: [0] });
  }
  return world;
}

const st = await createWisp({ threads: false });
const mt = await createWisp({ threads: true });
const results = [];
console.log(`# Wisp WASM benchmark\n\nNode ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`Each number is the best of ${BLOCKS} blocks of >= ${BLOCK_MS} ms after ${WARMUP} warm-up steps.`);
console.log('Each setup: ropes pinned at particle 0, swinging under gravity from horizontal, 1/60 s steps, 10 constraint passes per step (Wisp: 10 substeps x 1 iteration, XPBD; plain JS: Verlet + 10 relaxation passes). SIMD on in both Wisp builds.\n');
for (const setup of only === 'cloth' ? [] : SETUPS) {
  const rows = [];
  const plain = new PlainVerletRopes(setup.count, setup.particles, 1 / (setup.particles - 1));
  rows.push(['plain JS Verlet', time(() => plain.step())]);
  const w1 = wispWorld(st, setup, 1);
  rows.push(['Wisp WASM, single-threaded build', time(() => w1.step(1 / 60))]);
  w1.dispose();
  for (const threads of [1, 2, 4]) {
    const w = wispWorld(mt, setup, threads);
    rows.push([`Wisp WASM, threaded build, ${threads} thread(s)`, time(() => w.step(1 / 60))]);
    w.dispose();
  }
  const base = rows[0][1];
  console.log(`## ${setup.name}\n\n| implementation | ms/step | speed-up vs plain JS |\n|---|---:|---:|`);
  for (const [name, ms] of rows) {
    console.log(`| ${name} | ${ms.toFixed(3)} | ${(base / ms).toFixed(2)}x |`);
    results.push({ setup: setup.name, name, ms });
  }
  console.log('');
}
console.log('Cloth: N x N quads, top row pinned, structural + shear constraints, 1/60 s steps, 10 constraint passes per step (Wisp: 10 substeps x 1 iteration, bending, tethers and aerodynamics off, as in the plain-JS cloth; plain JS: the three.js cloth example style, Vector3 particles, 10 relaxation passes).\n');
for (const n of only === 'ropes' ? [] : [32, 64, 128]) {
  const rows = [];
  const plain = new PlainCloth(n);
  rows.push(['plain JS cloth (three.js example style)', time(() => plain.step())]);
  const cloth = (wisp, threads) => {
    const world = wisp.createWorld({ substeps: 10, iterations: 1, threads });
    world.addCloth({ grid: { width: 1, height: 1, resolutionX: n, resolutionY: n, position: [0, 2, 0] }, pinned: [...Array(n + 1).keys()], bending: false, tethers: false, dragCoefficient: 0, liftCoefficient: 0 });
    return world;
  };
  for (const [label, wisp, threads] of [['single-threaded build', st, 1], ['threaded build, 1 thread', mt, 1], ['threaded build, 2 threads', mt, 2], ['threaded build, 4 threads', mt, 4]]) {
    const w = cloth(wisp, threads);
    rows.push([`Wisp WASM, ${label}`, time(() => w.step(1 / 60))]);
    w.dispose();
  }
  const base = rows[0][1];
  console.log(`## Cloth ${n} x ${n} (${(n + 1) ** 2} particles)\n\n| implementation | ms/step | speed-up vs plain JS |\n|---|---:|---:|`);
  for (const [name, ms] of rows) {
    console.log(`| ${name} | ${ms.toFixed(3)} | ${(base / ms).toFixed(2)}x |`);
    results.push({ setup: `cloth ${n}`, name, ms });
  }
  console.log('');
}
const i = process.argv.indexOf('--json');
if (i > 0) fs.writeFileSync(process.argv[i + 1], JSON.stringify(results, null, 2));
