// Compiled (not run) by tests/js/types.test.mjs: wisp/three's declarations accept real usage
// with three.js and reject mistakes.
import * as THREE from 'three';
import { createWisp, FrameBudget } from 'wisp';
import {
  RopeMesh, ClothMesh, gridUVs, ClothSkinning, pinsFromSkinnedMesh, SpringBoneChain, VRMSpringBoneRig,
  colliderMesh, placeMesh, taperedCapsuleGeometry, ChainDebug, restOf, CharacterLOD, type SkinPin, type LODCharacter,
} from 'wisp/three';

async function main(): Promise<void> {
  const wisp = await createWisp({ timeout: 10000 });
  const world = wisp.createWorld({});
  const scene = new THREE.Scene();
  const rope = world.addRope({ start: [0, 2, 0], end: [1, 2, 0], segments: 8 });
  const ropeMesh = new RopeMesh(rope, { radius: 0.01, sides: 6 });
  const cloth = world.addCloth({ grid: { width: 1, height: 1, resolutionX: 4, resolutionY: 4 } });
  const clothMesh = new ClothMesh(cloth, { uv: gridUVs(4, 4) });
  scene.add(ropeMesh, clothMesh);
  const skinned = new THREE.SkinnedMesh(new THREE.BufferGeometry(), new THREE.MeshBasicMaterial());
  const pins: SkinPin[] = pinsFromSkinnedMesh(skinned, cloth, { maxDistance: 0.05 });
  const skin = new ClothSkinning(world, cloth, pins);
  const bones = [new THREE.Bone(), new THREE.Bone()];
  const chain = new SpringBoneChain(world, bones, { stiffness: 3 }, { endLength: 0.1 });
  const capsule = colliderMesh({ type: 'capsule', radius: 0.07, radiusTop: 0.05, halfHeight: 0.1 }, 0xffffff, { wireframe: true });
  placeMesh(capsule, [0, 1, 0], [0, 0, 0, 1]);
  const geometry: THREE.BufferGeometry = taperedCapsuleGeometry(0.07, 0.05, 0.1);
  const debug = new ChainDebug(32);
  debug.update([{ chain: chain.chain, rest: restOf([[0, 0, 0], [0, -0.1, 0]], new THREE.Quaternion()) }], () => 0.02, Math.PI);
  skin.beforeStep(); chain.beforeStep(); world.step(1 / 60); chain.afterStep();
  ropeMesh.update(); clothMesh.update();
  const smooth = wisp.createWorld({ interpolate: true });
  const shown: Float32Array = smooth.addRope({ start: [0, 0, 0], end: [1, 0, 0] }).renderPositions;
  const budget = new FrameBudget(world, { budgetMs: 2, calibrateEvery: 60 });
  budget.add(chain, { priority: 3 });
  const lod = new CharacterLOD({ distances: [10, 20, 40, 80], margin: 1, offscreen: 'frozen', budget });
  const hero: LODCharacter = lod.add({ objects: [rope, clothMesh, chain], bounds: scene, radius: 1, hide: [ropeMesh], onLevel: (to) => console.log(to) });
  const camera = new THREE.PerspectiveCamera();
  for (const c of lod.update(camera).changes) console.log(c.character === hero, c.from, c.to, shown.length, smooth.alpha);
  budget.step(1 / 60);
  console.log(budget.report.degraded.map((d) => `${d.from} -> ${d.to}: ${d.reason}`), budget.levelOf(rope));
  // @ts-expect-error: unknown level
  new CharacterLOD({ offscreen: 'hidden' });
  const vrmRig: VRMSpringBoneRig | null = null;
  console.log(geometry.id, debug.id, vrmRig);
  // @ts-expect-error: ClothMesh needs a Cloth, not a Rope
  new ClothMesh(rope);
  // @ts-expect-error: SpringBoneChain takes bones, not numbers
  new SpringBoneChain(world, [1, 2]);
  // @ts-expect-error: unknown collider type
  colliderMesh({ type: 'cone' });
}
void main();
