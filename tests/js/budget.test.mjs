// FrameBudget (wasm/js/budget.js): with a fake clock whose times follow the work that ran, the
// choices are the same on every run, change only at calibration points, keep the estimate (and
// the median of the measured step times) under the budget, lower the lowest priorities first,
// and are reported; bad input throws and changes nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { builds, rejects } from './load.mjs';
import { FrameBudget } from '../../wasm/js/index.js';

const wisp = builds.single;
const CALIBRATE = 30;

// A crowd of ropes (8..30 segments) with priorities 0, 1, 2, under a budget, stepped 300 times
// at 60 Hz. The fake clock's step time is `msPerUnit` x the units the plan runs, +-10% noise
// from a fixed-seed generator: what the budget measures depends only on its own choices.
function run(msPerUnit, budgetMs = 0.25) {
  const world = wisp.createWorld({});
  const ropes = [];
  for (let i = 0; i < 12; i++) {
    const anchor = world.addAnchor([i, 2, 0]);
    const rope = world.addRope({ start: [i, 2, 0], end: [i + 1, 2, 0], segments: 8 + 2 * i, pinned: [] });
    rope.pin(0, anchor);
    ropes.push(rope);
  }
  let seed = 12345, now = 0, calls = 0;
  const noise = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed / 2 ** 32 - 0.5) * 0.2; };
  let budget = null;
  const clock = () => {
    if (calls++ % 2 === 1) now += msPerUnit * budget.report.units * (1 + noise());
    return now;
  };
  budget = new FrameBudget(world, { budgetMs, calibrateEvery: CALIBRATE, clock });
  ropes.forEach((r, i) => budget.add(r, { priority: i % 3 }));
  const log = [], times = [], changedAt = [];
  let last = ropes.map((r) => budget.levelOf(r)).join(',');
  for (let f = 0; f < 300; f++) {
    const t0 = now;
    budget.step(1 / 60);
    times.push(now - t0);
    const levels = ropes.map((r) => budget.levelOf(r)).join(',');
    if (levels !== last) changedAt.push(f);
    last = levels;
    log.push(`${levels}|${budget.msPerUnit}|${budget.report.degraded.map((d) => `${ropes.indexOf(d.object)}:${d.from}>${d.to}`).join(' ')}`);
  }
  const result = { log, times, changedAt, report: budget.report, ropes, levels: ropes.map((r) => budget.levelOf(r)), hash: world.stateHash() };
  world.dispose();
  return result;
}

test('the same measured times give the same choices, made only at calibration points', () => {
  const a = run(2e-4), b = run(2e-4);
  assert.deepEqual(a.log, b.log);
  assert.equal(a.hash, b.hash);
  assert.ok(a.report.degraded.length > 0, 'something was degraded');
  // 300 steps, calibrating every 30: levels change only right after a calibration
  for (const f of a.changedAt) assert.equal((f + 1) % CALIBRATE, 0, `levels changed at step ${f}`);
  // other measured times, other choices: the clock matters, through measure() only
  const c = run(4e-4);
  assert.notDeepEqual(c.levels, a.levels);
});

test('under budget: the estimate and the median measured step stay under it; lower priorities go first; reported', () => {
  const budgetMs = 0.25, r = run(2e-4, budgetMs);
  assert.ok(r.report.estimateMs <= budgetMs, `estimate ${r.report.estimateMs} ms`);
  const after = r.times.slice(2 * CALIBRATE).sort((x, y) => x - y);
  const median = after[after.length >> 1];
  const full = run(2e-4, 1e9).times.sort((x, y) => x - y)[150];
  assert.ok(median <= budgetMs * 1.05, `median ${median} ms, budget ${budgetMs} ms (no budget: ${full} ms)`);
  assert.ok(full > 1.5 * budgetMs, 'the crowd needs the budget');
  // strict priority: anything of priority p lowered means every lower priority is frozen
  const prio = (i) => i % 3;
  r.levels.forEach((lv, i) => {
    if (lv === 'full') return;
    r.levels.forEach((other, j) => { if (prio(j) < prio(i)) assert.equal(other, 'frozen', `rope ${j} (priority ${prio(j)}) while rope ${i} (priority ${prio(i)}) is ${lv}`); });
  });
  for (const d of r.report.degraded) {
    assert.equal(d.from, 'full');
    assert.match(d.reason, /priority \d: .* ms per step estimated at the caps, over the 0.25 ms budget/);
  }
  assert.equal(r.report.degraded.length, r.levels.filter((l) => l !== 'full').length);
});

test('a given msPerUnit plans at once; caps from a LOD helper bound the levels; bad input throws and changes nothing', () => {
  const world = wisp.createWorld({});
  const a = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 20 });
  const b = world.addRope({ start: [0, 3, 0], end: [1, 3, 0], segments: 20 });
  // units per rope at full rate: 21 particles x 8 substeps x 1 iteration = 168
  const budget = new FrameBudget(world, { budgetMs: 1, msPerUnit: 1 / 300 });
  budget.add(a, { priority: 0 });
  const rep = budget.add(b, { priority: 5 });
  assert.equal(rep.units, 168 + 84, 'a every 2nd step');
  assert.deepEqual([budget.levelOf(a), budget.levelOf(b)], ['reduced', 'full']);
  assert.equal(a.params.updateEvery, 2);
  budget.setCap(b, 'slow');
  assert.deepEqual([budget.levelOf(a), budget.levelOf(b)], ['full', 'slow']);
  assert.equal(b.params.updateEvery, 4);
  budget.setCap(b, 'off');
  assert.equal(b.enabled, false);
  const before = JSON.stringify([budget.levelOf(a), budget.levelOf(b), budget.report.units]);
  rejects(() => new FrameBudget(world, { budgetMs: 0 }), 'invalid-argument', /budgetMs/);
  rejects(() => new FrameBudget(world, { budgetMs: 1, calibrateEvery: -1 }), 'invalid-argument', /calibrateEvery/);
  rejects(() => budget.add(a), 'invalid-argument', /already/);
  rejects(() => budget.add(world.addAnchor([0, 0, 0])), 'invalid-argument', /Rope, Cloth or Chain/);
  rejects(() => budget.setCap(a, 'fast'), 'invalid-argument', /level must be one of/);
  rejects(() => budget.setPriority(a, -1), 'invalid-argument', /priority/);
  rejects(() => budget.measure(NaN), 'invalid-argument', /ms/);
  const other = wisp.createWorld({});
  rejects(() => budget.add(other.addRope({ start: [0, 0, 0], end: [1, 0, 0] })), 'invalid-argument', /another world/);
  assert.equal(JSON.stringify([budget.levelOf(a), budget.levelOf(b), budget.report.units]), before);
  other.dispose();
  world.dispose();
});
