// Substeps vs iterations, against closed-form answers: a pendulum (period 2π√(L/g), and the exact
// large-angle period) swinging next to a ghost integrated independently from θ'' = -(g/L) sin θ,
// and a rope hanging between two pins next to its analytic catenary. The errors are printed.
import * as THREE from 'three';
import { pendulumPeriodSmall, pendulumPeriod, catenary, catenaryDrop } from '../teaching/analytic.js';

const PIVOT = [-0.5, 2.2, 0];
const PINS_Y = 2.2, PINS_X = 0.95;

// The reference pendulum: θ'' = -(g/L) sin θ by RK4 with 1 ms steps (independent of the solver).
function advancePendulum(s, dt, g, L) {
  const f = (th) => (-g / L) * Math.sin(th);
  for (let t = 0; t < dt - 1e-12; ) {
    const h = Math.min(0.001, dt - t);
    const k1t = s.w, k1w = f(s.th);
    const k2t = s.w + 0.5 * h * k1w, k2w = f(s.th + 0.5 * h * k1t);
    const k3t = s.w + 0.5 * h * k2w, k3w = f(s.th + 0.5 * h * k2t);
    const k4t = s.w + h * k3w, k4w = f(s.th + h * k3t);
    s.th += (h / 6) * (k1t + 2 * k2t + 2 * k3t + k4t);
    s.w += (h / 6) * (k1w + 2 * k2w + 2 * k3w + k4w);
    t += h;
  }
}

export default {
  name: 'lab',
  title: 'Lab: pendulum and catenary',
  description: 'Left: a pendulum (one rope segment, no damping) and, in white, a reference integrated from θ″ = −(g/L) sin θ; the periods are printed with 2π√(L/g) and the exact large-angle period. Right: a rope between two pins settles onto its catenary y = a cosh(x/a) (dashed), with L = 2a sinh(D/2a). Try 1 substep × 8 iterations against 8 substeps × 1 iteration.',
  camera: { position: [0.3, 1.65, 4.3], target: [0.3, 1.65, 0] },
  promote: ['substeps', 'iterations'],
  params: {
    length: { value: 1, min: 0.2, max: 1.6, step: 0.01, label: 'pendulum length L (m)', rebuild: true, tip: 'Rod length (m): the period grows as √L.' },
    amplitude: { value: 60, min: 1, max: 170, step: 1, label: 'release angle θ0 (°)', rebuild: true, tip: 'Released at rest from this angle. Past ~20° the small-angle period 2π√(L/g) is too short; the exact period is 2π√(L/g) / AGM(1, cos(θ0/2)).' },
    span: { value: 1.2, min: 0.2, max: 1.6, step: 0.01, label: 'pin distance D (m)', rebuild: true, tip: 'Horizontal distance between the rope\'s two pins (m).' },
    ropeLength: { value: 1.6, min: 0.3, max: 3, step: 0.01, label: 'rope length (m)', rebuild: true, tip: 'Must exceed the pin distance; the sag follows from L = 2a sinh(D/2a).' },
    segments: { value: 40, min: 4, max: 100, step: 1, label: 'rope segments', rebuild: true, tip: 'A chain of point masses approaches the continuous catenary as segments grow.' },
  },

  create(ctx) {
    const { world, params, three } = ctx;
    const g = Math.hypot(params.gravityX, params.gravityY, params.gravityZ);
    const L = params.length, th0 = (params.amplitude * Math.PI) / 180;
    const bob = [PIVOT[0] + L * Math.sin(th0), PIVOT[1] - L * Math.cos(th0), 0];
    const pendulum = world.addRope({ start: PIVOT, end: bob, segments: 1, pinned: [0], damping: 0, drag: 0, tethers: false, collide: false, radius: 0.04 });
    ctx.addRope(pendulum, { radius: 0.012, color: 0xffb36b });
    const ghost = new three.Line(new three.BufferGeometry().setFromPoints([new three.Vector3(...PIVOT), new three.Vector3(...bob)]),
      new three.LineBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.8 }));
    ctx.addObject(ghost);

    const span = params.span, len = Math.max(params.ropeLength, span * 1.001), n = params.segments;
    const a = [PINS_X - span / 2, PINS_Y, 0], b = [PINS_X + span / 2, PINS_Y, 0];
    const cat = catenary(span, len);
    // start as a V of the right length (slack), then let it settle with some damping
    const drop = Math.sqrt(Math.max(0, (len / 2) ** 2 - (span / 2) ** 2));
    const points = [];
    for (let i = 0; i <= n; i++) {
      const u = i / n, v = 1 - Math.abs(2 * u - 1);
      points.push(a[0] + span * u, a[1] - drop * v, 0);
    }
    const rope = world.addRope({ points, pinned: [0, n], damping: 1.5, drag: 0, tethers: false, collide: false });
    ctx.addRope(rope, { radius: 0.01, color: 0x7fe0b0 });
    const curve = [];
    for (let i = 0; i <= 100; i++) {
      const x = -span / 2 + (span * i) / 100;
      curve.push(new three.Vector3(PINS_X + x, PINS_Y - catenaryDrop(cat, x), 0.03));
    }
    const analytic = new three.Line(new three.BufferGeometry().setFromPoints(curve), new three.LineDashedMaterial({ color: 0xffffff, dashSize: 0.03, gapSize: 0.02 }));
    analytic.computeLineDistances();
    ctx.addObject(analytic);
    ctx.addLabel('pendulum vs θ″ = −(g/L) sin θ', [PIVOT[0], PIVOT[1] - L - 0.25, 0], '#ffb36b');
    ctx.addLabel('rope vs catenary', [PINS_X, PINS_Y - cat.sag - 0.25, 0], '#7fe0b0');
    const angle = ctx.addPlot('angle θ (°): simulated, reference', [{ name: 'Wisp', color: '#ffb36b' }, { name: 'reference', color: '#ffffff' }], { format: (v) => v.toFixed(1) });
    return {
      setInfo: ctx.setInfo, pendulum, ghost, ref: { th: th0, w: 0 }, angle, rope, cat, span, n, g, L, th0, t: 0,
      swings: [], swingMax: 0, lastCrossing: null, lastRefCrossing: null, refPeriod: NaN, lastX: bob[0] - PIVOT[0], lastRefTh: th0,
      measured: { period: NaN, amplitude: th0, reference: NaN, small: pendulumPeriodSmall(L, g), exact: pendulumPeriod(L, g, th0), decay: NaN, sag: NaN, sagAnalytic: cat.sag, maxDeviation: NaN },
    };
  },

  // the timeline rewinds the reference pendulum and the measurements with the world
  snapshot(s) {
    const { ref, t, swings, swingMax, lastCrossing, lastRefCrossing, refPeriod, lastX, lastRefTh } = s;
    return { ref: { ...ref }, t, swings: [...swings], swingMax, lastCrossing, lastRefCrossing, refPeriod, lastX, lastRefTh };
  },
  restore(s, saved) {
    Object.assign(s, saved, { ref: { ...saved.ref }, swings: [...saved.swings] });
  },

  afterStep(state, params, dt) {
    const { L, g } = state;
    const t0 = state.t;
    state.t += dt;
    // simulated angle; period from successive upward zero crossings of x (linear in time between frames)
    const p = state.pendulum.positions;
    const x = p[3] - PIVOT[0], y = p[4] - PIVOT[1];
    const th = Math.atan2(x, -y);
    // a period ends at each upward zero crossing of x (interpolated in time); its amplitude is the
    // largest |θ| seen during it, and the exact period is the one for that amplitude
    state.swingMax = Math.max(state.swingMax, Math.abs(th));
    if (state.lastX < 0 && x >= 0) {
      const at = t0 + (dt * -state.lastX) / (x - state.lastX);
      if (state.lastCrossing !== null) state.swings.push({ period: at - state.lastCrossing, amplitude: state.swingMax });
      state.lastCrossing = at;
      state.swingMax = 0;
    }
    state.lastX = x;
    advancePendulum(state.ref, dt, g, L);
    if (state.lastRefTh < 0 && state.ref.th >= 0) {
      const at = t0 + (dt * -state.lastRefTh) / (state.ref.th - state.lastRefTh);
      if (state.lastRefCrossing !== null) state.refPeriod = at - state.lastRefCrossing;
      state.lastRefCrossing = at;
    }
    state.lastRefTh = state.ref.th;
    const pos = state.ghost.geometry.attributes.position;
    pos.setXYZ(1, PIVOT[0] + L * Math.sin(state.ref.th), PIVOT[1] - L * Math.cos(state.ref.th), 0);
    pos.needsUpdate = true;
    state.angle.push(state.t, (th * 180) / Math.PI, (state.ref.th * 180) / Math.PI);
    const m = state.measured, last = state.swings[state.swings.length - 1];
    if (last) {
      m.period = last.period;
      m.amplitude = last.amplitude;
      m.exact = pendulumPeriod(L, g, last.amplitude);
      m.small = pendulumPeriodSmall(L, g);
      m.decay = state.swings.length >= 2 ? 1 - last.amplitude / state.swings[state.swings.length - 2].amplitude : NaN;
    }
    m.reference = state.refPeriod;
    // the rope: sag at the middle and the largest vertical distance to the catenary
    const r = state.rope.positions;
    let dev = 0;
    for (let i = 0; i <= state.n; i++) {
      const xc = r[3 * i] - PINS_X;
      dev = Math.max(dev, Math.abs(PINS_Y - r[3 * i + 1] - catenaryDrop(state.cat, xc)));
    }
    let lowest = Infinity;
    for (let i = 0; i <= state.n; i++) lowest = Math.min(lowest, r[3 * i + 1]);
    m.sag = PINS_Y - lowest;
    m.maxDeviation = dev;
    const pct = (a, b) => `${a >= b ? '+' : ''}${(100 * (a / b - 1)).toFixed(2)}%`;
    const deg = (r) => `${((r * 180) / Math.PI).toFixed(1)}°`;
    state.info = (last
      ? `pendulum  last swing ${m.period.toFixed(4)} s at amplitude ${deg(m.amplitude)}\n` +
        `          exact for that amplitude ${m.exact.toFixed(4)} s (error ${pct(m.period, m.exact)})\n` +
        `          2π√(L/g) ${m.small.toFixed(4)} s (${pct(m.small, m.exact)}: the small-angle formula)\n` +
        `          amplitude lost per swing ${Number.isFinite(m.decay) ? `${(100 * m.decay).toFixed(3)}%` : '–'} (numerical damping: fewer with more substeps)\n`
      : 'pendulum  (timing the first swing)\n') +
      `catenary  sag ${(1000 * m.sag).toFixed(1)} mm, analytic ${(1000 * m.sagAnalytic).toFixed(1)} mm (${pct(m.sag, m.sagAnalytic)}), largest distance ${(1000 * dev).toFixed(1)} mm`;
    state.setInfo?.(state.info);
  },
};
