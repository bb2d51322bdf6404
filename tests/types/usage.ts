// Compiled (not run) by tests/js/types.test.mjs: the declarations must accept real usage and
// reject mistakes (the @ts-expect-error lines fail the build if they stop being errors).
import { createWisp, createWorkerWorld, FrameBudget, WispError, type WorkerWorld, type WorkerRope, fromDynamicBone, fromVRMLimit, savePreset, loadPreset, type Chain, type ChainLinks, type VrmLimit, type Rope, type WorldSettings } from 'wisp';

async function main(): Promise<void> {
  const wisp = await createWisp({ threads: 'auto' });
  const settings: WorldSettings = { gravity: [0, -9.81, 0], substeps: 8, wind: { direction: [1, 0, 0], speed: 4, turbulence: 0.3, seed: 1 } };
  const world = wisp.createWorld(settings);
  const head = world.addCollider({ type: 'sphere', radius: 0.1, position: { x: 0, y: 1.6, z: 0 } });
  const rope: Rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 32, pinned: [0], damping: 0.4 });
  const anchor = world.addAnchor([0, 2, 0]);
  rope.pin(0, anchor);
  anchor.setPosition([0.1, 2, 0]);
  head.setTransform([0, 1.7, 0], [0, 0, 0, 1], { teleport: true });
  const cape = world.addCloth({ grid: { width: 1, height: 1.2, resolutionX: 16, resolutionY: 20 }, pinned: [0, 16], bendCompliance: 1e-3 });
  const normals: Float32Array = cape.normals;
  const strain: number = cape.stats().maxStrain;
  // @ts-expect-error: mesh needs indices
  world.addCloth({ mesh: { positions: [0, 0, 0] } });
  const steps: number = world.step(1 / 60) + normals.length + strain;
  const xyz: Float32Array = rope.positions;
  const tail: Rope = rope.cut(10);
  tail.set({ bending: true, bendCompliance: 1e-3 });
  try {
    world.step(-1);
  } catch (e) {
    if (e instanceof WispError) console.log(e.code, e.message, steps, xyz.length, world.lastStep.droppedTime);
  }
  const tailBone: Chain = world.addChain({
    joints: [{ position: [0, 0.05, -0.1] }, { position: [0, -0.08, 0], rotation: [0, 0, 0, 1] }],
    stiffness: 6, elasticity: 0.3, stiffnessCurve: [[0, 1], [1, 0.3]], radius: 0.02, gravity: null, space: 'relative',
  });
  tailBone.setRootMatrix(new Float32Array(16));
  tailBone.setRoot({ x: 0, y: 1, z: 0 }, { x: 0, y: 0, z: 0, w: 1 });
  const local: Float32Array = tailBone.localRotations;
  const err: number = tailBone.stats().maxLengthError + local.length;
  const preset = loadPreset(savePreset(fromDynamicBone({ damping: 0.2, elasticity: 0.05 }).params, 'ponytail'));
  tailBone.set(preset.params);
  // many characters: switched off, asleep when settled, every other step
  tail.enabled = false;
  cape.setEnabled(true);
  tailBone.set({ sleepSpeed: 0.001, sleepTime: 1, updateEvery: 2 });
  const idle: boolean = tailBone.sleeping || rope.enabled;
  const woke = world.events().filter((e) => e.type === 'wake' || e.type === 'sleep').length + tail.updates;
  console.log(err, idle, woke);
  // render interpolation: output only
  const smooth = wisp.createWorld({ interpolate: true, substeps: 8 });
  const hanging = smooth.addRope({ start: [0, 2, 0], end: [1, 2, 0] });
  smooth.step(1 / 144);
  smooth.setAlpha(0.5);
  const shown: Float32Array = hanging.renderPositions;
  const between: number = smooth.alpha + shown.length + cape.renderNormals.length + tailBone.renderLocalRotations.length;
  console.log(between, smooth.interpolate);
  // @ts-expect-error: interpolate is fixed at creation
  smooth.set({ interpolate: false });
  // @ts-expect-error: alpha is read-only (setAlpha)
  smooth.alpha = 0.5;
  // VRM mode: VRMC_springBone_limit limits per bone and the wind coupling
  const cone: VrmLimit = fromVRMLimit({ specVersion: '1.0-draft', limit: { cone: { angle: 0.5 } } });
  tailBone.set({ mode: 'vrm', vrmLimits: [cone, null, { type: 'spherical', pitch: 0.3, yaw: 0.1, rotation: [0, 0, 0, 1] }], vrmWind: 0.5 });
  // @ts-expect-error: a limit type is 'none', 'cone', 'hinge' or 'spherical'
  tailBone.set({ vrmLimits: [{ type: 'twist' }] });
  // a skirt: chains linked in a ring
  const skirtChains: Chain[] = [0, 1, 2].map((k) => world.addChain({ points: [k * 0.1, 1, 0, k * 0.1, 0.9, 0] }));
  const skirt: ChainLinks = world.addChainLinks(skirtChains, { loop: true, diagonals: false, compliance: 0, stretch: 0.1, collide: true, fromJoint: 1 });
  skirt.set({ compliance: 1e-4, loop: true });
  const linkPairs: Int32Array = skirt.pairs();
  const linkRest: Float32Array = skirt.restLengths();
  console.log(skirt.linkCount + linkPairs.length + linkRest.length);
  // @ts-expect-error: loop is a boolean
  skirt.set({ loop: 1 });
  skirt.dispose();
  // @ts-expect-error: mode is 'wisp' or 'vrm'
  world.addChain({ points: [0, 0, 0, 0, -1, 0], mode: 'dynamic-bone' });
  // @ts-expect-error: segments is a number
  world.addRope({ segments: '4' });
  // @ts-expect-error: unknown collider type
  world.addCollider({ type: 'cone' });
  // @ts-expect-error: positions is read-only
  rope.positions = new Float32Array(3);
  world.dispose();
}
void main();

// A world stepped in a dedicated worker: the same calls, step() returns at once.
async function inWorker(): Promise<void> {
  const world: WorkerWorld = await createWorkerWorld({ substeps: 8 }, { threads: 'auto' });
  const anchor = world.addAnchor([0, 2, 0]);
  const rope: WorkerRope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 16 });
  rope.pin(0, anchor);
  const chain = world.addChain({ points: [0, 2, 0, 0, 1.8, 0] });
  world.addChainLinks([chain, world.addChain({ points: [0.1, 2, 0, 0.1, 1.8, 0] })]);
  const fixedSteps: number = world.step(1 / 60);
  const shown: number = world.completedSteps + world.pendingSteps + fixedSteps;
  const xyz: Float32Array = rope.positions;
  const q: Float32Array = chain.localRotations;
  await world.flush();
  const hash: string = await world.stateHash();
  const far: WorkerRope = rope.cut(8);  // both ropes show the cut from the next step
  console.log(shown, xyz.length, q.length, hash, far.kind);
  // render interpolation as on a World; output arrays are re-read after each step
  const smooth = await createWorkerWorld({ interpolate: true });
  const r2 = smooth.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 4 });
  await smooth.flush();
  smooth.setAlpha(0.5);
  const shownAt: number = smooth.alpha + r2.renderPositions[0] + r2.count;
  const tris: Uint32Array = smooth.addCloth({ grid: { width: 1, height: 1, resolutionX: 2, resolutionY: 2 } }).indices;
  console.log(shownAt, tris.length);
  // @ts-expect-error: alpha is set through setAlpha
  smooth.alpha = 0.5;
  await smooth.dispose();
  // @ts-expect-error: an anchor of a main-thread World is not one of this world
  rope.pin(0, (await createWisp()).createWorld().addAnchor());
  // what each step changes answers at once, as of the step shown; queries of the whole state by Promise
  const damping: number = rope.params.damping;
  const asleep: boolean = rope.sleeping || !rope.enabled;
  const t: number = world.time + world.stats().ropes + rope.updates + chain.stats().maxSpeed + anchor.position[1];
  const resets = world.events().filter((e) => e.type === 'reset' && e.object === rope);
  const p = await rope.particle(0), len: number = await rope.restLength(0), air = await world.airVelocityAt([0, 1, 0]);
  const bytes: Uint8Array = await world.saveSnapshot();
  await world.loadSnapshot(bytes);
  console.log(damping, asleep, t, resets.length, p.position, len, air[0], world.settings.substeps);
  // @ts-expect-error: particle() answers by Promise on a worker world
  const px: number = rope.particle(0).position[0];
  console.log(px);
  // a frame budget over the worker world runs in the worker; budget.step(dt) steps the world
  const budget = new FrameBudget(world, { budgetMs: 2, msPerUnit: 1e-4, calibrateEvery: 0 });
  budget.add(rope, { priority: 2 });
  budget.add({ chain }, { priority: 1 });
  budget.setCap(chain, 'reduced');
  budget.step(1 / 60);
  await world.flush();
  const degraded: string[] = budget.report.degraded.map((d) => `${d.object === rope ? 'rope' : 'chain'} ${d.from} -> ${d.to}`);
  console.log(degraded, budget.levelOf(rope), budget.msPerUnit);
  await world.dispose();
}
void inWorker();
