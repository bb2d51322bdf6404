// Verlet vs PBD vs XPBD: the same rope stepped by the textbook Verlet + relaxation of the classic
// tutorials, by Position Based Dynamics (stiffness per iteration) and by Wisp's XPBD (compliance),
// released from horizontal side by side. Change the iterations, the substeps or the simulation
// rate: the Verlet and PBD ropes change how stretchy they are; the XPBD rope keeps the stretch its
// compliance gives (α · tension), because XPBD's stiffness is a material property.
import { makeClassicRope, stepVerlet, stepPBD, classicPositions, classicVelocities } from '../teaching/classic-rope.js';
import { StrainTube } from '../teaching/strain-tube.js';
import { energies } from '../teaching/measures.js';

const LENGTH = 1.0, MASS_PER_LENGTH = 1.0, TOP = 1.75;  // m, kg/m (a heavy cord), m
const PINS = [-1.75, -0.7, 0.35];

export default {
  name: 'solvers',
  title: 'Verlet vs PBD vs XPBD',
  description: 'Three heavy cords released from horizontal; colour = each segment\'s strain. Left: textbook Verlet + relaxation: iterations are its stiffness, damping is per step. Middle: PBD, stiffness k per iteration (1 − (1 − k)ⁿ after n). Right: Wisp\'s XPBD, compliance α (m/N). Raise the substeps: PBD grows ever stiffer, XPBD settles on the stretch its compliance gives, α·T/L.',
  camera: { position: [0, 1.45, 4.3], target: [0, 1.45, 0] },
  promote: ['substeps', 'iterations'],
  params: {
    rate: { value: 60, options: { '30 Hz': 30, '60 Hz': 60, '120 Hz': 120, '240 Hz': 240 }, label: 'simulation rate', tip: 'Fixed steps per second for all three solvers. The textbook Verlet rope steps once per fixed step; PBD and XPBD cut each step into the substeps.' },
    segments: { value: 20, min: 2, max: 60, step: 1, label: 'segments', rebuild: true, tip: 'Segments per rope (rebuilds). More segments need more iterations for Verlet and PBD to stay stiff.' },
    verletDamping: { value: 0.98, min: 0.9, max: 1, step: 0.001, label: 'Verlet damping (per step)', tip: 'The textbook rope keeps this fraction of its velocity every step: at 120 Hz it damps twice as much per second as at 60 Hz.' },
    pbdStiffness: { value: 0.5, min: 0.01, max: 1, step: 0.01, label: 'PBD stiffness k (per iteration)', tip: 'Fraction of each constraint\'s error removed per iteration (dimensionless); the effective stiffness depends on the iteration count.' },
    compliance: { value: 0.0005, min: 0, max: 0.005, step: 0.00001, label: 'XPBD compliance α (m/N)', tip: 'Inverse stiffness of each XPBD segment: stretch = α × tension. 0 = inextensible.' },
    damping: { value: 1, min: 0, max: 5, step: 0.01, label: 'PBD / XPBD damping (1/s)', tip: 'Velocity decay rate (1/s) of the PBD and XPBD ropes, independent of the rate.' },
  },

  create(ctx) {
    const { world, params } = ctx;
    world.set({ fixedDt: 1 / params.rate });
    const n = params.segments, restOf = () => LENGTH / n;
    const start = (x) => [x, TOP, 0], end = (x) => [x + LENGTH, TOP, 0];
    const verlet = makeClassicRope(start(PINS[0]), end(PINS[0]), n, MASS_PER_LENGTH, 0);
    const pbd = makeClassicRope(start(PINS[1]), end(PINS[1]), n, MASS_PER_LENGTH, 0);
    const xpbd = world.addRope({
      start: start(PINS[2]), end: end(PINS[2]), segments: n, pinned: [0], massPerLength: MASS_PER_LENGTH,
      stretchCompliance: params.compliance, damping: params.damping, drag: 0, tethers: false, bending: false, collide: false,
    });
    const v = new Float32Array(3 * (n + 1));
    const ropes = [
      { name: 'Verlet', color: '#ffb36b', source: { positions: classicPositions(verlet) }, velocities: () => classicVelocities(verlet, v) },
      { name: 'PBD', color: '#7fc8ff', source: { positions: classicPositions(pbd) }, velocities: () => classicVelocities(pbd, v) },
      { name: 'XPBD', color: '#7fe0b0', source: xpbd, velocities: () => {
        for (let i = 0; i <= n; i++) v.set(xpbd.particle(i).velocity, 3 * i);
        return v;
      } },
    ];
    const labels = ['Verlet + relaxation', 'PBD (k per iteration)', 'XPBD (compliance α)'];
    ropes.forEach((r, i) => {
      r.tube = ctx.addObject(new StrainTube(r.source, restOf, { scale: 0.05 }));
      ctx.addLabel(labels[i], [PINS[i] + 0.5, TOP - 1.45, 0], r.color);
      r.mass = new Float64Array(n + 1).fill(MASS_PER_LENGTH * LENGTH / n);
      r.mass[0] = 0;
      r.mass[n] *= 0.5;
    });
    const strain = ctx.addPlot('max strain (%)', ropes, { format: (v) => v.toFixed(2) });
    const energy = ctx.addPlot('energy (J, kinetic + potential)', ropes, { format: (v) => v.toFixed(3) });
    return { world, verlet, pbd, xpbd, ropes, strain, energy, acc: 0, t: 0, setInfo: ctx.setInfo };
  },

  apply(state, params) {
    state.world.set({ fixedDt: 1 / params.rate });
    state.xpbd.set({ stretchCompliance: params.compliance, damping: params.damping });
  },

  update(state, time, dt, params) {
    // the classic ropes take the same fixed steps as the world (which steps itself after this)
    const h = 1 / params.rate, g = [params.gravityX, params.gravityY, params.gravityZ];
    state.acc += Math.min(dt, 0.1);
    while (state.acc >= h - 1e-12) {
      stepVerlet(state.verlet, h, params.iterations, g, params.verletDamping);
      stepPBD(state.pbd, h, params.substeps, params.iterations, g, params.damping, params.pbdStiffness);
      state.acc -= h;
    }
    classicPositions(state.verlet);
    classicPositions(state.pbd);
  },

  // the timeline rewinds the classic ropes with the world
  snapshot(s) {
    return { t: s.t, acc: s.acc, ropes: [s.verlet, s.pbd].map((r) => ({ x: r.x.slice(), prev: r.prev.slice(), step: r.step })) };
  },
  restore(s, saved) {
    s.t = saved.t; s.acc = saved.acc;
    [s.verlet, s.pbd].forEach((r, i) => { r.x.set(saved.ropes[i].x); r.prev.set(saved.ropes[i].prev); r.step = saved.ropes[i].step; classicPositions(r); });
  },

  afterStep(state, params, dt) {
    const g = [params.gravityX, params.gravityY, params.gravityZ];
    state.t += dt;
    const strains = [], totals = [];
    for (const r of state.ropes) {
      r.tube.update();
      strains.push(100 * r.tube.maxStrain);
      const e = energies(r.source.positions, r.velocities(), r.mass, g);
      totals.push(e.kinetic + e.potential);
    }
    state.strain.push(state.t, ...strains);
    // at rest the top segment carries the weight below it: T = g (M - m0), strain α T / L
    const n = state.ropes[0].mass.length - 1, segment = LENGTH / n;
    const tension = Math.hypot(...g) * (MASS_PER_LENGTH * LENGTH - 0.5 * MASS_PER_LENGTH * segment);
    state.expected = (100 * params.compliance * tension) / segment;
    state.setInfo(`largest strain now: Verlet ${strains[0].toFixed(2)}%  PBD ${strains[1].toFixed(2)}%  XPBD ${strains[2].toFixed(2)}%\n` +
      `XPBD at rest, top segment: α·T/L = ${state.expected.toFixed(2)}% (T = ${tension.toFixed(2)} N, the weight below it)`);
    state.energy.push(state.t, ...totals);
  },

};
