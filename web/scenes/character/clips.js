// Keyframed clips for the humanoid (humanoid.js), played by three.js's AnimationMixer: idle,
// walk, run, jump and turn. Each is a pose function of the time in its cycle (Euler angles in
// rad per bone, the hips' height), sampled into QuaternionKeyframeTracks and one hips position
// track; the last key equals the first, so every clip loops seamlessly.
// The clips animate in place; the scene moves the character's root by ROOT_MOTION, weighted by
// each action's blend weight (walking and running go round a circle, turn spins on the spot).
import * as THREE from 'three';

const HIPS = 0.95;  // m: the hips' bind height
const pos = (x) => Math.max(0, x);

// Every clip drives every one of these bones (blending then never falls back to the bind pose).
const BONES = ['hips', 'spine', 'chest', 'neck', 'head', 'shoulderL', 'shoulderR', 'upperArmL', 'upperArmR', 'lowerArmL', 'lowerArmR',
  'handL', 'handR', 'upperLegL', 'upperLegR', 'lowerLegL', 'lowerLegR', 'footL', 'footR'];

// A pose: { bone: [x, y, z] Euler (rad) } and hips [x, y, z] (m); missing bones rest.
function gait(p, { legs, knee, arms, elbow, lean, bob, low, twist }) {
  const s = Math.sin(p), c = Math.cos(p);
  return {
    hipsPosition: [0, HIPS - low - bob * s * s, 0],
    hips: [0, twist * s, 0.03 * c],
    spine: [lean, -0.6 * twist * s, 0],
    chest: [0.3 * lean, -0.6 * twist * s, 0],
    head: [-0.8 * lean, 0.3 * twist * s, 0],
    upperLegL: [-legs * s - 0.2 * knee, 0, 0],
    upperLegR: [legs * s - 0.2 * knee, 0, 0],
    // the knee folds as the leg swings forward (c > 0 for the left leg)
    lowerLegL: [0.1 + knee * pos(c) ** 1.5 + 0.2 * knee, 0, 0],
    lowerLegR: [0.1 + knee * pos(-c) ** 1.5 + 0.2 * knee, 0, 0],
    footL: [-0.3 * knee * pos(c), 0, 0],
    footR: [-0.3 * knee * pos(-c), 0, 0],
    upperArmL: [arms * s, 0, 0.05],
    upperArmR: [-arms * s, 0, -0.05],
    lowerArmL: [-elbow - 0.15 * arms * pos(-s), 0, 0],
    lowerArmR: [-elbow - 0.15 * arms * pos(s), 0, 0],
  };
}

function idle(t, T) {
  const p = (2 * Math.PI * t) / T, s = Math.sin(p), c = Math.cos(p);
  return {
    hipsPosition: [0.012 * s, HIPS - 0.006 * (1 - Math.cos(2 * p)), 0],
    hips: [0, 0.05 * s, -0.03 * s],
    spine: [0.02 * Math.sin(2 * p), 0, 0.02 * s],
    chest: [0.03 * Math.sin(2 * p), -0.04 * s, 0.01 * s],   // breathing
    head: [0.05 * c, 0.45 * Math.sin(p + 0.6), 0],          // looks around
    upperLegL: [0, 0, 0.03 * s], upperLegR: [0, 0, 0.03 * s],
    upperArmL: [0.04 * s, 0, 0.06], upperArmR: [-0.04 * s, 0, -0.06],
    lowerArmL: [-0.18, 0, 0], lowerArmR: [-0.18, 0, 0],
  };
}

function jump(t) {
  // crouch 0-0.3 s, push off 0.3-0.42, flight 0.42-0.95, land 0.95-1.15, stand up by 1.5
  const ease = (a, b, x) => { const u = Math.min(1, Math.max(0, (x - a) / (b - a))); return u * u * (3 - 2 * u); };
  const crouch = ease(0, 0.3, t) * (1 - ease(0.3, 0.42, t)) + ease(0.95, 1.1, t) * 0.8 * (1 - ease(1.1, 1.5, t));
  const u = (t - 0.42) / (0.95 - 0.42);
  const flight = u > 0 && u < 1 ? 4 * u * (1 - u) : 0;
  const k = crouch + 0.5 * flight;  // the legs tuck in the air
  return {
    hipsPosition: [0, HIPS - 0.22 * crouch + 0.45 * flight, 0],
    hips: [0.1 * crouch, 0, 0],
    spine: [0.35 * crouch, 0, 0],
    chest: [0.1 * crouch - 0.1 * flight, 0, 0],
    head: [-0.3 * crouch, 0, 0],
    upperLegL: [-0.75 * k, 0, 0.05 * flight], upperLegR: [-0.75 * k, 0, -0.05 * flight],
    lowerLegL: [1.5 * k, 0, 0], lowerLegR: [1.5 * k, 0, 0],
    footL: [-0.75 * crouch, 0, 0], footR: [-0.75 * crouch, 0, 0],
    shoulderL: [0, 0, 0.15 * flight], shoulderR: [0, 0, -0.15 * flight],
    upperArmL: [0.8 * crouch - 2.4 * flight, 0, 0.15 * flight], upperArmR: [0.8 * crouch - 2.4 * flight, 0, -0.15 * flight],
    lowerArmL: [-0.3 - 0.4 * flight, 0, 0], lowerArmR: [-0.3 - 0.4 * flight, 0, 0],
  };
}

function turn(t, T) {
  const p = (2 * Math.PI * t) / T, s = Math.sin(p);
  return {
    hipsPosition: [0, HIPS - 0.02 * Math.abs(s), 0],
    hips: [0, 0.1, 0.03 * s],
    spine: [0.04, 0.08, -0.04],
    head: [0, 0.25, 0],  // looks into the turn
    upperLegL: [-0.45 * pos(s), 0, 0], upperLegR: [-0.45 * pos(-s), 0, 0],
    lowerLegL: [0.9 * pos(s), 0, 0], lowerLegR: [0.9 * pos(-s), 0, 0],
    upperArmL: [0, 0, 0.22], upperArmR: [0, 0, -0.22],
    lowerArmL: [-0.35, 0, 0], lowerArmR: [-0.35, 0, 0],
  };
}

// name: [period (s), pose(t, T)]
const CLIPS = {
  idle: [3.2, idle],
  walk: [1.1, (t, T) => gait((2 * Math.PI * t) / T, { legs: 0.4, knee: 0.6, arms: 0.35, elbow: 0.25, lean: 0.04, bob: 0.03, low: 0.01, twist: 0.1 })],
  run: [0.7, (t, T) => gait((2 * Math.PI * t) / T, { legs: 0.8, knee: 1.3, arms: 0.7, elbow: 1.3, lean: 0.2, bob: 0.06, low: 0.04, twist: 0.15 })],
  jump: [1.5, jump],
  turn: [0.8, turn],
};

/** Root motion per clip at full weight: forward speed (m/s) and turn rate (rad/s, +y, i.e. to the left). */
export const ROOT_MOTION = {
  idle: { speed: 0, turn: 0 },
  walk: { speed: 1.25, turn: 0 },
  run: { speed: 3.4, turn: 0 },
  jump: { speed: 0, turn: 0 },
  turn: { speed: 0, turn: 2.2 },
};

export const CLIP_NAMES = Object.keys(CLIPS);

const SAMPLES = 32;  // keys per cycle
const euler = new THREE.Euler(), quat = new THREE.Quaternion();

/** The AnimationClips, by name. */
export function makeClips() {
  const out = {};
  for (const [name, [T, pose]] of Object.entries(CLIPS)) {
    const times = [], rot = Object.fromEntries(BONES.map((b) => [b, []])), hips = [];
    for (let i = 0; i <= SAMPLES; i++) {
      const t = i === SAMPLES ? 0 : (i / SAMPLES) * T;  // the last key repeats the first exactly
      const p = pose(t, T);
      times.push((i / SAMPLES) * T);
      hips.push(...p.hipsPosition);
      for (const b of BONES) {
        const e = p[b] ?? [0, 0, 0];
        quat.setFromEuler(euler.set(e[0], e[1], e[2]));
        rot[b].push(quat.x, quat.y, quat.z, quat.w);
      }
    }
    const tracks = [new THREE.VectorKeyframeTrack('hips.position', times, hips)];
    for (const b of BONES) tracks.push(new THREE.QuaternionKeyframeTrack(`${b}.quaternion`, times, rot[b]));
    out[name] = new THREE.AnimationClip(name, T, tracks);
  }
  return out;
}
