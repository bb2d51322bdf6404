// Detail levels of one simulated object, shared by the frame budget (budget.js) and the three.js
// LOD helper (web/adapters/lod.js). Each maps onto the activity API (activity.js):
//   'full'     simulated every fixed step (params.updateEvery 1)
//   'reduced'  every 2nd fixed step (updateEvery 2): each update is one step of 2 dt with the
//              world's substeps, so half the substeps per simulated second (the core has no
//              per-object substep count; this is what halves an object's solver work)
//   'slow'     every 4th fixed step (updateEvery 4)
//   'frozen'   not simulated (enabled = false), its pose kept and drawn as it is
//   'off'      not simulated; the LOD helper also hides what it draws
// Going back to a simulated level from 'frozen' or 'off' enables it again, which carries it at
// rest onto its current anchors or root (no snap, no stored speed).
import { fail } from './args.js';

export const LEVELS = Object.freeze(['full', 'reduced', 'slow', 'frozen', 'off']);
/** updateEvery of each simulated level; 0: not simulated. */
export const LEVEL_RATES = Object.freeze([1, 2, 4, 0, 0]);

/** The index of a level name (or index), checked. */
export function levelIndex(level, name) {
  const i = typeof level === 'number' ? level : LEVELS.indexOf(level);
  if (!Number.isInteger(i) || i < 0 || i >= LEVELS.length) fail(`${name} must be one of ${LEVELS.join(', ')} (got ${String(level)})`);
  return i;
}

/** The Wisp object behind a Rope, Cloth or Chain, or behind an adapter holding one (.rope, .cloth, .chain). */
export function simulatedObject(o, name) {
  const obj = o && (o.chain ?? o.rope ?? o.cloth ?? o);
  if (!obj || typeof obj.setEnabled !== 'function' || typeof obj.set !== 'function') {
    fail(`${name} must be a Rope, Cloth or Chain (or an adapter holding one as .rope, .cloth or .chain)`);
  }
  return obj;
}

/**
 * Puts `object` at level index `to` coming from `from` (-1: unknown): one set() call when the
 * rate changes, one setEnabled() when it starts or stops being simulated. Nothing when equal.
 */
export function applyLevel(object, from, to) {
  if (from === to) return;
  const rate = LEVEL_RATES[to];
  if (rate === 0) {
    if (from === -1 || LEVEL_RATES[from] !== 0) object.setEnabled(false);
    return;
  }
  if (from === -1 || LEVEL_RATES[from] !== rate) object.set({ updateEvery: rate });
  if (from === -1 || LEVEL_RATES[from] === 0) object.setEnabled(true);
}
