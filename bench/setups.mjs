// The Wisp worlds the Node benchmarks build, in one place so that each setup is written once:
// ropes and cloth (bench/wasm_bench.mjs), chains (bench/chain_bench.mjs, bench/chain_threads.mjs)
// and the anti-gravity wig (chain_bench.mjs); makeSetup, at the end, names them for bench/ab.mjs
// and bench/instructions.mjs.
import * as THREE from 'three';

// `setup.count` ropes of `setup.particles` particles, 1 m long, pinned at particle 0, released
// from horizontal; 10 substeps x 1 iteration. world.firstRope: the first of them.
export function ropeWorld(wisp, setup, threads) {
  const world = wisp.createWorld({ substeps: 10, iterations: 1, threads });
  const seg = 1 / (setup.particles - 1);
  for (let k = 0; k < setup.count; k++) {
    const rope = world.addRope({ start: [0, 2, 0.01 * k], end: [(setup.particles - 1) * seg, 2, 0.01 * k], segments: setup.particles - 1, pinned: [0] });
    if (k === 0) world.firstRope = rope;
  }
  return world;
}
// An n x n cloth of 1 m, top row pinned, bending, tethers and aerodynamics off; 10 substeps x 1
// iteration. world.cloth: the cloth.
export function clothWorld(wisp, n, threads) {
  const world = wisp.createWorld({ substeps: 10, iterations: 1, threads });
  world.cloth = world.addCloth({ grid: { width: 1, height: 1, resolutionX: n, resolutionY: n, position: [0, 2, 0] }, pinned: [...Array(n + 1).keys()], bending: false, tethers: false, dragCoefficient: 0, liftCoefficient: 0 });
  return world;
}

// Chains: 8 joints hanging back from a head, chain c 1 cm to the side of chain c - 1; the VRM
// rule's parameters as three-vrm and the plain-JS port take them; 4 sphere colliders on the head.
export const JOINTS = 8;
export const OFFSETS = [[0, 0.05, -0.12], ...Array.from({ length: JOINTS - 1 }, () => [0, -0.05, -0.01])];
export const SPHERES = [[0, 0, 0, 0.1], [0, -0.25, -0.05, 0.08], [-0.12, -0.3, 0, 0.06], [0.12, -0.3, 0, 0.06]];
export const VRM = { stiffness: 1, drag: 0.4, gravityPower: 0.5, hitRadius: 0.02 };
// Chain c's definition, rooted at [0, 1.6, 0]: the VRM rule (mode 'vrm') or Wisp's own. Chain c
// starts 1 cm to the side of chain c - 1 (a row 10 m long for 1000 chains, most of it out of the
// spheres' reach), or, `near`, in a 10 x 100 grid 1 cm by 1 mm wide behind the head, where every
// chain meets the spheres.
export function chainDef(c, mode, near = false) {
  const first = near ? [OFFSETS[0][0] + 0.01 * (c % 10) - 0.05, OFFSETS[0][1], OFFSETS[0][2] - 0.001 * Math.floor(c / 10)]
    : [OFFSETS[0][0] + 0.01 * c, OFFSETS[0][1], OFFSETS[0][2]];
  const joints = OFFSETS.map((o, j) => ({ position: j === 0 ? first : o }));
  const params = mode === 'vrm'
    ? { mode: 'vrm', stiffness: VRM.stiffness, damping: VRM.drag, gravity: [0, -1, 0], gravityScale: VRM.gravityPower, radius: VRM.hitRadius }
    : { radius: VRM.hitRadius };
  return { joints, position: [0, 1.6, 0], ...params };
}

// The head the chains hang from, turning and bobbing: frame f's position p and rotation q
export const headPose = (f) => {
  const t = f / 60, a = 0.8 * Math.sin(2 * t);
  return { p: [0.2 * Math.sin(3 * t), 1.6, 0], q: [0, Math.sin(a / 2), 0, Math.cos(a / 2)] };
};
// `count` chains (chainDef, `mode`, `near`) on the head with the four spheres, 8 substeps; perChain: each
// chain's root set with chain.setRoot, instead of one world.setChainRoots for the head's chains
// (what three-vrm's frame does too: one head pose)
export function chains(wisp, threads, mode, { count = 1000, perChain = false, near = false } = {}) {
  const world = wisp.createWorld({ threads, substeps: 8 });
  const colliders = SPHERES.map((s) => world.addCollider({ type: 'sphere', radius: s[3] }));
  const list = [];
  for (let c = 0; c < count; c++) list.push(world.addChain(chainDef(c, mode, near)));
  const tmp = new THREE.Vector3(), q = new THREE.Quaternion();
  return {
    frame(f) {
      const { p, q: r } = headPose(f);
      q.set(r[0], r[1], r[2], r[3]);
      for (let k = 0; k < SPHERES.length; k++) {
        tmp.set(SPHERES[k][0], SPHERES[k][1], SPHERES[k][2]).applyQuaternion(q);
        colliders[k].setTransform([p[0] + tmp.x, p[1] + tmp.y, p[2] + tmp.z], r);
      }
      if (perChain) for (const c of list) c.setRoot(p, r);
      else world.setChainRoots(list, p, r);
      world.step(1 / 60);
    },
    dispose() { world.dispose(); },
  };
}

// The anti-gravity wig at scale: the setup of bench/native_bench.cpp's BM_Wig2000x16
// (web/scenes/wig.js with 2,000 strands x 16 joints). Target (issue 15): under 4 ms per frame on
// 2 threads.

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
      world.setChainRoots(chains, p, r);  // every strand on the head: one call, as chains() does
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

// A setup by name, as bench/ab.mjs and bench/instructions.mjs take it: clothN, wig, ropes (1000 x
// 32), chains and vrm (1000 chains x 8 joints by the Wisp and the VRM rule), vrm-near.
// Returns { frame(i), dispose() }.
export function makeSetup(setup, wisp, threads) {
  const stepping = (world) => ({ frame: () => world.step(1 / 60), dispose: () => world.dispose() });
  if (setup.startsWith('cloth')) return stepping(clothWorld(wisp, Number(setup.slice(5)), threads));
  if (setup === 'ropes') return stepping(ropeWorld(wisp, { count: 1000, particles: 32 }, threads));
  if (setup === 'wig') return wig(wisp, threads);
  if (setup === 'chains' || setup === 'vrm') return chains(wisp, threads, setup === 'vrm' ? 'vrm' : 'wisp');
  if (setup === 'vrm-near') return chains(wisp, threads, 'vrm', { near: true });
  throw new Error(`unknown setup '${setup}' (cloth<N>, wig, ropes, chains, vrm, vrm-near)`);
}
