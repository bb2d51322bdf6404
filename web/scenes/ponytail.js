// A ponytail and twin tails on a head that nods, turns, runs and jumps, with head and shoulder
// colliders. The strands are SkinnedMeshes; the three.js adapter writes each step's bone
// rotations into their skeletons.
import * as THREE from 'three';
import { chainParamSpecs, chainParams, makeHead, skinnedStrand, ChainDebug, restOf } from './hair-common.js';

// bone offsets, each in its parent's frame (the first in the head's)
function tail(start, step, count) {
  const out = [start];
  for (let k = 1; k < count; k++) out.push(step);
  return out;
}
const STRANDS = [
  { offsets: tail([0, 0.06, -0.11], [0, -0.055, -0.012], 9), radius: 0.032, tip: 0.01 },                 // ponytail
  { offsets: tail([-0.1, 0.03, -0.02], [-0.012, -0.05, -0.006], 8), radius: 0.02, tip: 0.006 },          // twin tails
  { offsets: tail([0.1, 0.03, -0.02], [0.012, -0.05, -0.006], 8), radius: 0.02, tip: 0.006 },
];

export default {
  name: 'ponytail',
  title: 'Ponytail',
  description: 'Spring-bone chains on an animated head: a ponytail and twin tails (skinned meshes driven through the three.js adapter) against head and tapered shoulder colliders. Try the motions, stiffness, inertia and the limit angle; debug shows joints, radii, cone axes and colliders.',
  camera: { position: [1.6, 2.0, 2.2], target: [0, 1.5, 0] },
  params: {
    ...chainParamSpecs,
    endLength: { value: 0.04, min: 0, max: 0.15, step: 0.005, label: 'end length (m, rebuilds)', rebuild: true, tip: 'Length of the extra bone past the last joint (m): where the tip swings (rebuilds).' },
  },
  create(ctx) {
    const { world, params, root } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    const head = makeHead(ctx, root);
    head.update(params, 0);
    const strands = STRANDS.map((s) => {
      const strand = skinnedStrand(world, head.head, s.offsets, chainParams(params), { radius: s.radius, tipRadius: s.tip, endLength: params.endLength });
      root.add(strand.mesh);
      return { ...strand, rest: restOf(s.offsets, head.head.quaternion) };
    });
    const debug = new ChainDebug(64);
    root.add(debug);
    return { head, strands, debug, chains: strands.map((s) => s.rig.chain) };
  },
  apply(state, params) {
    for (const s of state.strands) s.rig.chain.set(chainParams(params));
    state.head.apply(params);
    state.debug.visible = params.debug;
  },
  update(state, time, dt, params) {
    state.head.update(params, time + dt);
    const b = state.head.body;
    for (const s of state.strands) {
      s.rig.chain.setSpace(b.position, b.quaternion);
      s.rig.beforeStep();
    }
  },
  afterStep(state, params) {
    for (const s of state.strands) s.rig.afterStep();
    if (params.debug) {
      state.debug.update(state.strands.map((s) => ({ chain: s.rig.chain, rest: s.rest })),
        (j, n) => params.radius * (1 + (params.radiusTip - 1) * (j / (n - 1))), (params.limitAngle * Math.PI) / 180);
    }
  },
};
