// The outputs of a worker world in three slots (a triple buffer): every output array of every
// object has a SharedArrayBuffer holding three copies of its floats, and one slot index names
// the same copy in all of them. At any time one slot is the page's (the front: what its arrays
// show), one the worker's (the back: where it writes the next step) and one in between (the
// newest step published, or the page's previous front). The worker publishes by exchanging back
// and middle; the page takes a new front by exchanging front and middle, only when the middle is
// newer (FRESH). Neither ever touches the other's slot, so the page reads the buffers in place,
// with no copy and no lock, and never sees part of a step.
//
// The control words (Int32Array over a SharedArrayBuffer): [MIDDLE] = middle slot | FRESH, then
// the step number each slot holds. The step report per slot (Float64Array): fixedSteps,
// droppedTime, leftover, alpha (the render weight, with interpolation).
export const SLOTS = 3;
export const MIDDLE = 0, FRESH = 4, REPORT = 4;
export const CONTROL_BYTES = 4 * (1 + SLOTS), REPORT_BYTES = 8 * REPORT * SLOTS;

/** Worker: publishes slot `back` (written, with its step number and report) as the newest; returns the slot to write next. */
export function publish(control, back, seq) {
  Atomics.store(control, 1 + back, seq);
  return Atomics.exchange(control, MIDDLE, back | FRESH) & 3;
}

/** Page: the newest published slot if there is one newer than `front` (which is given back), else `front`. */
export function acquire(control, front) {
  if ((Atomics.load(control, MIDDLE) & FRESH) === 0) return front;
  return Atomics.exchange(control, MIDDLE, front) & 3;
}

/** The step number slot `s` holds. */
export function stepOf(control, s) { return Atomics.load(control, 1 + s); }
