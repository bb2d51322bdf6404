// Chain benchmark (Node): 1000 chains x 8 joints around a moving head with 4 sphere colliders,
// 1/60 s frames, then the anti-gravity wig (2,000 strands x 16 joints, head and shoulder colliders). Wisp (WASM single- and multi-threaded, its own substepped rule and its VRM
// mode), @pixiv/three-vrm-springbone on a three.js rig, and a plain-JS port of that algorithm,
// measured in one run. Prints its setup, us per joint per frame and ratios as Markdown.
//   node bench/chain_bench.mjs [--only wig|wisp]   (wisp: only the single-threaded Wisp-rule row)
import os from 'node:os';
import * as THREE from 'three';
// a test tool (tests/package.json, installed by scripts/setup.sh --test), so not resolvable from bench/ by name
const { VRMSpringBoneManager, VRMSpringBoneJoint, VRMSpringBoneCollider, VRMSpringBoneColliderShapeSphere } =
  await import(new URL('../tests/node_modules/@pixiv/three-vrm-springbone/lib/three-vrm-springbone.module.js', import.meta.url).href);
import { createWisp } from '../wasm/js/index.js';
import { PlainSpringBones } from './plain_springbone.mjs';
import { bestBlockMs, bestBlocksMs } from './best_block.mjs';
import { JOINTS, OFFSETS, SPHERES, VRM, WIG, wig, headPose as pose, chains } from './setups.mjs';

const CHAINS = 1000;
const WARMUP = 10, BLOCKS = 5, BLOCK_MS = 400, MIN_FRAMES = 3;

const TIMING = { warmup: WARMUP, blocks: BLOCKS, blockMs: BLOCK_MS, minCalls: MIN_FRAMES };
const time = (frame) => bestBlockMs(frame, TIMING);

function threeVrm() {
  const scene = new THREE.Scene();
  const head = new THREE.Object3D();
  scene.add(head);
  const group = { colliders: SPHERES.map((s) => {
    const c = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new THREE.Vector3(s[0], s[1], s[2]), radius: s[3] }));
    head.add(c);
    return c;
  }) };
  const bones = [];
  for (let c = 0; c < CHAINS; c++) {
    let parent = head;
    const chain = [];
    for (let j = 0; j < JOINTS; j++) {
      const b = new THREE.Bone();
      const o = OFFSETS[j];
      b.position.set(j === 0 ? o[0] + 0.01 * c : o[0], o[1], o[2]);
      parent.add(b);
      chain.push(b);
      parent = b;
    }
    bones.push(chain);
  }
  scene.updateMatrixWorld(true);
  const manager = new VRMSpringBoneManager();
  const settings = { stiffness: VRM.stiffness, dragForce: VRM.drag, gravityPower: VRM.gravityPower, gravityDir: new THREE.Vector3(0, -1, 0), hitRadius: VRM.hitRadius };
  for (const chain of bones) for (let j = 0; j + 1 < JOINTS; j++) manager.addJoint(new VRMSpringBoneJoint(chain[j], chain[j + 1], settings, [group]));
  manager.setInitState();
  return {
    frame(f) {
      const { p, q } = pose(f);
      head.position.set(p[0], p[1], p[2]);
      head.quaternion.set(q[0], q[1], q[2], q[3]);
      manager.update(1 / 60);
      scene.updateMatrixWorld();
    },
  };
}

const st = await createWisp({ threads: false });
const mt = await createWisp({ threads: true });
console.log(`# Chain benchmark\n\nNode ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length}, ${new Date().toISOString().slice(0, 10)}`);
console.log(`Each number is the best of ${BLOCKS} blocks of >= ${BLOCK_MS} ms after ${WARMUP} warm-up frames.`);
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : '';
if (only === 'wisp') {
  // one row, for A/B runs of two builds back to back
  const w = chains(st, 1, 'wisp', { count: CHAINS });
  const ms = time((f) => w.frame(f));
  w.dispose();
  console.log(`\nWisp WASM single-threaded build, Wisp rule (8 substeps): ${ms.toFixed(3)} ms/frame, ` +
    `${(ms * 1000 / (CHAINS * JOINTS)).toFixed(3)} µs per joint per frame (target <= 0.25)`);
  process.exit(0);
}
if (only !== 'wig') {
  console.log(`\n## ${CHAINS} chains x ${JOINTS} joints on a turning, bobbing head, ${SPHERES.length} sphere colliders, 1/60 s frames\n`);
  console.log(`Wisp's own rule runs 8 substeps per frame (spring to pose, limits, bone-capsule collisions); VRM mode, three-vrm and the plain-JS port run one update per frame.\n`);
  console.log(`The first three rows, which the VRM-rule targets compare, are timed side by side (their blocks taken in turn); the others one after another.\n`);
  const rows = [];
  {
    const plain = new PlainSpringBones(CHAINS, JOINTS, { offsets: OFFSETS, ...VRM }, SPHERES);
    const tv = threeVrm();
    const w = chains(st, 1, 'vrm', { count: CHAINS });
    const ms = bestBlocksMs([(f) => { const { p, q } = pose(f); plain.setRoot(p, q); plain.update(1 / 60); }, (f) => tv.frame(f), (f) => w.frame(f)], TIMING);
    w.dispose();
    rows.push(['plain JS port of the VRM rule (typed arrays)', ms[0]], ['@pixiv/three-vrm-springbone 3.5.5 (three.js objects)', ms[1]],
      ['Wisp WASM single-threaded build, VRM mode', ms[2]]);
  }
  for (const [label, wisp, threads, mode, perChain] of [
    ['Wisp WASM threaded build, 2 threads, VRM mode', mt, 2, 'vrm'],
    ['Wisp WASM single-threaded build, Wisp rule (8 substeps)', st, 1, 'wisp'],
    ['Wisp WASM threaded build, 2 threads, Wisp rule (8 substeps)', mt, 2, 'wisp'],
    ['Wisp WASM threaded build, 4 threads, Wisp rule (8 substeps)', mt, 4, 'wisp'],
    ['Wisp WASM single-threaded build, VRM mode, chain.setRoot per chain', st, 1, 'vrm', true],
  ]) {
    const w = chains(wisp, threads, mode, { count: CHAINS, perChain });
    rows.push([label, time((f) => w.frame(f))]);
    w.dispose();
  }
  const plainMs = rows[0][1], ref = rows[1][1];
  const perJoint = (ms) => ms * 1000 / (CHAINS * JOINTS);
  console.log('| implementation | ms/frame | µs per joint per frame | speed-up vs three-vrm | speed-up vs plain JS |\n|---|---:|---:|---:|---:|');
  for (const [name, ms] of rows) {
    console.log(`| ${name} | ${ms.toFixed(3)} | ${perJoint(ms).toFixed(3)} | ${(ref / ms).toFixed(2)}x | ${(plainMs / ms).toFixed(2)}x |`);
  }
  // the targets of the chain kernels, from the rows above (same process, same run)
  const vrm = rows[2][1], wisp1 = rows[4][1], wisp2 = rows[5][1];
  console.log(`\nVRM rule, single-threaded: ${(plainMs / vrm).toFixed(2)}x the plain-JS port (target >= 3x), ` +
    `${(ref / vrm).toFixed(1)}x three-vrm (target >= 20x).`);
  console.log(`Wisp rule (8 substeps, 4 spheres): ${perJoint(wisp1).toFixed(3)} µs per joint per frame single-threaded ` +
    `(target <= 0.25), ${perJoint(wisp2).toFixed(3)} on 2 threads.`);
}

console.log(`\n## Anti-gravity wig: ${WIG.strands} strands x ${WIG.joints} joints (${WIG.length} m), gravity scale -1, ` +
  'head sphere + 2 tapered shoulder capsules + torso capsule, head turning +-1.3 rad at 3 rad/s, Wisp rule (8 substeps), ' +
  'stiffness 3/s, elasticity 0.3, damping 2/s, inertia 0.2, radius 1 cm\n');
console.log('| implementation | ms/frame | µs per joint per frame | target (< 4 ms on 2 threads) |\n|---|---:|---:|---|');
const tips = [];
for (const [label, wisp, threads] of [['Wisp WASM single-threaded build', st, 1], ['Wisp WASM threaded build, 1 thread', mt, 1], ['Wisp WASM threaded build, 2 threads', mt, 2]]) {
  const w = wig(wisp, threads);
  const ms = time((f) => w.frame(f + 1));
  tips.push(w.tipHeight());
  w.dispose();
  console.log(`| ${label} | ${ms.toFixed(3)} | ${(ms * 1000 / (WIG.strands * WIG.joints)).toFixed(3)} | ${threads === 2 ? (ms < 4 ? 'met' : `not met (${(ms / 4).toFixed(1)}x over)`) : ''} |`);
}
console.log(`\nMean tip height above the head centre after each run: ${tips.map((h) => `${h.toFixed(3)} m`).join(', ')} (at rest along the scalp normals: ${((0.1 + WIG.length) * 0.575).toFixed(3)} m; > 0: the strands rise).`);
process.exit(0);
