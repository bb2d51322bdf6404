// A pleated skirt: chains hanging from a ring on the hips bone, linked to their neighbours at
// every joint below the waist (world.addChainLinks), drawn as one SkinnedMesh whose bones the
// three.js adapter drives. Each chain is a SpringBoneChain (root: the hips); its backstop keeps
// every joint from being pushed more than a little inside where the animation puts it.
import * as THREE from 'three';
import { SpringBoneChain } from '../../adapters/spring-bones.js';
import { skinnedRings } from '../skinned-rings.js';

const RING = 0.18;      // m: waist radius
const WAIST = 0.05;     // m: the ring above the hips bone
const SEGMENT = 0.085;  // m: bone length down the skirt
const FLARE = 0.025;    // m: outward per bone (an A-line)
const PLEAT = 0.022;    // m: how far each fold between two chains stands out

/**
 * chainCount chains of `joints` joints on `hips`. params: ChainParams common to all; each chain
 * also gets its own backstopNormal (outward, in the hips' frame). Returns { rigs, chains, mesh,
 * offsets, normals, links }.
 */
export function buildSkirt(world, hips, params, { chainCount = 14, joints = 5, color = 0x8c2f39, links: linkOptions } = {}) {
  const rigs = [], offsets = [], normals = [];
  for (let k = 0; k < chainCount; k++) {
    const a = (2 * Math.PI * k) / chainCount, nx = Math.sin(a), nz = Math.cos(a);
    // bone offsets in the parent's frame: the bind rotations are the identity, so all in the hips' frame
    const o = [[RING * nx, WAIST, RING * nz]];
    for (let j = 1; j < joints; j++) o.push([FLARE * nx, -SEGMENT, FLARE * nz]);
    const bones = [];
    let parent = hips;
    for (const [x, y, z] of o) {
      const b = new THREE.Bone();
      b.position.set(x, y, z);
      parent.add(b);
      bones.push(b);
      parent = b;
    }
    const normal = [nx, 0, nz];
    rigs.push(new SpringBoneChain(world, bones, { ...params, backstopNormal: normal }));
    offsets.push(o);
    normals.push(new THREE.Vector3(nx, 0, nz));
  }
  hips.updateMatrixWorld(true);
  const chains = rigs.map((r) => r.chain);
  const links = world.addChainLinks(chains, linkOptions);
  return { rigs, chains, offsets, normals, links, mesh: skirtMesh(rigs, joints, color) };
}

// The skirt's surface: per joint row, a vertex on each chain (the inner fold) and one between
// each pair (the outer fold, half on either chain's bone), plus a row halfway down each bone.
function skirtMesh(rigs, joints, color) {
  const n = rigs.length, cols = 2 * n, rows = 2 * joints - 1;
  const bones = rigs.flatMap((r) => r.bones);
  const positions = [], skinIndex = [], skinWeight = [];
  const a = new THREE.Vector3(), b = new THREE.Vector3(), c = new THREE.Vector3(), d = new THREE.Vector3();
  const at = (k, row, out) => {
    // on chain k: row 2j is joint j, row 2j+1 halfway along bone j
    const j = row >> 1, bs = rigs[k % n].bones;
    bs[j].getWorldPosition(out);
    if (row & 1) out.lerp(bs[j + 1].getWorldPosition(d), 0.5);
    return out;
  };
  for (let row = 0; row < rows; row++) {
    const j = row >> 1;
    for (let k = 0; k < n; k++) {
      at(k, row, a);
      positions.push(a.x, a.y, a.z);
      skinIndex.push(k * joints + j, 0, 0, 0);
      skinWeight.push(1, 0, 0, 0);
      // the outer fold: the midpoint, pushed out from the skirt's axis (more toward the hem)
      at(k + 1, row, b);
      c.addVectors(a, b).multiplyScalar(0.5);
      const out = PLEAT * (0.4 + 0.6 * (row / (rows - 1)));
      d.set(c.x - rigs[0].root.matrixWorld.elements[12], 0, c.z - rigs[0].root.matrixWorld.elements[14]).setLength(out);
      positions.push(c.x + d.x, c.y, c.z + d.z);
      skinIndex.push(k * joints + j, ((k + 1) % n) * joints + j, 0, 0);
      skinWeight.push(0.5, 0.5, 0, 0);
    }
  }
  const mesh = skinnedRings(positions, skinIndex, skinWeight, cols, bones,
    new THREE.MeshStandardMaterial({ color, roughness: 0.8, side: THREE.DoubleSide, flatShading: true }));
  mesh.castShadow = mesh.receiveShadow = true;
  return mesh;
}
