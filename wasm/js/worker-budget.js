// FrameBudget over a worker world (createWorkerWorld): the page's side. The budget runs where the
// World is. `new FrameBudget(workerWorld, options)` (budget.js) returns this forwarder, which has
// the worker make a real FrameBudget over its World (worker.js, BudgetHost) and sends it every
// call through the world's command ring, in order with the world's other calls and steps.
// budget.step(dt) is world.step(dt) that the worker runs through its FrameBudget.step, timed by
// the worker's own performance.now (a `clock` function cannot reach the worker).
//
// What the page reads (report, levelOf, msPerUnit) is the worker's plan as of the step the output
// arrays show: the worker sends each new plan by message, tagged with the steps it had published
// when it made it, and the page shows it once world.completedSteps reaches that step. So it lags
// the calls as the output arrays do; a plan's message may also reach the page a frame after the
// step it is tagged with (messages are taken between tasks). After `await world.flush()` it is
// the plan after every call made. Until a plan with an object is shown, levelOf gives its cap.
// The calls that re-plan return that report too, not the plan they cause.
//
// Arguments the page can check (objects, priorities, levels, budgetMs, ms) throw here at once
// and send nothing; what the worker's FrameBudget rejects is thrown by the world's next call
// (or rejects flush()), as for the world's other calls. budget.step(dt) allocates nothing on the
// page between plans; a plan shown (after a call that re-plans, or a calibration: every
// calibrateEvery steps) allocates its report, as a FrameBudget's plan does.
import { fail, positive, nonNegative } from './args.js';
import { LEVELS, levelIndex, simulatedObject } from './levels.js';
import { METHOD_ID } from './command-ring.js';

const ADD = METHOD_ID.add, REMOVE = METHOD_ID.remove, PRIORITY = METHOD_ID.setPriority, CAP = METHOD_ID.setCap;
const DISPOSE = METHOD_ID.dispose, BUDGET = METHOD_ID.setBudgetMs, MEASURE = METHOD_ID.measure, CALIBRATE = METHOD_ID.calibrate, PLAN = METHOD_ID.plan;

export class WorkerFrameBudget {
  #world; #id; #budgetMs; #report; #calls = 0; #disposed = false;
  #entries = new Map();    // page id -> { object, cap, priority }: what the page asked for
  #objects = new Map();    // page id -> object, for every id a plan not yet shown may name
  #removedAt = new Map();  // page id -> the call that removed it (its id is forgotten once a plan has it)
  #levels = new Map();     // page id -> level index in the plan shown
  #plans = [];             // plans received and not yet shown

  /** @internal new FrameBudget(workerWorld, options) makes it, with the options checked */
  constructor(world, options) {
    this.#world = world;
    this.#budgetMs = options.budgetMs;
    // what a FrameBudget's first plan is: nothing budgeted
    this.#report = {
      budgetMs: options.budgetMs, msPerUnit: options.msPerUnit, estimateMs: options.msPerUnit === null ? null : 0, units: 0,
      overBudget: false, calibrations: 0, degraded: [],
    };
    this.#id = world._addBudget(options, (plan) => this.#plans.push(plan));
  }

  /** The worker's last plan as of the step shown (see the top of the file). */
  get report() {
    this.#sync();
    return this.#report;
  }

  add(object, { priority = 1 } = {}) {
    this.#live();
    const o = simulatedObject(object, 'object');
    if (o._world !== this.#world) fail('object belongs to another world');
    o._alive();
    const p = nonNegative(priority, 'priority');
    if (this.#entries.has(o._id)) fail('object is budgeted already');
    this.#call(ADD, 2, o._id, p);
    this.#entries.set(o._id, { object: o, cap: 0, priority: p });
    this.#objects.set(o._id, o);
    this.#removedAt.delete(o._id);
    return this.report;
  }

  remove(object) {
    const e = this.#entry(object), id = e.object._id;
    this.#call(REMOVE, 1, id);
    this.#entries.delete(id);
    this.#removedAt.set(id, this.#calls);
    return this.report;
  }

  setPriority(object, priority) {
    const e = this.#entry(object);
    const p = nonNegative(priority, 'priority');
    if (e.priority !== p) { this.#call(PRIORITY, 2, e.object._id, p); e.priority = p; }
    return this.report;
  }

  setCap(object, level) {
    const e = this.#entry(object);
    const cap = levelIndex(level, 'level');
    if (e.cap !== cap) { this.#call(CAP, 2, e.object._id, cap); e.cap = cap; }
    return this.report;
  }

  /** The level `object` runs at in the plan shown (its cap until a plan with it is shown). */
  levelOf(object) {
    const e = this.#entry(object);
    this.#sync();
    return LEVELS[this.#levels.get(e.object._id) ?? e.cap];
  }

  /** The budget set on this thread (the worker plans with it from the next call on). */
  get budgetMs() { return this.#budgetMs; }
  set budgetMs(ms) {
    this.#live();
    positive(ms, 'budgetMs');
    this.#call(BUDGET, 1, ms);
    this.#budgetMs = ms;
  }
  /** The estimate of the plan shown. */
  get msPerUnit() { return this.report.msPerUnit; }

  /** world.step(dt), which the worker runs through its FrameBudget (timed there). Returns what world.step returns. */
  step(dt) {
    this.#live();
    const k = this.#world._step(dt, this.#id);
    this.#sync();  // so that plans received do not pile up when the page never reads them
    return k;
  }

  /** Records one fixed step's time (ms) measured on this thread, in the worker's samples. */
  measure(ms) {
    this.#live();
    nonNegative(ms, 'ms');
    this.#call(MEASURE, 1, ms);
  }
  calibrate() { this.#live(); this.#call(CALIBRATE, 0); return this.report; }
  plan() { this.#live(); this.#call(PLAN, 0); return this.report; }

  /** Whether dispose() was called. */
  get disposed() { return this.#disposed; }
  /**
   * As FrameBudget.dispose: every object goes back to its cap, in the worker, in order with the
   * world's other calls (the output arrays show it from the next step); further calls throw
   * 'disposed'; the last plan shown stays. The worker drops its budget; no plan comes after.
   * An earlier call's error is thrown by it, after the budget is disposed (as an object's dispose).
   */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#plans = [];
    this.#entries.clear();
    const w = this.#world;
    if (w.disposed) return;
    w._dropBudget(this.#id);
    try { w._call(this.#id, DISPOSE, 0); } catch (e) { w._call(this.#id, DISPOSE, 0); throw e; }
  }
  #live() { if (this.#disposed) fail('this FrameBudget has been disposed', 'disposed'); }

  #call(method, argc, a, b) {
    this.#world._call(this.#id, method, argc, a, b);
    this.#calls++;
  }
  #entry(object) {
    this.#live();
    const o = simulatedObject(object, 'object');
    const e = this.#entries.get(o._id);
    if (e === undefined || e.object !== o) fail('object is not budgeted (FrameBudget.add)');
    return e;
  }

  // Shows the plans whose step the output arrays have reached.
  #sync() {
    const plans = this.#plans;
    if (plans.length === 0) return;
    const shown = this.#world.completedSteps;
    while (plans.length > 0 && plans[0].step <= shown) this.#show(plans.shift());
  }
  #show(plan) {
    const levels = new Map(), l = plan.levels;
    for (let i = 0; i < l.length; i += 2) levels.set(l[i], l[i + 1]);
    this.#levels = levels;
    const r = plan.report, degraded = [];
    for (const d of r.degraded) {
      const object = this.#objects.get(d.id);
      if (object !== undefined) degraded.push({ object, from: d.from, to: d.to, reason: d.reason });
    }
    r.degraded = degraded;
    this.#report = r;
    for (const [id, at] of this.#removedAt) {
      if (plan.calls < at) continue;
      this.#removedAt.delete(id);
      if (!this.#entries.has(id)) this.#objects.delete(id);
    }
  }
}
