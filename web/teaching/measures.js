// What the teaching views measure, from positions alone (so Wisp's views and the classic JS
// solvers are measured the same way): strain of each segment, and energies.

/** Relative stretch |d| / L - 1 of each segment of a chain of points into `out`; returns the largest. */
export function segmentStrains(positions, restOf, out) {
  let worst = -Infinity;
  for (let i = 0, s = 0; i + 3 < positions.length; i += 3, s++) {
    const d = Math.hypot(positions[i + 3] - positions[i], positions[i + 4] - positions[i + 1], positions[i + 5] - positions[i + 2]);
    out[s] = d / restOf(s) - 1;
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
