// The two classic position-based solvers, in plain JavaScript, for the teaching scenes: they
// run next to Wisp's XPBD rope or cloth so a learner can see what XPBD changed. They are not part of the
// library (the core implements only XPBD, the one of the three whose stiffness is a material
// property); they live here, short and readable, next to the text that explains them.
//
// Both move particles joined by distance constraints C = |x_a - x_b| - L = 0 (L in m, the
// distance as built), some particles pinned, under gravity g (m/s²).

/**
 * A body of particles at `points` (x y z each) with masses `mass` (kg), joined by `edges`
 * ([a, b] pairs, rest length as built); `pinned` particles do not move.
 */
export function makeClassicBody(points, mass, edges, pinned) {
  const n = points.length / 3;
  const x = Float64Array.from(points), prev = Float64Array.from(points);
  const invMass = new Float64Array(n), free = new Float64Array(n);
  for (let i = 0; i < n; i++) { invMass[i] = 1 / mass[i]; free[i] = 1; }
  for (const i of pinned) { invMass[i] = 0; free[i] = 0; }
  const a = Int32Array.from(edges, (e) => e[0]), b = Int32Array.from(edges, (e) => e[1]);
  const rest = Float64Array.from(edges, ([i, j]) => Math.hypot(x[3 * j] - x[3 * i], x[3 * j + 1] - x[3 * i + 1], x[3 * j + 2] - x[3 * i + 2]));
  return { n, x, prev, invMass, free, a, b, rest, step: 0, positions: new Float32Array(3 * n) };
}

/** A rope of `segments` segments from `start` to `end`, particle 0 pinned, massPerLength kg/m. */
export function makeClassicRope(start, end, segments, massPerLength) {
  const points = [], mass = [], edges = [];
  const len = Math.hypot(end[0] - start[0], end[1] - start[1], end[2] - start[2]) / segments;
  for (let i = 0; i <= segments; i++) {
    for (let k = 0; k < 3; k++) points.push(start[k] + ((end[k] - start[k]) * i) / segments);
    mass.push(massPerLength * len * (i === 0 || i === segments ? 0.5 : 1));
    if (i < segments) edges.push([i, i + 1]);
  }
  return makeClassicBody(points, mass, edges, [0]);
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

// `iterations` Gauss-Seidel passes over the edges; each moves its two particles along their
// difference by the fraction k of the error, shared by the weights w (inverse masses, or 1/0).
function relax(body, w, k, iterations) {
  const { x, rest } = body;
  for (let it = 0; it < iterations; it++) {
    for (let e = 0; e < rest.length; e++) {
      const a = body.a[e], b = body.b[e];
      const dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
      const d = Math.hypot(dx, dy, dz), wsum = w[a] + w[b];
      if (d === 0 || wsum === 0) continue;
      const s = (k * (d - rest[e])) / (d * wsum);
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
