// The outputs of a worker world in three slots (a triple buffer): every output array of every
// object has a SharedArrayBuffer holding three copies of its floats, and one slot index names
// the same copy in all of them. At any time one slot is the page's (the front: what its arrays
// show), one the worker's (the back: where it writes the next step) and one in between (the
// newest step published, or the page's previous front). The worker publishes by exchanging back
// and middle; the page takes a new front by exchanging front and middle, only when the middle is
// newer (FRESH). Neither ever touches the other's slot, so the page reads the buffers in place,
// with no copy and no lock, and never sees part of a step.
//
// The control words (Int32Array over a SharedArrayBuffer): [MIDDLE] = middle slot | FRESH | the
// low 24 bits of its step number << 3 (so that a word seen twice is the same publication, see
// acquireBefore), then the step number each slot holds. The step report per slot (Float64Array): fixedSteps,
// droppedTime, leftover, alpha (the render weight, with interpolation).
export const SLOTS = 3;
export const MIDDLE = 0, FRESH = 4, REPORT = 4;
export const CONTROL_BYTES = 4 * (1 + SLOTS), REPORT_BYTES = 8 * REPORT * SLOTS;
const SEQ_BITS = 0xFFFFFF;

/** Worker: publishes slot `back` (written, with its step number and report) as the newest; returns the slot to write next. */
export function publish(control, back, seq) {
  Atomics.store(control, 1 + back, seq);
  return Atomics.exchange(control, MIDDLE, back | FRESH | ((seq & SEQ_BITS) << 3)) & 3;
}

/** Page: the newest published slot if there is one newer than `front` (which is given back), else `front`. */
export function acquire(control, front) {
  if ((Atomics.load(control, MIDDLE) & FRESH) === 0) return front;
  return Atomics.exchange(control, MIDDLE, front) & 3;
}

/**
 * Page: as acquire, but only a step before `limit`; a newer one stays in the middle (the page
 * keeps its front). Taken with a compare-and-swap on the word read, so the step checked is the
 * step taken: the worker rewrites a slot only after taking it back from the middle, which
 * changes the word (its step bits are new with every publication).
 */
export function acquireBefore(control, front, limit) {
  for (;;) {
    const m = Atomics.load(control, MIDDLE);
    if ((m & FRESH) === 0) return front;
    const s = m & 3, step = stepOf(control, s);
    if (((step & SEQ_BITS) << 3) !== (m & ~7)) continue;  // published again since the word was read
    if (step >= limit) return front;
    if (Atomics.compareExchange(control, MIDDLE, m, front) === m) return s;
  }
}

/** The step number slot `s` holds. */
export function stepOf(control, s) { return Atomics.load(control, 1 + s); }
