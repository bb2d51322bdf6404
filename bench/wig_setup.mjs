// The anti-gravity wig at scale, for bench/chain_bench.mjs and bench/ab.mjs: the setup of
// bench/native_bench.cpp's BM_Wig2000x16 (web/scenes/wig.js with 2,000 strands x 16 joints).
// Target (issue 15): under 4 ms per frame on 2 threads.
import * as THREE from 'three';

export const WIG = { strands: 2000, joints: 16, length: 0.32 };
const WIG_PARTS = [
  { local: [0, 0, 0], rot: [0, 0, 0, 1], def: { type: 'sphere', radius: 0.105 } },
  { local: [-0.14, -0.27, -0.01], rot: [0, 0, 0.7071068, 0.7071068], def: { type: 'capsule', radius: 0.07, radiusTop: 0.055, halfHeight: 0.12 } },
  { local: [0.14, -0.27, -0.01], rot: [0, 0, -0.7071068, 0.7071068], def: { type: 'capsule', radius: 0.07, radiusTop: 0.055, halfHeight: 0.12 } },
  { local: [0, -0.45, 0], rot: [0, 0, 0, 1], def: { type: 'capsule', radius: 0.13, radiusTop: 0.16, halfHeight: 0.14 } },
];
const wigHead = (f) => { const a = 1.3 * Math.sin(3 * f / 60); return { p: [0, 1.6, 0], q: [0, Math.sin(a / 2), 0, Math.cos(a / 2)] }; };
export function wig(wisp, threads) {
  const world = wisp.createWorld({ threads });
  const colliders = WIG_PARTS.map((part) => world.addCollider(part.def));
  const chains = [], seg = WIG.length / (WIG.joints - 1), golden = Math.PI * (3 - Math.sqrt(5)), h0 = wigHead(0);
  for (let i = 0; i < WIG.strands; i++) {
    const y = 1 - (i + 0.5) / WIG.strands * 0.85, r = Math.sqrt(1 - y * y), a = i * golden;
    const n = [r * Math.cos(a), y, r * Math.sin(a)];
    const joints = [{ position: n.map((c) => 0.1 * c) }];
    for (let k = 1; k < WIG.joints; k++) joints.push({ position: n.map((c) => seg * c) });
    chains.push(world.addChain({ joints, position: h0.p, rotation: h0.q, stiffness: 3, elasticity: 0.3, damping: 2, inertia: 0.2, gravityScale: -1, radius: 0.01 }));
  }
  const q = new THREE.Quaternion(), lq = new THREE.Quaternion(), v = new THREE.Vector3();
  return {
    frame(f) {
      const { p, q: r } = wigHead(f);
      q.set(r[0], r[1], r[2], r[3]);
      WIG_PARTS.forEach((part, k) => {
        v.set(part.local[0], part.local[1], part.local[2]).applyQuaternion(q);
        lq.set(part.rot[0], part.rot[1], part.rot[2], part.rot[3]).premultiply(q);
        colliders[k].setTransform([p[0] + v.x, p[1] + v.y, p[2] + v.z], [lq.x, lq.y, lq.z, lq.w]);
      });
      for (const c of chains) c.setRoot(p, r);
      world.step(1 / 60);
    },
    // mean height of the strands' tips above the head centre (m): > 0 when they rise
    tipHeight() {
      let sum = 0;
      for (const c of chains) sum += c.positions[3 * (WIG.joints - 1) + 1] - 1.6;
      return sum / chains.length;
    },
    dispose() { world.dispose(); },
  };
}
