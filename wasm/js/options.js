// The option tables: for each definition and params object, its keys and the check of each value
// (args.js). pick() rejects any key not listed here.
import { fail, num, int, bool, vec3, quat, objectArg, pick, uint32, curve, oneOf } from './args.js';

const COLLIDER_TYPES = { sphere: 0, capsule: 1, plane: 2, box: 3 };
const COLLIDER_TYPE_NAMES = ['sphere', 'capsule', 'plane', 'box'];
const ROPE_PARAMS = {
  radius: num, stretchCompliance: num, bending: bool, bendCompliance: num, damping: num, drag: num,
  gravityScale: num, yieldRatio: num, plasticity: num, collide: bool, tethers: bool, colliderMask: (v, n) => uint32(v, n),
  maxSpeed: num, teleportDistance: num, teleportAngle: num, sleepSpeed: num, sleepTime: num, updateEvery: int,
  maxSubsteps: int,
};
const ROPE_DEF = { ...ROPE_PARAMS, start: vec3, end: vec3, segments: int, massPerLength: num };
const CLOTH_PARAMS = {
  radius: num, stretchCompliance: num, shearCompliance: num, bendCompliance: num, bending: bool, tethers: bool,
  tetherSlack: num, damping: num, gravityScale: num, dragCoefficient: num, liftCoefficient: num, airDensity: num,
  residualTolerance: num, pressure: num, tetherCompliance: num, volumeCompliance: num, collide: bool, selfCollision: bool, colliderMask: (v, n) => uint32(v, n),
  maxSpeed: num, teleportDistance: num, teleportAngle: num, sleepSpeed: num, sleepTime: num, updateEvery: int,
  maxSubsteps: int,
};
const CLOTH_DEF = { ...CLOTH_PARAMS, weldDistance: num, areaDensity: num };
const GRID = { width: num, height: num, resolutionX: int, resolutionY: int, position: vec3, rotation: quat };
const WIND = { direction: vec3, speed: num, turbulence: num, turbulenceScale: num, seed: (v, n) => { int(v, n); if (v < 0 || v > 0xffffffff) fail(`${n} must be in [0, 4294967295]`); return v; } };
const WORLD = {
  gravity: vec3, fixedDt: num, substeps: int, iterations: int, maxFrameDt: num, rejectFrameDt: num,
  collisions: bool, debugChecks: bool, threads: (v, n) => (v === 'auto' ? 0 : int(v, n)), wind: (v, n) => pick(objectArg(v, n), WIND, n),
};
const ZONE = { position: vec3, rotation: quat, radius: num, halfExtents: vec3, falloff: num, wind: (v, n) => pick(objectArg(v, n), WIND, n) };
const ZONE_SHAPES = { sphere: 0, box: 1 };
const COLLIDER = {
  position: vec3, rotation: quat, radius: num, radiusTop: num, halfHeight: num, halfExtents: vec3, friction: num,
  enabled: bool, inside: bool, groups: uint32,
};
const CHAIN_MODES = { wisp: 0, vrm: 1 };
const CHAIN_SPACES = { world: 0, relative: 1 };
// One VRMC_springBone_limit limit (draft 1.0) per bone, VRM mode; angles in radians.
const VRM_LIMIT_TYPES = { none: 0, cone: 1, hinge: 2, spherical: 3 };
const VRM_LIMIT = { type: oneOf(VRM_LIMIT_TYPES), angle: num, pitch: num, yaw: num, rotation: quat };
function vrmLimits(v, name) {
  if (!Array.isArray(v)) fail(`${name} must be an array of limits ({ type, angle, pitch, yaw, rotation } or null), one per bone`);
  return v.map((l, i) => (l === null ? { type: 0 } : pick(objectArg(l, `${name}[${i}]`), VRM_LIMIT, `${name}[${i}]`)));
}
const CHAIN_PARAMS = {
  mode: oneOf(CHAIN_MODES), space: oneOf(CHAIN_SPACES), damping: num, stiffness: num, elasticity: num, inertia: num,
  gravityScale: num, gravity: (v, n) => (v === null ? null : vec3(v, n)), externalForce: vec3, drag: num, radius: num,
  limitAngle: num, hinge: bool, hingeAxis: vec3, collide: bool, colliderMask: uint32, spaceInertia: num,
  teleportDistance: num, teleportAngle: num, warmupSteps: int, maxDistance: num,
  dampingCurve: curve, stiffnessCurve: curve, elasticityCurve: curve, inertiaCurve: curve, gravityCurve: curve,
  externalForceCurve: curve, radiusCurve: curve, limitAngleCurve: curve, maxDistanceCurve: curve,
  sleepSpeed: num, sleepTime: num, updateEvery: int,
  backstop: bool, backstopNormal: vec3, backstopDistance: num, backstopRadius: num, backstopCurve: curve,
  vrmLimits, vrmWind: num,
};
const CHAIN_BOOST = { stiffness: num, damping: num, drag: num, gravity: num };
const CHAIN_LINKS_PARAMS = { loop: bool, diagonals: bool, compliance: num, stretch: num, collide: bool, fromJoint: int };
const CHAIN_DEF = { ...CHAIN_PARAMS, position: vec3, rotation: quat, endLength: num };

export {
  COLLIDER_TYPES, COLLIDER_TYPE_NAMES, ROPE_PARAMS, ROPE_DEF, CLOTH_PARAMS, CLOTH_DEF, GRID, WIND, WORLD, ZONE, ZONE_SHAPES,
  COLLIDER, CHAIN_MODES, CHAIN_SPACES, CHAIN_PARAMS, CHAIN_BOOST, CHAIN_DEF, VRM_LIMIT, VRM_LIMIT_TYPES, CHAIN_LINKS_PARAMS,
};
