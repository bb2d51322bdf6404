// A cape on a body made of capsules, running around a circle: the cape is pinned to two
// shoulder anchors that move with the body, and trails behind from air drag.
import { clothParamSpecs, clothParams } from './cloth-common.js';

const BODY = [
  // [type, radius, halfHeight, local position, local rotation]
  ['capsule', 0.17, 0.22, [0, 1.25, 0], [0, 0, 0, 1]],              // torso
  ['sphere', 0.12, 0, [0, 1.72, 0], [0, 0, 0, 1]],                   // head
  ['capsule', 0.06, 0.25, [-0.27, 1.2, 0], [0, 0, 0.1305, 0.9914]],  // arms
  ['capsule', 0.06, 0.25, [0.27, 1.2, 0], [0, 0, -0.1305, 0.9914]],
  ['capsule', 0.08, 0.35, [-0.1, 0.5, 0], [0, 0, 0, 1]],             // legs
  ['capsule', 0.08, 0.35, [0.1, 0.5, 0], [0, 0, 0, 1]],
];

function rotateY(v, a) {
  const c = Math.cos(a), s = Math.sin(a);
  return [c * v[0] + s * v[2], v[1], -s * v[0] + c * v[2]];
}
function mulQuat(a, b) {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

const R = 1.8;  // m: radius of the running circle

// The body's pose at circle angle `a`: it faces along the path, its back (+z) against the motion.
function bodyPose(a, time) {
  const heading = a;  // rotates the back (+z) to (sin a, 0, cos a): against the velocity (-sin a, 0, -cos a)
  return {
    heading,
    q: [0, Math.sin(heading / 2), 0, Math.cos(heading / 2)],
    centre: [R * Math.cos(a), 0.04 * Math.abs(Math.sin(time * 8)), -R * Math.sin(a)],
  };
}
function place(pose, local) {
  const r = rotateY(local, pose.heading);
  return [pose.centre[0] + r[0], pose.centre[1] + r[1], pose.centre[2] + r[2]];
}

export default {
  name: 'cape',
  title: 'Cape',
  description: 'A cape pinned to the shoulders of a running, turning body of capsules. It trails from air drag and slides over the body colliders.',
  camera: { position: [0, 2.2, 5.5], target: [0, 1.0, 0] },
  params: {
    runSpeed: { value: 3, min: 0, max: 8, step: 0.1, label: 'run speed (m/s)', tip: 'Speed of the body running its circle (m/s).' },
    ...clothParamSpecs,
  },
  create(ctx) {
    const { world, params } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    const parts = BODY.map(([type, radius, halfHeight, position, rotation]) => ({
      local: position, rot: rotation,
      c: ctx.addCollider({ type, radius, halfHeight, position, rotation }),
    }));
    const rx = 16, ry = 22;
    // cape hangs behind the back (+z is the back before the body turns), top corners on the shoulders
    const cape = world.addCloth({
      grid: { width: 0.6, height: 1.1, resolutionX: rx, resolutionY: ry, position: [-0.3, 1.5, 0.2] },
      areaDensity: 0.5,  // kg/m²: a wool cape
      ...clothParams(params),
    });
    const shoulders = [[-0.3, 1.5, 0.2], [0.3, 1.5, 0.2]];
    const anchors = [];
    for (let i = 0; i <= rx; i++) {
      const u = i / rx;
      const local = [-0.3 + 0.6 * u, 1.5, 0.2 + 0.05 * Math.sin(Math.PI * u)];
      const a = world.addAnchor(local);
      cape.pin(i, a);
      anchors.push({ a, local });
    }
    ctx.addCloth(cape, { color: 0xa3262a });
    // start on the circle: move body, anchors and cape there at once (a sweep would drag the
    // cape through the body)
    const pose = bodyPose(0, 0);
    cape.teleport({ translation: pose.centre, rotation: pose.q, pivot: [0, 0, 0] });
    for (const { a, local } of anchors) a.teleport(place(pose, local));
    for (const p of parts) {
      const q = mulQuat(pose.q, p.rot);
      p.c.collider.setTransform(place(pose, p.local), q, { teleport: true });
      p.c.move(place(pose, p.local), q);
    }
    return { parts, anchors, cape, shoulders, cloths: [cape], angle: 0 };
  },
  apply(state, params) {
    for (const c of state.cloths) c.set(clothParams(params));
  },
  update(state, time, dt, params) {
    // run around the circle, facing along the path
    state.angle += (params.runSpeed / R) * dt;
    const pose = bodyPose(state.angle, time);
    for (const p of state.parts) p.c.move(place(pose, p.local), mulQuat(pose.q, p.rot));
    for (const { a, local } of state.anchors) a.setPosition(place(pose, local));
  },
};
