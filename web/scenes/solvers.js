// Verlet vs PBD vs XPBD: the same rope stepped by the textbook Verlet + relaxation of the classic
// tutorials, by Position Based Dynamics (stiffness per iteration) and by Wisp's XPBD (compliance),
// released from horizontal side by side. Change the iterations, the substeps or the simulation
// rate: the Verlet and PBD ropes change how stretchy they are; the XPBD rope keeps the stretch its
// compliance gives (α · tension), because XPBD's stiffness is a material property.
import { makeClassicRope, makeClassicBody, stepVerlet, stepPBD, classicPositions, classicVelocities } from '../teaching/classic-solvers.js';
import { StrainCloth, triangleEdges } from '../teaching/strain-cloth.js';
import { StrainTube } from '../teaching/strain-tube.js';
import { energies } from '../teaching/measures.js';

const LENGTH = 1.0, MASS_PER_LENGTH = 1.0, TOP = 1.75;  // m, kg/m (a heavy cord), m
const PINS = [-1.75, -0.7, 0.35];
const CLOTH_SIZE = 0.8, AREA_DENSITY = 1.0;  // m, kg/m² (a heavy canvas)

// Velocities of Wisp body `body` (n particles) into v, for the energy plot.
function wispVelocities(body, n, v) {
  for (let i = 0; i < n; i++) v.set(body.particle(i).velocity, 3 * i);
  return v;
}

// Three ropes (segments from params), pinned at their left end, released from horizontal.
function makeRopes(ctx, params) {
  const n = params.segments, restOf = () => LENGTH / n;
  const start = (x) => [x, TOP, 0], end = (x) => [x + LENGTH, TOP, 0];
  const verlet = makeClassicRope(start(PINS[0]), end(PINS[0]), n, MASS_PER_LENGTH);
  const pbd = makeClassicRope(start(PINS[1]), end(PINS[1]), n, MASS_PER_LENGTH);
  const xpbd = ctx.world.addRope({
    start: start(PINS[2]), end: end(PINS[2]), segments: n, pinned: [0], massPerLength: MASS_PER_LENGTH,
    stretchCompliance: params.compliance, damping: params.damping, drag: 0, tethers: false, bending: false, collide: false,
  });
  const v = new Float32Array(3 * (n + 1));
  const mass = new Float64Array(n + 1).fill(MASS_PER_LENGTH * LENGTH / n);
  mass[0] = 0;
  mass[n] *= 0.5;
  const bodies = [
    { name: 'Verlet', color: '#ffb36b', source: { positions: classicPositions(verlet) }, velocities: () => classicVelocities(verlet, v) },
    { name: 'PBD', color: '#7fc8ff', source: { positions: classicPositions(pbd) }, velocities: () => classicVelocities(pbd, v) },
    { name: 'XPBD', color: '#7fe0b0', source: xpbd, velocities: () => wispVelocities(xpbd, n + 1, v) },
  ];
  for (const b of bodies) {
    b.mass = mass;
    b.mesh = ctx.addObject(new StrainTube(b.source, restOf, { scale: 0.05 }));  // per-segment strain heat map
  }
  const expected = (g) => (100 * params.compliance * g * (MASS_PER_LENGTH * LENGTH - 0.5 * MASS_PER_LENGTH * LENGTH / n)) / (LENGTH / n);
  return { verlet, pbd, xpbd, bodies, expected };
}

// Three square sheets (CLOTH_SIZE m, resolution from params), hinged along their back edge,
// released from horizontal: the same points, triangles and masses for all three (Wisp's from a
// mesh, so its edges are these triangles' edges).
function makeCloths(ctx, params) {
  const r = Math.min(params.segments, 20), s = CLOTH_SIZE / r, n = (r + 1) * (r + 1);
  const grid = (x0) => {
    const pts = [];
    // hinged along its back edge (row 0, along x), lying toward the viewer: it swings down facing the camera
    for (let i = 0; i <= r; i++) for (let j = 0; j <= r; j++) pts.push(x0 + j * s, TOP, i * s);
    return pts;
  };
  const indices = [];
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < r; j++) {
      const a = i * (r + 1) + j, b = a + 1, c = a + r + 1, d = c + 1;
      indices.push(a, c, b, b, c, d);
    }
  }
  const edges = triangleEdges(indices);
  const pinned = [];
  for (let j = 0; j <= r; j++) pinned.push(j);
  const mass = new Float64Array(n);
  for (let t = 0; t < indices.length; t += 3) for (let k = 0; k < 3; k++) mass[indices[t + k]] += (AREA_DENSITY * s * s) / 6;  // 2 triangles per quad
  const verlet = makeClassicBody(grid(PINS[0]), mass, edges, pinned);
  const pbd = makeClassicBody(grid(PINS[1]), mass, edges, pinned);
  const xpbd = ctx.world.addCloth({
    mesh: { positions: grid(PINS[2]), indices }, pinned, areaDensity: AREA_DENSITY,
    stretchCompliance: params.clothCompliance, shearCompliance: params.clothCompliance, damping: params.damping,
    bending: false, tethers: false, collide: false, dragCoefficient: 0, liftCoefficient: 0,
  });
  // Wisp's particle order may differ from the input's (welding): draw and measure in its order
  const map = xpbd.vertexMap;
  const wispEdges = edges.map(([a, b]) => [map[a], map[b]]);
  const wispMass = new Float64Array(n);
  for (let i = 0; i < n; i++) wispMass[map[i]] = mass[i];
  const rest = edges.map(([a, b]) => Math.hypot(...[0, 1, 2].map((k) => verlet.x[3 * b + k] - verlet.x[3 * a + k])));
  const v = new Float32Array(3 * n);
  const free = (m, pins) => { const out = Float64Array.from(m); for (const i of pins) out[i] = 0; return out; };
  const bodies = [
    { name: 'Verlet', color: '#ffb36b', source: { positions: classicPositions(verlet) }, velocities: () => classicVelocities(verlet, v), mass: free(mass, pinned) },
    { name: 'PBD', color: '#7fc8ff', source: { positions: classicPositions(pbd) }, velocities: () => classicVelocities(pbd, v), mass: free(mass, pinned) },
    { name: 'XPBD', color: '#7fe0b0', source: xpbd, velocities: () => wispVelocities(xpbd, n, v), mass: free(wispMass, pinned.map((i) => map[i])) },
  ];
  bodies[0].mesh = ctx.addObject(new StrainCloth(bodies[0].source, indices, edges, rest));
  bodies[1].mesh = ctx.addObject(new StrainCloth(bodies[1].source, indices, edges, rest));
  bodies[2].mesh = ctx.addObject(new StrainCloth(xpbd, xpbd.indices, wispEdges, rest));
  return { verlet, pbd, xpbd, bodies, expected: null };
}

export default {
  name: 'solvers',
  title: 'Verlet vs PBD vs XPBD',
  description: 'Three heavy cords (or, with "compare on: cloth", three hinged sheets) released from horizontal; colour = each segment\'s or edge\'s strain. Left: textbook Verlet + relaxation: iterations are its stiffness, damping is per step. Middle: PBD, stiffness k per iteration (1 − (1 − k)ⁿ after n). Right: Wisp\'s XPBD, compliance α (m/N). Raise the substeps: PBD grows ever stiffer, XPBD settles on the stretch its compliance gives, α·T/L.',
  camera: { position: [0, 1.45, 4.3], target: [0, 1.45, 0] },
  promote: ['substeps', 'iterations'],
  params: {
    subject: { value: 'rope', options: ['rope', 'cloth'], label: 'compare on', rebuild: true, tip: 'Three ropes, or three square sheets hinged along one edge: the same points, edges and masses for all three solvers.' },
    rate: { field: 'WorldSettings.fixedDt', toField: (hz) => 1 / hz, value: 60, options: { '30 Hz': 30, '60 Hz': 60, '120 Hz': 120, '240 Hz': 240 }, label: 'simulation rate', tip: 'Fixed steps per second for all three solvers. The textbook Verlet rope steps once per fixed step; PBD and XPBD cut each step into the substeps.' },
    segments: { value: 20, min: 2, max: 60, step: 1, label: 'segments', rebuild: true, tip: 'Segments per rope (rebuilds). More segments need more iterations for Verlet and PBD to stay stiff.' },
    verletDamping: { value: 0.98, min: 0.9, max: 1, step: 0.001, label: 'Verlet damping (per step)', tip: 'The textbook rope keeps this fraction of its velocity every step: at 120 Hz it damps twice as much per second as at 60 Hz.' },
    pbdStiffness: { value: 0.5, min: 0.01, max: 1, step: 0.01, label: 'PBD stiffness k (per iteration)', tip: 'Fraction of each constraint\'s error removed per iteration (dimensionless); the effective stiffness depends on the iteration count.' },
    compliance: { field: 'RopeParams.stretchCompliance', value: 0.0005, min: 0, max: 0.005, step: 0.00001, label: 'XPBD rope compliance α (m/N)', tip: 'Inverse stiffness of each XPBD rope segment: stretch = α × tension. 0 = inextensible.' },
    clothCompliance: { field: ['ClothParams.stretchCompliance', 'ClothParams.shearCompliance'], value: 0.02, min: 0, max: 0.1, step: 0.0001, label: 'XPBD cloth compliance α (m/N)', tip: 'Inverse stiffness of each XPBD cloth edge (m/N). XPBD reaches the stretch it gives once α/h² outweighs the inverse mass of a particle (here from about 0.005 at 8 substeps).' },
    damping: { field: ['RopeParams.damping', 'ClothParams.damping'], value: 1, min: 0, max: 5, step: 0.01, label: 'PBD / XPBD damping (1/s)', tip: 'Velocity decay rate (1/s) of the PBD and XPBD ropes, independent of the rate.' },
  },

  create(ctx) {
    const { world, params } = ctx;
    world.set({ fixedDt: 1 / params.rate });
    const make = params.subject === 'cloth' ? makeCloths : makeRopes;
    const { verlet, pbd, xpbd, bodies, expected: expectedOf } = make(ctx, params);
    const labels = ['Verlet + relaxation', 'PBD (k per iteration)', 'XPBD (compliance α)'];
    bodies.forEach((b, i) => ctx.addLabel(labels[i], [PINS[i] + 0.5, TOP - 1.45, 0], b.color));
    const strain = ctx.addPlot('max strain (%)', bodies, { format: (v) => v.toFixed(2) });
    const energy = ctx.addPlot('energy (J, kinetic + potential)', bodies, { format: (v) => v.toFixed(3) });
    return { subject: params.subject, world, verlet, pbd, xpbd, ropes: bodies, expectedOf, expected: null, strain, energy, acc: 0, t: 0, setInfo: ctx.setInfo };
  },

  apply(state, params) {
    state.world.set({ fixedDt: 1 / params.rate });
    state.xpbd.set(state.subject === 'cloth'  // the built one: a changed subject rebuilds shortly
      ? { stretchCompliance: params.clothCompliance, shearCompliance: params.clothCompliance, damping: params.damping }
      : { stretchCompliance: params.compliance, damping: params.damping });
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
    for (const b of state.ropes) {
      b.mesh.update();
      strains.push(100 * b.mesh.maxStrain);
      const e = energies(b.source.positions, b.velocities(), b.mass, g);
      totals.push(e.kinetic + e.potential);
    }
    state.strain.push(state.t, ...strains);
    state.energy.push(state.t, ...totals);
    let text = `largest strain now: Verlet ${strains[0].toFixed(2)}%  PBD ${strains[1].toFixed(2)}%  XPBD ${strains[2].toFixed(2)}%`;
    if (state.expectedOf) {
      // at rest the top segment carries the weight below it: T = g (M - m0), strain α T / L
      state.expected = state.expectedOf(Math.hypot(...g));
      text += `\nXPBD at rest, top segment: α·T/L = ${state.expected.toFixed(2)}% (T: the weight below it)`;
    }
    state.setInfo(text);
  },


};
