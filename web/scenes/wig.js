// The anti-gravity wig: a few hundred strands of 9 joints on a scalp, with gravity turned up
// (gravity scale -1) so they rise, swaying in wind and turbulence. Drawn as shaded ribbons
// (hair-ribbons.js) from the chains' zero-copy position views.
import * as THREE from 'three';
import { HairRibbons } from './hair-ribbons.js';
import { chainParamSpecs, chainParams, makeHead } from './hair-common.js';

const JOINTS = 9;

export default {
  name: 'wig',
  title: 'Anti-gravity wig',
  description: 'Hundreds of spring-bone strands rising against gravity (gravity scale −1) from a moving head, in gusty wind. Every strand is a Wisp chain; the world solves them in parallel.',
  camera: { position: [1.4, 2.0, 1.9], target: [0, 1.75, 0] },
  worldDefaults: { windSpeed: 3, turbulence: 0.6, windAzimuth: 30 },
  params: {
    strands: { value: 240, min: 20, max: 600, step: 10, label: 'strands (rebuilds)', rebuild: true, tip: 'Number of spring-bone chains on the head (rebuilds).' },
    strandLength: { value: 0.32, min: 0.1, max: 0.6, step: 0.01, label: 'strand length (m, rebuilds)', rebuild: true, tip: 'Length of each strand (m, rebuilds).' },
    ...chainParamSpecs,
    motion: { ...chainParamSpecs.motion, value: 'turn' },
    gravityScale: { ...chainParamSpecs.gravityScale, value: -1 },
    stiffness: { ...chainParamSpecs.stiffness, value: 3 },
    radius: { ...chainParamSpecs.radius, value: 0.01 },
    debug: { ...chainParamSpecs.debug, label: 'show colliders', tip: 'Draws the head and shoulder colliders.' },
  },
  create(ctx) {
    const { world, params, root } = ctx;
    const head = makeHead(ctx, root);
    head.update(params, 0);
    const chains = [];
    const n = params.strands, seg = params.strandLength / (JOINTS - 1);
    const golden = Math.PI * (3 - Math.sqrt(5));
    for (let i = 0; i < n; i++) {
      // a Fibonacci spiral over the upper part of the head, strands leaving along the normal
      const y = 1 - (i + 0.5) / n * 0.85, r = Math.sqrt(1 - y * y), a = i * golden;
      const nrm = [r * Math.cos(a), y, r * Math.sin(a)];
      const start = [0.1 * nrm[0], 0.1 * nrm[1], 0.1 * nrm[2]];
      const joints = [{ position: start }];
      for (let k = 1; k < JOINTS; k++) joints.push({ position: [seg * nrm[0], seg * nrm[1], seg * nrm[2]] });
      const chain = world.addChain({ joints, position: head.head.position, rotation: head.head.quaternion, ...chainParams(params) });
      chains.push(chain);
    }
    // shaded ribbons (Kajiya-Kay), a colour per strand from a narrow band so the wig reads as one head of hair
    const colors = [];
    for (let i = 0; i < n; i++) colors.push(new THREE.Color().setHSL(0.76 + 0.08 * (((i * 37) % n) / n), 0.55, 0.55));
    const lines = new HairRibbons(n, JOINTS, colors, { width: 0.0035 });
    root.add(lines);
    const state = { head, chains, lines };
    this.afterStep(state);
    return state;
  },
  apply(state, params) {
    for (const c of state.chains) c.set(chainParams(params));
    state.head.apply(params);
  },
  update(state, time, dt, params) {
    state.head.update(params, time + dt);
    const h = state.head.head, b = state.head.body;
    for (const c of state.chains) {
      c.setRoot(h.position, h.quaternion);
      c.setSpace(b.position, b.quaternion);
    }
  },
  afterStep(state) {
    state.lines.update((s) => state.chains[s].positions);
  },
};
