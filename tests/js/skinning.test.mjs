// Cloth skinned to three.js bones: pinned particles follow their bones exactly, leashed ones
// stay within their slack.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { builds } from './load.mjs';
import { ClothSkinning } from '../../web/adapters/cloth-skinning.js';

test('a cape follows two shoulder bones of an animated skeleton', () => {
  const world = builds.single.createWorld({});
  const root = new THREE.Bone();
  const left = new THREE.Bone(), right = new THREE.Bone();
  left.position.set(-0.2, 1.5, 0.1);
  right.position.set(0.2, 1.5, 0.1);
  root.add(left, right);
  root.updateMatrixWorld(true);
  const res = 8;
  const cape = world.addCloth({ grid: { width: 0.4, height: 0.8, resolutionX: res, resolutionY: 10, position: [-0.2, 1.5, 0.1] } });
  const pins = [];
  for (let i = 0; i <= res; i++) pins.push({ particle: i, bone: i < res / 2 ? left : right, maxDistance: i === res / 2 ? 0.05 : 0 });
  const skin = new ClothSkinning(world, cape, pins);
  const expected = new THREE.Vector3();
  let worstPinned = 0, worstLeash = 0;
  for (let f = 0; f < 120; f++) {
    const t = (f + 1) / 60;
    root.position.set(Math.sin(2 * t), 0.1 * Math.sin(9 * t), 0);  // run and bob
    root.rotation.y = 0.8 * Math.sin(1.5 * t);                       // and turn
    left.rotation.z = 0.3 * Math.sin(4 * t);                          // shrug
    root.updateMatrixWorld(true);
    skin.beforeStep();
    world.step(1 / 60);
    const p = cape.positions;
    for (let i = 0; i <= res; i++) {
      const e = skin.entries[i];
      expected.set(...e.offset).applyMatrix4(e.bone.matrixWorld);
      const d = Math.hypot(p[3 * i] - expected.x, p[3 * i + 1] - expected.y, p[3 * i + 2] - expected.z);
      if (i === res / 2) worstLeash = Math.max(worstLeash, d);
      else worstPinned = Math.max(worstPinned, d);
    }
  }
  assert.ok(worstPinned < 1e-5, `pinned particles off their bones by ${worstPinned} m`);
  assert.ok(worstLeash <= 0.05 + 1e-5, `leashed particle ${worstLeash} m from its bone (slack 0.05)`);
  assert.ok(cape.positions.every(Number.isFinite));
  skin.dispose();
  world.dispose();
});
