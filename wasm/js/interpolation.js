// Render interpolation (the world option `interpolate`): the outputs shown between the last two
// fixed steps, so a display faster than the fixed step (144 Hz over 60 Hz) moves every frame.
// The same arithmetic as the core's (core/src/output/interpolate.cpp: wisp's lerp, normalizeOr
// and nlerp in float32), written with Math.fround after every operation: a float32 +, -, *, / or
// sqrt done in float64 and rounded once gives the float32 result, so these give the core's bits.
// Output only: nothing here reaches the simulation. No allocation.
import { fail, num } from './args.js';

const f = Math.fround;
const TINY = f(1e-20);

/** Modes of an output array: points (x y z), unit vectors (x y z), unit quaternions (x y z w). */
export const POINTS = 0, UNIT_VECTORS = 1, ROTATIONS = 2;

/**
 * The weight of the current outputs at display time: the display lags the simulation by one
 * fixed step, so with `span` fixed steps between the previous and the current outputs (1 when the
 * display is faster than the step) alpha = (leftover + (span - 1) fixedDt) / (span fixedDt).
 */
export function renderAlpha(leftover, fixedDt, span) {
  const s = span < 1 ? 1 : span;
  const a = (leftover + (s - 1) * fixedDt) / (s * fixedDt);
  return f(a < 0 ? 0 : a > 1 ? 1 : a);
}

/** The argument of setAlpha (World and WorkerWorld), checked: a number in 0..1, on a world with `interpolate`. */
export function alphaArg(alpha, interpolating) {
  if (!interpolating) fail('setAlpha needs a world created with { interpolate: true }', 'unsupported');
  const a = num(alpha, 'alpha');
  if (!(a >= 0 && a <= 1)) fail(`alpha must be between 0 and 1 (got ${a})`, 'out-of-range');
  return a;
}

/**
 * Writes into `out` the outputs at alpha = at[0] between `prev` and `cur` (exactly prev at 0, cur
 * at 1). The weight comes in a Float64Array: a number passed to a function V8 does not inline is
 * boxed, one allocation per call.
 */
export function interpolate(mode, prev, cur, at, out) {
  // The core takes alpha as a float32: a weight that rounds to 0 or 1 (setAlpha(1 - 1e-9)) is an
  // endpoint there, and must be one here (a + (b - a) * 1 is not always b; nlerp at 1 may flip).
  const t = f(at[0]);
  if (!(t > 0)) { out.set(prev); return; }
  if (t >= 1) { out.set(cur); return; }
  if (mode === ROTATIONS) { nlerpAll(prev, cur, at, out); return; }
  const n = cur.length;
  for (let i = 0; i < n; i += 3) {
    // wisp's lerp: a + (b - a) * t
    const x = f(prev[i] + f(f(cur[i] - prev[i]) * t));
    const y = f(prev[i + 1] + f(f(cur[i + 1] - prev[i + 1]) * t));
    const z = f(prev[i + 2] + f(f(cur[i + 2] - prev[i + 2]) * t));
    if (mode === POINTS) { out[i] = x; out[i + 1] = y; out[i + 2] = z; continue; }
    // normalizeOr(v, cur): renormalised, cur where the lerp vanishes
    const l = f(Math.sqrt(f(f(f(x * x) + f(y * y)) + f(z * z))));
    if (l > TINY) {
      const s = f(1 / l);
      out[i] = f(x * s); out[i + 1] = f(y * s); out[i + 2] = f(z * s);
    } else {
      out[i] = cur[i]; out[i + 1] = cur[i + 1]; out[i + 2] = cur[i + 2];
    }
  }
}

// wisp's nlerp per quaternion: shortest arc, normalised (the weight in at[0], 0 < at[0] < 1).
function nlerpAll(prev, cur, at, out) {
  const n = cur.length, t = f(at[0]);
  const sa = f(1 - t);
  for (let i = 0; i < n; i += 4) {
    const ax = prev[i], ay = prev[i + 1], az = prev[i + 2], aw = prev[i + 3];
    const bx = cur[i], by = cur[i + 1], bz = cur[i + 2], bw = cur[i + 3];
    if (ax === bx && ay === by && az === bz && aw === bw) {
      out[i] = ax; out[i + 1] = ay; out[i + 2] = az; out[i + 3] = aw;
      continue;
    }
    const d = f(f(f(f(ax * bx) + f(ay * by)) + f(az * bz)) + f(aw * bw));
    const sb = d < 0 ? -t : t;
    const x = f(f(ax * sa) + f(bx * sb)), y = f(f(ay * sa) + f(by * sb));
    const z = f(f(az * sa) + f(bz * sb)), w = f(f(aw * sa) + f(bw * sb));
    const s = f(1 / f(Math.sqrt(f(f(f(f(x * x) + f(y * y)) + f(z * z)) + f(w * w)))));
    out[i] = f(x * s); out[i + 1] = f(y * s); out[i + 2] = f(z * s); out[i + 3] = f(w * s);
  }
}
