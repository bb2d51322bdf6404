// FrameBudget over a worker world (wasm/js/worker-budget.js, the host in worker.js): the budget
// runs in the worker, so the same calls with a given msPerUnit give the plans (levels, degraded
// objects, estimates) and the state hash of a FrameBudget over a main-thread World; the worker
// calibrates from its own clock; the page checks what it can at once; CharacterLOD drives it;
// disposing the world or a budgeted object behaves as documented.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { createWisp, createWorkerWorld, FrameBudget, WispError } from '../../wasm/js/index.js';
import { WorkerFrameBudget } from '../../wasm/js/worker-budget.js';
import { CharacterLOD } from '../../web/adapters/index.js';

const wisp = await createWisp({ threads: false });
const DT = 1 / 60;

// Ropes, cloths and chains of mixed sizes and priorities.
function crowd(world) {
  const objects = [];
  for (let i = 0; i < 4; i++) objects.push(world.addRope({ start: [i, 2, 0], end: [i + 1, 2, 0], segments: 10 + 6 * i, pinned: [0] }));
  for (let i = 0; i < 2; i++) objects.push(world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 5 + 2 * i, resolutionY: 5, position: [i, 2, 2] }, pinned: [0] }));
  for (let i = 0; i < 2; i++) objects.push(world.addChain({ points: [i, 2, 4, i, 1.9, 4, i, 1.8, 4, i, 1.7, 4, i, 1.6, 4] }));
  return objects;
}
const PRIORITIES = [0, 1, 2, 0, 1, 0, 2, 1];

// A level, or 'not budgeted' (a removed object).
function levelOf(budget, o) {
  try {
    return budget.levelOf(o);
  } catch (e) {
    if (e instanceof WispError && /not budgeted/.test(e.message)) return 'not budgeted';
    throw e;
  }
}

// What the page reads of a budget's plan, objects by index.
function planOf(budget, objects) {
  const r = budget.report;
  return {
    levels: objects.map((o) => levelOf(budget, o)),
    degraded: r.degraded.map((d) => [objects.indexOf(d.object), d.from, d.to, d.reason]),
    units: r.units, estimateMs: r.estimateMs, budgetMs: r.budgetMs, msPerUnit: r.msPerUnit, overBudget: r.overBudget,
    calibrations: r.calibrations, budget: budget.budgetMs, perUnit: budget.msPerUnit,
  };
}

// The scripted changes, each followed by 5 budgeted steps; `seen(phase)` after each.
async function script(world, budget, objects, seen) {
  const steps = async (phase) => {
    for (let k = 0; k < 5; k++) budget.step(DT);
    await seen(phase);
  };
  objects.forEach((o, i) => budget.add(o, { priority: PRIORITIES[i] }));
  await steps('added');
  budget.budgetMs = 3;
  await steps('budget raised');
  budget.setCap(objects[6], 'slow');
  budget.setCap(objects[1], 'reduced');
  await steps('caps');
  budget.setPriority(objects[0], 5);
  await steps('priority');
  budget.remove(objects[4]);
  await steps('removed');
  objects[7].dispose();
  budget.budgetMs = 2.5;  // a plan without the disposed chain's work
  await steps('disposed');
}

test('worker world: a FrameBudget gives the main thread\'s plans and state hash for the same calls', async () => {
  const options = { budgetMs: 1.5, msPerUnit: 1e-3, calibrateEvery: 0 };
  const main = wisp.createWorld({});
  const mo = crowd(main);
  const mb = new FrameBudget(main, options);
  const expected = [];
  await script(main, mb, mo, (phase) => { expected.push({ phase, ...planOf(mb, mo) }); });

  const world = await createWorkerWorld({}, { threads: false });
  try {
    const wo = crowd(world);
    const wb = new FrameBudget(world, options);
    assert.ok(wb instanceof FrameBudget);
    const got = [];
    await script(world, wb, wo, async (phase) => {
      if (phase === 'caps') {
        // before the page has taken the worker's plan (a message: not before an await), it
        // still shows the plan before the caps
        const { phase: _, ...previous } = got.at(-1);
        assert.deepEqual(planOf(wb, wo), previous);
      }
      await world.flush();
      got.push({ phase, ...planOf(wb, wo) });
    });
    for (let i = 0; i < expected.length; i++) assert.deepEqual(got[i], expected[i], `after "${expected[i].phase}"`);
    // every phase changed the plan, and the budget degraded something
    for (let i = 1; i < expected.length; i++) assert.notDeepEqual(expected[i].levels, expected[i - 1].levels, `"${expected[i].phase}" changed levels`);
    assert.ok(expected[0].degraded.length >= 3, `degraded at first: ${expected[0].degraded.length}`);
    assert.equal(await world.stateHash(), main.stateHash());
  } finally {
    await world.dispose();
    main.dispose();
  }
});

test('worker world: the budget calibrates from the worker\'s own step times', async () => {
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const budget = new FrameBudget(world, { budgetMs: 4, calibrateEvery: 10 });
    for (const o of crowd(world)) budget.add(o);
    assert.equal(budget.msPerUnit, null);
    for (let k = 0; k < 12; k++) budget.step(DT);
    await world.flush();
    assert.ok(budget.report.calibrations >= 1, `calibrations: ${budget.report.calibrations}`);
    assert.ok(budget.msPerUnit > 0, `msPerUnit: ${budget.msPerUnit}`);
    assert.equal(budget.report.msPerUnit, budget.msPerUnit);
  } finally {
    await world.dispose();
  }
});

const invalid = (needle) => (e) => e instanceof WispError && e.code === 'invalid-argument' && needle.test(e.message);

test('worker world: bad budget arguments throw on the page, naming the argument, and change nothing', async () => {
  const world = await createWorkerWorld({}, { threads: false });
  const other = await createWorkerWorld({}, { threads: false });
  const main = wisp.createWorld({});
  try {
    assert.throws(() => new FrameBudget(world, { budgetMs: 1, clock: () => 0 }), invalid(/clock/));
    assert.throws(() => new FrameBudget(world, { budgetMs: -1 }), invalid(/budgetMs/));
    assert.throws(() => new FrameBudget(world, { budgetMs: 1, calibrateEvery: 1.5 }), invalid(/calibrateEvery/));
    const budget = new FrameBudget(world, { budgetMs: 0.2, msPerUnit: 1e-3, calibrateEvery: 0 });
    const [a, b] = crowd(world);
    budget.add(a, { priority: 0 });
    budget.add(b, { priority: 1 });
    budget.step(DT);
    await world.flush();
    const before = JSON.stringify(planOf(budget, [a, b]));
    assert.ok(budget.report.degraded.length > 0);
    const stranger = world.addRope({ start: [0, 5, 0], end: [1, 5, 0], segments: 4 });
    assert.throws(() => budget.add(a), invalid(/already/));
    assert.throws(() => budget.add(stranger, { priority: -1 }), invalid(/priority/));
    assert.throws(() => budget.add(stranger, { priority: 'high' }), invalid(/priority/));
    assert.throws(() => budget.setPriority(a, NaN), invalid(/priority/));
    assert.throws(() => budget.add(world.addAnchor([0, 0, 0])), invalid(/Rope, Cloth or Chain/));
    assert.throws(() => budget.add(other.addRope({ start: [0, 0, 0], end: [1, 0, 0] })), invalid(/another world/));
    assert.throws(() => budget.add(main.addRope({ start: [0, 0, 0], end: [1, 0, 0] })), invalid(/another world/));
    assert.throws(() => budget.setCap(stranger, 'slow'), invalid(/not budgeted/));
    assert.throws(() => budget.levelOf(stranger), invalid(/not budgeted/));
    assert.throws(() => budget.remove(stranger), invalid(/not budgeted/));
    assert.throws(() => budget.setCap(a, 'fast'), invalid(/level must be one of/));
    assert.throws(() => { budget.budgetMs = 0; }, invalid(/budgetMs/));
    assert.throws(() => budget.measure(NaN), invalid(/ms/));
    budget.step(DT);
    await world.flush();  // the worker had nothing to reject
    assert.equal(JSON.stringify(planOf(budget, [a, b])), before);
    assert.equal(budget.budgetMs, 0.2);
  } finally {
    await world.dispose();
    await other.dispose();
    main.dispose();
  }
});

// A camera at the origin looking down -z.
function camera() {
  const c = new THREE.PerspectiveCamera(60, 1, 0.1, 1000);
  c.updateMatrixWorld();
  return c;
}

test('worker world: CharacterLOD sets a worker budget\'s caps (as over a main-thread World)', async () => {
  const run = async (world) => {
    const budget = new FrameBudget(world, { budgetMs: 100, msPerUnit: 1e-4, calibrateEvery: 0 });
    const lod = new CharacterLOD({ distances: [10, 20, 40, 80], margin: 1, budget });
    const ropes = [5, 15, 30].map((d) => world.addRope({ start: [0, 0, -d], end: [1, 0, -d], segments: 8, pinned: [0] }));
    ropes.forEach((r, i) => {
      budget.add(r);
      lod.add({ objects: [r], bounds: new THREE.Sphere(new THREE.Vector3(0, 0, -[5, 15, 30][i] - 0.5), 0.5) });
    });
    lod.update(camera());
    for (let k = 0; k < 8; k++) budget.step(DT);
    if (world.flush) await world.flush();
    return { levels: ropes.map((r) => budget.levelOf(r)), hash: await world.stateHash() };
  };
  const main = wisp.createWorld({});
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const expected = await run(main), got = await run(world);
    assert.deepEqual(expected.levels, ['full', 'reduced', 'slow']);
    assert.deepEqual(got, expected);
  } finally {
    await world.dispose();
    main.dispose();
  }
});

test('worker world: a budgeted object disposed, then the world: steps go on, then throw \'disposed\'', async () => {
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const budget = new FrameBudget(world, { budgetMs: 0.2, msPerUnit: 1e-3, calibrateEvery: 5 });
    const [a, b] = crowd(world);
    budget.add(a, { priority: 0 });
    budget.add(b, { priority: 1 });
    budget.step(DT);
    a.dispose();
    for (let k = 0; k < 6; k++) budget.step(DT);  // calibrates without a's work
    await world.flush();
    assert.equal(world.completedSteps, 7);
    assert.equal(typeof budget.levelOf(a), 'string', 'still budgeted, as on a World');
    budget.remove(a);
    budget.setCap(b, 'slow');
    budget.step(DT);
    await world.flush();
    assert.equal(budget.levelOf(b), 'slow');
    assert.throws(() => budget.levelOf(a), invalid(/not budgeted/));
    const last = budget.report;
    await world.dispose();
    assert.throws(() => budget.step(DT), (e) => e instanceof WispError && e.code === 'disposed');
    assert.throws(() => budget.setCap(b, 'full'), (e) => e instanceof WispError && e.code === 'disposed');
    assert.throws(() => budget.add(b), (e) => e instanceof WispError && e.code === 'disposed');
    assert.equal(budget.report, last, 'the last plan stays readable');
    assert.equal(budget.levelOf(b), 'slow');
  } finally {
    await world.dispose();  // a no-op when done above
  }
});

test('worker world: the page shows a plan from the step it was made after, as the output arrays', async () => {
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const budget = new FrameBudget(world, { budgetMs: 100, msPerUnit: 1e-3, calibrateEvery: 0 });
    const [a] = crowd(world);
    budget.add(a);
    await world.flush();
    budget.step(DT);             // step 1
    budget.setCap(a, 'reduced');  // made after step 1
    budget.step(DT);             // shows step 0 (or 1), sends step 2
    // the worker runs everything and its plan message arrives; the arrays still show the step
    // step() found, so the plan made after step 1 shows only if that was step 1
    while (world._ringBacklog > 0) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(budget.levelOf(a), world.completedSteps >= 1 ? 'reduced' : 'full', `step shown: ${world.completedSteps}`);
    await world.flush();
    assert.equal(world.completedSteps, 2);
    assert.equal(budget.levelOf(a), 'reduced');
  } finally {
    await world.dispose();
  }
});

test('worker world: an object whose creation failed in the worker is skipped by its budget, its error reported once', async () => {
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const good = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
    const bad = world.addRope({ start: [0, 2, 0], end: [0, 2, 0], segments: 8 });  // zero length: the worker's World rejects it
    const budget = new FrameBudget(world, { budgetMs: 1, msPerUnit: 1e-3, calibrateEvery: 0 });
    budget.add(good);
    budget.add(bad, { priority: 2 });
    budget.step(DT);
    await assert.rejects(world.flush(), (e) => e instanceof WispError && /zero length/.test(e.message), 'the creation\'s own error');
    budget.setCap(bad, 'reduced');
    budget.setPriority(bad, 3);
    budget.setCap(good, 'slow');
    budget.remove(bad);
    budget.step(DT);
    await world.flush();  // no second error from the budget's calls on it
    assert.equal(budget.levelOf(good), 'slow', 'the calls around it still ran');
  } finally {
    await world.dispose();
  }
});

test('the worker forwarder has every FrameBudget method of its own', () => {
  for (const name of Object.getOwnPropertyNames(FrameBudget.prototype)) {
    assert.ok(Object.hasOwn(WorkerFrameBudget.prototype, name), `WorkerFrameBudget.${name}`);
  }
});

test('worker world: a FrameBudget\'s dispose puts every object back at its cap, as a main-thread FrameBudget\'s, and ends the budget', async () => {
  const options = { budgetMs: 1.5, msPerUnit: 1e-3, calibrateEvery: 0 };
  const main = wisp.createWorld({});
  const world = await createWorkerWorld({}, { threads: false });
  try {
    const run = async (w, objects) => {
      const budget = new FrameBudget(w, options);
      objects.forEach((o, i) => budget.add(o, { priority: PRIORITIES[i] }));
      budget.setCap(objects[1], 'reduced');
      for (let k = 0; k < 5; k++) budget.step(DT);
      if (w === world) await world.flush();
      const during = objects.map((o) => [o.params.updateEvery, o.enabled]);
      budget.dispose();
      budget.dispose();  // once
      for (const call of [() => budget.step(DT), () => budget.add(objects[0]), () => budget.levelOf(objects[0]), () => budget.plan(), () => { budget.budgetMs = 2; }]) {
        assert.throws(call, (e) => e instanceof WispError && e.code === 'disposed');
      }
      assert.equal(budget.disposed, true);
      for (let k = 0; k < 5; k++) w.step(DT);
      if (w === world) await world.flush();
      return { during, after: objects.map((o) => [o.params.updateEvery, o.enabled]) };
    };
    const mo = crowd(main), wo = crowd(world);
    const expected = await run(main, mo);
    assert.ok(expected.during.some(([every, on]) => every > 1 || !on), 'the budget lowered some objects');
    assert.deepEqual(expected.after.map(([every, on]) => [every, on]), mo.map((o, i) => [i === 1 ? 2 : 1, true]), 'back at their caps');
    assert.deepEqual(await run(world, wo), expected);
    assert.equal(await world.stateHash(), main.stateHash());
  } finally {
    await world.dispose();
    main.dispose();
  }
});
