// WASM benchmark (Node): the Wisp single-threaded and threaded builds and a plain-JS Verlet rope,
// on the same setups, measured in one run. Prints its setup, ms/step and ratios as Markdown.
//   node bench/wasm_bench.mjs [--json out.json]
import os from 'node:os';
import fs from 'node:fs';
import { createWisp } from '../wasm/js/index.js';
import { PlainVerletRopes } from './plain_verlet.mjs';

const SETUPS = [
  { name: '1000 ropes x 32 particles', count: 1000, particles: 32 },
  { name: '1 rope x 10,000 particles', count: 1, particles: 10000 },
];
const WARMUP = 20, MIN_STEPS = 30, MIN_MS = 1500;

function time(step) {
  for (let i = 0; i < WARMUP; i++) step();
  let steps = 0;
  const t0 = performance.now();
  while (steps < MIN_STEPS || performance.now() - t0 < MIN_MS) { step(); steps++; }
  return (performance.now() - t0) / steps;
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
console.log('Each setup: ropes pinned at particle 0, swinging under gravity from horizontal, 1/60 s steps, 10 constraint passes per step (Wisp: 10 substeps x 1 iteration, XPBD; plain JS: Verlet + 10 relaxation passes). SIMD on in both Wisp builds.\n');
for (const setup of SETUPS) {
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
const i = process.argv.indexOf('--json');
if (i > 0) fs.writeFileSync(process.argv[i + 1], JSON.stringify(results, null, 2));
