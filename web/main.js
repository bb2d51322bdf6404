// The playground shell: renderer, camera, a fixed-rate simulation loop, lil-gui panels built from
// each scene's params, mouse interaction (drag handles, grab rope points, shift-click to cut) and
// a small contract for automated tests (window.__ready, window.__app).
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import GUI from 'lil-gui';
import { createWisp } from '../wasm/js/index.js';
import { RopeMesh } from './adapters/rope-mesh.js';
import { ClothMesh } from './adapters/cloth-mesh.js';
import { colliderMesh, placeMesh } from './adapters/collider-mesh.js';
import { scenes } from './scenes/index.js';
import { Plot } from './teaching/plot.js';
import { Timeline } from './timeline.js';
import { inspectText } from './inspector.js';
import { worldParams, cores } from './world-params.js';

const query = new URLSearchParams(location.search);
const testMode = query.has('test');             // fixed 1/60 s per frame, for reproducible tests
const maxFrame = 0.25;                          // s: longer gaps (tab switch) are not simulated

// ---- three.js ------------------------------------------------------------------------------
const container = document.getElementById('app');
const renderer = new THREE.WebGLRenderer({ antialias: !testMode });
renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
renderer.setSize(innerWidth, innerHeight);
renderer.toneMapping = THREE.ACESFilmicToneMapping;
renderer.toneMappingExposure = 1.0;
renderer.shadowMap.enabled = true;
renderer.shadowMap.type = THREE.PCFShadowMap;
container.appendChild(renderer.domElement);
const scene3 = new THREE.Scene();
const background = new THREE.Color(0x1b1f27);
scene3.background = background;
scene3.fog = new THREE.Fog(background, 7, 20);   // the floor fades into the background, no hard horizon
// image-based light from a procedural room (no file to load), so materials read as materials
const pmrem = new THREE.PMREMGenerator(renderer);
scene3.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
scene3.environmentIntensity = 0.35;
const camera = new THREE.PerspectiveCamera(45, innerWidth / innerHeight, 0.01, 100);
const controls = new OrbitControls(camera, renderer.domElement);
scene3.add(new THREE.HemisphereLight(0xdfe8ff, 0x30261c, 1.0));
const sun = new THREE.DirectionalLight(0xffffff, 2.2);
sun.position.set(3, 6, 4);
sun.castShadow = true;
sun.shadow.mapSize.set(2048, 2048);
Object.assign(sun.shadow.camera, { left: -4, right: 4, top: 4, bottom: -4, near: 0.5, far: 20 });
sun.shadow.bias = -0.0004;
sun.shadow.normalBias = 0.01;
scene3.add(sun);
// the ground every scene stands on: receives shadows, fades out in the fog
const ground = new THREE.Mesh(new THREE.CircleGeometry(30, 64), new THREE.MeshStandardMaterial({ color: 0x2a303a, roughness: 0.95 }));
ground.rotation.x = -Math.PI / 2;
ground.receiveShadow = true;
scene3.add(ground);
addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});

// ---- parameters -------------------------------------------------------------------------------
const params = {};     // the live values lil-gui edits: one flat object for world + scene
const ui = { inspect: false };  // shell options that are not simulation parameters
let inspected = null;  // the particle the inspector shows: { body, particle, kind, rest }
let timeline = null;
let gui = null;
let wisp = null;
let app = null;        // the running scene: { def, world, state, ropes, colliders, handles }

function specsToValues(specs) {
  const out = {};
  for (const [k, s] of Object.entries(specs)) out[k] = s.value;
  return out;
}

// Every parameter's default for a scene: the world's, the scene's world overrides, the scene's own.
function defaultsOf(def) {
  return { ...specsToValues(worldParams), ...(def.worldDefaults ?? {}), ...specsToValues(def.params) };
}
function specOf(def, key) { return def.params[key] ?? worldParams[key]; }

// URL state: ?scene=NAME plus every parameter that differs from the scene's default, so a tuned
// setup can be shared as a link. Values are parsed by the spec's type; unknown keys and values
// out of a slider's range are ignored.
let fromUrl = true;
function paramsFromUrl(def) {
  const out = {};
  for (const [key, raw] of query) {
    const spec = specOf(def, key);
    if (!spec) continue;  // scene, test and unknown keys
    if (typeof spec.value === 'boolean') out[key] = raw === 'true' || raw === '1';
    else if (typeof spec.value === 'number') {
      const v = Number(raw);
      if (Number.isFinite(v) && (spec.min === undefined || (v >= spec.min && v <= spec.max))) out[key] = v;
      else if (spec.options && Object.values(spec.options).includes(v)) out[key] = v;
    } else if (Array.isArray(spec.options) ? spec.options.includes(raw) : true) out[key] = raw;
  }
  return out;
}
function writeUrl() {
  if (!app) return;
  const defaults = defaultsOf(app.def);
  const q = new URLSearchParams({ scene: app.def.name });
  if (testMode) q.set('test', '1');
  for (const [k, v] of Object.entries(params)) if (k !== 'scene' && k in defaults && v !== defaults[k]) q.set(k, String(v));
  history.replaceState(null, '', `${location.pathname}?${q}`);
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
  timeline?.reset();
  inspected = null;
  clearTimeout(rebuildTimer);
  const def = scenes.find((s) => s.name === name) ?? scenes[0];
  // scene defaults for world params first (e.g. wind on in the curtain), then the scene's own
  if (!keepParams) {
    Object.assign(params, defaultsOf(def));
    if (fromUrl) Object.assign(params, paramsFromUrl(def));
  }
  fromUrl = false;
  params.scene = def.name;
  const world = wisp.createWorld(worldSettings());
  app = { def, world, ropes: [], cloths: [], colliders: [], handles: [], labels: [], plots: [], state: null, time: 0, frames: 0 };
  const ctx = {
    wisp, world, params, three: THREE, root,
    camera, controls,  // a scene may move them, e.g. to follow a walking character
    // options.world: the world the body lives in when it is not the scene's (compare's right side)
    addRope(rope, options = {}) {
      const mesh = new RopeMesh(rope, options);
      root.add(mesh);
      app.ropes.push({ rope, mesh, world: options.world ?? world });
      return mesh;
    },
    addCloth(cloth, options = {}) {
      const mesh = new ClothMesh(cloth, options);
      root.add(mesh);
      // the positions as built: the rest shape the inspector measures edge strain against
      app.cloths.push({ cloth, mesh, world: options.world ?? world, label: options.label, rest: Float32Array.from(cloth.positions) });
      return mesh;
    },
    addCollider(def) {
      const collider = world.addCollider({ friction: params.friction, ...def });
      collider.setEnabled(def.enabled ?? true);
      const mesh = colliderMesh(def);
      placeMesh(mesh, def.position ?? [0, 0, 0], def.rotation);
      // colliders read as solid objects; a ground plane is the shell's floor, not drawn twice
      mesh.traverse((o) => { if (o.material) { o.material.transparent = false; o.material.opacity = 1; } o.castShadow = o.receiveShadow = true; });
      mesh.visible = !(def.type === 'plane' && !def.rotation && (def.position?.[1] ?? 0) === 0);
      root.add(mesh);
      const entry = { collider, mesh, def };
      app.colliders.push(entry);
      return {
        collider, mesh,
        move(position, rotation = [0, 0, 0, 1]) { collider.setTransform(position, rotation); placeMesh(mesh, position, rotation); },
      };
    },
    // A text label floating in the scene (a sprite), e.g. which side of a comparison is which.
    addLabel(text, position, color = '#dde3ea') {
      const canvas = document.createElement('canvas');
      const font = '600 34px system-ui, sans-serif';
      let g = canvas.getContext('2d');
      g.font = font;
      canvas.width = Math.ceil(g.measureText(text).width) + 24; canvas.height = 64;  // resizing resets the context
      g = canvas.getContext('2d');
      g.font = font;
      g.textAlign = 'center'; g.textBaseline = 'middle';
      g.fillStyle = 'rgba(0, 0, 0, 0.45)';
      g.fillRect(0, 0, canvas.width, 64);
      g.fillStyle = color;
      g.fillText(text, canvas.width / 2, 33);
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: new THREE.CanvasTexture(canvas), depthTest: false }));
      sprite.material.map.colorSpace = THREE.SRGBColorSpace;
      sprite.scale.set((0.13 * canvas.width) / 64, 0.13, 1);  // 13 cm tall text
      sprite.position.set(...position);
      sprite.userData.label = text;
      root.add(sprite);
      app.labels.push(text);
      return sprite;
    },
    // Anything else the scene draws (removed and disposed with the scene).
    addObject(object) {
      root.add(object);
      return object;
    },
    // A live plot in the corner: series [{ name, color }], then plot.push(t, ...values) per frame.
    addPlot(title, series, options) {
      const plot = new Plot(document.getElementById('plots'), title, series, options);
      app.plots.push(plot);
      return plot;
    },
    // Measured numbers under the stats (e.g. simulated vs analytic period).
    setInfo(text) { document.getElementById('info').textContent = text; },
    addHandle(anchor, position) {
      const mesh = new THREE.Mesh(new THREE.SphereGeometry(0.05, 16, 8), new THREE.MeshStandardMaterial({ color: 0xffd23f, emissive: 0x332800 }));
      mesh.position.set(...position);
      root.add(mesh);
      const handle = { anchor, mesh };
      app.handles.push(handle);
      return handle;
    },
  };
  frameCamera(def);
  app.state = def.create(ctx);
  def.apply?.(app.state, params);
  root.traverse((o) => { if (o.isMesh && !o.isSprite && o.castShadow === false && o.material?.isMeshStandardMaterial) o.castShadow = o.receiveShadow = true; });
  document.getElementById('title').textContent = `Wisp · ${def.title}`;
  document.getElementById('description').textContent = def.description;
  document.getElementById('help').textContent = helpText();
  buildGui();
  writeUrl();
}

// The scene's camera, pulled back in portrait so what fits 1.6:1 across also fits a phone's width.
function frameCamera(def) {
  const position = new THREE.Vector3(...(def.camera?.position ?? [0, 1.6, 4.5]));
  const target = new THREE.Vector3(...(def.camera?.target ?? [0, 1, 0]));
  const aspect = innerWidth / innerHeight, designed = 1.3;
  if (aspect < designed) position.sub(target).multiplyScalar(designed / aspect).add(target);
  camera.position.copy(position);
  controls.target.copy(target);
  controls.update();
}

function stopScene() {
  if (!app) return;
  app.def.dispose?.(app.state);
  for (const plot of app.plots) plot.dispose();
  document.getElementById('info').textContent = '';
  for (const obj of [...root.children]) {
    root.remove(obj);
    obj.traverse?.((o) => { o.geometry?.dispose(); o.material?.map?.dispose(); o.material?.dispose?.(); });
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
    if (s.tip) c.domElement.title = s.tip;
    c.domElement.dataset.param = key;
    c.onChange((v) => { onChange(key, v, s); writeUrl(); });
  }
}

// Sliders that rebuild the scene wait until the value has stopped changing for a moment, so a
// drag across "ropes" rebuilds once at the end instead of on every intermediate value.
let rebuildTimer = 0;
function scheduleRebuild() {
  clearTimeout(rebuildTimer);
  rebuildTimer = setTimeout(() => startScene(app.def.name, true), 300);
}

const narrow = () => innerWidth < 700;
function buildGui() {
  gui?.destroy();
  // wide enough for the longest label and select ("simulation space (relative: the body)") on a
  // desktop; phones get the default width, folded
  gui = new GUI({ title: 'Wisp', width: narrow() ? undefined : 330 });
  gui.add(params, 'scene', scenes.map((s) => s.name)).name('scene').onChange((n) => startScene(n));
  // the scene's own controls first; the world's are shared and folded away
  const s = gui.addFolder(app.def.title);
  addControllers(s, app.def.params, (key, value, spec) => {
    if (spec.rebuild) scheduleRebuild();
    else app.def.apply?.(app.state, params);
  });
  // world controls a scene is about (e.g. substeps and iterations in the solver comparison) sit
  // with the scene's own
  const promoted = app.def.promote ?? [];
  const onWorld = (key) => {
    if (key === 'friction') {
      for (const c of app.colliders) c.collider.setFriction(params.friction);
    } else if (key !== 'paused') {
      app.world.set(worldSettings());
      app.def.applyWorld?.(app.state, worldSettings());
    }
  };
  addControllers(s, Object.fromEntries(promoted.map((k) => [k, worldParams[k]])), onWorld);
  const w = gui.addFolder('World');
  addControllers(w, Object.fromEntries(Object.entries(worldParams).filter(([k]) => !promoted.includes(k))), onWorld);
  w.close();
  const inspect = gui.add(ui, 'inspect').name('click inspects points');
  inspect.domElement.title = 'Clicking (or tapping) a rope or cloth point shows its position, velocity, inverse mass and the strain of its constraints instead of grabbing it. Alt-click always inspects.';
  const reset = gui.add({ reset: () => startScene(app.def.name) }, 'reset').name('reset scene');
  reset.domElement.title = 'Rebuilds the scene with its default parameters.';
  if (narrow()) gui.close();  // phones: the panel starts folded, the scene gets the screen
  if (window.__app) window.__app.gui = gui;
}

// What the scene offers to the pointer, from what it registered: handles, ropes, cloth.
function helpText() {
  const touch = matchMedia('(pointer: coarse)').matches;
  const parts = [];
  if (app.handles.length) parts.push('drag a yellow handle');
  const grab = [app.ropes.length && 'rope', app.cloths.length && 'cloth'].filter(Boolean);
  if (grab.length) parts.push(`drag any ${grab.map((g) => `${g} point`).join(' or ')}`);  // each named in full: 'rope point or cloth point'
  if (app.ropes.length) parts.push(touch ? 'double-tap a rope to cut it' : 'shift-click a rope to cut it');
  parts.push(touch ? 'one finger: orbit · two fingers: zoom and pan' : 'drag empty space: orbit · right-drag: pan · wheel: zoom');
  return parts.join(' · ');
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
  for (const { body, world } of [...app.ropes.map((r) => ({ body: r.rope, world: r.world })),
    ...app.cloths.map((c) => ({ body: c.cloth, world: c.world }))]) {
    if (body.disposed) continue;
    const p = body.positions;
    for (let i = 0; i < p.length / 3; i++) {
      const [sx, sy] = toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      const d = (sx - px) ** 2 + (sy - py) ** 2;
      if (d < bestD) { bestD = d; best = { rope: body, particle: i, world }; }
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

// Shift-click with a mouse, or a double tap on a touch screen, cuts the rope under the pointer.
let lastTap = { time: -1e9, x: 0, y: 0 };
function isCutGesture(e) {
  if (e.pointerType !== 'touch') return e.shiftKey;
  const double = e.timeStamp - lastTap.time < 450 && Math.hypot(e.clientX - lastTap.x, e.clientY - lastTap.y) < 30;
  lastTap = double ? { time: -1e9, x: 0, y: 0 } : { time: e.timeStamp, x: e.clientX, y: e.clientY };
  return double;
}

renderer.domElement.addEventListener('pointerdown', (e) => {
  if (e.button !== 0 || !app) return;
  pointer.set((e.clientX / innerWidth) * 2 - 1, -(e.clientY / innerHeight) * 2 + 1);
  if (e.altKey || ui.inspect) {
    const p = nearestParticle(e.clientX, e.clientY, e.pointerType === 'touch' ? 30 : 18);
    inspected = p && { body: p.rope, particle: p.particle, kind: app.ropes.some((r) => r.rope === p.rope) ? 'rope' : 'cloth',
      rest: app.cloths.find((c) => c.cloth === p.rope)?.rest };
    document.getElementById('inspector').textContent = inspected ? inspectText(inspected) : '';
    e.stopImmediatePropagation();
    return;
  }
  if (isCutGesture(e)) {
    const s = nearestSegment(e.clientX, e.clientY, e.pointerType === 'touch' ? 24 : 12);
    if (s) {
      const tail = s.rope.cut(s.segment);
      const original = app.ropes.find((r) => r.rope === s.rope);
      ctxAddRopeLike(tail, original);
      timeline.reset();     // snapshots from before the cut have a different set of ropes
      e.stopImmediatePropagation();  // not an orbit
      endDrag();            // the first tap of a double tap grabbed a point
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
  const p = nearestParticle(e.clientX, e.clientY, e.pointerType === 'touch' ? 30 : 18);
  if (p && !p.rope.particle(p.particle).pinned) {
    const pos = p.rope.positions;
    const at = new THREE.Vector3(pos[3 * p.particle], pos[3 * p.particle + 1], pos[3 * p.particle + 2]);
    const anchor = p.world.addAnchor([at.x, at.y, at.z]);  // in the body's own world
    // Cloth is grabbed by an XPBD spring, soft against the cloth (it moves the point 1/21 of the
    // way per substep), so dragging past where the cloth can reach pulls it instead of tearing
    // one vertex out (a hard pin stretched edges 20-fold). Ropes are held exactly.
    const isCloth = app.cloths.some((c) => c.cloth === p.rope);
    const set = p.world.settings, h = set.fixedDt / set.substeps;
    const compliance = isCloth ? 20 * p.rope.particle(p.particle).invMass * h * h : 0;
    p.rope.pin(p.particle, anchor, { compliance });
    drag = { anchor, rope: p.rope, particle: p.particle, temporary: true };
    startDrag(at);
    e.stopImmediatePropagation();  // the camera stays put while a point is dragged
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

function endDrag() {
  if (!drag) return;
  if (drag.temporary) {
    if (!drag.rope.disposed) drag.rope.unpin(drag.particle);
    if (!drag.anchor.disposed) drag.anchor.dispose();
  }
  drag = null;
  controls.enabled = true;
}
addEventListener('pointerup', endDrag);
addEventListener('pointercancel', endDrag);

function ctxAddRopeLike(rope, original) {
  const { mesh } = original;
  const m = new RopeMesh(rope, { radius: mesh.radius, sides: mesh.sides, color: mesh.material.color.getHex() });
  root.add(m);
  app.ropes.push({ rope, mesh: m, world: original.world });
}

// ---- loop -------------------------------------------------------------------------------------
const statsEl = document.getElementById('stats');
let lastTime = performance.now(), frames = 0;
// Medians of the last 60 fixed steps' times (a frame's step time / the fixed steps it ran) and
// of the last 60 frame intervals: steady under the odd slow frame (a first step that builds
// lists, a GC pause, the OS taking the core), unlike a running mean.
const stepTimes = new Float64Array(60), frameTimes = new Float64Array(60);
let stepCount = 0, frameCount = 0;
function median(values, count) {
  const n = Math.min(count, values.length);
  if (n === 0) return 0;
  const sorted = values.slice(0, n).sort();
  return n % 2 ? sorted[n >> 1] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
const medianStepMs = () => median(stepTimes, stepCount);
let hold = false;  // tests: render only, step only through __app.advance()

function advance(dt) {
  if (!params.paused) {
    timeline.record(drag !== null);
    app.def.update?.(app.state, app.time, dt, params);
    const t0 = performance.now();
    app.world.step(dt);
    const ms = performance.now() - t0;
    app.def.afterStep?.(app.state, params, dt);
    const fixed = app.world.lastStep.fixedSteps;
    // not a scene's first step (it builds the solver's lists), nor a frame that ran no fixed step
    if (app.frames > 0 && fixed > 0) stepTimes[stepCount++ % stepTimes.length] = ms / fixed;
    app.time += dt;
    app.frames++;
  }
  for (const r of app.ropes) if (!r.rope.disposed) r.mesh.update();
  for (const c of app.cloths) if (!c.cloth.disposed) c.mesh.update();
}

// Why a world steps on fewer threads than asked, in words.
function threadsNote(s) {
  const asked = params.threads === 0 ? Math.min(cores, 4) : params.threads;
  if (!wisp.threaded) return 'single-threaded build: the page is not cross-origin isolated';
  if (s.threads >= asked) return params.threads === 0 ? 'auto' : 'as asked';
  if (s.particles < 2048) return `asked ${asked}: under 2,048 particles one thread is faster`;
  return `asked ${asked}: this machine has ${cores}`;
}

function statsText() {
  const s = app.world.stats();
  const set = app.world.settings;
  const fps = frameCount ? 1000 / median(frameTimes, frameCount) : 0;
  let text =
    `fixed step ${stepCount ? `${medianStepMs().toFixed(3)} ms` : '–'}  (1/60 s: ${set.substeps} substeps × ${set.iterations} iteration${set.iterations > 1 ? 's' : ''})\n` +
    `render     ${fps ? fps.toFixed(0) : '–'} fps\n` +
    `particles  ${s.particles}   constraints ${s.constraints}\n` +
    `threads    ${s.threads} (${threadsNote(s)})\n` +
    `SIMD       ${s.simd ? 'on' : 'off'}   isolated ${self.crossOriginIsolated ? 'yes' : 'no'}`;
  for (const c of app.cloths) {
    if (c.cloth.disposed) continue;
    const st = c.cloth.stats();
    text += `\n${c.label ?? 'cloth'}: ${st.stretchConstraints} stretch, ${st.shearConstraints} shear, ${st.bendConstraints} bend, ${st.tethers} tethers` +
      `\n  strain max ${(100 * st.maxStrain).toFixed(2)}%  mean ${(100 * st.meanStrain).toFixed(3)}%`;
  }
  const chains = app.state?.chains;
  if (chains?.length) {
    let err = 0, joints = 0;
    for (const c of chains) { const st = c.stats(); err = Math.max(err, st.maxLengthError); joints += st.joints; }
    text += `\nchains     ${chains.length} (${joints} joints)  bone length error ${(err * 1e6).toFixed(2)} µm`;
  }
  return text;
}

function frame(now) {
  const dt = testMode ? 1 / 60 : Math.min((now - lastTime) / 1000, maxFrame);
  if (now > lastTime) frameTimes[frameCount++ % frameTimes.length] = now - lastTime;
  lastTime = now;
  if (app && dt > 0 && !hold) advance(dt);
  renderer.render(scene3, camera);
  frames++;
  if (frames % 10 === 1 && app) {
    statsEl.textContent = statsText();
    if (inspected) document.getElementById('inspector').textContent = inspectText(inspected);
  }
  if (app) for (const plot of app.plots) plot.draw();
  if (frames === 2) window.__ready = true;
  requestAnimationFrame(frame);
}

// ---- start ------------------------------------------------------------------------------------
try {
  wisp = await createWisp();
  timeline = new Timeline({
    app: () => app,
    pause(on) { params.paused = on; gui.controllersRecursive().find((c) => c.property === 'paused')?.updateDisplay(); },
    redraw() { advance(0); },
  });
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
    ropeCount: () => app.ropes.filter((r) => !r.rope.disposed).length,
    clothPositions: (k = 0) => Array.from(app.cloths[k].cloth.positions),
    clothScreenOf: (k, i) => { const p = app.cloths[k].cloth.positions; return toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]); },
    clothStats: (k = 0) => app.cloths[k].cloth.stats(),
    clothWorldStats: (k = 0) => app.cloths[k].world.stats(),
    chainCount: () => app.state?.chains?.length ?? 0,
    chainPositions: (k = 0) => Array.from(app.state.chains[k].positions),
    chainStats: (k = 0) => app.state.chains[k].stats(),
    positions: (k = 0) => Array.from(app.ropes[k].rope.positions),
    screenOf: (k, i) => { const p = app.ropes[k].rope.positions; return toScreen(p[3 * i], p[3 * i + 1], p[3 * i + 2]); },
    help: () => document.getElementById('help').textContent,
    labels: () => [...app.labels],
    offers: () => ({ handles: app.handles.length, ropes: app.ropes.length, cloths: app.cloths.length }),
    statsText: () => statsText(),
    guiClosed: () => gui._closed,
    get timeline() { return timeline; },
    get sceneState() { return app.state; },
    info: () => document.getElementById('info').textContent,
    inspector: () => document.getElementById('inspector').textContent,
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
