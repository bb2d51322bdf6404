// A tablecloth dropping onto a table (box) with a ball on it.
import { clothParamSpecs, clothParams } from './cloth-common.js';

export default {
  name: 'tablecloth',
  title: 'Tablecloth',
  description: 'A cloth falls onto a table and a ball and drapes over them: box and sphere collisions with a vertex thickness and friction.',
  camera: { position: [2.2, 2.0, 2.6], target: [0, 0.7, 0] },
  params: {
    resolution: { value: 40, min: 8, max: 100, step: 1, label: 'resolution (quads)', rebuild: true, tip: 'Quads along each side of the cloth (rebuilds the scene).' },
    ...clothParamSpecs,
  },
  create(ctx) {
    const { world, params } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    ctx.addCollider({ type: 'box', halfExtents: [0.6, 0.04, 0.4], position: [0, 0.75, 0] });
    for (const [x, z] of [[-0.5, -0.3], [0.5, -0.3], [-0.5, 0.3], [0.5, 0.3]]) {
      ctx.addCollider({ type: 'capsule', radius: 0.03, halfHeight: 0.36, position: [x, 0.36, z] });
    }
    ctx.addCollider({ type: 'sphere', radius: 0.15, position: [0.2, 0.94, 0.05] });
    const r = params.resolution;
    const cloth = world.addCloth({
      // lying flat: the grid's XY plane turned to XZ
      grid: { width: 1.8, height: 1.8, resolutionX: r, resolutionY: r, position: [-0.9, 1.3, -0.9], rotation: [-0.7071068, 0, 0, 0.7071068] },
      ...clothParams(params),
    });
    ctx.addCloth(cloth, { color: 0xe8e2d0 });
    return { cloths: [cloth] };
  },
  apply(state, params) {
    for (const c of state.cloths) c.set(clothParams(params));
  },
};
