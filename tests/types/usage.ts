// Compiled (not run) by tests/js/types.test.mjs: the declarations must accept real usage and
// reject mistakes (the @ts-expect-error lines fail the build if they stop being errors).
import { createWisp, WispError, fromDynamicBone, savePreset, loadPreset, type Chain, type Rope, type WorldSettings } from 'wisp';

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
