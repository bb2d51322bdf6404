// A curtain of ropes in gusty wind with a sphere pushing through: many small objects, spread
// over the worker threads.
export default {
  name: 'curtain',
  title: 'Rope curtain',
  description: 'Hundreds of ropes pinned to a bar, in turbulent wind. Compare threads 1 and auto in the stats.',
  camera: { position: [0, 1.4, 4.8], target: [0, 1.2, 0] },
  worldDefaults: { windSpeed: 3, turbulence: 0.7, windAzimuth: 90 },
  params: {
    ropes: { value: 160, min: 10, max: 1000, step: 10, label: 'ropes', rebuild: true, tip: 'How many ropes hang from the bar (rebuilds the scene).' },
    segments: { value: 24, min: 2, max: 64, step: 1, label: 'segments per rope', rebuild: true, tip: 'Segments per rope (rebuilds the scene).' },
    damping: { field: 'RopeParams.damping', value: 0.3, min: 0, max: 5, step: 0.01, label: 'damping (1/s)', tip: 'Velocity decay rate (1/s): dv/dt = −damping·v.' },
    drag: { field: 'RopeParams.drag', value: 1.5, min: 0, max: 10, step: 0.01, label: 'air drag (1/s)', tip: 'Coupling to the air (1/s): how strongly the wind carries the ropes.' },
    animate: { value: true, label: 'move the sphere', tip: 'The sphere moves back and forth through the curtain.' },
  },

  create(ctx) {
    const { world, params } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    const sphere = ctx.addCollider({ type: 'sphere', radius: 0.35, position: [0, 1.1, 0.1] });
    // the bar the ropes hang from (drawn only: the ropes are pinned to it)
    const bar = new ctx.three.Mesh(new ctx.three.CylinderGeometry(0.025, 0.025, 3.5, 16), new ctx.three.MeshStandardMaterial({ color: 0xb8bec8, metalness: 0.8, roughness: 0.3 }));
    bar.rotation.z = Math.PI / 2;
    bar.position.set(0, 2.2 + 0.02, 0);
    ctx.addObject(bar);
    const ropes = [];
    const n = params.ropes;
    for (let k = 0; k < n; k++) {
      const x = -1.6 + (3.2 * k) / Math.max(1, n - 1);
      const rope = world.addRope({
        start: [x, 2.2, 0], end: [x, 0.6, 0], segments: params.segments, pinned: [0],
        radius: 0.012, damping: params.damping, drag: params.drag,
      });
      ropes.push(rope);
      ctx.addRope(rope, { radius: 0.008, sides: 5, color: k % 2 ? 0xe86f4a : 0xf2a541 });
    }
    return { sphere, ropes };
  },

  apply(state, params) {
    for (const r of state.ropes) if (!r.disposed) r.set({ damping: params.damping, drag: params.drag });
  },

  update(state, time, dt, params) {
    if (params && params.animate === false) return;
    state.sphere.move([1.3 * Math.sin(time * 0.8), 1.1, 0.1]);
  },
};
