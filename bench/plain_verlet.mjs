// The baseline: a plain-JavaScript Verlet rope as tutorials write it (position Verlet, then N
// relaxation passes of the distance constraints, Jakobsen 2001), on Float32Arrays. Same setup as
// the Wisp benchmarks: ropes pinned at particle 0, gravity, 1/60 s steps, 10 passes per step.
export class PlainVerletRopes {
  constructor(count, particles, segLen, passes = 10) {
    this.count = count;
    this.n = particles;
    this.rest = segLen;
    this.passes = passes;
    const total = count * particles;
    this.x = new Float32Array(total * 3);
    this.old = new Float32Array(total * 3);
    for (let k = 0; k < count; k++) {
      for (let i = 0; i < particles; i++) {
        const o = 3 * (k * particles + i);
        this.x[o] = i * segLen; this.x[o + 1] = 2; this.x[o + 2] = 0.01 * k;
      }
    }
    this.old.set(this.x);
  }

  step(dt = 1 / 60, damping = 0.1) {
    const { x, old, n, count, rest } = this;
    const g = -9.81 * dt * dt, keep = 1 - damping * dt;
    for (let k = 0; k < count; k++) {
      const base = k * n;
      for (let i = 1; i < n; i++) {  // particle 0 is pinned
        const o = 3 * (base + i);
        for (let c = 0; c < 3; c++) {
          const cur = x[o + c];
          x[o + c] = cur + (cur - old[o + c]) * keep + (c === 1 ? g : 0);
          old[o + c] = cur;
        }
      }
    }
    for (let pass = 0; pass < this.passes; pass++) {
      for (let k = 0; k < count; k++) {
        const base = k * n;
        for (let i = 0; i + 1 < n; i++) {
          const a = 3 * (base + i), b = a + 3;
          const dx = x[b] - x[a], dy = x[b + 1] - x[a + 1], dz = x[b + 2] - x[a + 2];
          const len = Math.sqrt(dx * dx + dy * dy + dz * dz) || 1e-9;
          const diff = (len - rest) / len;
          const wa = i === 0 ? 0 : 0.5, wb = i === 0 ? 1 : 0.5;
          x[a] += dx * diff * wa; x[a + 1] += dy * diff * wa; x[a + 2] += dz * diff * wa;
          x[b] -= dx * diff * wb; x[b + 1] -= dy * diff * wb; x[b + 2] -= dz * diff * wb;
        }
      }
    }
  }
}
