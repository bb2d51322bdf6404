// What the teaching views measure, from positions alone (so Wisp's views and the classic JS
// solvers are measured the same way): strain of each segment, and energies.

/** Distance (m) between particles a and b of `p` (x y z per particle). */
export function pointDistance(p, a, b) {
  return Math.hypot(p[3 * b] - p[3 * a], p[3 * b + 1] - p[3 * a + 1], p[3 * b + 2] - p[3 * a + 2]);
}

/** Relative stretch |d| / L - 1 of each segment of a chain of points into `out`; returns the largest. */
export function segmentStrains(positions, restOf, out) {
  let worst = -Infinity;
  for (let s = 0; 3 * s + 3 < positions.length; s++) {
    out[s] = pointDistance(positions, s, s + 1) / restOf(s) - 1;
    if (out[s] > worst) worst = out[s];
  }
  return worst;
}

/**
 * Kinetic + gravitational potential energy (J) of point masses `mass` (kg; 0 = pinned, left
 * out) at `positions` (m) with `velocities` (m/s), x y z per particle; potential measured along
 * -g from the origin.
 */
export function energies(positions, velocities, mass, g) {
  let kinetic = 0, potential = 0;
  for (let i = 0; i < mass.length; i++) {
    const m = mass[i];
    if (!m) continue;
    const vx = velocities[3 * i], vy = velocities[3 * i + 1], vz = velocities[3 * i + 2];
    kinetic += 0.5 * m * (vx * vx + vy * vy + vz * vz);
    potential -= m * (g[0] * positions[3 * i] + g[1] * positions[3 * i + 1] + g[2] * positions[3 * i + 2]);
  }
  return { kinetic, potential };
}

/** The heat-map colour of a strain (blue compressed, white at rest, red at +scale or more) into out[o..o+2]. */
export function strainColor(strain, scale, out, o) {
  const u = Math.max(-1, Math.min(1, strain / scale));
  out[o] = u < 0 ? 1 + u : 1;
  out[o + 1] = 1 - Math.abs(u);
  out[o + 2] = u > 0 ? 1 - u : 1;
}
