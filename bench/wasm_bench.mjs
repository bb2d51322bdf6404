// WASM benchmark (Node): the Wisp single-threaded and threaded builds, a plain-JS Verlet rope and
// Jolt Physics soft bodies (bench/jolt_peer.mjs), on the same setups, measured in one run. Prints its setup, ms/step and ratios as Markdown.
//   node bench/wasm_bench.mjs [--only ropes|cloth|character] [--json out.json]
import os from 'node:os';
import fs from 'node:fs';
import { createWisp } from '../wasm/js/index.js';
import { PlainVerletRopes } from './plain_verlet.mjs';
import { PlainCloth } from './plain_cloth.mjs';
import { JOLT_VERSION, JOLT_SETUP, loadJolt, JoltWorld, joltRopes, joltCloth, shapeCheck } from './jolt_peer.mjs';
import { bestBlockMs } from './best_block.mjs';
import { ropeWorld, clothWorld } from './setups.mjs';

const SETUPS = [
  { name: '1000 ropes x 32 particles', count: 1000, particles: 32 },
  { name: '1 rope x 10,000 particles', count: 1, particles: 10000 },
];
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const WARMUP = 20, BLOCKS = 5, BLOCK_MS = 300, MIN_STEPS = 5;

// ms per step: the best of BLOCKS timed blocks (best_block.mjs)
const time = (step) => bestBlockMs(step, { warmup: WARMUP, blocks: BLOCKS, blockMs: BLOCK_MS, minCalls: MIN_STEPS });

const worst = (cs) => ({ stretch: Math.max(...cs.map((c) => c.stretch)), pinMoved: Math.max(...cs.map((c) => c.pinMoved)), minY: Math.min(...cs.map((c) => c.minY)) });
const fmtShape = (c) => `largest edge ${c.stretch.toFixed(3)} x rest, pinned vertex moved ${(1000 * c.pinMoved).toFixed(2)} mm, lowest point y = ${c.minY.toFixed(3)} m`;

const st = await createWisp({ threads: false });
const mt = await createWisp({ threads: true });
const jolt = await loadJolt('st');
const results = [];
console.log(`# Wisp WASM benchmark\n\nNode ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`Each number is the best of ${BLOCKS} blocks of >= ${BLOCK_MS} ms after ${WARMUP} warm-up steps.`);
console.log('Each setup: ropes pinned at particle 0, swinging under gravity from horizontal, 1/60 s steps, 10 constraint passes per step (Wisp: 10 substeps x 1 iteration, XPBD; plain JS: Verlet + 10 relaxation passes). SIMD on in both Wisp builds.');
console.log(`Jolt Physics: jolt-physics ${JOLT_VERSION} (npm), ${JOLT_SETUP}\n`);
// Fair physics first: the same rope and cloth over 2 s (120 steps) in Wisp and Jolt
if (only !== 'character') {
  const rope = { count: 1, particles: 32 }, w = ropeWorld(st, rope, 1), j = new JoltWorld(jolt);
  const re = Array.from({ length: 31 }, (_, i) => [i, i + 1]).flat();
  const wRest = Float64Array.from(w.firstRope.positions);
  joltRopes(j, 1, 32);
  const jRest = j.positions(0);
  const wr = [], jr = [];
  for (let f = 0; f < 120; f++) {
    w.step(1 / 60); j.step();
    wr.push(shapeCheck(w.firstRope.positions, wRest, re, [0]));
    jr.push(shapeCheck(j.positions(0), jRest, re, [0]));
  }
  console.log('Shape over the first 2 s (120 steps; worst of every step), 1 rope x 32 particles swinging from horizontal:');
  console.log(`- Wisp: ${fmtShape(worst(wr))}`);
  console.log(`- Jolt: ${fmtShape(worst(jr))}`);
  w.dispose(); j.dispose();
  const n = 32, c = clothWorld(st, n, 1), jc = new JoltWorld(jolt);
  const { edges } = joltCloth(jc, n);
  const cRest = Float64Array.from(c.cloth.positions), jcRest = jc.positions(0), top = [...Array(n + 1).keys()];
  const wc = [], jcs = [];
  for (let f = 0; f < 120; f++) {
    c.step(1 / 60); jc.step();
    wc.push(shapeCheck(c.cloth.positions, cRest, edges, top));
    jcs.push(shapeCheck(jc.positions(0), jcRest, edges, top));
  }
  console.log(`Cloth ${n} x ${n} falling from rest and hanging from its top row (structural + shear edges), same 2 s:`);
  console.log(`- Wisp: ${fmtShape(worst(wc))}`);
  console.log(`- Jolt: ${fmtShape(worst(jcs))}\n`);
  c.dispose(); jc.dispose();
}
// The worst stretch of the first rope of `setup` over 120 fresh steps, in each implementation
function ropeStretch(setup) {
  const n = setup.particles, edges = Array.from({ length: n - 1 }, (_, i) => [i, i + 1]).flat();
  const worstOf = (step, positions) => {
    const rest = Float64Array.from(positions());
    let s = 0;
    for (let f = 0; f < 120; f++) { step(); s = Math.max(s, shapeCheck(positions(), rest, edges, [0]).stretch); }
    return s;
  };
  const plain = new PlainVerletRopes(1, n, 1 / (n - 1));
  const w = ropeWorld(st, { count: 1, particles: n }, 1), j = new JoltWorld(jolt);
  joltRopes(j, 1, n);
  const out = {
    plain: worstOf(() => plain.step(), () => plain.x),
    wisp: worstOf(() => w.step(1 / 60), () => w.firstRope.positions),
    jolt: worstOf(() => j.step(), () => j.positions(0)),
  };
  w.dispose(); j.dispose();
  return out;
}
for (const setup of only === 'cloth' || only === 'character' ? [] : SETUPS) {
  const rows = [];
  const plain = new PlainVerletRopes(setup.count, setup.particles, 1 / (setup.particles - 1));
  rows.push(['plain JS Verlet', time(() => plain.step())]);
  const w1 = ropeWorld(st, setup, 1);
  rows.push(['Wisp WASM, single-threaded build', time(() => w1.step(1 / 60))]);
  w1.dispose();
  for (const threads of [1, 2, 4]) {
    const w = ropeWorld(mt, setup, threads);
    rows.push([`Wisp WASM, threaded build, ${threads} thread(s)`, time(() => w.step(1 / 60))]);
    w.dispose();
  }
  const j = new JoltWorld(jolt);
  joltRopes(j, setup.count, setup.particles);
  rows.push([`Jolt ${JOLT_VERSION} soft bodies, single-threaded build`, time(() => j.step())]);
  j.dispose();
  const base = rows[0][1], joltMs = rows[rows.length - 1][1];
  // What each spends its time on: the same first rope over the first 2 s, fresh. A rope that
  // stretches more has done less work per step, so the times alone would favour it.
  const stretch = ropeStretch(setup);
  console.log(`## ${setup.name}\n\n| implementation | ms/step | speed-up vs plain JS | speed-up vs Jolt |\n|---|---:|---:|---:|`);
  for (const [name, ms] of rows) {
    console.log(`| ${name} | ${ms.toFixed(3)} | ${(base / ms).toFixed(2)}x | ${(joltMs / ms).toFixed(2)}x |`);
    results.push({ setup: setup.name, name, ms });
  }
  console.log(`\nLongest segment over its rest length, worst of the first 120 steps (first rope, fresh): plain JS ${stretch.plain.toFixed(4)}, Wisp ${stretch.wisp.toFixed(4)}, Jolt ${stretch.jolt.toFixed(4)}.\n`);
}
console.log('Cloth: N x N quads, top row pinned, structural + shear constraints, 1/60 s steps, 10 constraint passes per step (Wisp: 10 substeps x 1 iteration, bending, tethers and aerodynamics off, as in the plain-JS cloth; plain JS: the three.js cloth example style, Vector3 particles, 10 relaxation passes).\n');
// 316 x 316 quads: the 100,000-vertex cloth (100,489 particles)
for (const n of only === 'ropes' || only === 'character' ? [] : [32, 64, 128, 316]) {
  const rows = [];
  const plain = new PlainCloth(n);
  rows.push(['plain JS cloth (three.js example style)', time(() => plain.step())]);
  const cloth = (wisp, threads) => clothWorld(wisp, n, threads);
  for (const [label, wisp, threads] of [['single-threaded build', st, 1], ['threaded build, 1 thread', mt, 1], ['threaded build, 2 threads', mt, 2], ['threaded build, 4 threads', mt, 4]]) {
    const w = cloth(wisp, threads);
    rows.push([`Wisp WASM, ${label}`, time(() => w.step(1 / 60))]);
    w.dispose();
  }
  const j = new JoltWorld(jolt);
  joltCloth(j, n);
  rows.push([`Jolt ${JOLT_VERSION} soft body, single-threaded build`, time(() => j.step())]);
  j.dispose();
  const base = rows[0][1], joltMs = rows[rows.length - 1][1];
  console.log(`## Cloth ${n} x ${n} (${(n + 1) ** 2} particles)\n\n| implementation | ms/step | speed-up vs plain JS | speed-up vs Jolt |\n|---|---:|---:|---:|`);
  for (const [name, ms] of rows) {
    console.log(`| ${name} | ${ms.toFixed(3)} | ${(base / ms).toFixed(2)}x | ${(joltMs / ms).toFixed(2)}x |`);
    results.push({ setup: `cloth ${n}`, name, ms });
  }
  console.log('');
}
// The dressed character of bench/native_bench.cpp's BM_DressedCharacter (tests/scenes/character.h),
// running straight on (the turns and the jump left out): a skirt of 14 chains x 6 joints linked in
// a loop, a ponytail of 8 joints, a cape of 8 chains x 8 joints linked with diagonals, two tapered
// thigh capsules swinging +-45 deg at 1.4 Hz, a torso capsule and a head sphere; 8 substeps.
function character(wisp, linked) {
  const world = wisp.createWorld({ threads: 1 });
  const thighs = [0, 1].map(() => world.addCollider({ type: 'capsule', radius: 0.055, radiusTop: 0.075, halfHeight: 0.225 }));
  const torso = world.addCollider({ type: 'capsule', radius: 0.13, radiusTop: 0.15, halfHeight: 0.2 });
  const head = world.addCollider({ type: 'sphere', radius: 0.11 });
  const hang = (root, n, step, params) => {
    const points = [];
    for (let j = 0; j < n; j++) points.push(root[0] + step[0] * j, root[1] + step[1] * j, root[2] + step[2] * j);
    return { chain: world.addChain({ position: root, points, ...params }), root };
  };
  const skirtParams = { stiffness: 6, damping: 3, inertia: 0.3, radius: 0.02 };
  const skirt = Array.from({ length: 14 }, (_, k) => {
    const a = (2 * Math.PI * k) / 14, o = [Math.sin(a), Math.cos(a)];
    return hang([0.2 * o[0], 0.93, 0.2 * o[1]], 6, [0.02 * o[0], -0.09, 0.02 * o[1]], skirtParams);
  });
  const cape = Array.from({ length: 8 }, (_, k) => hang([-0.2 + (0.4 * k) / 7, 1.45, -0.17], 8, [0, -0.1, -0.01], { ...skirtParams, stiffness: 2 }));
  const tail = hang([0, 1.67, -0.1], 8, [0, -0.06, -0.03], { stiffness: 3, radius: 0.025 });
  if (linked) {
    world.addChainLinks(skirt.map((c) => c.chain), { loop: true });
    world.addChainLinks(cape.map((c) => c.chain), { diagonals: true });
  }
  const all = [...skirt, ...cape, tail];
  let f = 0;
  return {
    world,
    step() {
      const t = ++f / 60, z = 3.5 * t;
      for (const { chain, root } of all) chain.setRoot([root[0], root[1], root[2] + z]);
      thighs.forEach((c, leg) => {
        const s = (Math.PI / 4) * Math.sin(2 * Math.PI * 1.4 * t + leg * Math.PI);
        c.setTransform([leg ? 0.09 : -0.09, 0.9 - 0.225 * Math.cos(s), z + 0.225 * Math.sin(s)], [Math.sin(-s / 2), 0, 0, Math.cos(-s / 2)]);
      });
      torso.setTransform([0, 1.25, z]);
      head.setTransform([0, 1.7, z]);
      world.step(1 / 60);
    },
  };
}
if (only === null || only === 'character') {
  console.log('## Dressed character (skirt 14 x 6 linked in a loop, ponytail 8, cape 8 x 8 linked with diagonals; 162 joints), running\n');
  console.log('| implementation | ms/frame | vs unlinked |\n|---|---:|---:|');
  const rows = [];
  for (const [label, linked] of [['unlinked chains (baseline)', false], ['linked', true]]) {
    const c = character(st, linked);
    rows.push([`Wisp WASM, single-threaded build, ${label}`, time(() => c.step())]);
    c.world.dispose();
  }
  for (const [name, ms] of rows) {
    console.log(`| ${name} | ${ms.toFixed(3)} | ${(ms / rows[0][1]).toFixed(2)}x |`);
    results.push({ setup: 'dressed character', name, ms });
  }
  console.log('');
}
const i = process.argv.indexOf('--json');
if (i > 0) fs.writeFileSync(process.argv[i + 1], JSON.stringify(results, null, 2));
