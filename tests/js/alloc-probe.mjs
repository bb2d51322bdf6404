// Run by frame-allocation.test.mjs in a child Node with --expose-gc and a large young generation:
// for each per-frame call, the young-generation bytes allocated over 10,000 calls (after a
// warm-up), and whether a garbage collection ran meanwhile (which would hide allocations).
// Prints one JSON object: { name: { bytes, gcs } }.
import v8 from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';
import * as THREE from 'three';
import { createWisp, createWorkerWorld, FrameBudget } from '../../wasm/js/index.js';
import { SpringBoneChain, VRMSpringBoneRig } from '../../web/adapters/spring-bones.js';
import { ClothSkinning } from '../../web/adapters/cloth-skinning.js';
import { ClothMesh } from '../../web/adapters/cloth-mesh.js';
import { buildRig } from './rig.mjs';
import { objectState, writeObjectStates } from '../../wasm/js/step-state.js';

const CALLS = 10000;
let gcs = 0;
new PerformanceObserver((list) => { gcs += list.getEntries().length; }).observe({ entryTypes: ['gc'] });

function youngUsed() {
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_used_size;
  throw new Error('no new_space');
}

const wisp = await createWisp({ threads: process.argv[2] === 'threaded' });
const world = wisp.createWorld({ threads: process.argv[2] === 'threaded' ? 2 : 1 });
const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 16 });
const anchor = world.addAnchor([0, 2, 0]);
rope.pin(0, anchor);
const cloth = world.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 8, resolutionY: 8, position: [0, 2, 1] }, pinned: [0, 8] });
const chain = world.addChain({ points: [0, 2, 2, 0, 1.9, 2, 0, 1.8, 2] });
// a linked pair (World.addChainLinks): world.step solves them together
world.addChainLinks([0, 1].map((k) => world.addChain({ points: [1 + 0.1 * k, 2, 2, 1 + 0.1 * k, 1.9, 2, 1 + 0.1 * k, 1.8, 2] })), { loop: false, diagonals: true });
const collider = world.addCollider({ type: 'sphere', radius: 0.2, position: [0.5, 1.5, 0] });

// three.js side: a spring-bone chain on a bone hierarchy, the VRM rig with colliders, a skinned cloth
const rig = buildRig();
const bonesChain = new SpringBoneChain(world, rig.bones.slice(0, 4), { stiffness: 2 });
const animatedChain = new SpringBoneChain(world, rig.bones.slice(4, 8), { stiffness: 2 }, { followAnimation: true });
// the chains on one root (world.setChainRoots)
const rootChains = [chain, world.addChain({ points: [0.1, 2, 2, 0.1, 1.9, 2, 0.1, 1.8, 2] })];
const chainPose = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
const vrm = new VRMSpringBoneRig(world, rig.manager);
const bone = new THREE.Bone();
rig.scene.add(bone);
const skin = new ClothSkinning(world, cloth, [{ particle: 3, bone }]);

// render interpolation: a world with the option on, its render arrays read every frame
const iworld = wisp.createWorld({ interpolate: true });
const irope = iworld.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 16, pinned: [0] });
const icloth = iworld.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 8, resolutionY: 8, position: [0, 2, 1] }, pinned: [0, 8] });
const ichain = iworld.addChain({ points: [0, 2, 2, 0.1, 1.9, 2, 0.2, 1.8, 2] });

// what a worker world's worker writes after every step (step-state.js), here over this world's
// objects: their activity and stats in one call (World._objectStates), copied into their slots
const stateObjects = [rope, cloth, chain], states = stateObjects.map((o, i) => objectState(['rope', 'cloth', 'chain'][i], o));
const SLOT = new Int32Array(1);

// worker worlds (createWorkerWorld): per-frame calls through the command ring, outputs read in
// place from the shared slots, a ClothMesh on them; one with render interpolation
const threaded = process.argv[2] === 'threaded';
const ww = await createWorkerWorld({ substeps: 1, threads: threaded ? 2 : 1 }, { threads: threaded });
const wanchor = ww.addAnchor([0, 2, 0]);
const wrope = ww.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8 });
wrope.pin(0, wanchor);
const wcloth = ww.addCloth({ grid: { width: 0.5, height: 0.5, resolutionX: 4, resolutionY: 4, position: [0, 2, 1] }, pinned: [0, 4] });
const wchain = ww.addChain({ points: [0, 2, 2, 0, 1.9, 2, 0, 1.8, 2] });
const wcollider = ww.addCollider({ type: 'sphere', radius: 0.2, position: [0.5, 1.5, 0] });
const iww = await createWorkerWorld({ substeps: 1, interpolate: true }, { threads: threaded });
const iwrope = iww.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8, pinned: [0] });
const iwchain = iww.addChain({ points: [0, 2, 2, 0.1, 1.9, 2, 0.2, 1.8, 2] });
// a FrameBudget over the worker world (it runs in the worker; no plan changes in the steady state)
const wbudget = new FrameBudget(ww, { budgetMs: 50, msPerUnit: 1e-4, calibrateEvery: 0 });
wbudget.add(wrope, { priority: 1 });
wbudget.add(wcloth, { priority: 0 });
await ww.flush();
await iww.flush();
const wmesh = new ClothMesh(wcloth);
// the page writes a frame in well under the worker's time to run it: wait (without allocating)
// while the ring holds more than a few hundred frames, so it never fills
const pace = (w) => { while (w._ringBacklog > 16384); };
// a frame short of a fixed step (1/60 s) mostly: the worker keeps up
const WDT = 1 / 600;

// one parameter object, its values changed every frame (as a game sets a chain's stiffness)
const wparams = { stiffness: 2.5, damping: 0.15 };
const pos = [0, 2, 0], rot = [0, 0, 0, 1], m = new THREE.Matrix4().elements, v3 = new THREE.Vector3(0, 2, 0);
// per-call state in typed arrays: a `let` number captured by these closures would itself be
// boxed on every write and show up as the calls' allocation
const T = new Float64Array(3);
// The stand-in animation turns a bone as an AnimationMixer does: its quaternion from an array
// (turn(q, axis) writes a rotation by T[2] about x/y/z into q; the angle travels in T, as a double
// passed to a call V8 does not inline is boxed). Not `bone.rotation.y = angle`:
// that stores a fresh double into an Euler field from this file's closure, and in some processes
// (depending on when V8 optimizes the closure; reproducible with --interrupt-budget=1000 or
// 10000) the store boxes it, 16 B per call that the library never made.
const Q = new Float64Array([0, 0, 0, 1]);
function turn(q, axis) {
  Q[0] = 0; Q[1] = 0; Q[2] = 0;
  Q[axis] = Math.sin(0.5 * T[2]); Q[3] = Math.cos(0.5 * T[2]);
  q.fromArray(Q);
}
const P64 = new Float64Array([0.5, 1.5, 0]), Q64 = new Float64Array([0, 0, 0, 1]);
const cases = {
  'anchor.setPosition': () => { pos[0] = 0.01 * Math.sin(T[0] += 0.01); anchor.setPosition(pos); },
  'anchor.setPosition(Vector3)': () => { v3.x = 0.01 * Math.sin(T[0] += 0.01); anchor.setPosition(v3); },
  'collider.setTransform': () => { pos[1] = 1.5 + 0.01 * Math.sin(T[0] += 0.01); collider.setTransform(pos, rot); },
  // the same call with Float64Arrays, after the plain arrays above: one call site fed both kinds
  // (as by the VRM rig and its user) must not start boxing numbers
  'collider.setTransform(Float64Array)': () => { P64[1] = 1.5 + 0.01 * Math.sin(T[0] += 0.01); collider.setTransform(P64, Q64); },
  'collider.setMatrix': () => { m[13] = 1.5 + 0.01 * Math.sin(T[0] += 0.01); collider.setMatrix(m); },
  'chain.setRoot': () => { pos[0] = 0.01 * Math.sin(T[0] += 0.01); chain.setRoot(pos, rot); },
  'world.setChainRoots': () => { pos[0] = 0.01 * Math.sin(T[0] += 0.01); world.setChainRoots(rootChains, pos, rot); },
  'chain.setRootMatrix': () => { m[12] = 0.01 * Math.sin(T[0] += 0.01); chain.setRootMatrix(m); },
  'chain.setPose': () => { chainPose[4] = 0.01 * Math.sin(T[0] += 0.01); chainPose[7] = 1; chain.setPose(chainPose); },
  'world.step': () => { world.step(1 / 60); },
  'rope/cloth/chain.enabled off and on': () => {
    rope.enabled = false; cloth.setEnabled(false); chain.enabled = false;
    rope.enabled = true; cloth.setEnabled(true); chain.enabled = true;
  },
  'enabled/sleeping/updates reads': () => { T[1] += (rope.enabled ? 1 : 0) + (chain.sleeping ? 1 : 0) + cloth.updates; },
  'world.step (interpolate) and render arrays': () => {
    iworld.step(1 / 144);
    T[1] += irope.renderPositions[3] + icloth.renderPositions[4] + icloth.renderNormals[5] + ichain.renderPositions[3] + ichain.renderRotations[3] + ichain.renderLocalRotations[3] + iworld.alpha;
  },
  'worker per-step state: writeObjectStates of a rope, cloth and chain (World._objectStates)': () => {
    SLOT[0] = (SLOT[0] + 1) % 3;
    writeObjectStates(states, stateObjects, world, SLOT[0]);
    T[1] += states[1].view[SLOT[0] * states[1].size + 3];
  },
  'views': () => {
    T[1] += rope.positions[0] + cloth.positions[1] + cloth.normals[2] + chain.positions[0] + chain.rotations[3] + chain.localRotations[3];
  },
  'SpringBoneChain beforeStep/afterStep': () => {
    T[2] = 0.1 * Math.sin(T[0] += 0.01); turn(rig.head.quaternion, 1);
    bonesChain.beforeStep(); bonesChain.afterStep();
  },
  'SpringBoneChain followAnimation beforeStep/afterStep': () => {
    T[2] = 0.1 * Math.sin(T[0] += 0.01); turn(animatedChain.bones[1].quaternion, 2);
    animatedChain.beforeStep(); animatedChain.afterStep();
  },
  'VRMSpringBoneRig beforeStep/afterStep': () => {
    T[2] = 0.1 * Math.sin(T[0] += 0.01); turn(rig.head.quaternion, 1);
    vrm.beforeStep(); vrm.afterStep();
  },
  'worker world: anchor, collider and chain calls and step (command ring)': () => {
    pos[0] = 0.01 * Math.sin(T[0] += 0.01);
    wanchor.setPosition(pos);
    v3.x = pos[0];
    wanchor.setPosition(v3);
    P64[1] = 1.5 + pos[0];
    wcollider.setTransform(P64, Q64);
    m[12] = pos[0];
    wchain.setRootMatrix(m);
    chainPose[4] = pos[0]; chainPose[7] = 1;
    wchain.setPose(chainPose);
    wrope.enabled = true;
    ww.step(WDT);
    pace(ww);
  },
  'worker world: views and ClothMesh.update after step': () => {
    ww.step(WDT);
    wmesh.update();
    T[1] += wrope.positions[0] + wcloth.normals[2] + wchain.rotations[3] + wchain.localRotations[3] + ww.completedSteps + ww.pendingSteps + ww.lastStep.leftover;
    pace(ww);
  },
  'worker world: time, events, enabled, sleeping and updates of the step shown': () => {
    ww.step(WDT);
    T[1] += ww.time + ww.events().length + (wrope.enabled ? 1 : 0) + (wcloth.sleeping ? 1 : 0) + wchain.updates;
    pace(ww);
  },
  'worker world: a parameter object of non-integer values (chain.set) and step': () => {
    wparams.stiffness = 2 + 0.5 * Math.sin(T[0] += 0.01);
    wparams.damping = 0.1 + 0.01 * Math.sin(T[0]);
    wchain.set(wparams);
    ww.step(WDT);
    pace(ww);
  },
  'worker world: FrameBudget.step, report and levelOf': () => {
    wbudget.step(WDT);
    T[1] += wbudget.report.units + wbudget.msPerUnit + wbudget.budgetMs + (wbudget.levelOf(wcloth) === 'full' ? 1 : 0);
    pace(ww);
  },
  'worker world (interpolate): step, render arrays, setAlpha': () => {
    iww.step(1 / 144);
    T[1] += iwrope.renderPositions[3] + iwchain.renderPositions[3] + iwchain.renderRotations[3] + iwchain.renderLocalRotations[3] + iww.alpha;
    iww.setAlpha(0.5);
    pace(iww);
  },
  'ClothSkinning beforeStep': () => {
    bone.position.x = 0.1 * Math.sin(T[0] += 0.01);
    skin.beforeStep();
  },
};

// collections of the set-up above report late: let them arrive before counting
globalThis.gc();
await new Promise((r) => setTimeout(r, 50));
gcs = 0;
const out = {};
for (const [name, fn] of Object.entries(cases)) {
  // warm-up: inline caches, first-use arrays, and time for the optimizing compiler (until it is
  // done, interpreted code boxes numbers): the steady state of a game loop
  for (let i = 0; i < 60000; i++) fn();
  let best = null;
  for (let round = 0; round < 5; round++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 5));  // let the forced collection's entry arrive
    const before = gcs;
    const used0 = youngUsed();
    for (let i = 0; i < CALLS; i++) fn();
    const used1 = youngUsed();
    await new Promise((r) => setTimeout(r, 5));
    const r = { bytes: used1 - used0, gcs: gcs - before };
    // a round in which a collection ran is void (what the calls allocated may have been freed,
    // so it shows the fewest bytes): the least of the rounds without one, if there is any
    const clean = r.gcs === 0, bestClean = best !== null && best.gcs === 0;
    if (best === null || (clean && !bestClean) || (clean === bestClean && r.bytes < best.bytes)) best = r;
  }
  out[name] = best;
}
// the cost of measuring itself (getHeapSpaceStatistics allocates its result)
globalThis.gc();
const a = youngUsed(), b = youngUsed();
out.measurement = { bytes: b - a, gcs: 0 };
if (!Number.isFinite(T[1])) throw new Error('views read non-finite values');
world.dispose();
iworld.dispose();
await ww.dispose();
await iww.dispose();
process.stdout.write(JSON.stringify(out));
process.exit(0);
