// The playground shell: renderer, camera, a fixed-rate simulation loop, lil-gui panels built from
// each scene's params, mouse interaction (drag handles, grab rope points, shift-click to cut) and
// a small contract for automated tests (window.__ready, window.__app).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import GUI from 'lil-gui';
import { createWisp, DETERMINISM_GOLDEN_HASH } from '../wasm/js/index.js';
import { RopeMesh } from './adapters/rope-mesh.js';
import { ClothMesh } from './adapters/cloth-mesh.js';
import { colliderMesh, placeMesh } from './adapters/collider-mesh.js';
import { scenes } from './scenes/index.js';

const query = new URLSearchParams(location.search);
const testMode = query.has('test');             // fixed 1/60 s per frame, for reproducible tests
const maxFrame = 0.25;                          // s: longer gaps (tab switch) are not simulated

// ---- three.js ------------------------------------------------------------------------------
const container = document.getElementById('app');
const renderer = new THREE.WebGLRenderer({ antialias: !testMode });
renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
renderer.setSize(innerWidth, innerHeight);
container.appendChild(renderer.domElement);
const scene3 = new THREE.Scene();
scene3.background = new THREE.Color(0x1b1f27);
const camera = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.01, 100);
const controls = new OrbitControls(camera, renderer.domElement);
scene3.add(new THREE.HemisphereLight(0xdfe8ff, 0x30261c, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.8);
sun.position.set(3, 6, 4);
scene3.add(sun);
addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});

// ---- parameters -------------------------------------------------------------------------------
// World parameters shared by every scene; each scene adds its own.
const worldParams = {
  gravityX: { value: 0, min: -20, max: 20, step: 0.01, label: 'gravity x (m/s²)' },
  gravityY: { value: -9.81, min: -20, max: 20, step: 0.01, label: 'gravity y (m/s²)' },
  gravityZ: { value: 0, min: -20, max: 20, step: 0.01, label: 'gravity z (m/s²)' },
  windAzimuth: { value: 0, min: -180, max: 180, step: 1, label: 'wind direction (°)' },
  windSpeed: { value: 0, min: 0, max: 20, step: 0.1, label: 'wind speed (m/s)' },
  turbulence: { value: 0, min: 0, max: 2, step: 0.01, label: 'turbulence' },
  collisions: { value: true, label: 'collisions' },
  friction: { value: 0.3, min: 0, max: 2, step: 0.01, label: 'friction' },
  substeps: { value: 8, min: 1, max: 64, step: 1, label: 'substeps' },
  iterations: { value: 1, min: 1, max: 16, step: 1, label: 'iterations' },
  threads: { value: 0, options: { auto: 0, '1': 1, '2': 2, '3': 3, '4': 4 }, label: 'threads' },
  paused: { value: false, label: 'paused' },
};

const params = {};     // the live values lil-gui edits: one flat object for world + scene
let gui = null;
let wisp = null;
let app = null;        // the running scene: { def, world, state, ropes, colliders, handles }

function specsToValues(specs) {
  const out = {};
  for (const [k, s] of Object.entries(specs)) out[k] = s.value;
  return out;
}

function worldSettings() {
  const a = (params.windAzimuth * Math.PI) / 180;
  return {
    gravity: [params.gravityX, params.gravityY, params.gravityZ],
    substeps: params.substeps,
    iterations: params.iterations,
    collisions: params.collisions,
    threads: params.threads,
    wind: { direction: [Math.cos(a), 0, Math.sin(a)], speed: params.windSpeed, turbulence: params.turbulence, seed: 1 },
  };
}

// ---- scene lifecycle --------------------------------------------------------------------------
const root = new THREE.Group();
scene3.add(root);

function startScene(name, keepParams = false) {
  stopScene();
  stepCount = 0;  // a new scene's step times start afresh
  const def = scenes.find((s) => s.name === name) ?? scenes[0];
  // scene defaults for world params first (e.g. wind on in the curtain), then the scene's own
  if (!keepParams) Object.assign(params, specsToValues(worldParams), def.worldDefaults ?? {}, specsToValues(def.params));
  params.scene = def.name;
  const world = wisp.createWorld(worldSettings());
  app = { def, world, ropes: [], cloths: [], colliders: [], handles: [], state: null, time: 0, frames: 0 };
  const ctx = {
    wisp, world, params, three: THREE, root,
    addRope(rope, options) {
      const mesh = new RopeMesh(rope, options);
      root.add(mesh);
      app.ropes.push({ rope, mesh });
      return mesh;
    },
    addCloth(cloth, options) {
      const mesh = new ClothMesh(cloth, options);
      root.add(mesh);
      app.cloths.push({ cloth, mesh });
      return mesh;
    },
    addCollider(def) {
      const collider = world.addCollider({ friction: params.friction, ...def });
      collider.setEnabled(def.enabled ?? true);
      const mesh = colliderMesh(def);
      placeMesh(mesh, def.position ?? [0, 0, 0], def.rotation);
      root.add(mesh);
      const entry = { collider, mesh, def };
      app.colliders.push(entry);
      return {
        collider, mesh,
        move(position, rotation = [0, 0, 0, 1]) { collider.setTransform(position, rotation); placeMesh(mesh, position, rotation); },
      };
    },
    addHandle(anchor, position) {
      const mesh = new THREE.Mesh(new THREE.SphereGeometry(0.05, 16, 8), new THREE.MeshStandardMaterial({ color: 0xffd23f, emissive: 0x332800 }));
      mesh.position.set(...position);
      root.add(mesh);
      const handle = { anchor, mesh };
      app.handles.push(handle);
      return handle;
    },
  };
  camera.position.set(...(def.camera?.position ?? [0, 1.6, 4.5]));
  controls.target.set(...(def.camera?.target ?? [0, 1, 0]));
  controls.update();
  app.state = def.create(ctx);
  def.apply?.(app.state, params);
  document.getElementById('title').textContent = `Wisp · ${def.title}`;
  document.getElementById('description').textContent = def.description;
  buildGui();
}

function stopScene() {
  if (!app) return;
  app.def.dispose?.(app.state);
  for (const obj of [...root.children]) {
    root.remove(obj);
    obj.traverse?.((o) => { o.geometry?.dispose(); o.material?.dispose?.(); });
  }
  app.world.dispose();
  app = null;
}

// ---- GUI --------------------------------------------------------------------------------------
function addControllers(folder, specs, onChange) {
  for (const [key, s] of Object.entries(specs)) {
    let c;
    if (s.options) c = folder.add(params, key, s.options);
    else if (typeof s.value === 'boolean') c = folder.add(params, key);
    else c = folder.add(params, key, s.min, s.max, s.step);
    c.name(s.label ?? key);
    c.onChange((v) => onChange(key, v, s));
  }
}

function buildGui() {
  gui?.destroy();
  gui = new GUI({ title: 'Wisp' });
  gui.add(params, 'scene', scenes.map((s) => s.name)).name('scene').onChange((n) => startScene(n));
  const w = gui.addFolder('World');
  addControllers(w, worldParams, (key) => {
    if (key === 'friction') {
      for (const c of app.colliders) c.collider.setFriction(params.friction);
    } else if (key !== 'paused') {
      app.world.set(worldSettings());
    }
  });
  const s = gui.addFolder(app.def.title);
  addControllers(s, app.def.params, (key, value, spec) => {
    if (spec.rebuild) startScene(app.def.name, true);
    else app.def.apply?.(app.state, params);
  });
  gui.add({ reset: () => startScene(app.def.name) }, 'reset').name('reset scene');
  if (window.__app) window.__app.gui = gui;
}

// ---- interaction ------------------------------------------------------------------------------
const pointer = new THREE.Vector2();
const raycaster = new THREE.Raycaster();
const dragPlane = new THREE.Plane();
const hit = new THREE.Vector3();
const tmp = new THREE.Vector3();
let drag = null;   // { anchor, handle?, rope?, particle?, temporary }

function toScreen(x, y, z) {
  tmp.set(x, y, z).project(camera);
  return [(tmp.x * 0.5 + 0.5) * innerWidth, (-tmp.y * 0.5 + 0.5) * innerHeight];
}

// The rope or cloth particle nearest to a screen point (within maxDist pixels).
function nearestParticle(px, py, maxDist = 18) {
  let best = null, bestD = maxDist * maxDist;
  for (const body of [...app.ropes.map((r) => r.rope), ...app.cloths.map((c) => c.cloth)]) {
    if (body.disposed) continue;
    const p = body.positions;
    for (let i = 0; i < p.length / 3; i++) {
      const [sx, sy] = toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      const d = (sx - px) ** 2 + (sy - py) ** 2;
      if (d < bestD) { bestD = d; best = { rope: body, particle: i }; }
    }
  }
  return best;
}

function nearestSegment(px, py, maxDist = 12) {
  let best = null, bestD = maxDist;
  for (const { rope } of app.ropes) {
    const p = rope.positions;
    for (let i = 0; i + 1 < p.length / 3; i++) {
      const [ax, ay] = toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      const [bx, by] = toScreen(p[3 * i + 3], p[3 * i + 4], p[3 * i + 5]);
      const vx = bx - ax, vy = by - ay, len2 = vx * vx + vy * vy || 1;
      const t = Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / len2));
      const d = Math.hypot(ax + t * vx - px, ay + t * vy - py);
      if (d < bestD) { bestD = d; best = { rope, segment: i }; }
    }
  }
  return best;
}

function startDrag(point) {
  camera.getWorldDirection(tmp);
  dragPlane.setFromNormalAndCoplanarPoint(tmp, point);
  controls.enabled = false;
}

renderer.domElement.addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || !app) return;
  pointer.set((e.clientX / innerWidth) * 2 - 1, -(e.clientY / innerHeight) * 2 + 1);
  if (e.shiftKey) {
    const s = nearestSegment(e.clientX, e.clientY);
    if (s) {
      const tail = s.rope.cut(s.segment);
      const original = app.ropes.find((r) => r.rope === s.rope);
      ctxAddRopeLike(tail, original.mesh);
    }
    return;
  }
  raycaster.setFromCamera(pointer, camera);
  const handleHit = raycaster.intersectObjects(app.handles.map((h) => h.mesh))[0];
  if (handleHit) {
    const handle = app.handles.find((h) => h.mesh === handleHit.object);
    drag = { anchor: handle.anchor, handle, temporary: false };
    startDrag(handle.mesh.position);
    return;
  }
  const p = nearestParticle(e.clientX, e.clientY);
  if (p && !p.rope.particle(p.particle).pinned) {
    const pos = p.rope.positions;
    const at = new THREE.Vector3(pos[3 * p.particle], pos[3 * p.particle + 1], pos[3 * p.particle + 2]);
    const anchor = app.world.addAnchor([at.x, at.y, at.z]);
    p.rope.pin(p.particle, anchor);
    drag = { anchor, rope: p.rope, particle: p.particle, temporary: true };
    startDrag(at);
  }
}, { capture: true });

addEventListener('pointermove', (e) => {
  if (!drag) return;
  pointer.set((e.clientX / innerWidth) * 2 - 1, -(e.clientY / innerHeight) * 2 + 1);
  raycaster.setFromCamera(pointer, camera);
  if (raycaster.ray.intersectPlane(dragPlane, hit)) {
    drag.anchor.setPosition([hit.x, hit.y, hit.z]);
    drag.handle?.mesh.position.copy(hit);
  }
});

addEventListener('pointerup', () => {
  if (!drag) return;
  if (drag.temporary) {
    if (!drag.rope.disposed) drag.rope.unpin(drag.particle);
    drag.anchor.dispose();
  }
  drag = null;
  controls.enabled = true;
});

function ctxAddRopeLike(rope, mesh) {
  const m = new RopeMesh(rope, { radius: mesh.radius, sides: mesh.sides, color: mesh.material.color.getHex() });
  root.add(m);
  app.ropes.push({ rope, mesh: m });
}

// ---- loop -------------------------------------------------------------------------------------
const statsEl = document.getElementById('stats');
let lastTime = performance.now(), frames = 0;
// The median of the last 60 step times: steady under the odd slow frame (a first step that
// builds lists, a GC pause, the OS taking the core), unlike a running mean.
const stepTimes = new Float64Array(60);
let stepCount = 0;
function medianStepMs() {
  const n = Math.min(stepCount, stepTimes.length);
  if (n === 0) return 0;
  const sorted = stepTimes.slice(0, n).sort();
  return n % 2 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
let hold = false;  // tests: render only, step only through __app.advance()

function advance(dt) {
  if (!params.paused) {
    app.def.update?.(app.state, app.time, dt, params);
    const t0 = performance.now();
    app.world.step(dt);
    const ms = performance.now() - t0;
    app.def.afterStep?.(app.state, params);
    if (app.frames > 0) stepTimes[stepCount++ % stepTimes.length] = ms;  // not a scene's first step (it builds its lists)
    app.time += dt;
    app.frames++;
  }
  for (const r of app.ropes) if (!r.rope.disposed) r.mesh.update();
  for (const c of app.cloths) if (!c.cloth.disposed) c.mesh.update();
}

function frame(now) {
  const dt = testMode ? 1 / 60 : Math.min((now - lastTime) / 1000, maxFrame);
  lastTime = now;
  if (app && dt > 0 && !hold) advance(dt);
  renderer.render(scene3, camera);
  frames++;
  if (frames % 10 === 1 && app) {
    const s = app.world.stats();
    let text =
      `step      ${stepCount ? `${medianStepMs().toFixed(3)} ms (median of ${Math.min(stepCount, stepTimes.length)})` : '–'}\n` +
      `particles ${s.particles}   constraints ${s.constraints}\n` +
      `threads   ${s.threads} (${wisp.threaded ? 'pthreads' : 'single-threaded build'})\n` +
      `SIMD      ${s.simd ? 'on' : 'off'}   isolated ${self.crossOriginIsolated ? 'yes' : 'no'}`;
    const cloth = app.cloths.find((c) => !c.cloth.disposed && c.cloth._world === app.world);
    if (cloth) {
      const c = cloth.cloth.stats();
      text += `\ncloth     ${c.stretchConstraints} stretch, ${c.shearConstraints} shear, ${c.bendConstraints} bend, ${c.tethers} tethers` +
        `\nstrain    max ${(100 * c.maxStrain).toFixed(2)}%  mean ${(100 * c.meanStrain).toFixed(3)}%  (${c.substeps} substeps, ${c.iterations} iterations)`;
    }
    const chains = app.state?.chains;
    if (chains?.length) {
      let err = 0, joints = 0;
      for (const c of chains) { const st = c.stats(); err = Math.max(err, st.maxLengthError); joints += st.joints; }
      text += `\nchains    ${chains.length} (${joints} joints)  bone length error ${(err * 1e6).toFixed(2)} µm`;
    }
    statsEl.textContent = text;
  }
  if (frames === 2) window.__ready = true;
  requestAnimationFrame(frame);
}

// ---- start ------------------------------------------------------------------------------------
try {
  wisp = await createWisp();
  startScene(query.get('scene') ?? scenes[0].name);
  window.__app = {
    get params() { return params; },
    gui,
    get wisp() { return wisp; },
    get world() { return app.world; },
    get kind() { return wisp.threaded ? 'mt' : 'st'; },
    get frames() { return app.frames; },
    renderer, camera,
    scenes: scenes.map((s) => s.name),
    start: startScene,
    reset: () => startScene(app.def.name),
    hold(on) { hold = on; },
    advance(n, dt = 1 / 60) { for (let i = 0; i < n; i++) advance(dt); renderer.render(scene3, camera); },
    hash: () => app.world.stateHash(),
    golden: DETERMINISM_GOLDEN_HASH,
    ropeCount: () => app.ropes.filter((r) => !r.rope.disposed).length,
    clothPositions: (k = 0) => Array.from(app.cloths[k].cloth.positions),
    clothScreenOf: (k, i) => { const p = app.cloths[k].cloth.positions; return toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]); },
    clothStats: (k = 0) => app.cloths[k].cloth.stats(),
    chainCount: () => app.state?.chains?.length ?? 0,
    chainPositions: (k = 0) => Array.from(app.state.chains[k].positions),
    chainStats: (k = 0) => app.state.chains[k].stats(),
    positions: (k = 0) => Array.from(app.ropes[k].rope.positions),
    screenOf: (k, i) => { const p = app.ropes[k].rope.positions; return toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]); },
    handleScreen: (k = 0) => { const m = app.handles[k].mesh.position; return toScreen(m.x, m.y, m.z); },
  };
  window.__stats = () => ({ frames, stepMs: medianStepMs() });
  requestAnimationFrame(frame);
} catch (e) {
  const el = document.getElementById('error');
  el.style.display = 'block';
  el.textContent = `Wisp failed to start:\n${e.message}`;
  throw e;
}
