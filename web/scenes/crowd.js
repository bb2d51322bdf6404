// A crowd on a plaza: many copies of the procedural humanoid (character/humanoid.js, sharing one
// skin geometry and the clips), each idling, walking or running round its own circle at its own
// phase, with a ponytail (a chain) and a small cape (cloth skinned to the shoulders), all in one
// world. Each character's objects form one CharacterLOD character (camera distance + frustum, with
// hysteresis) whose level caps a FrameBudget (a step-time budget in ms, nearer characters kept
// longer). A marker over each head and a tint of the body show the level each one runs at.
import * as THREE from 'three';
import { buildHumanoid } from './character/humanoid.js';
import { makeClips, ROOT_MOTION } from './character/clips.js';
import { skinnedStrand } from './hair-common.js';
import { ClothSkinning } from '../adapters/cloth-skinning.js';
import { ClothMesh } from '../adapters/cloth-mesh.js';
import { CharacterLOD } from '../adapters/lod.js';
import { FrameBudget } from '../../wasm/js/budget.js';
import { LEVELS } from '../../wasm/js/levels.js';
import { seededRandom } from './random.js';

const FROZEN = LEVELS.indexOf('frozen');
const LEVEL_COLORS = [0x3fd26b, 0xd8e03a, 0xf08a24, 0x4aa3ff, 0x808080];  // full, reduced, slow, frozen, off
const DISTANCES = [16, 26, 36, 55];  // m from the camera where reduced, slow, frozen and off start
const CELL = 4.5;                   // m between the centres of the characters' circles
const PONYTAIL = [[0, 0.16, -0.12], ...Array(6).fill([0, -0.07, -0.028])];
const COLLIDERS = ['pelvis', 'abdomen', 'chest', 'head', 'upperLegL', 'upperLegR'];
const CAPE = { bendCompliance: 0.002, shearCompliance: 1e-4, damping: 0.2, dragCoefficient: 1, liftCoefficient: 0.3, radius: 0.012, tethers: true, areaDensity: 0.4 };
const CAPE_W = 0.44, CAPE_H = 0.62, CAPE_RX = 6, CAPE_RY = 8, CAPE_TOP = 1.43, CAPE_BACK = -0.17;
const ponytailParams = { stiffness: 3, damping: 2, drag: 0.6, inertia: 0.1, radius: 0.03, radiusCurve: [[0, 1], [1, 0.5]], maxDistance: 0.15 };

// scratch (update and afterStep allocate nothing)
const M = new THREE.Matrix4(), Q = new THREE.Quaternion(), S = new THREE.Vector3(1, 1, 1), V = new THREE.Vector3(), C = new THREE.Color();
const UP = new THREE.Vector3(0, 1, 0);
const WHITE = new THREE.Color(1, 1, 1);

export default {
  name: 'crowd',
  title: 'Crowd',
  description: 'A plaza of skinned humanoids idling, walking and running, each with a ponytail and a small cape, all in one world. Each character\'s objects share a level (CharacterLOD: camera distance and frustum, with hysteresis), which caps a frame budget (FrameBudget) that lowers the farthest first. The marker over each head shows the level it runs at (green full, yellow every 2nd step, orange every 4th, blue frozen, grey off). Zoom out or lower the budget.',
  camera: { position: [0, 12, 22], target: [0, 0, 1] },
  worldDefaults: { substeps: 4, windSpeed: 1, turbulence: 0.3, windAzimuth: 30 },
  promote: ['substeps'],
  params: {
    count: { value: 56, min: 1, max: 120, step: 1, label: 'characters (rebuilds)', rebuild: true, tip: 'How many characters stand on the plaza (rebuilds).' },
    budgetMs: { value: 8, min: 0.1, max: 30, step: 0.1, label: 'step budget (ms)', tip: 'FrameBudget: ms per fixed step the capes and ponytails may take (estimated from measured steps). Over it, the farthest characters go to every 2nd step, every 4th, then frozen.' },
    markers: { value: true, label: 'level markers', tip: 'A marker over each head in the colour of the level it runs at.' },
    tint: { value: true, label: 'tint bodies by level', tip: 'Tints each body toward the colour of its level.' },
  },

  create(ctx) {
    const { world, params, root } = ctx;
    const rnd = seededRandom(7);
    const clips = makeClips();
    const names = ['idle', 'walk', 'run'];
    const budget = new FrameBudget(world, { budgetMs: params.budgetMs, calibrateEvery: 60 });
    const lod = new CharacterLOD({ distances: DISTANCES, margin: 1, offscreen: 'frozen', budget });
    let sharedGeometry = null;
    const n = params.count, cols = Math.ceil(Math.sqrt(n * 1.2)), rows = Math.ceil(n / cols);
    const characters = [];
    for (let i = 0; i < n; i++) {
      const col = i % cols, row = Math.floor(i / cols);
      const cx = (col - (cols - 1) / 2) * CELL + (rnd() - 0.5), cz = (row - (rows - 1) / 2) * CELL + (rnd() - 0.5);
      const clip = names[i % 3 === 0 ? 0 : rnd() < 0.6 ? 1 : 2];
      const radius = 1.2 + 0.6 * rnd(), dir = rnd() < 0.5 ? 1 : -1;
      const angle = rnd() * 2 * Math.PI;
      const group = 1 << (i % 31);  // each character's capes and ponytail feel only their own body (and one far away)

      const material = new THREE.MeshLambertMaterial({ vertexColors: true });
      const human = buildHumanoid({ geometry: sharedGeometry, material });
      sharedGeometry ??= human.mesh.geometry;
      const body = human.root, bones = human.bones;
      // built facing +z at its spot, then turned to its heading (cape and ponytail with it)
      const speed = ROOT_MOTION[clip].speed;
      const x = speed > 0 ? cx + radius * Math.cos(angle) : cx, z = speed > 0 ? cz + radius * Math.sin(angle) : cz;
      body.position.set(x, 0, z);
      root.add(body);
      body.updateMatrixWorld(true);

      const colliders = human.shapes.filter((s) => COLLIDERS.includes(s.name)).map((s) => ({ bone: s.bone, local: s.local, collider: world.addCollider({ ...s.def, groups: group }) }));
      const ponytail = skinnedStrand(world, bones.head, PONYTAIL, { ...ponytailParams, colliderMask: group }, { radius: 0.028, tipRadius: 0.008, color: 0x3b2a20, endLength: 0.04 });
      ponytail.mesh.material.dispose();
      ponytail.mesh.material = new THREE.MeshLambertMaterial({ color: [0x3b2a20, 0x8a5a2b, 0xd9b26a, 0x1d1a18][i % 4] });
      root.add(ponytail.mesh);
      const cape = world.addCloth({ grid: { width: CAPE_W, height: CAPE_H, resolutionX: CAPE_RX, resolutionY: CAPE_RY, position: [x - CAPE_W / 2, CAPE_TOP, z + CAPE_BACK] }, ...CAPE, colliderMask: group });
      const pins = [];
      for (let k = 0; k <= CAPE_RX; k++) {
        const u = -CAPE_W / 2 + (CAPE_W * k) / CAPE_RX;
        pins.push({ particle: k, bone: u > 0.06 ? bones.shoulderL : u < -0.06 ? bones.shoulderR : bones.chest });
      }
      const capeSkin = new ClothSkinning(world, cape, pins);
      const capeMesh = new ClothMesh(cape, { material: new THREE.MeshLambertMaterial({ color: new THREE.Color().setHSL(rnd(), 0.6, 0.4), side: THREE.DoubleSide }) });
      root.add(capeMesh);

      // the heading: along the circle for walkers and runners, any way for idlers
      const yaw = speed > 0 ? Math.atan2(-dir * Math.sin(angle), dir * Math.cos(angle)) : angle;
      body.quaternion.setFromAxisAngle(UP, yaw);
      body.updateMatrixWorld(true);
      cape.teleport({ rotation: [Math.sin(0.13), 0, 0, Math.cos(0.13)], pivot: [x, CAPE_TOP, z + CAPE_BACK] });  // swung back 15° off the body
      cape.teleport({ rotation: [0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)], pivot: [x, 0, z] });
      ponytail.rig.teleport();

      const mixer = new THREE.AnimationMixer(body);
      const action = mixer.clipAction(clips[clip]);
      action.play();
      action.time = rnd() * clips[clip].duration;  // its own phase
      mixer.timeScale = 0.9 + 0.2 * rnd();

      const c = {
        body, bones, human, material, colliders, ponytail, cape, capeSkin, capeMesh, mixer, clip,
        cx, cz, radius, dir, angle, yaw, speed: speed * mixer.timeScale,
        level: 0, shown: -1, carried: false, carry: new THREE.Matrix4(), priority: -1,
        objects: [cape, ponytail.rig.chain],
      };
      // bounds: a 1 m sphere round the hips
      const center = (sphere) => { sphere.center.set(body.position.x, 1, body.position.z); sphere.radius = 1; };
      c.lod = lod.add({ objects: c.objects, bounds: center, hide: [capeMesh, ponytail.mesh] });
      for (const o of c.objects) budget.add(o, { priority: 1 });
      characters.push(c);
    }

    // one marker per character over its head, in its level's colour
    const markers = new THREE.InstancedMesh(new THREE.OctahedronGeometry(0.1), new THREE.MeshBasicMaterial(), n);
    markers.frustumCulled = false;
    for (let i = 0; i < n; i++) markers.setColorAt(i, C.setHex(LEVEL_COLORS[0]));
    root.add(markers);

    // the shell's fog hides everything past 20 m; the plaza is wider (restored in dispose)
    const fog = root.parent?.fog ?? null, fogWas = fog ? [fog.near, fog.far] : null;
    if (fog) { fog.near = 30; fog.far = 90; }

    const state = {
      fog, fogWas, ctx, world, budget, lod, characters, markers, sharedGeometry, budgetMs: params.budgetMs,
      counts: new Int32Array(LEVELS.length), capCounts: new Int32Array(LEVELS.length),
      stepStart: 0, frames: 0, jsMs: 0, jsAvg: 0, degradedCharacters: 0,
    };
    for (const c of characters) {
      moveBody(c, 0, true);
      pinsOntoBones(c.capeSkin);
    }
    state.probe = () => probe(state);
    return state;
  },

  apply(state, params) {
    if (params.budgetMs !== state.budgetMs) {
      state.budget.budgetMs = params.budgetMs;  // re-plans
      state.budgetMs = params.budgetMs;
    }
    state.markers.visible = params.markers;
    for (const c of state.characters) c.shown = -1;  // redraw markers and tints
  },

  update(state, time, dt) {
    const t0 = performance.now();
    const { characters, lod, budget } = state;
    for (const c of characters) moveBody(c, dt, false);
    lod.update(state.ctx.camera);
    // priorities by distance, in 5 m bands (a change re-plans the budget; bands change rarely)
    if (state.frames % 30 === 0) {
      for (const c of characters) {
        const p = Math.max(0, 20 - Math.floor(c.lod.distance / 5));
        if (p !== c.priority) {
          c.priority = p;
          for (const o of c.objects) budget.setPriority(o, p);
        }
      }
    }
    const t1 = performance.now();
    state.jsMs = t1 - t0;
    state.stepStart = t1;
  },

  afterStep(state, params) {
    const t0 = performance.now();
    const { characters, budget, world, counts, capCounts, markers } = state;
    // the fixed steps just run, measured, teach the budget its cost per unit of work
    const fixed = world.lastStep.fixedSteps;
    if (state.frames > 0 && fixed > 0) budget.measure((t0 - state.stepStart) / fixed);
    counts.fill(0);
    capCounts.fill(0);
    let recolor = false;
    for (let i = 0; i < characters.length; i++) {
      const c = characters[i];
      c.ponytail.rig.afterStep();
      // the level it runs at: the lower of its objects' (the budget may lower one before the other)
      let level = 0;
      for (const o of c.objects) level = Math.max(level, LEVELS.indexOf(budget.levelOf(o)));
      c.level = level;
      counts[level]++;
      capCounts[LEVELS.indexOf(c.lod.level)]++;
      carryFrozenCape(c, level >= FROZEN);
      if (!c.carried) c.capeMesh.update();
      if (c.shown !== level) {
        c.shown = level;
        markers.setColorAt(i, C.setHex(LEVEL_COLORS[level]));
        recolor = true;
        if (params.tint) c.material.color.copy(WHITE).lerp(C, 0.45);
        else c.material.color.copy(WHITE);
      }
      if (markers.visible) {
        V.set(c.body.position.x, 2.05, c.body.position.z);
        markers.setMatrixAt(i, M.compose(V, Q.identity(), S));
      }
    }
    markers.instanceMatrix.needsUpdate = true;
    if (recolor) markers.instanceColor.needsUpdate = true;
    state.jsMs += performance.now() - t0;
    state.jsAvg = state.frames < 2 ? state.jsMs : 0.97 * state.jsAvg + 0.03 * state.jsMs;
    if (state.frames++ % 15 === 0) state.ctx.setInfo(infoText(state));
  },

  dispose(state) {
    if (state.fog) [state.fog.near, state.fog.far] = state.fogWas;
    for (const c of state.characters) {
      c.capeSkin.dispose();
      c.mixer.stopAllAction();
      c.human.mesh.skeleton.dispose();
      c.ponytail.mesh.skeleton.dispose();
    }
  },
};

// Root motion (round its circle at the clip's speed, or standing), the clip, then the colliders,
// the cape's pins and the ponytail's root to the new pose.
function moveBody(c, dt, teleport) {
  const { body } = c;
  c.mixer.update(dt);
  if (c.speed > 0) {
    c.angle += (c.dir * c.speed * dt) / c.radius;
    const s = Math.sin(c.angle), k = Math.cos(c.angle);
    body.position.set(c.cx + c.radius * k, 0, c.cz + c.radius * s);
    c.yaw = Math.atan2(-c.dir * s, c.dir * k);  // facing along the circle
    body.quaternion.setFromAxisAngle(UP, c.yaw);
  }
  body.updateMatrixWorld(true);
  const options = teleport ? TELEPORT : undefined;
  for (const p of c.colliders) p.collider.setMatrix(M.multiplyMatrices(p.bone.matrixWorld, p.local).elements, options);
  c.capeSkin.beforeStep();
  c.ponytail.rig.beforeStep();
}
const TELEPORT = { teleport: true };

// The cape's pin anchors jump to where the bones put them (the first pose: no sweep from the bind pose).
function pinsOntoBones(skin) {
  const p = [0, 0, 0];
  for (const { bone, offset: o, anchor } of skin.entries) {
    const e = bone.matrixWorld.elements;
    for (let k = 0; k < 3; k++) p[k] = e[k] * o[0] + e[4 + k] * o[1] + e[8 + k] * o[2] + e[12 + k];
    anchor.teleport(p);
  }
}

// A frozen cape keeps its particles where they were: drawn carried rigidly with the chest (its
// pose at the freeze times the chest's motion since), so it does not hang in the air behind.
function carryFrozenCape(c, frozen) {
  const mesh = c.capeMesh, chest = c.bones.chest;
  if (frozen && !c.carried) {
    c.carry.copy(chest.matrixWorld).invert();
    mesh.matrixAutoUpdate = false;
    c.carried = true;
  } else if (!frozen && c.carried) {
    mesh.matrix.identity();
    mesh.matrixAutoUpdate = true;
    c.carried = false;
    return;
  }
  if (c.carried) {
    mesh.matrix.multiplyMatrices(chest.matrixWorld, c.carry);
    mesh.matrixWorldNeedsUpdate = true;
  }
}

function infoText(state) {
  const { counts, capCounts, budget, characters } = state;
  const r = budget.report;
  // characters with at least one object the budget lowered below what the LOD allows
  let degraded = 0;
  for (const c of characters) if (c.level > LEVELS.indexOf(c.lod.level)) degraded++;
  state.degradedCharacters = degraded;
  const list = (a) => LEVELS.map((l, i) => `${l} ${a[i]}`).join('  ');
  return `${characters.length} characters, ${characters.length * 2} simulated objects\n` +
    `LOD (camera)   ${list(capCounts)}\n` +
    `running at     ${list(counts)}\n` +
    `budget ${r.budgetMs.toFixed(1)} ms: estimate ${r.estimateMs === null ? '– (calibrating)' : `${r.estimateMs.toFixed(2)} ms`}, ` +
    `degraded ${r.degraded.length} objects of ${degraded} characters\n` +
    `animation + adapters ${state.jsAvg.toFixed(2)} ms per frame (JS, mean)`;
}

// What the browser test reads: counts per level (LOD caps and what runs), the budget's report and
// whether every particle is finite.
function probe(state) {
  let finite = true, particles = 0;
  for (const c of state.characters) {
    for (const o of c.objects) {
      const p = o.positions;
      particles += p.length / 3;
      for (let i = 0; i < p.length; i++) if (!Number.isFinite(p[i])) finite = false;
    }
  }
  infoText(state);
  const r = state.budget.report;
  return {
    characters: state.characters.length,
    particles, finite,
    lod: Object.fromEntries(LEVELS.map((l, i) => [l, state.capCounts[i]])),
    running: Object.fromEntries(LEVELS.map((l, i) => [l, state.counts[i]])),
    degraded: r.degraded.length,
    degradedCharacters: state.degradedCharacters,
    budgetMs: r.budgetMs, estimateMs: r.estimateMs, msPerUnit: r.msPerUnit, calibrations: r.calibrations,
  };
}
