// Closed-form results the teaching scenes draw next to the simulation.

/** Small-angle period of a simple pendulum (s): T0 = 2π √(L / g), L in m, g in m/s². */
export function pendulumPeriodSmall(length, g) {
  return 2 * Math.PI * Math.sqrt(length / g);
}

/**
 * Exact period of a simple pendulum released at rest from amplitude θ0 (rad):
 * T = T0 / AGM(1, cos(θ0 / 2)), with AGM the arithmetic-geometric mean (the complete elliptic
 * integral K(sin(θ0/2)) = π / (2 AGM(1, cos(θ0/2)))).
 */
export function pendulumPeriod(length, g, theta0) {
  let a = 1, b = Math.cos(theta0 / 2);
  for (let i = 0; i < 30 && Math.abs(a - b) > 1e-15; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return pendulumPeriodSmall(length, g) / a;
}

/**
 * The catenary through two pins at the same height, `span` m apart, of length `length` m (>
 * span): y(x) = a cosh(x / a) - a (x from the middle, y up from the lowest point), where a solves
 * length = 2 a sinh(span / (2 a)) (bisection on a). Returns { a, sag }: sag = a cosh(span / 2a) - a.
 */
export function catenary(span, length) {
  if (!(length > span)) return { a: Infinity, sag: 0 };
  const f = (a) => 2 * a * Math.sinh(span / (2 * a)) - length;  // decreasing in a
  let lo = span * 1e-3, hi = span * 1e3;
  for (let i = 0; i < 200; i++) {
    const mid = 0.5 * (lo + hi);
    if (!Number.isFinite(f(mid)) || f(mid) > 0) lo = mid; else hi = mid;
  }
  const a = 0.5 * (lo + hi);
  return { a, sag: a * Math.cosh(span / (2 * a)) - a };
}

/** Height below the pins of the catenary { a, sag } at horizontal offset x from the middle (m). */
export function catenaryDrop(cat, x) {
  return cat.sag - (cat.a * Math.cosh(x / cat.a) - cat.a);
}
