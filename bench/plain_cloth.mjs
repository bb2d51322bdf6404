// The plain-JavaScript cloth baseline, written the way the three.js cloth example is: particles
// as objects holding THREE.Vector3s, position Verlet with drag, constraints as [p1, p2, rest]
// relaxed in order. Same setup as the Wisp cloth benchmarks: N x N quads, top row pinned,
// structural + shear constraints, `passes` relaxation passes per 1/60 s step.
import { Vector3 } from 'three';

const DAMPING = 0.03;
const MASS = 0.1;

class Particle {
  constructor(x, y, z) {
    this.position = new Vector3(x, y, z);
    this.previous = new Vector3(x, y, z);
    this.original = new Vector3(x, y, z);
    this.a = new Vector3(0, 0, 0);
    this.invMass = 1 / MASS;
    this.tmp = new Vector3();
    this.tmp2 = new Vector3();
  }
  addForce(force) {
    this.a.add(this.tmp2.copy(force).multiplyScalar(this.invMass));
  }
  integrate(timesq) {
    const next = this.tmp.subVectors(this.position, this.previous);
    next.multiplyScalar(1 - DAMPING).add(this.position);
    next.add(this.a.multiplyScalar(timesq));
    this.tmp = this.previous;
    this.previous = this.position;
    this.position = next;
    this.a.set(0, 0, 0);
  }
}

const diff = new Vector3();
function satisfy(p1, p2, distance) {
  diff.subVectors(p2.position, p1.position);
  const current = diff.length();
  if (current === 0) return;
  const half = diff.multiplyScalar(1 - distance / current).multiplyScalar(0.5);
  p1.position.add(half);
  p2.position.sub(half);
}

export class PlainCloth {
  constructor(n, size = 1, passes = 10) {
    this.n = n;
    this.passes = passes;
    const w = n + 1;
    this.particles = [];
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) this.particles.push(new Particle((i / n) * size, 2 - (j / n) * size, 0));
    const at = (i, j) => this.particles[j * w + i];
    const rest = size / n, diag = rest * Math.SQRT2;
    this.constraints = [];
    for (let j = 0; j <= n; j++)
      for (let i = 0; i <= n; i++) {
        if (i < n) this.constraints.push([at(i, j), at(i + 1, j), rest]);
        if (j < n) this.constraints.push([at(i, j), at(i, j + 1), rest]);
        if (i < n && j < n) {
          this.constraints.push([at(i, j), at(i + 1, j + 1), diag]);
          this.constraints.push([at(i + 1, j), at(i, j + 1), diag]);
        }
      }
    this.pins = [];
    for (let i = 0; i <= n; i++) this.pins.push(at(i, 0));
    this.gravity = new Vector3(0, -9.81 * MASS, 0);
  }
  step(dt = 1 / 60) {
    for (const p of this.particles) {
      p.addForce(this.gravity);
      p.integrate(dt * dt);
    }
    for (let pass = 0; pass < this.passes; pass++) {
      for (const [a, b, d] of this.constraints) satisfy(a, b, d);
      for (const p of this.pins) {
        p.position.copy(p.original);
        p.previous.copy(p.original);
      }
    }
  }
}
