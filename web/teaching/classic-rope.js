// The two classic position-based rope solvers, in plain JavaScript, for the teaching scenes: they
// run next to Wisp's XPBD rope so a learner can see what XPBD changed. They are not part of the
// library (the core implements only XPBD, the one of the three whose stiffness is a material
// property); they live here, short and readable, next to the text that explains them.
//
// Both move a chain of particles joined by distance constraints C = |x_i - x_{i+1}| - L = 0
// (L in m), particle 0 pinned, under gravity g (m/s²).

/** A rope of segments + 1 particles from `start` to `end`, particle 0 pinned; the last carries `tipMass` extra (kg). */
export function makeClassicRope(start, end, segments, massPerLength, tipMass) {
  const n = segments + 1;
  const x = new Float64Array(3 * n), prev = new Float64Array(3 * n);
  const invMass = new Float64Array(n), free = new Float64Array(n);
  const rest = Math.hypot(end[0] - start[0], end[1] - start[1], end[2] - start[2]) / segments;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) x[3 * i + k] = prev[3 * i + k] = start[k] + ((end[k] - start[k]) * i) / segments;
    const m = massPerLength * rest * (i === 0 || i === n - 1 ? 0.5 : 1) + (i === n - 1 ? tipMass : 0);
    invMass[i] = i === 0 ? 0 : 1 / m;
    free[i] = i === 0 ? 0 : 1;
  }
  return { n, x, prev, invMass, free, rest, step: 0, positions: new Float32Array(3 * n) };
}

// Position Verlet: x' = x + (x - x_prev) keep + g s²; the velocity is implicit in x - x_prev.
function integrate(rope, s, keep, g) {
  const { n, x, prev, free } = rope;
  for (let i = 0; i < n; i++) {
    if (!free[i]) continue;
    for (let k = 0; k < 3; k++) {
      const xi = x[3 * i + k];
      x[3 * i + k] = xi + (xi - prev[3 * i + k]) * keep + g[k] * s * s;
      prev[3 * i + k] = xi;
    }
  }
}

// `iterations` Gauss-Seidel passes over the segments; each moves its two particles along their
// difference by the fraction k of the error, shared by the weights w (inverse masses, or 1/0).
function relax(rope, w, k, iterations) {
  const { n, x, rest } = rope;
  for (let it = 0; it < iterations; it++) {
    for (let a = 0, b = 1; b < n; a++, b++) {
      const dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
      const d = Math.hypot(dx, dy, dz), wsum = w[a] + w[b];
      if (d === 0 || wsum === 0) continue;
      const s = (k * (d - rest)) / (d * wsum);
      x[3 * a] += w[a] * s * dx; x[3 * a + 1] += w[a] * s * dy; x[3 * a + 2] += w[a] * s * dz;
      x[3 * b] -= w[b] * s * dx; x[3 * b + 1] -= w[b] * s * dy; x[3 * b + 2] -= w[b] * s * dz;
    }
  }
}

/**
 * The textbook Verlet rope (Jakobsen, "Advanced Character Physics", 2001; the classic Unity rope
 * tutorials): one Verlet step per fixed update, velocity kept × `dampingPerStep` (e.g. 0.98), then
 * every stick pushed fully back to its length, `iterations` times, moving both ends equally
 * whatever their masses. The stiffness is a side effect of the iteration count (each pass
 * disturbs the neighbours), and the damping is per step, so both change with the update rate.
 */
export function stepVerlet(rope, h, iterations, g, dampingPerStep) {
  rope.step = h;
  integrate(rope, h, dampingPerStep, g);
  relax(rope, rope.free, 1, iterations);
}

/**
 * Position Based Dynamics (Müller et al. 2007): the same Verlet prediction, with damping per
 * second (keep = 1 - damping·s), `substeps` per step, and each constraint moved by a stiffness
 * k in [0, 1] per iteration, shared by inverse mass. After n iterations the error shrinks by
 * (1 - k)^n, so the effective stiffness 1 - (1 - k)^n depends on the iteration count and the
 * step size. XPBD replaces k by a compliance α (m/N), scaled by 1/s², which makes stiffness a
 * property of the material (Macklin et al. 2016).
 */
export function stepPBD(rope, h, substeps, iterations, g, damping, k) {
  const s = h / substeps;
  rope.step = s;
  for (let sub = 0; sub < substeps; sub++) {
    integrate(rope, s, Math.max(0, 1 - damping * s), g);
    relax(rope, rope.invMass, k, iterations);
  }
}

/** The positions as float32 (x y z per particle), for drawing and for the same measures as Wisp's views. */
export function classicPositions(rope) {
  rope.positions.set(rope.x);
  return rope.positions;
}

/** Velocities (m/s, x y z per particle) into `out`: (x - x_prev) / the last (sub)step. */
export function classicVelocities(rope, out) {
  for (let i = 0; i < out.length; i++) out[i] = rope.step ? (rope.x[i] - rope.prev[i]) / rope.step : 0;
  return out;
}
