// FrameBudget: keeps the world's fixed step under a time budget by lowering objects' detail
// levels (levels.js: full, reduced = every 2nd step, slow = every 4th, frozen), lowest priority
// first, and reports what it lowered.
//
// Deterministic by construction: the choices come from a cost model, never from a clock read in
// between. Each object's work is counted in units,
//     units = work items x world substeps x iterations / updateEvery   (0 when not simulated)
// with work items = particles (joints) x constraint passes (a rope: 1, +1 with bending; a chain:
// 1; a cloth: its stretch + shear (+ bend) constraints, +particles with self-collision). The
// estimate is msPerUnit x the sum of units. msPerUnit is given (option) or learned: measure(ms)
// (or step(dt), which times world.step with `clock`) stores the time of each fixed step with the
// units that ran, and the estimate changes only at calibrate(): every `calibrateEvery` measured
// steps, or when called; it becomes the median of ms / units over the samples, and is reported.
// So the same inputs, measured times included, give the same choices; and between calibrations
// the levels change only when objects, priorities, caps or the budget change.
//
// The plan: every object starts at its cap (the best level allowed: 'full', or what a LOD
// helper set with setCap). While the estimate is over the budget less `headroom` (10%: the
// model counts no fixed per-step cost), the object with the lowest
// priority (then the best current level, then the earliest added) goes one level down, down to
// 'frozen'. Equal priorities thus go down together, level by level; a higher priority is touched
// only when every lower one is frozen.
//
// Over a worker world (createWorkerWorld) the budget runs where the World is: the constructor
// returns a forwarder (worker-budget.js) whose calls reach a FrameBudget in the worker, in order
// with the world's other calls; its step() is a world step the worker times with its own clock.
import { fail, positive, nonNegative } from './args.js';
import { LEVELS, LEVEL_RATES, levelIndex, simulatedObject, applyLevel } from './levels.js';
import { Cloth } from './cloth.js';
import { Chain } from './chain.js';
import { WorkerFrameBudget } from './worker-budget.js';

const FROZEN = LEVELS.indexOf('frozen');
const SAMPLES = 1024;

function workItems(o) {
  if (o instanceof Cloth) {
    const s = o.stats(), p = o.params;
    return s.stretchConstraints + s.shearConstraints + (p.bending ? s.bendConstraints : 0) + (p.selfCollision ? s.particles : 0);
  }
  if (o instanceof Chain) return o.count;
  return o.count * (o.params.bending ? 2 : 1);
}

export class FrameBudget {
  #world; #budgetMs; #msPerUnit; #calibrateEvery; #clock; #headroom;
  #entries = [];
  #samples = new Float64Array(SAMPLES); #sampleUnits = new Float64Array(SAMPLES); #sampleCount = 0; #sinceCalibration = 0;
  #unitsNow = 0; #scale = 1; #disposed = false;
  /**
   * The last plan: { budgetMs, msPerUnit, estimateMs, units, overBudget, calibrations,
   * degraded: [{ object, from, to, reason }] } (from: the object's cap, to: its level; names).
   * A new object at each plan (plans happen on changes and calibrations, not every frame).
   */
  report = null;

  /**
   * @param world  the World whose step is budgeted, or a WorkerWorld (then the budget runs in its
   *               worker: see worker-budget.js; the same calls, read back as of the step shown)
   * @param options.budgetMs        ms per fixed step (> 0)
   * @param options.msPerUnit       the cost estimate to start from (ms per work unit); default
   *                                null: no estimate, nothing degraded, until the first calibration
   * @param options.calibrateEvery  measured steps between calibrations (0: only calibrate()). Default 60.
   * @param options.clock           () => ms, what step() times world.step with. Default performance.now.
   *                                Not on a worker world: a function cannot reach the worker,
   *                                which times its steps with its own performance.now.
   * @param options.headroom        the fraction of the budget kept free (0..0.9): the plan aims at
   *                                budgetMs x (1 - headroom), for what the model does not count
   *                                (each step's fixed costs: anchors, lists, output copies). Default 0.1.
   */
  constructor(world, options = {}) {
    if (!world || typeof world.step !== 'function' || typeof world.stateHash !== 'function') fail('FrameBudget needs a World');
    if (options === null || typeof options !== 'object') fail('FrameBudget options must be an object');
    const { budgetMs, msPerUnit = null, calibrateEvery = 60, clock, headroom = 0.1 } = options;
    positive(budgetMs, 'budgetMs');
    if (msPerUnit !== null) positive(msPerUnit, 'msPerUnit');
    if (!Number.isInteger(calibrateEvery) || calibrateEvery < 0 || calibrateEvery > SAMPLES) fail(`calibrateEvery must be an integer in [0, ${SAMPLES}] (got ${String(calibrateEvery)})`);
    if (clock !== undefined && typeof clock !== 'function') fail('clock must be a function returning milliseconds');
    if (typeof headroom !== 'number' || !(headroom >= 0 && headroom <= 0.9)) fail(`headroom must be a number in [0, 0.9] (got ${String(headroom)})`);
    // a worker world (worker-world.js), known by its budget hook: that file is not imported
    // here, because the worker runs this file too, and importing the page's side into it would
    // put the worker's own `new Worker(...)` in the worker's chunk (webpack: a circular chunk)
    if (typeof world._addBudget === 'function') {
      if (clock !== undefined) fail('clock cannot be given on a worker world: a function cannot reach the worker, whose FrameBudget times each step with its own performance.now');
      return new WorkerFrameBudget(world, { budgetMs, msPerUnit, calibrateEvery, headroom });
    }
    this.#world = world;
    this.#budgetMs = budgetMs;
    this.#msPerUnit = msPerUnit;
    this.#calibrateEvery = calibrateEvery;
    this.#clock = clock ?? (() => performance.now());
    this.#headroom = headroom;
    this.#readScale();
    this.plan();
  }

  #readScale() {
    const s = this.#world.settings;
    this.#scale = s.substeps * s.iterations;
  }

  /** Budgets `object` (a Rope, Cloth, Chain or an adapter holding one) with `priority` (>= 0, higher is kept longer). Re-plans. */
  add(object, { priority = 1 } = {}) {
    this.#live();
    const o = simulatedObject(object, 'object');
    if (o._world !== this.#world) fail('object belongs to another world');
    const p = nonNegative(priority, 'priority');
    if (this.#find(o) !== null) fail('object is budgeted already');
    this.#entries.push({ object: o, priority: p, items: workItems(o), cap: 0, level: 0, applied: -1 });
    return this.plan();
  }

  /** Stops budgeting `object`; it goes back to its cap. Re-plans. */
  remove(object) {
    const e = this.#entry(object);
    if (!e.object.disposed) applyLevel(e.object, e.applied, e.cap);
    this.#entries.splice(this.#entries.indexOf(e), 1);
    return this.plan();
  }

  /** Changes an object's priority. Re-plans. */
  setPriority(object, priority) {
    const e = this.#entry(object);
    const p = nonNegative(priority, 'priority');
    if (e.priority !== p) { e.priority = p; this.plan(); }
    return this.report;
  }

  /** The best level `object` may have (a name or index: what a LOD helper chose). Re-plans when it changes. */
  setCap(object, level) {
    const e = this.#entry(object);
    const cap = levelIndex(level, 'level');
    if (e.cap !== cap) { e.cap = cap; this.plan(); }
    return this.report;
  }

  /** The level (name) `object` runs at. */
  levelOf(object) { return LEVELS[this.#entry(object).level]; }

  get budgetMs() { return this.#budgetMs; }
  set budgetMs(ms) { this.#live(); this.#budgetMs = positive(ms, 'budgetMs'); this.plan(); }
  /** The cost estimate in use (ms per work unit), or null before the first calibration. */
  get msPerUnit() { return this.#msPerUnit; }

  /**
   * Steps the world by `dt`, timing it with the clock and recording the time per fixed step
   * (calibrating when due). Returns world.step's fixed steps. No allocation unless it calibrates.
   */
  step(dt) {
    this.#live();
    const t0 = this.#clock();
    const k = this.#world.step(dt);
    const t1 = this.#clock();
    if (k > 0) this.measure((t1 - t0) / k);
    return k;
  }

  /** Records one fixed step's measured time (ms) with the units the current plan runs; calibrates when due. */
  measure(ms) {
    this.#live();
    nonNegative(ms, 'ms');
    if (this.#unitsNow > 0) {
      const i = this.#sampleCount % SAMPLES;
      this.#samples[i] = ms;
      this.#sampleUnits[i] = this.#unitsNow;
      this.#sampleCount++;
    }
    this.#sinceCalibration++;
    if (this.#calibrateEvery > 0 && this.#sinceCalibration >= this.#calibrateEvery) this.calibrate();
  }

  /** Sets msPerUnit to the median of ms / units over the samples since the last calibration (if any) and re-plans. Returns the report. */
  calibrate() {
    this.#live();
    const n = Math.min(this.#sampleCount, SAMPLES);
    this.#sinceCalibration = 0;
    if (n === 0) return this.report;
    const ratios = new Float64Array(n);
    for (let i = 0; i < n; i++) ratios[i] = this.#samples[i] / this.#sampleUnits[i];
    ratios.sort();
    this.#msPerUnit = n % 2 ? ratios[(n - 1) / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]);
    this.#sampleCount = 0;
    this.#calibrations++;
    return this.plan();
  }
  #calibrations = 0;

  /** Work units of an entry at a level. */
  #units(e, level) {
    const rate = LEVEL_RATES[level];
    return rate === 0 || e.object.disposed ? 0 : (e.items * this.#scale) / rate;
  }

  /** Chooses every object's level (see the top of the file), applies the changes and returns the new report. */
  plan() {
    this.#live();
    this.#readScale();
    const entries = this.#entries, k = this.#msPerUnit;
    for (const e of entries) e.level = e.cap;
    let units = 0;
    for (const e of entries) units += this.#units(e, e.level);
    if (k !== null) {
      const target = this.#budgetMs * (1 - this.#headroom);
      while (k * units > target) {
        let pick = null;
        for (const e of entries) {
          if (e.level >= FROZEN) continue;
          if (pick === null || e.priority < pick.priority || (e.priority === pick.priority && e.level < pick.level)) pick = e;
        }
        if (pick === null) break;
        units -= this.#units(pick, pick.level) - this.#units(pick, pick.level + 1);
        pick.level++;
      }
    }
    const estimateMs = k === null ? null : k * units;
    let capUnits = 0;
    for (const e of entries) capUnits += this.#units(e, e.cap);
    const degraded = [];
    for (const e of entries) {
      if (e.object.disposed) continue;
      applyLevel(e.object, e.applied, e.level);
      e.applied = e.level;
      if (e.level > e.cap) {
        degraded.push({
          object: e.object, from: LEVELS[e.cap], to: LEVELS[e.level],
          reason: `priority ${e.priority}: ${(k * capUnits).toFixed(3)} ms per step estimated at the caps, over the ${+this.#budgetMs.toFixed(4)} ms budget (less ${100 * this.#headroom}% headroom)`,
        });
      }
    }
    this.#unitsNow = units;
    this.report = {
      budgetMs: this.#budgetMs, msPerUnit: k, estimateMs, units, overBudget: estimateMs !== null && estimateMs > this.#budgetMs,
      calibrations: this.#calibrations, degraded,
    };
    return this.report;
  }

  /** Whether dispose() was called. */
  get disposed() { return this.#disposed; }
  /**
   * Stops budgeting: every object goes back to its cap (as remove() does) and further calls
   * throw 'disposed'. A budget holds no WASM memory: this hands the objects' levels back (before
   * another budget takes them, or when the budget is no longer wanted); the last report stays.
   */
  dispose() {
    if (this.#disposed) return;
    for (const e of this.#entries) if (!e.object.disposed) applyLevel(e.object, e.applied, e.cap);
    this.#entries = [];
    this.#disposed = true;
  }
  #live() { if (this.#disposed) fail('this FrameBudget has been disposed', 'disposed'); }

  #find(o) {
    for (const e of this.#entries) if (e.object === o) return e;
    return null;
  }
  #entry(object) {
    this.#live();
    const e = this.#find(simulatedObject(object, 'object'));
    if (e === null) fail('object is not budgeted (FrameBudget.add)');
    return e;
  }
}

// A forwarder is a FrameBudget (instanceof), with every method its own.
Object.setPrototypeOf(WorkerFrameBudget.prototype, FrameBudget.prototype);
