import { fail } from './args.js';

// Activity, shared by ropes, cloth and chains: switched off (skipped by the step, state kept; on
// again: carried at rest onto its current anchors or root), asleep when settled (params.sleepSpeed),
// simulated every params.updateEvery-th step. Setting `enabled` allocates nothing: a game may
// switch characters on and off every frame.
function activityFlags(o) {
  const w = o._world;
  const f = w._native.activityFlags(o._kindCode, o._id);
  if (f < 0) w._check(w._native.lastCode());
  return f;
}
const ACTIVITY = {
  /** false: skipped by the step (no solver time), state kept exactly. true again: carried at rest onto its current anchors (a chain: its root). */
  get enabled() { return (activityFlags(this) & 1) !== 0; },
  set enabled(on) { this.setEnabled(on); },
  setEnabled(on) {
    if (typeof on !== 'boolean') fail(`enabled must be true or false (got ${String(on)})`);
    const w = this._world;
    w._check(w._native.setEnabled(this._kindCode, this._id, on));
    if (on) w._refreshViews();
  },
  /** true while it sleeps (params.sleepSpeed / sleepTime): skipped until something disturbs it. */
  get sleeping() { return (activityFlags(this) & 2) !== 0; },
  /** Wakes it now (it runs from the next step). */
  wake() { this._world._check(this._world._native.wake(this._kindCode, this._id)); },
  /** Fixed steps it has been simulated (a solver counter: disabled, sleeping and skipped steps do not count). */
  get updates() {
    const w = this._world;
    const n = w._native.activityUpdates(this._kindCode, this._id);
    if (n < 0) w._check(w._native.lastCode());
    return n;
  },
};
/** Gives a class of objects (Rope, Cloth, Chain) the activity members above. */
function addActivity(cls) { Object.defineProperties(cls.prototype, Object.getOwnPropertyDescriptors(ACTIVITY)); }

export { addActivity };
