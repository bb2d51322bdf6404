// Pose math for the per-frame setters: positions, quaternions and matrices read into one scratch
// pose without allocating, and handed to the native wisp_set_pose export.
import { fail, num } from './args.js';

// Per-frame setters fill this scratch pose (x y z, qx qy qz qw) instead of making arrays, so a
// frame's calls allocate nothing. The numbers are checked in place, not handed to num(): a double
// passed to a call V8 does not inline is boxed (an allocation per frame).
const POSE = new Float64Array(8);  // x y z, qx qy qz qw, uniform scale
function readPose(position, rotation) {
  POSE[7] = 1;
  readPosition(position);
  readRotation(rotation);
  return POSE;
}
// Every kind of argument has its own loads, and positions and rotations their own functions: one
// load that sees both small-integer arrays ([0, 0, 0, 1]) and Float64Arrays, or objects and
// arrays, makes the optimizing compiler box what it reads — an allocation per call in a program
// that passes both, as the three.js adapters and their users do (tests/js/alloc-probe.mjs).
function readPosition(v) {
  if (v && typeof v === 'object' && 'x' in v) {
    const x = v.x, y = v.y, z = v.z;
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') checkNumbers(v, 'position');
    POSE[0] = x; POSE[1] = y; POSE[2] = z;
  } else if (ArrayBuffer.isView(v)) {
    if (v.length !== 3) fail('position must have 3 elements');
    POSE[0] = v[0]; POSE[1] = v[1]; POSE[2] = v[2];
  } else {
    if (!v || v.length !== 3) fail('position must be [x, y, z] or {x, y, z}');
    const x = v[0], y = v[1], z = v[2];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') checkNumbers(v, 'position');
    POSE[0] = x; POSE[1] = y; POSE[2] = z;
  }
}
function readRotation(q) {
  if (q && typeof q === 'object' && 'w' in q) {
    const x = q.x, y = q.y, z = q.z, w = q.w;
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number') checkNumbers(q, 'rotation');
    POSE[3] = x; POSE[4] = y; POSE[5] = z; POSE[6] = w;
  } else if (ArrayBuffer.isView(q)) {
    if (q.length !== 4) fail('rotation must have 4 elements');
    POSE[3] = q[0]; POSE[4] = q[1]; POSE[5] = q[2]; POSE[6] = q[3];
  } else {
    if (!q || q.length !== 4) fail('rotation must be [x, y, z, w] or {x, y, z, w}');
    const x = q[0], y = q[1], z = q[2], w = q[3];
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number') checkNumbers(q, 'rotation');
    POSE[3] = x; POSE[4] = y; POSE[5] = z; POSE[6] = w;
  }
}
// Throws the error num() would for the first non-number of a vector or quaternion.
function checkNumbers(v, name) {
  if ('x' in v) for (const k of ['x', 'y', 'z', 'w']) { if (k in v || k !== 'w') num(v[k], `${name}.${k}`); }
  else for (let i = 0; i < v.length; i++) num(v[i], `${name}[${i}]`);
}
// A column-major 4x4 matrix (three.js Matrix4.elements) into POSE; the rotation has the scale
// removed and POSE[7] holds the x scale. A mirrored matrix (negative determinant) has no rigid
// pose: it is an error, never read as another pose. With `uniform` (the caller's name), a
// non-uniform scale is an error too: a chain's bones and a collider's shape cannot follow it.
// Numbers pass through ROTATION, not as arguments: a double handed to a call V8 does not inline
// is boxed, an allocation per frame.
const ROTATION = new Float64Array(9);
function readMatrix(e, uniform = '') {
  if (!e || e.length !== 16) fail('matrix must have 16 elements (column-major)');
  // (not Math.hypot: its variadic builtin allocates on every call)
  const sx = Math.sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  const sy = Math.sqrt(e[4] * e[4] + e[5] * e[5] + e[6] * e[6]);
  const sz = Math.sqrt(e[8] * e[8] + e[9] * e[9] + e[10] * e[10]);
  if (!(sx > 0 && sy > 0 && sz > 0)) fail('matrix has a zero-length axis');
  const det = e[0] * (e[5] * e[10] - e[6] * e[9]) - e[4] * (e[1] * e[10] - e[2] * e[9]) + e[8] * (e[1] * e[6] - e[2] * e[5]);
  if (!(det > 0)) fail(`matrix is mirrored (determinant ${det} <= 0): a mirrored transform has no rotation; mirror the rest pose instead`);
  if (uniform && (Math.abs(sx - sy) > 1e-3 * sx || Math.abs(sx - sz) > 1e-3 * sx)) {
    fail(`${uniform}: matrix has a non-uniform scale (${sx}, ${sy}, ${sz}): it takes rotation, translation and a uniform scale only`);
  }
  POSE[7] = sx;
  POSE[0] = e[12]; POSE[1] = e[13]; POSE[2] = e[14];
  const R = ROTATION;
  R[0] = e[0] / sx; R[1] = e[4] / sy; R[2] = e[8] / sz;
  R[3] = e[1] / sx; R[4] = e[5] / sy; R[5] = e[9] / sz;
  R[6] = e[2] / sx; R[7] = e[6] / sy; R[8] = e[10] / sz;
  quatFromRotation(R, POSE, 3);
  return POSE;
}
/** The rigid pose of a column-major 4x4 matrix (three.js Matrix4.elements), scale removed: { position, rotation }. Throws for a mirrored matrix. */
export function poseFromMatrix(elements) {
  const P = readMatrix(elements);
  return { position: [P[0], P[1], P[2]], rotation: [P[3], P[4], P[5], P[6]] };
}
// `which` of the native wisp_set_pose export (bindings.cpp).
const POSE_COLLIDER = 0, POSE_COLLIDER_TELEPORT = 1, POSE_CHAIN_ROOT = 2, POSE_CHAIN_SPACE = 3, POSE_CHAIN_TELEPORT = 4;
function callPose(world, which, id, P) {
  const ptr = poseIo(world, P);
  world._check(world._module._wisp_set_pose(world._address, which, id, ptr));
}
// One root pose for the `count` chains whose ids World#setChainRoots wrote (wisp_set_chain_roots).
function callRoots(world, count, P) {
  const ptr = poseIo(world, P);
  world._check(world._module._wisp_set_chain_roots(world._address, count, ptr));
}
// P into the scratch block; its address.
function poseIo(world, P) {
  const io = world._io, f = io.f32;
  f[0] = P[0]; f[1] = P[1]; f[2] = P[2]; f[3] = P[3]; f[4] = P[4]; f[5] = P[5]; f[6] = P[6]; f[7] = P[7];
  return io.ptr;
}

// GLM's quat_cast (glm/gtc/quaternion.inl), operation for operation in doubles: the largest of
// 4w^2 - 1, 4x^2 - 1, 4y^2 - 1, 4z^2 - 1 picks the component to divide by (Shepperd's method),
// so a matrix gives the bits GLM gives (tests/js/pose-matrix.test.mjs). R: the row-major rotation;
// writes x y z w at out[o..].
function quatFromRotation(R, out, o) {
  const m00 = R[0], m01 = R[1], m02 = R[2], m10 = R[3], m11 = R[4], m12 = R[5], m20 = R[6], m21 = R[7], m22 = R[8];
  const fourX = m00 - m11 - m22, fourY = m11 - m00 - m22, fourZ = m22 - m00 - m11, fourW = m00 + m11 + m22;
  let biggest = 0, four = fourW;
  if (fourX > four) { four = fourX; biggest = 1; }
  if (fourY > four) { four = fourY; biggest = 2; }
  if (fourZ > four) { four = fourZ; biggest = 3; }
  const big = Math.sqrt(four + 1) * 0.5, mult = 0.25 / big;
  let x, y, z, w;
  if (biggest === 0) {
    w = big; x = (m21 - m12) * mult; y = (m02 - m20) * mult; z = (m10 - m01) * mult;
  } else if (biggest === 1) {
    w = (m21 - m12) * mult; x = big; y = (m10 + m01) * mult; z = (m02 + m20) * mult;
  } else if (biggest === 2) {
    w = (m02 - m20) * mult; x = (m10 + m01) * mult; y = big; z = (m21 + m12) * mult;
  } else {
    w = (m10 - m01) * mult; x = (m02 + m20) * mult; y = (m21 + m12) * mult; z = big;
  }
  out[o] = x; out[o + 1] = y; out[o + 2] = z; out[o + 3] = w;
}
const IDENTITY = Object.freeze([0, 0, 0, 1]);

export { POSE, readPose, readMatrix, callPose, callRoots, IDENTITY, POSE_COLLIDER, POSE_COLLIDER_TELEPORT, POSE_CHAIN_ROOT, POSE_CHAIN_SPACE, POSE_CHAIN_TELEPORT };
