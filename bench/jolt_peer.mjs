// Jolt Physics (the jolt-physics npm package, the official Emscripten build) as a peer in
// bench/wasm_bench.mjs: the same ropes and cloths built as Jolt soft bodies.
//
// What Jolt runs: one PhysicsSystem step of 1/60 s (JoltInterface.Step(dt, 1)) per frame, each soft
// body with mNumIterations = 10. Jolt's soft-body iterations are substeps (each integrates dt/10
// and then applies every constraint once), so this is Wisp's 10 substeps x 1 iteration. Vertices
// carry inverse mass 1 (pinned ones 0); edges are Jolt's XPBD distance constraints with
// compliance 0 (rigid), as Wisp's ropes and cloth; ropes also get Jolt's long-range attachments
// to their pin, as Wisp ropes have tethers (the cloth has neither, as in Wisp's row). What differs: Jolt's soft-body step also runs its
// broad phase and per-body collision gathering against the world (empty here: no other bodies),
// its bookkeeping for the constraint kinds it supports (volume, skinned, bend, LRA, rods: none
// are created here), linear damping (set to 0) and a velocity clamp; bodies never sleep
// (mAllowSleeping false) and stay at the origin (mUpdatePosition false) so vertices are in world
// space. The single-threaded npm builds have no WASM SIMD; the multithreaded ones do.
// a test tool (tests/package.json, installed by scripts/setup.sh --test), so not resolvable from bench/ by name
const MODULE = (build) => new URL(`../tests/node_modules/jolt-physics/dist/jolt-physics${build === 'mt' ? '.multithread' : ''}.wasm.js`, import.meta.url).href;
export const JOLT_VERSION = '1.1.0';
/** What the Jolt rows run, printed by the benchmark. */
export const JOLT_SETUP = 'single-threaded build (no WASM SIMD in the npm single-threaded builds), one soft body per rope / cloth, ' +
  'JoltInterface.Step(1/60, 1) per step with mNumIterations = 10 (Jolt\'s soft-body iterations are substeps: 10 x dt/10, each applying every constraint once), ' +
  'XPBD edge constraints with compliance 0 (ropes also LRA constraints to the pin, as the tethers of Wisp ropes), inverse mass 1 (0 pinned), linear damping 0, no sleeping, collision against the (empty) world on.';

const LAYER_STATIC = 0, LAYER_MOVING = 1;

/** Loads a Jolt build ('st': single-threaded, no SIMD; 'mt': pthreads + SIMD). */
export async function loadJolt(build) {
  const init = (await import(MODULE(build))).default;
  return init();
}

/**
 * A Jolt world with `workers` worker threads (multithreaded build only; 0 in the single-threaded
 * one). add(vertices, invMass, edges) creates one soft body; step() advances 1/60 s.
 */
export class JoltWorld {
  constructor(Jolt, workers = 0, iterations = 10) {
    this.Jolt = Jolt;
    this.iterations = iterations;
    const settings = new Jolt.JoltSettings();
    settings.mMaxWorkerThreads = workers;
    const pairs = new Jolt.ObjectLayerPairFilterTable(2);
    pairs.EnableCollision(LAYER_STATIC, LAYER_MOVING);
    pairs.EnableCollision(LAYER_MOVING, LAYER_MOVING);
    const bp = new Jolt.BroadPhaseLayerInterfaceTable(2, 2);
    bp.MapObjectToBroadPhaseLayer(LAYER_STATIC, new Jolt.BroadPhaseLayer(0));
    bp.MapObjectToBroadPhaseLayer(LAYER_MOVING, new Jolt.BroadPhaseLayer(1));
    settings.mObjectLayerPairFilter = pairs;
    settings.mBroadPhaseLayerInterface = bp;
    settings.mObjectVsBroadPhaseLayerFilter = new Jolt.ObjectVsBroadPhaseLayerFilterTable(bp, 2, pairs, 2);
    this.jolt = new Jolt.JoltInterface(settings);
    Jolt.destroy(settings);
    this.system = this.jolt.GetPhysicsSystem();
    this.bodies = this.system.GetBodyInterface();
    this.soft = [];
  }

  /**
   * vertices: flat [x, y, z, ...]; invMass(i); edges: flat [a, b, ...]; lra: flat [anchor, vertex,
   * max distance, ...] (Jolt's long-range attachments, Wisp's tethers). Returns the body.
   */
  add(vertices, invMass, edges, lra = []) {
    const J = this.Jolt;
    const shared = new J.SoftBodySharedSettings();
    const v = new J.SoftBodySharedSettingsVertex(), f = new J.Float3(0, 0, 0);
    for (let i = 0; i < vertices.length / 3; i++) {
      f.x = vertices[3 * i]; f.y = vertices[3 * i + 1]; f.z = vertices[3 * i + 2];
      v.mPosition = f;
      v.mInvMass = invMass(i);
      shared.mVertices.push_back(v);
    }
    J.destroy(v);
    J.destroy(f);
    for (let e = 0; e < edges.length; e += 2) {
      const edge = new J.SoftBodySharedSettingsEdge(edges[e], edges[e + 1], 0);
      shared.mEdgeConstraints.push_back(edge);
      J.destroy(edge);
    }
    for (let e = 0; e < lra.length; e += 3) {
      const c = new J.SoftBodySharedSettingsLRA(lra[e], lra[e + 1], lra[e + 2]);
      shared.mLRAConstraints.push_back(c);
      J.destroy(c);
    }
    shared.CalculateEdgeLengths();
    shared.Optimize();
    const origin = new J.RVec3(0, 0, 0);
    const cs = new J.SoftBodyCreationSettings(shared, origin, J.Quat.prototype.sIdentity(), LAYER_MOVING);
    J.destroy(origin);
    cs.mNumIterations = this.iterations;
    cs.mLinearDamping = 0;
    cs.mAllowSleeping = false;
    cs.mUpdatePosition = false;
    const body = this.bodies.CreateSoftBody(cs);
    J.destroy(cs);
    this.bodies.AddBody(body.GetID(), J.EActivation_Activate);
    this.soft.push({ body, edges, n: vertices.length / 3 });
    return body;
  }

  step() { this.jolt.Step(1 / 60, 1); }

  /** World-space vertex positions of soft body k, flat. */
  positions(k) {
    const { body, n } = this.soft[k];
    const m = this.Jolt.castObject(body.GetMotionProperties(), this.Jolt.SoftBodyMotionProperties);
    const out = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      const p = m.GetVertex(i).mPosition;
      out[3 * i] = p.GetX(); out[3 * i + 1] = p.GetY(); out[3 * i + 2] = p.GetZ();
    }
    return out;
  }

  dispose() {
    for (const { body } of this.soft) {
      this.bodies.RemoveBody(body.GetID());
      this.bodies.DestroyBody(body.GetID());
    }
    this.soft = [];
    this.Jolt.destroy(this.jolt);
  }
}

/**
 * The ropes of wasm_bench.mjs: `count` ropes of `particles`, horizontal at y = 2, pinned at particle 0,
 * with a long-range attachment from the pin to every particle, as Wisp's rope tethers.
 */
export function joltRopes(world, count, particles) {
  const seg = 1 / (particles - 1);
  const edges = [], lra = [];
  for (let i = 0; i + 1 < particles; i++) edges.push(i, i + 1);
  for (let i = 1; i < particles; i++) lra.push(0, i, i * seg);  // Wisp ropes tether to their pin (RopeParams::tethers)
  for (let k = 0; k < count; k++) {
    const v = [];
    for (let i = 0; i < particles; i++) v.push(i * seg, 2, 0.01 * k);
    world.add(v, (i) => (i === 0 ? 0 : 1), edges, lra);
  }
  return { rest: seg, edges };
}

/** The cloth of wasm_bench.mjs: N x N quads of 1 m hanging in the XY plane, top row pinned, structural + shear edges (both diagonals). */
export function joltCloth(world, n) {
  const w = n + 1, v = [], edges = [];
  for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) v.push(i / n, 2 - j / n, 0);  // XY plane, row 0 on top, as Wisp's grid
  const at = (i, j) => j * w + i;
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) {
      if (i < n) edges.push(at(i, j), at(i + 1, j));
      if (j < n) edges.push(at(i, j), at(i, j + 1));
      if (i < n && j < n) edges.push(at(i, j), at(i + 1, j + 1), at(i + 1, j), at(i, j + 1));
    }
  world.add(v, (i) => (i < w ? 0 : 1), edges);
  return { edges };
}

/**
 * Shape of a body after some steps, for Jolt and Wisp alike: the largest edge length over its rest
 * length (`rest`: the starting positions, flat), the largest distance a pinned vertex moved, and
 * the lowest y.
 */
export function shapeCheck(p, rest, edges, pinned) {
  const len = (q, a, b) => Math.hypot(q[a] - q[b], q[a + 1] - q[b + 1], q[a + 2] - q[b + 2]);
  let stretch = 0, pinMoved = 0, minY = Infinity;
  for (let e = 0; e < edges.length; e += 2) {
    const a = 3 * edges[e], b = 3 * edges[e + 1];
    stretch = Math.max(stretch, len(p, a, b) / len(rest, a, b));
  }
  for (const i of pinned) pinMoved = Math.max(pinMoved, len([...p.slice(3 * i, 3 * i + 3), ...rest.slice(3 * i, 3 * i + 3)], 0, 3));
  for (let i = 1; i < p.length; i += 3) minY = Math.min(minY, p[i]);
  return { stretch, pinMoved, minY };
}
