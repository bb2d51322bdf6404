// Chain parameter presets: conversions from the parameter sets of Dynamic Bone (Unity),
// KawaiiPhysics (Unreal) and VRM 1.0 (VRMC_springBone) to ChainParams, and presets as JSON.
//
// Those tools define their parameters per frame at a reference rate; Wisp's are per second.
// The conversions (docs/physics.md, "Chain presets") are:
//   a fraction f of velocity removed per frame at F Hz   ->  damping  = -ln(1 - f) * F   (1/s)
//   a fraction e of the offset to the pose pulled back per frame (a Verlet spring)
//                                                        ->  stiffness = F * sqrt(e)   (1/s, the spring's
//                                                            angular frequency), elasticity = 1
//   Dynamic Bone's stiffness s (a max offset of 2 (1 - s) bone lengths from the pose)
//                                                        ->  limitAngle = 2 asin(1 - s)   (rad)
//   displacements per frame^2                            ->  accelerations * F^2   (m/s^2)
// VRM joints are reproduced exactly by mode 'vrm' (three-vrm's per-frame rule), so their values
// pass through unchanged, one curve key per joint.

const LN = Math.log;

function rate(fractionPerFrame, hz) {
  const f = Math.min(Math.max(fractionPerFrame, 0), 0.999999);
  return -LN(1 - f) * hz;
}
function springFrequency(fractionPerFrame, hz) {
  return hz * Math.sqrt(Math.min(Math.max(fractionPerFrame, 0), 1));
}
function limitFromDynamicBoneStiffness(s) {
  return 2 * Math.asin(Math.min(1, Math.max(0, 1 - s)));
}
// A keyframed distribution ([{ time, value }] or [[t, v]]) mapped through fn(base * value) / fn(base),
// so a curve of a nonlinear parameter still multiplies the converted base value.
function mapCurve(keys, base, fn) {
  if (!keys || keys.length === 0) return undefined;
  const b = fn(base);
  return keys.map((k) => {
    const t = Array.isArray(k) ? k[0] : k.time ?? k.t;
    const v = Array.isArray(k) ? k[1] : k.value;
    return [t, b === 0 ? 0 : fn(base * v) / b];
  });
}
function plainCurve(keys) {
  if (!keys || keys.length === 0) return undefined;
  return keys.map((k) => (Array.isArray(k) ? [k[0], k[1]] : [k.time ?? k.t, k.value]));
}
function clean(o) {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/**
 * Dynamic Bone (Unity) -> ChainParams. Input fields: damping, elasticity, stiffness, inert,
 * radius, gravity [x,y,z], force [x,y,z], endLength (in units of the last bone), and the
 * *Distrib curves; `frameRate` is the rate the values were tuned at (default 60).
 * Returns { params, endLengthRatio }: multiply endLengthRatio by the last bone's length.
 */
export function fromDynamicBone(db, { frameRate = 60 } = {}) {
  const F = frameRate;
  const damping = db.damping ?? 0.1, elasticity = db.elasticity ?? 0.1, stiffness = db.stiffness ?? 0.1;
  const g = db.gravity ?? [0, 0, 0], force = db.force ?? [0, 0, 0];
  const params = clean({
    mode: 'wisp',
    damping: rate(damping, F),
    stiffness: springFrequency(elasticity, F),
    elasticity: 1,
    limitAngle: limitFromDynamicBoneStiffness(stiffness),
    inertia: db.inert ?? 0,
    radius: db.radius ?? 0,
    gravity: [g[0] * F * F, g[1] * F * F, g[2] * F * F],
    externalForce: [force[0] * F * F, force[1] * F * F, force[2] * F * F],
    drag: 0,
    dampingCurve: mapCurve(db.dampingDistrib, damping, (d) => rate(d, F)),
    stiffnessCurve: mapCurve(db.elasticityDistrib, elasticity, (e) => springFrequency(e, F)),
    limitAngleCurve: mapCurve(db.stiffnessDistrib, stiffness, limitFromDynamicBoneStiffness),
    inertiaCurve: plainCurve(db.inertDistrib),
    radiusCurve: plainCurve(db.radiusDistrib),
  });
  return { params, endLengthRatio: db.endLength ?? 0 };
}

// Unreal is Z up, X forward, left-handed, centimetres; three.js is Y up, -Z forward, metres.
function fromUnreal(v) { return [v[1] / 100, v[2] / 100, -v[0] / 100]; }

/**
 * KawaiiPhysics (Unreal) -> ChainParams. Input fields (PhysicsSettings): Damping, Stiffness,
 * WorldDampingLocation, Radius (cm), LimitAngle (degrees), Gravity (cm/s^2, Unreal axes),
 * TargetFramerate (default 60), and the *Curve keys. KawaiiPhysics already scales its per-frame
 * fractions by the frame time, so TargetFramerate is the reference rate.
 */
export function fromKawaiiPhysics(k) {
  const F = k.TargetFramerate ?? 60;
  const damping = k.Damping ?? 0.1, stiffness = k.Stiffness ?? 0.05;
  const params = clean({
    mode: 'wisp',
    damping: rate(damping, F),
    stiffness: springFrequency(stiffness, F),
    elasticity: 1,
    inertia: 1 - (k.WorldDampingLocation ?? 0.8),
    radius: (k.Radius ?? 3) / 100,
    limitAngle: k.LimitAngle ? (k.LimitAngle * Math.PI) / 180 : Math.PI,
    gravity: k.Gravity ? fromUnreal(k.Gravity) : undefined,
    drag: 0,
    dampingCurve: mapCurve(k.DampingCurve, damping, (d) => rate(d, F)),
    stiffnessCurve: mapCurve(k.StiffnessCurve, stiffness, (s) => springFrequency(s, F)),
    radiusCurve: plainCurve(k.RadiusCurve),
    limitAngleCurve: plainCurve(k.LimitAngleCurve),
  });
  return { params };
}

/**
 * VRM 1.0 (VRMC_springBone) joints -> ChainParams for mode 'vrm'. `joints` are the spring's
 * joints in order, each { stiffness, gravityPower, gravityDir, dragForce, hitRadius } (VRM's
 * names and defaults); `boneLengths` are the rest lengths of bones 0..n-2 (joint k to k+1).
 * Joint k's settings move joint k+1, so they become the curve key at joint k+1. The gravity
 * direction of the first joint is used for the whole chain.
 */
export function fromVRMSpring(joints, boneLengths) {
  if (!Array.isArray(joints) || joints.length < 2) throw new TypeError('a VRM spring needs at least 2 joints');
  if (boneLengths.length !== joints.length - 1) throw new TypeError('boneLengths must have one entry per bone (joints - 1)');
  const total = boneLengths.reduce((a, b) => a + b, 0);
  const t = [0];
  for (const l of boneLengths) t.push(t[t.length - 1] + l / total);
  t[t.length - 1] = 1;
  const key = (name, def) => {
    const keys = [[0, joints[0][name] ?? def]];
    for (let j = 1; j < joints.length; j++) keys.push([t[j], joints[j - 1][name] ?? def]);
    return keys;
  };
  const dir = joints[0].gravityDir ?? [0, -1, 0];
  const d = Array.isArray(dir) ? dir : [dir.x, dir.y, dir.z];
  return {
    params: {
      mode: 'vrm',
      stiffness: 1, stiffnessCurve: key('stiffness', 1),
      damping: 1, dampingCurve: key('dragForce', 0.5),
      gravityScale: 1, gravityCurve: key('gravityPower', 0),
      gravity: d,
      radius: 1, radiusCurve: key('hitRadius', 0),
    },
  };
}

/**
 * A joint's VRMC_springBone_limit extension object (draft 1.0: { specVersion, limit: { cone |
 * hinge | spherical } }, angles in radians, rotation [x, y, z, w]) as a Wisp VrmLimit. As the
 * draft says, an angle of pi or more means pi and a yaw of pi/2 or more means pi/2; a negative or
 * non-number angle, or more or fewer than one shape, is a TypeError naming it.
 */
export function fromVRMLimit(ext, where = 'VRMC_springBone_limit') {
  const limit = ext && typeof ext === 'object' ? ext.limit : undefined;
  if (!limit || typeof limit !== 'object') throw new TypeError(`${where}.limit must be an object`);
  const shapes = ['cone', 'hinge', 'spherical'].filter((k) => limit[k] !== undefined);
  if (shapes.length !== 1) throw new TypeError(`${where}.limit must hold exactly one of cone, hinge, spherical (got ${shapes.length ? shapes.join(', ') : 'none'})`);
  const type = shapes[0], shape = limit[type];
  const angle = (name, max) => {
    const v = shape[name];
    if (typeof v !== 'number' || !(v >= 0)) throw new TypeError(`${where}.limit.${type}.${name} must be a number >= 0 (got ${v})`);
    return Math.min(v, max);
  };
  const out = { type };
  if (type === 'spherical') {
    out.pitch = angle('pitch', Math.PI);
    out.yaw = angle('yaw', Math.PI / 2);
  } else {
    out.angle = angle('angle', Math.PI);
  }
  if (shape.rotation !== undefined) out.rotation = [...shape.rotation];
  return out;
}

const PRESET_FORMAT = 'wisp-chain-preset';

/** A preset as JSON text: { format, version, name, params }. */
export function savePreset(params, name = '') {
  return JSON.stringify({ format: PRESET_FORMAT, version: 1, name, params }, null, 2);
}

/** Reads a preset saved by savePreset; returns { name, params } (check params with chain.set). */
export function loadPreset(json) {
  let o;
  try { o = JSON.parse(json); } catch (e) { throw new TypeError(`preset is not JSON: ${e.message}`); }
  if (!o || o.format !== PRESET_FORMAT) throw new TypeError(`preset format must be '${PRESET_FORMAT}'`);
  if (o.version !== 1) throw new TypeError(`preset version ${o.version} is not supported (this build reads 1)`);
  if (!o.params || typeof o.params !== 'object') throw new TypeError('preset has no params object');
  return { name: o.name ?? '', params: o.params };
}
