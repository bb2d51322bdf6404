// A procedural humanoid: a bone hierarchy (hips, spine, chest, neck, head, shoulders, arms, legs)
// and one SkinnedMesh built from capsule-ish segments. Each segment is also a collider shape: the
// body the cloth and chains touch is the body that is drawn. Bind pose: standing, arms slightly
// out, facing +z, every bone's local rotation the identity (so a clip's rotations are the pose).
import * as THREE from 'three';
import { taperedCapsuleGeometry } from '../../adapters/collider-mesh.js';

// [name, parent, offset from the parent (m)]; L is the character's left (+x)
const BONES = [
  ['hips', null, [0, 0.95, 0]],
  ['spine', 'hips', [0, 0.1, 0]],
  ['chest', 'spine', [0, 0.16, 0]],
  ['neck', 'chest', [0, 0.19, 0]],
  ['head', 'neck', [0, 0.1, 0]],
  ...['L', 'R'].flatMap((s) => {
    const x = s === 'L' ? 1 : -1;
    return [
      [`shoulder${s}`, 'chest', [0.07 * x, 0.15, 0]],
      [`upperArm${s}`, `shoulder${s}`, [0.13 * x, -0.01, 0]],
      [`lowerArm${s}`, `upperArm${s}`, [0.03 * x, -0.27, 0]],
      [`hand${s}`, `lowerArm${s}`, [0.02 * x, -0.24, 0]],
      [`upperLeg${s}`, 'hips', [0.09 * x, -0.06, 0]],
      [`lowerLeg${s}`, `upperLeg${s}`, [0, -0.42, 0]],
      [`foot${s}`, `lowerLeg${s}`, [0, -0.41, 0]],
    ];
  }),
];

const SKIN = 0xe0b08e, SHIRT = 0x3d6f8f, TROUSERS = 0x2c2f3a, SHOES = 0x1a1a1d, HAIR = 0x3b2a20;

// Segments in their bone's frame: a capsule from `from` (radius r) to `to` (radius rTop), or a
// sphere at `at`. `blend`: the bone the far end's skin leans on (elbows and knees bend smoothly).
// collider: false for parts nothing hangs against (feet, nose, hair cap).
const SHAPES = [
  { bone: 'hips', name: 'pelvis', from: [-0.07, 0, 0], to: [0.07, 0, 0], r: 0.12, color: TROUSERS },
  { bone: 'spine', name: 'abdomen', from: [0, 0, 0], to: [0, 0.16, 0], r: 0.115, color: SHIRT },
  { bone: 'chest', name: 'chest', from: [0, 0, 0], to: [0, 0.09, 0], r: 0.13, rTop: 0.135, color: SHIRT },
  { bone: 'neck', name: 'neck', from: [0, 0, 0], to: [0, 0.1, 0], r: 0.045, color: SKIN },
  { bone: 'head', name: 'head', at: [0, 0.1, 0], r: 0.11, color: SKIN },
  { bone: 'head', name: 'hair', at: [0, 0.115, -0.008], r: 0.112, color: HAIR, collider: false, cap: true },
  { bone: 'head', name: 'nose', at: [0, 0.085, 0.108], r: 0.018, color: SKIN, collider: false },
  ...['L', 'R'].flatMap((s) => {
    const x = s === 'L' ? 1 : -1;
    return [
      { bone: `shoulder${s}`, name: `shoulder${s}`, from: [0, 0, 0], to: [0.13 * x, -0.01, 0], r: 0.055, color: SHIRT },
      { bone: `upperArm${s}`, name: `upperArm${s}`, from: [0, 0, 0], to: [0.03 * x, -0.27, 0], r: 0.05, rTop: 0.04, color: SHIRT, blend: `lowerArm${s}` },
      { bone: `lowerArm${s}`, name: `lowerArm${s}`, from: [0, 0, 0], to: [0.02 * x, -0.22, 0], r: 0.04, rTop: 0.032, color: SKIN, blend: `hand${s}` },
      { bone: `hand${s}`, name: `hand${s}`, at: [0.005 * x, -0.06, 0.005], r: 0.042, color: SKIN },
      { bone: `upperLeg${s}`, name: `upperLeg${s}`, from: [0, 0, 0], to: [0, -0.42, 0], r: 0.075, rTop: 0.052, color: TROUSERS, blend: `lowerLeg${s}` },
      { bone: `lowerLeg${s}`, name: `lowerLeg${s}`, from: [0, 0, 0], to: [0, -0.37, 0], r: 0.052, rTop: 0.04, color: TROUSERS },
      { bone: `foot${s}`, name: `foot${s}`, from: [0, -0.015, -0.04], to: [0, -0.015, 0.13], r: 0.042, rTop: 0.036, color: SHOES, collider: false },
    ];
  }),
];

const Y = new THREE.Vector3(0, 1, 0);

/** A shape's pose in its bone's frame and its ColliderDef (capsule axis along local +y, radius at the -y end). */
function shapeFrame(s) {
  const m = new THREE.Matrix4();
  if (s.at) return { local: m.makeTranslation(s.at[0], s.at[1], s.at[2]), def: { type: 'sphere', radius: s.r }, halfHeight: 0 };
  const a = new THREE.Vector3(...s.from), b = new THREE.Vector3(...s.to);
  const axis = b.clone().sub(a);
  const halfHeight = axis.length() / 2;
  const q = new THREE.Quaternion().setFromUnitVectors(Y, axis.normalize());
  m.compose(a.add(b).multiplyScalar(0.5), q, new THREE.Vector3(1, 1, 1));
  return { local: m, def: { type: 'capsule', radius: s.r, radiusTop: s.rTop ?? s.r, halfHeight }, halfHeight };
}

const smoothstep = (a, b, x) => { const t = Math.min(1, Math.max(0, (x - a) / (b - a))); return t * t * (3 - 2 * t); };

/**
 * Builds the humanoid under a new Group (the character's root, moved by root motion).
 * Returns { root, mesh, bones: { name: Bone }, shapes: [{ name, bone, local: Matrix4, def }] }:
 * `shapes` are the collider shapes, `local` their pose in the bone's frame.
 * options.geometry: another humanoid's mesh geometry to share (a crowd builds the skin once);
 * options.material: the mesh's material (default a vertex-coloured MeshStandardMaterial).
 */
export function buildHumanoid({ geometry: shared = null, material = null } = {}) {
  const root = new THREE.Group();
  root.name = 'character';
  const bones = {};
  const list = [];
  for (const [name, parent, o] of BONES) {
    const b = new THREE.Bone();
    b.name = name;
    b.position.set(o[0], o[1], o[2]);
    (parent ? bones[parent] : root).add(b);
    bones[name] = b;
    list.push(b);
  }
  root.updateMatrixWorld(true);
  const boneIndex = new Map(list.map((b, i) => [b.name, i]));

  const positions = [], normals = [], colors = [], skinIndex = [], skinWeight = [], index = [];
  const shapes = [];
  const v = new THREE.Vector3(), n = new THREE.Vector3(), color = new THREE.Color(), nm = new THREE.Matrix3();
  for (const s of SHAPES) {
    const { local, def, halfHeight } = shapeFrame(s);
    if (s.collider !== false) shapes.push({ name: s.name, bone: bones[s.bone], local, def });
    if (shared) continue;
    let g = s.at
      ? new THREE.SphereGeometry(s.r, 28, 16, 0, Math.PI * 2, 0, s.cap ? Math.PI * 0.52 : Math.PI)
      : taperedCapsuleGeometry(s.r, s.rTop ?? s.r, halfHeight, { segments: 20, arcSegments: 6 });
    if (s.cap) g.rotateX(-0.35);  // the hair cap covers the back of the head more than the forehead
    if (!g.index) g = g.toNonIndexed();
    const world = bones[s.bone].matrixWorld.clone().multiply(local);
    nm.getNormalMatrix(world);
    color.setHex(s.color).convertSRGBToLinear();
    const base = positions.length / 3;
    const p = g.attributes.position, nn = g.attributes.normal;
    const self = boneIndex.get(s.bone), child = s.blend ? boneIndex.get(s.blend) : self;
    for (let i = 0; i < p.count; i++) {
      v.fromBufferAttribute(p, i);
      // how far along the segment (0 at its bone, 1 at the far end): the far end half follows the next bone
      const t = halfHeight > 0 ? (v.y + halfHeight) / (2 * halfHeight) : 0;
      const w = s.blend ? 0.5 * smoothstep(0.75, 1.2, t) : 0;
      v.applyMatrix4(world);
      n.fromBufferAttribute(nn, i).applyMatrix3(nm).normalize();
      positions.push(v.x, v.y, v.z);
      normals.push(n.x, n.y, n.z);
      colors.push(color.r, color.g, color.b);
      skinIndex.push(self, child, 0, 0);
      skinWeight.push(1 - w, w, 0, 0);
    }
    const idx = g.index.array;
    for (let i = 0; i < idx.length; i++) index.push(base + idx[i]);
    g.dispose();
  }
  let geometry = shared;
  if (!geometry) {
    geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    geometry.setAttribute('normal', new THREE.Float32BufferAttribute(normals, 3));
    geometry.setAttribute('color', new THREE.Float32BufferAttribute(colors, 3));
    geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
    geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
    geometry.setIndex(index);
  }
  const mesh = new THREE.SkinnedMesh(geometry, material ?? new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.7 }));
  mesh.name = 'body';
  mesh.castShadow = mesh.receiveShadow = true;
  mesh.frustumCulled = false;  // the bind-pose bounds do not follow the animation
  root.add(mesh);
  mesh.bind(new THREE.Skeleton(list));  // geometry is in the root's frame, as the bones are now
  return { root, mesh, bones, shapes };
}
