// Ropes and colliders: a rope hanging from a handle you can drag, a slack rope between two pins,
// and a sphere, a capsule and a box to drape them over.
function ropeParams(p) {
  return {
    damping: p.damping,
    drag: p.drag,
    stretchCompliance: p.stretchCompliance,
    bending: p.bending,
    bendCompliance: p.bendCompliance,
    radius: p.radius,
    yieldRatio: p.plasticYield > 0 ? 1 + p.plasticYield : 0,
    tethers: p.tethers,
  };
}

// Points of a rope of `length` hanging as a V between a and b (so it starts slack).
function slackPoints(a, b, length, segments) {
  const span = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
  const drop = Math.sqrt(Math.max(0, (length / 2) ** 2 - (span / 2) ** 2));
  const pts = [];
  for (let i = 0; i <= segments; i++) {
    const u = i / segments;
    const v = 1 - Math.abs(2 * u - 1);
    pts.push(a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u - drop * v, a[2] + (b[2] - a[2]) * u);
  }
  return pts;
}

export default {
  name: 'rope',
  title: 'Rope',
  description: 'XPBD ropes with colliders. Drag the yellow handle or any point; shift-click to cut. Try the substeps and iterations sliders to see how each stiffens the rope.',
  camera: { position: [0, 1.6, 4.2], target: [0, 1.0, 0] },
  params: {
    segments: { value: 40, min: 2, max: 400, step: 1, label: 'segments', rebuild: true, tip: 'Number of distance constraints along each rope (rebuilds the scene). More segments: smoother, costlier.' },
    damping: { field: 'RopeParams.damping', value: 0.2, min: 0, max: 5, step: 0.01, label: 'damping (1/s)', tip: 'Velocity decay rate (1/s): dv/dt = −damping·v. Independent of the frame rate.' },
    drag: { field: 'RopeParams.drag', value: 0.5, min: 0, max: 10, step: 0.01, label: 'air drag (1/s)', tip: 'Coupling to the air (1/s): relaxes particle velocity toward the wind; also damps in still air.' },
    stretchCompliance: { field: 'RopeParams.stretchCompliance', value: 0, min: 0, max: 0.01, step: 0.0001, label: 'stretch compliance (m/N)', tip: 'Inverse stiffness of each segment (XPBD α, m/N). 0 = inextensible; larger = elastic.' },
    bending: { field: 'RopeParams.bending', value: false, label: 'bending', tip: 'Adds bending resistance (a distance constraint across every other particle).' },
    bendCompliance: { field: 'RopeParams.bendCompliance', value: 0.001, min: 0, max: 0.1, step: 0.0001, label: 'bend compliance (m/N)', tip: 'Inverse stiffness of the bending constraints (m/N): small = stiff cable, large = limp string.' },
    radius: { field: 'RopeParams.radius', value: 0.02, min: 0.005, max: 0.1, step: 0.001, label: 'collision radius (m)', tip: 'Collision radius of each particle (m).' },
    plasticYield: { field: 'RopeParams.yieldRatio', toField: (y) => (y > 0 ? 1 + y : 0), value: 0, min: 0, max: 0.5, step: 0.01, label: 'plastic yield (0 = off)', tip: 'Past (1 + yield) × rest length a segment creeps longer and stays so (0 = purely elastic).' },
    tethers: { field: 'RopeParams.tethers', value: true, label: 'tethers to pins', tip: 'Each particle may not get further from its pin than its rest distance along the rope: stops stretch under fast motion.' },
    animate: { value: true, label: 'move the sphere', tip: 'The sphere moves back and forth through the ropes.' },
  },

  create(ctx) {
    const { world, params } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    const sphere = ctx.addCollider({ type: 'sphere', radius: 0.3, position: [0.2, 0.9, 0] });
    ctx.addCollider({ type: 'capsule', radius: 0.1, halfHeight: 0.45, position: [-0.7, 0.7, 0.1], rotation: [0.7071068, 0, 0, 0.7071068] });
    ctx.addCollider({ type: 'box', halfExtents: [0.3, 0.15, 0.3], position: [0.9, 0.15, 0.1], rotation: [0, 0.258819, 0, 0.9659258] });

    const handlePos = [-1.2, 2.0, 0];
    const anchor = world.addAnchor(handlePos);
    const swing = world.addRope({ start: handlePos, end: [1.2, 2.0, 0], segments: params.segments, ...ropeParams(params) });
    swing.pin(0, anchor);
    ctx.addHandle(anchor, handlePos);
    ctx.addRope(swing, { radius: 0.018, color: 0xff8a1f });

    const slack = world.addRope({
      points: slackPoints([-1.3, 1.5, -0.5], [1.3, 1.5, -0.5], 3.2, params.segments),
      pinned: [0, params.segments],
      ...ropeParams(params),
    });
    ctx.addRope(slack, { radius: 0.018, color: 0x3fc1c9 });
    return { sphere, ropes: [swing, slack] };
  },

  apply(state, params) {
    for (const r of state.ropes) if (!r.disposed) r.set(ropeParams(params));
  },

  update(state, time, dt, params) {
    const p = params ?? {};
    if (p.animate === false) return;
    state.sphere.move([0.2 + 0.7 * Math.sin(time * 1.3), 0.9, 0]);
  },
};
