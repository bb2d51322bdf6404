// The character: a procedural skinned humanoid (humanoid.js) playing keyframed clips through
// three.js's AnimationMixer (clips.js), dressed in a pleated skirt of linked chains, a
// ponytail, a cape skinned to the shoulder bones and a necklace rope, all in one world sharing
// the body's colliders (which follow the animated bones every frame) and the wind.
import * as THREE from 'three';
import { buildHumanoid } from './humanoid.js';
import { makeClips, ROOT_MOTION, CLIP_NAMES } from './clips.js';
import { buildSkirt } from './skirt.js';
import { LinkDebug, BackstopDebug } from './debug.js';
import { ClothSkinning } from '../../adapters/cloth-skinning.js';
import { ChainDebug, restOf } from '../../adapters/debug-drawer.js';
import { skinnedStrand } from '../hair-common.js';

const R = 2;               // m: radius of the circle walked and run round the origin
const BODY = 1, PROXY = 2;  // collider groups: the body; the skirt's stand-in that only the cape feels

// the ponytail's bone offsets, the first in the head bone's frame
const PONYTAIL = [[0, 0.16, -0.12], ...Array(8).fill([0, -0.055, -0.022])];

function skirtParams(p) {
  return {
    stiffness: p.skirtStiffness, damping: 2, drag: 1, inertia: 0.2, radius: 0.02, colliderMask: BODY,
    maxDistance: p.maxDistance, warmupSteps: p.warmup,
    backstop: p.backstop, backstopDistance: p.backstopDistance,
  };
}
function ponytailParams(p) {
  return {
    stiffness: p.ponytailStiffness, damping: 2, drag: 0.6, inertia: 0.1, radius: 0.03, radiusCurve: [[0, 1], [1, 0.5]],
    colliderMask: BODY, maxDistance: p.maxDistance, warmupSteps: p.warmup,
  };
}
const linkParams = (p) => ({ compliance: p.linkCompliance, loop: p.loop });
const CAPE = { bendCompliance: 0.002, shearCompliance: 1e-4, damping: 0.2, dragCoefficient: 1, liftCoefficient: 0.3, radius: 0.012, tethers: true, areaDensity: 0.4, colliderMask: BODY | PROXY };

// scratch (update and afterStep allocate nothing)
const M = new THREE.Matrix4(), V = new THREE.Vector3(), W = new THREE.Vector3(), Q = new THREE.Quaternion();
const UP = new THREE.Vector3(0, 1, 0);
const NONE = [];
// joint radii for the debug view: the ponytail's (10 joints) tapers from 3 cm, the skirt's are 2 cm
const debugRadius = (j, n) => (n > 6 ? 0.03 * (1 - 0.5 * (j / (n - 1))) : 0.02);
const wrap = (a) => a - 2 * Math.PI * Math.round(a / (2 * Math.PI));

export default {
  name: 'character',
  title: 'Character',
  description: 'A skinned humanoid playing keyframed clips (AnimationMixer), in a pleated skirt of linked chains, a ponytail, a cape skinned to the shoulders and a necklace rope, all against the body\'s colliders and in the wind. Pick a clip; try physics weight, max distance, link compliance and debug.',
  camera: { position: [-4.2, 1.7, 3.4], target: [-2, 1.0, 0] },
  worldDefaults: { windSpeed: 1.5, turbulence: 0.4, windAzimuth: 30 },
  promote: ['windSpeed', 'windAzimuth', 'turbulence'],
  params: {
    clip: { value: 'walk', options: CLIP_NAMES, label: 'clip', tip: 'The animation clip; changing it cross-fades (AnimationMixer) over the blend time. Walk and run go round a circle, turn spins on the spot.' },
    blendTime: { value: 0.4, min: 0, max: 2, step: 0.05, label: 'blend time (s)', tip: 'Cross-fade duration between clips (s).' },
    timeScale: { value: 1, min: 0, max: 2, step: 0.05, label: 'animation speed (×)', tip: 'Plays the clips (and the root motion) faster or slower.' },
    physicsWeight: { value: 1, min: 0, max: 1, step: 0.01, label: 'physics weight (chains)', tip: 'How much of the simulation the skirt and ponytail show over the animated pose: 0 = the animation exactly, 1 = fully simulated (Chain.setPhysicsWeight).' },
    weightFade: { value: 0.3, min: 0, max: 2, step: 0.05, label: 'weight fade (s)', tip: 'Time over which a new physics weight is reached (s of simulated time).' },
    maxDistance: { field: 'ChainParams.maxDistance', value: 0.15, min: 0, max: 0.5, step: 0.005, label: 'max distance (m, 0 = off)', tip: 'No skirt or ponytail joint strays farther than this from where the animation puts it (m).' },
    linkCompliance: { field: 'ChainLinksParams.compliance', value: 0.0001, min: 0, max: 0.01, step: 0.0001, label: 'link compliance (m/N)', tip: 'Inverse stiffness of the links between neighbouring skirt chains (XPBD α, m/N). 0 = rigid spacing.' },
    loop: { field: 'ChainLinksParams.loop', value: true, label: 'loop (close the skirt)', tip: 'Links the last skirt chain back to the first, closing the ring.' },
    backstop: { field: 'ChainParams.backstop', value: true, label: 'backstop', tip: 'Skirt joints are kept in front of a plane just inside where the animation puts them: legs push the skirt out, never through.' },
    backstopDistance: { field: 'ChainParams.backstopDistance', value: 0.03, min: 0, max: 0.2, step: 0.005, label: 'backstop distance (m)', tip: 'How far inside its animated position a skirt joint may go (m).' },
    skirtStiffness: { field: 'ChainParams.stiffness', value: 6, min: 0, max: 30, step: 0.1, label: 'skirt stiffness (1/s)', tip: 'Pull of the skirt chains toward their rest shape (1/s).' },
    ponytailStiffness: { field: 'ChainParams.stiffness', value: 3, min: 0, max: 30, step: 0.1, label: 'ponytail stiffness (1/s)', tip: 'Pull of the ponytail toward its rest shape (1/s).' },
    warmup: { field: 'ChainParams.warmupSteps', value: 30, min: 0, max: 240, step: 1, label: 'warm-up steps (rebuilds)', rebuild: true, tip: 'Fixed steps the chains run, held still, before their first output: they start settled instead of falling from the bind pose (rebuilds).' },
    follow: { value: true, label: 'camera follows', tip: 'The camera keeps the character in view as it moves.' },
    debug: { value: false, label: 'debug: colliders, joints, links, backstops', tip: 'Draws the body colliders, chain joints, the links between skirt chains (pink) and the skirt backstops (green).' },
  },

  create(ctx) {
    const { world, params, root } = ctx;
    ctx.addCollider({ type: 'plane', position: [0, 0, 0] });
    const human = buildHumanoid();
    const body = human.root;
    body.position.set(-R, 0, 0);  // on the circle round the origin, facing along it (+z)
    root.add(body);
    body.updateMatrixWorld(true);
    const bones = human.bones;

    // the body's colliders, from the same shapes as its mesh; drawn only in debug
    const parts = human.shapes.map((s) => ({ ...s, c: ctx.addCollider({ ...s.def, groups: BODY }) }));
    // the cape cannot feel the skirt's chains: it slides over this stand-in for the skirt instead
    const proxyLocal = new THREE.Matrix4().makeTranslation(0, -0.08, 0);
    parts.push({ name: 'skirt proxy', bone: bones.hips, local: proxyLocal,
      c: ctx.addCollider({ type: 'capsule', radius: 0.25, radiusTop: 0.2, halfHeight: 0.08, groups: PROXY }) });
    for (const p of parts) {
      p.c.mesh.matrixAutoUpdate = false;
      p.c.mesh.traverse((o) => { if (o.material) { o.material.wireframe = true; o.material.transparent = true; o.material.opacity = 0.5; } o.castShadow = false; });
    }

    // skirt, ponytail, cape, necklace
    const skirt = buildSkirt(world, bones.hips, skirtParams(params), { links: { loop: params.loop, diagonals: false, compliance: params.linkCompliance, collide: true, fromJoint: 1 } });
    root.add(skirt.mesh);
    const ponytail = skinnedStrand(world, bones.head, PONYTAIL, ponytailParams(params), { radius: 0.03, tipRadius: 0.008, color: 0x3b2a20, endLength: 0.04 });
    root.add(ponytail.mesh);
    const rx = 14, ry = 24, w = 0.56, top = 1.43, back = -0.17;
    const cape = world.addCloth({ grid: { width: w, height: 0.95, resolutionX: rx, resolutionY: ry, position: [-R - w / 2, top, back] }, ...CAPE });
    // swung back 15° about its top edge, so it starts outside the skirt's stand-in instead of popping out of it
    cape.teleport({ rotation: [Math.sin(0.13), 0, 0, Math.cos(0.13)], pivot: [-R, top, back] });
    const capePins = [];
    for (let i = 0; i <= rx; i++) {
      const x = -w / 2 + (w * i) / rx;
      capePins.push({ particle: i, bone: x > 0.06 ? bones.shoulderL : x < -0.06 ? bones.shoulderR : bones.chest });
    }
    const capeSkin = new ClothSkinning(world, cape, capePins);
    ctx.addCloth(cape, { color: 0xa3262a, label: 'cape' });
    const neck = [[-0.065, 1.425, 0.01], [0, 1.24, 0.155], [0.065, 1.425, 0.01]];
    const points = [];
    const segments = 20;
    for (let i = 0; i <= segments; i++) {
      const u = (2 * i) / segments, k = Math.min(1, Math.floor(u)), f = u - k;
      const a = neck[k], b = neck[Math.min(2, k + 1)];
      points.push(-R + a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f);
    }
    const necklace = world.addRope({ points, radius: 0.008, colliderMask: BODY, damping: 0.5, tethers: true });
    // the rope's ends skinned to the chest bone (ClothSkinning pins any body with pin())
    const necklaceSkin = new ClothSkinning(world, necklace, [{ particle: 0, bone: bones.chest }, { particle: segments, bone: bones.chest }]);
    ctx.addRope(necklace, { radius: 0.006, color: 0xd4a73a });
    const pendant = ctx.addObject(new THREE.Mesh(new THREE.OctahedronGeometry(0.022), new THREE.MeshStandardMaterial({ color: 0x49c6e5, metalness: 0.3, roughness: 0.2 })));

    // animation
    const mixer = new THREE.AnimationMixer(body);
    const clips = makeClips();
    const actions = {};
    for (const name of CLIP_NAMES) {
      actions[name] = mixer.clipAction(clips[name]);
      actions[name].play();
      actions[name].setEffectiveWeight(name === params.clip ? 1 : 0);
    }

    // debug views
    const debug = new THREE.Group();
    const linkDebug = new LinkDebug(skirt.chains.length * 8);
    const backstopDebug = new BackstopDebug(skirt.chains.length * 8);
    const chainDebug = new ChainDebug(skirt.chains.length * 8 + 16);
    debug.add(linkDebug, backstopDebug, chainDebug);
    root.add(debug);
    const hipsQ = new THREE.Quaternion(), headQ = new THREE.Quaternion();
    const debugChains = [
      ...skirt.chains.map((chain, k) => ({ chain, rest: restOf(skirt.offsets[k], hipsQ) })),
      { chain: ponytail.rig.chain, rest: restOf(PONYTAIL, headQ) },
    ];
    const backstops = skirt.chains.map((c, k) => ({ root: bones.hips, offsets: skirt.offsets[k], normal: skirt.normals[k] }));

    const state = {
      ctx, human, body, bones, parts, skirt, ponytail, cape, capeSkin, necklace, necklaceSkin, pendant, mixer, actions,
      debug, linkDebug, backstopDebug, chainDebug, debugChains, backstops, hipsQ, headQ,
      rigs: [...skirt.rigs, ponytail.rig],
      chains: [...skirt.chains, ponytail.rig.chain],
      cloths: [cape],
      links: skirt.links,
      pairs: skirt.links ? skirt.links.pairs() : new Int32Array(0),
      clip: params.clip, physicsWeight: 1,
      yaw: 0, speed: 0, follow: new THREE.Vector3(), frames: 0, jsMs: 0, jsAvg: 0,
      weights: Object.fromEntries(CLIP_NAMES.map((n) => [n, 0])),
    };
    // the first pose, with colliders and pins jumping there (no sweep from the origin)
    mixer.update(0);
    body.updateMatrixWorld(true);
    moveColliders(state, true);
    state.follow.copy(bones.hips.getWorldPosition(V));
    state.probe = () => probe(state);
    return state;
  },

  apply(state, params) {
    const { skirt, ponytail } = state;
    for (const r of skirt.rigs) r.chain.set(skirtParams(params));
    ponytail.rig.chain.set(ponytailParams(params));
    if (state.links) {
      state.links.set(linkParams(params));
      state.pairs = state.links.pairs();
    }
    if (params.physicsWeight !== state.physicsWeight) {
      for (const c of state.chains) c.setPhysicsWeight(params.physicsWeight, params.weightFade);
      state.physicsWeight = params.physicsWeight;
    }
    if (params.clip !== state.clip) {
      const from = state.actions[state.clip], to = state.actions[params.clip];
      to.reset().setEffectiveWeight(1);  // a jump starts from its crouch; a faded-out action is back at full weight
      from.crossFadeTo(to, params.blendTime, false);
      state.clip = params.clip;
    }
    state.mixer.timeScale = params.timeScale;
    state.debug.visible = params.debug;
    for (const p of state.parts) p.c.mesh.visible = params.debug;
  },

  update(state, time, dt) {
    const t0 = performance.now();
    const { mixer, body, actions, weights } = state;
    mixer.update(dt);
    // root motion: each clip's speed and turn rate, weighted as the mixer blends them
    let speed = 0, turn = 0;
    for (const name of CLIP_NAMES) {
      const wgt = actions[name].getEffectiveWeight();
      weights[name] = wgt;
      speed += wgt * ROOT_MOTION[name].speed;
      turn += wgt * ROOT_MOTION[name].turn;
    }
    speed *= mixer.timeScale;
    turn *= mixer.timeScale;
    if (speed > 0) {
      // steer along the circle round the origin (anticlockwise seen from above), back onto it if off
      const x = body.position.x, z = body.position.z, r = Math.sqrt(x * x + z * z) || 1;  // (not Math.hypot: it allocates)
      const pull = 1.5 * (r - R) / R;
      const dx = z / r - pull * x / r, dz = -x / r - pull * z / r;
      turn += speed / R + Math.min(1, speed) * 3 * wrap(Math.atan2(dx, dz) - state.yaw);
    }
    state.yaw += turn * dt;
    body.position.x += speed * Math.sin(state.yaw) * dt;
    body.position.z += speed * Math.cos(state.yaw) * dt;
    body.quaternion.setFromAxisAngle(UP, state.yaw);
    state.speed = speed;
    body.updateMatrixWorld(true);
    moveColliders(state, false);
    state.capeSkin.beforeStep();
    state.necklaceSkin.beforeStep();
    for (const r of state.rigs) r.beforeStep();
    state.jsMs = performance.now() - t0;
  },

  afterStep(state, params) {
    const t0 = performance.now();
    for (const r of state.rigs) r.afterStep();
    const n = state.necklace;
    if (!n.disposed && n.count > 10) {
      const p = n.positions;
      state.pendant.position.set(p[30], p[31] - 0.02, p[32]);
    }
    const { bones } = state;
    if (params.debug) {
      bones.hips.getWorldQuaternion(state.hipsQ);
      bones.head.getWorldQuaternion(state.headQ);
      state.chainDebug.update(state.debugChains, debugRadius, Math.PI);
      state.linkDebug.update(state.skirt.chains, state.pairs);
      state.backstopDebug.update(params.backstop ? state.backstops : NONE, params.backstopDistance);
    }
    if (params.follow) {
      // the camera and its orbit target shift with the hips (smoothed), keeping the user's orbit
      bones.hips.getWorldPosition(V);
      W.copy(state.follow);
      state.follow.lerp(V, 0.08);
      W.subVectors(state.follow, W);
      W.y = 0;
      const { camera, controls } = state.ctx;
      camera.position.add(W);
      controls.target.add(W);
    }
    state.jsMs += performance.now() - t0;
    // a running mean over about 30 frames (the first frames compile the code)
    state.jsAvg = state.frames < 2 ? state.jsMs : 0.97 * state.jsAvg + 0.03 * state.jsMs;
    if (state.frames++ % 15 === 0) {
      const wt = state.weights;
      state.ctx.setInfo(`clip weights  idle ${wt.idle.toFixed(2)}  walk ${wt.walk.toFixed(2)}  run ${wt.run.toFixed(2)}  jump ${wt.jump.toFixed(2)}  turn ${wt.turn.toFixed(2)}\n` +
        `root speed ${state.speed.toFixed(2)} m/s   skirt links ${state.links.linkCount}\n` +
        `animation + adapters ${state.jsAvg.toFixed(3)} ms per frame (JS, mean)`);
    }
  },

  dispose(state) {
    state.links?.dispose();
    state.capeSkin.dispose();
    state.necklaceSkin.dispose();
    state.mixer.stopAllAction();
    for (const m of [state.human.mesh, state.skirt.mesh, state.ponytail.mesh]) m.skeleton.dispose();  // bone textures
  },
};

// Every body collider to its bone's pose this frame (setMatrix: the bone's world matrix times
// the shape's offset), and its debug mesh with it.
function moveColliders(state, teleport) {
  const options = teleport ? { teleport: true } : undefined;
  for (const p of state.parts) {
    M.multiplyMatrices(p.bone.matrixWorld, p.local);
    p.c.collider.setMatrix(M.elements, options);
    p.c.mesh.matrix.copy(M);
  }
}

// What the browser test reads: the hips, a few bones, the dress, and how deep the cape reaches
// into the torso (chest and abdomen capsules; > 0 is inside).
function probe(state) {
  const { bones } = state;
  const world = (b) => b.getWorldPosition(new THREE.Vector3()).toArray();
  const torso = state.parts.filter((p) => p.name === 'chest' || p.name === 'abdomen');
  let inside = -Infinity;
  const cp = state.cape.positions;
  for (const p of torso) {
    M.multiplyMatrices(p.bone.matrixWorld, p.local);
    const h = p.def.halfHeight, a = new THREE.Vector3(0, -h, 0).applyMatrix4(M), b = new THREE.Vector3(0, h, 0).applyMatrix4(M);
    const ab = b.clone().sub(a), q = new THREE.Vector3();
    for (let i = 0; i < cp.length; i += 3) {
      q.set(cp[i], cp[i + 1], cp[i + 2]);
      const t = Math.min(1, Math.max(0, q.clone().sub(a).dot(ab) / ab.lengthSq()));
      const r = p.def.radius + (p.def.radiusTop - p.def.radius) * t;
      inside = Math.max(inside, r - q.distanceTo(a.clone().addScaledVector(ab, t)));
    }
  }
  return {
    hips: world(bones.hips),
    bones: ['head', 'handL', 'handR', 'footL', 'footR'].map((n) => world(bones[n])),
    skirtHem: state.skirt.chains.map((c) => Array.from(c.positions.slice(-3))),
    // where the animation (the rest shape on the hips) puts each hem joint
    skirtHemAnimated: state.skirt.offsets.map((o) => o.reduce((v, d) => v.add(new THREE.Vector3(...d)), new THREE.Vector3()).applyMatrix4(bones.hips.matrixWorld).toArray()),
    ponytail: Array.from(state.ponytail.rig.chain.positions),
    cape: Array.from(cp),
    necklace: Array.from(state.necklace.positions),
    capeInsideTorso: inside,
    weights: { ...state.weights },
    links: state.links ? state.links.linkCount : -1,
  };
}
