// Frame-budget benchmark (Node, WASM single-threaded): a crowd of characters, each a cape (cloth
// 10 x 12 quads pinned at the shoulders), two hair chains of 8 joints and a 24-segment rope, all
// following a walking anchor. 600 fixed steps (1/60 s frames) without a budget, then 600 with a
// FrameBudget of half the unbudgeted median (priorities: capes 1, ropes 2, hair 3), in one run,
// the two crowds stepped in turn.
// The budget learns its ms per work unit from the first steps it measures (calibrating every 60)
// and its choices hold between calibrations. Prints the setup, the median step time of each run,
// their ratio, and what the budget degraded, as Markdown.
//   node bench/budget_bench.mjs [characters=24]
import os from 'node:os';
import { createWisp, FrameBudget } from '../wasm/js/index.js';

const N = Number(process.argv[2] ?? 24), STEPS = 600;
// CPU time of this process (ms): on a shared machine wall time mostly measures the other
// processes (a step preempted mid-way reads 10x its cost). The run is single-threaded.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

function crowd(wisp) {
  const world = wisp.createWorld({ substeps: 8 });
  const chars = [];
  for (let i = 0; i < N; i++) {
    const x = 2 * (i % 6), z = -2 * Math.floor(i / 6);
    const left = world.addAnchor([x - 0.2, 1.5, z]), right = world.addAnchor([x + 0.2, 1.5, z]);
    const cape = world.addCloth({ grid: { width: 0.4, height: 0.6, resolutionX: 10, resolutionY: 12, position: [x, 1.2, z] } });
    cape.pin(0, left);
    cape.pin(10, right);
    const hand = world.addAnchor([x + 0.3, 1, z]);
    const rope = world.addRope({ start: [x + 0.3, 1, z], end: [x + 1.1, 1, z], segments: 24 });
    rope.pin(0, hand);
    const hair = [-0.05, 0.05].map((dx) => world.addChain({ points: Array.from({ length: 8 }, (_, j) => [x + dx, 1.7 - 0.04 * j, z - 0.1]).flat() }));
    chars.push({ x, z, anchors: [left, right, hand], offsets: [-0.2, 0.2, 0.3], cape, rope, hair });
  }
  const drive = (f) => {
    for (const c of chars) {
      const dx = 0.15 * Math.sin(0.05 * f + c.x), y = 0.01 * Math.sin(0.3 * f);
      c.anchors.forEach((a, k) => a.setPosition([c.x + c.offsets[k] + dx, (k === 2 ? 1 : 1.5) + y, c.z]));
      for (const h of c.hair) h.setRoot([c.x + dx, 1.7 + y, c.z - 0.1]);
    }
  };
  return { world, chars, drive };
}

function median(a) {
  const s = Float64Array.from(a).sort();
  return s.length % 2 ? s[(s.length - 1) / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

const wisp = await createWisp({ threads: false });

// Both crowds step in turn, one fixed step each, so that load from other processes falls on
// both alike. The budget is half the median of 60 warm-up steps of the unbudgeted crowd.
const plain = crowd(wisp), run = crowd(wisp), plainTimes = [], times = [];
const warm = [];
for (let f = 0; f < 60; f++) {
  plain.drive(f); run.drive(f);
  const t0 = cpu();
  plain.world.step(1 / 60);
  warm.push(cpu() - t0);
  run.world.step(1 / 60);
}
const budgetMs = median(warm) / 2;
const budget = new FrameBudget(run.world, { budgetMs, calibrateEvery: 60, clock: cpu });
for (const c of run.chars) {
  budget.add(c.cape, { priority: 1 });
  budget.add(c.rope, { priority: 2 });
  for (const h of c.hair) budget.add(h, { priority: 3 });
}
for (let f = 60; f < 60 + STEPS; f++) {
  plain.drive(f); run.drive(f);
  let t0 = cpu();
  plain.world.step(1 / 60);
  plainTimes.push(cpu() - t0);
  t0 = cpu();
  budget.step(1 / 60);
  times.push(cpu() - t0);
}
const stats = plain.world.stats();
plain.world.dispose();
const plainMedian = median(plainTimes);
const settled = median(times.slice(120));  // after the first two calibrations
const all = median(times);
const byKind = {};
for (const d of budget.report.degraded) {
  const kind = d.object.constructor.name;
  const key = `${kind} ${d.from} → ${d.to}`;
  byKind[key] = (byKind[key] ?? 0) + 1;
}
run.world.dispose();

console.log(`## Frame budget: ${N} characters, median fixed-step CPU time over ${STEPS} steps\n`);
console.log(`Setup: ${N} characters (cape 11 x 13 particles pinned at 2 anchors, rope 25 particles, 2 hair chains of 8 joints), ${stats.particles} particles, substeps 8, single-threaded WASM, Node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}.\n`);
console.log('| run | median step | vs no budget |');
console.log('|---|---|---|');
console.log(`| no budget (same 600 steps, in turn) | ${plainMedian.toFixed(3)} ms | 1× |`);
console.log(`| budget ${budgetMs.toFixed(3)} ms, all 600 steps | ${all.toFixed(3)} ms | ${(all / plainMedian).toFixed(2)}× |`);
console.log(`| budget ${budgetMs.toFixed(3)} ms, steps 120–599 (after 2 calibrations) | ${settled.toFixed(3)} ms | ${(settled / plainMedian).toFixed(2)}× |`);
console.log(`\nUnder the budget: ${all <= budgetMs ? 'yes' : 'no'} (all steps), ${settled <= budgetMs ? 'yes' : 'no'} (after calibration). Estimate ${budget.report.estimateMs.toFixed(3)} ms at ${budget.report.msPerUnit.toExponential(3)} ms per unit after ${budget.report.calibrations} calibrations.`);
console.log(`\nDegraded (${budget.report.degraded.length} of ${4 * N} objects):`);
for (const [k, n] of Object.entries(byKind)) console.log(`- ${n} × ${k}`);
if (budget.report.degraded.length) console.log(`\nA reason as reported: "${budget.report.degraded[0].reason}"`);
