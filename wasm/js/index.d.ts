// Type declarations for the Wisp JavaScript API. Units: metres, seconds, kilograms, radians;
// Y up. Vectors are [x, y, z] arrays or {x, y, z} objects (three.js Vector3 works).

export type Vec3Like = readonly [number, number, number] | ArrayLike<number> | { x: number; y: number; z: number };
export type QuatLike = readonly [number, number, number, number] | ArrayLike<number> | { x: number; y: number; z: number; w: number };

/** Error codes carried by WispError. */
export type WispErrorCode =
  | 'invalid-argument'  // NaN/inf, out of range, wrong type, unknown option
  | 'invalid-handle'    // an id the core does not know (removed, or from another world)
  | 'out-of-range'      // a particle or segment index past the end
  | 'disposed'          // the object (or its world) has been disposed
  | 'foreign-object'    // an object of another world was passed
  | 'unsupported'       // e.g. threads: true where SharedArrayBuffer is unavailable
  | 'load-failed'       // createWisp: a build file missing (HTTP 404), served with the wrong MIME type, a worker that did not start, or the timeout
  | 'out-of-memory';    // the WASM heap cannot hold what the call would build; nothing changed, the module keeps working

/** Every failure of the API. A failed call changes nothing. */
export class WispError extends Error {
  readonly name: 'WispError';
  readonly code: WispErrorCode;
}

export interface CreateWispOptions {
  /** 'auto' (default): the pthread build when the page is cross-origin isolated (always in Node), else the single-threaded one. */
  threads?: 'auto' | boolean;
  /** Only to host the build yourself: URL of a folder holding wisp.mjs, wisp.wasm, wisp-st.mjs, wisp-st.wasm (a copy of wasm/dist/web/; in Node a folder of wasm/dist/node/ files and the .wasm). Default: found by the package itself, with or without a bundler. */
  baseUrl?: string | URL;
  /** ms before a load that has not finished rejects with a WispError 'load-failed' (default 30000). */
  timeout?: number;
  print?: (line: string) => void;
  printErr?: (line: string) => void;
}

/** Loads the solver. */
export function createWisp(options?: CreateWispOptions): Promise<Wisp>;
/** True when this context can run the pthread build. */
export function canUseThreads(): boolean;

export interface WindSettings {
  /** Normalised internally; must not be zero when speed > 0. Default [1, 0, 0]. */
  direction?: Vec3Like;
  /** m/s, >= 0. Default 0. */
  speed?: number;
  /** 0..4: gust amplitude as a fraction of speed. Default 0. */
  turbulence?: number;
  /** m: size of the gusts. Default 2. */
  turbulenceScale?: number;
  /** Same seed, same gusts. Default 1. */
  seed?: number;
}

export interface WorldSettings {
  /** m/s², any direction. Default [0, -9.81, 0]. */
  gravity?: Vec3Like;
  /** s: the internal fixed step. Default 1/60. Range [1e-5, 0.1]. */
  fixedDt?: number;
  /** Substeps per fixed step, 1..128. Default 8. More substeps = stiffer, more accurate. */
  substeps?: number;
  /** Constraint passes per substep, 1..64. Default 1. */
  iterations?: number;
  /** s: longer frames are clamped (reported in World.lastStep.droppedTime). Default 0.1. */
  maxFrameDt?: number;
  /** s: opt-in: longer frames throw instead of being clamped. Default 0 = never (a 10 s frame from a background tab is clamped to maxFrameDt and reported). */
  rejectFrameDt?: number;
  /** Master switch for collider contacts. Default true. */
  collisions?: boolean;
  /** After every step check invariants (finite, < 500 m/s, pins exact, stretch, penetration, bone lengths) and report failures in World.events(). Default false. */
  debugChecks?: boolean;
  /** Threads step() may use: 1 = serial, 0 or 'auto' = all available (worlds under 2,048 particles always run serially). Results are identical for any value. Default 1. */
  threads?: number | 'auto';
  wind?: WindSettings;
}

/** What createWorld takes: the settings, and options fixed for the world's life. */
export interface WorldOptions extends WorldSettings {
  /**
   * Render interpolation (output only: the simulation and its state hash are the same either
   * way). The render arrays (Rope.renderPositions, Cloth.renderPositions/renderNormals,
   * Chain.renderPositions/renderRotations/renderLocalRotations) then show the outputs at
   * World.alpha between the last two fixed steps, so a 144 Hz display over a 60 Hz step moves
   * every frame; they lag the simulation by one fixed step. No allocation per frame. Default false.
   */
  interpolate?: boolean;
}

/** Rope parameters that can change at any time (Rope.set). */
export interface RopeParams {
  /** m: collision radius of each particle. Default 0.01. */
  radius?: number;
  /** m/N: 0 = inextensible. Default 0. */
  stretchCompliance?: number;
  /** Adds bending resistance (constraints across one particle). Default false. */
  bending?: boolean;
  /** m/N. Default 0.001. */
  bendCompliance?: number;
  /** 1/s: velocity decays as dv/dt = -damping v. Default 0.1. */
  damping?: number;
  /** 1/s: coupling to the air (wind); also damps in still air. Default 1. */
  drag?: number;
  /** Multiplies gravity; negative floats upward. Default 1. */
  gravityScale?: number;
  /** Plastic stretch past rest × yieldRatio (> 1); 0 = purely elastic. Default 0. */
  yieldRatio?: number;
  /** 1/s: how fast the rest length creeps once past the yield ratio. Default 1. */
  plasticity?: number;
  /** Collide with the world's colliders. Default true. */
  collide?: boolean;
  /** Collides with colliders whose groups share a bit. Default all. */
  colliderMask?: number;
  /** Long-range attachments to pinned particles: no over-stretch at low substep counts. Default true. */
  tethers?: boolean;
  /** m/s: at the end of every step no particle is faster; faster ones are slowed to it and a 'speed-clamped' event reported. 0 = no cap. Default 100. */
  maxSpeed?: number;
  /** m: an anchor jumping farther within one frame is a teleport: the rope is carried rigidly onto its anchors ('teleport' event). Per frame (1 m at 60 Hz = 60 m/s). 0 = off. Default 1. */
  teleportDistance?: number;
  /** rad: the line between the two farthest-apart pins turning more within one frame is a teleport. 0 = off. Default π/2. */
  teleportAngle?: number;
  /** m/s: once no particle has been faster than this for sleepTime the object sleeps (skipped, state kept; 'sleep' event) until disturbed: its anchors or root move, a collider that may reach it moves, is added or removed, the wind changes, set(), pin/unpin/cut, teleport, wake(). 0 = never (default); 0.001 is a safe value to opt in. */
  sleepSpeed?: number;
  /** s: how long it must stay slower than sleepSpeed. Default 1. */
  sleepTime?: number;
  /** 1..16: simulated every Nth fixed step with a step N times as long; pins meet their anchors at the times it runs. Default 1. */
  updateEvery?: number;
  /** 1..1024: in a step where neighbouring particles move apart or together by more than a quarter of their segment per substep, the substeps double (2x, 4x, ...) until they do not, up to this many per fixed step (fine ropes falling or whipped keep their length). <= the world's substeps: off. Default 64. */
  maxSubsteps?: number;
}

export interface RopeDef extends RopeParams {
  /** Straight rope from start to end cut into `segments` (used when `points` is absent). */
  start?: Vec3Like;
  end?: Vec3Like;
  /** 1 .. 2^20 - 1. Default 16. */
  segments?: number;
  /** Or explicit points: x, y, z, x, y, z, ... (at least 2 points, no zero-length segments). */
  points?: ArrayLike<number>;
  /** kg/m. Default 0.1. */
  massPerLength?: number;
  /** Particle indices pinned where they start. */
  pinned?: ArrayLike<number>;
}

/** Cloth parameters that can change at any time (Cloth.set). */
export interface ClothParams {
  /** m: collision thickness of each vertex. Default 0.01. */
  radius?: number;
  /** m/N, structural edges: 0 = inextensible. Default 0. */
  stretchCompliance?: number;
  /** m/N, grid diagonals. Default 1e-4. */
  shearCompliance?: number;
  /** 1/J, isometric bending across every interior edge; >= 1e-5. Default 1e-3. */
  bendCompliance?: number;
  bending?: boolean;
  /** Long-range attachments to pinned vertices. Default true. */
  tethers?: boolean;
  /** A tether allows (1 + slack) x the shortest rest path. Default 0. */
  tetherSlack?: number;
  /** 1/s. Default 0.1. */
  damping?: number;
  gravityScale?: number;
  /** Aerodynamic drag coefficient (normal to each triangle). Default 1. */
  dragCoefficient?: number;
  /** Aerodynamic lift coefficient. Default 0.3. */
  liftCoefficient?: number;
  /** kg/m³. Default 1.2. */
  airDensity?: number;
  /** > 0: stop iterating once the worst edge strain is below it. Default 0 (off). */
  residualTolerance?: number;
  collide?: boolean;
  /** Collides with colliders whose groups share a bit. Default all. */
  colliderMask?: number;
  /** Particles keep 2 × radius apart (particle against particle: make 2 × radius at least the vertex spacing). Default false. */
  selfCollision?: boolean;
  /** m/N: tethers give under load (0 = a hard limit). Default 0. */
  tetherCompliance?: number;
  /** Closed meshes only: keep the enclosed volume at pressure × the rest volume (1 = balloon, > 1 inflated); 0 = off. Default 0. */
  pressure?: number;
  /** m³/Pa: 0 holds the volume exactly. Default 0. */
  volumeCompliance?: number;
  /** m/s: at the end of every step no particle is faster; faster ones are slowed to it and a 'speed-clamped' event reported. 0 = no cap. Default 100. */
  maxSpeed?: number;
  /** m: an anchor jumping farther within one frame is a teleport: the object is carried rigidly onto its anchors ('teleport' event). Per frame (1 m at 60 Hz = 60 m/s). 0 = off. Default 1. */
  teleportDistance?: number;
  /** rad: the line between the two farthest-apart pins turning more within one frame is a teleport. 0 = off. Default π/2. */
  teleportAngle?: number;
  /** m/s: once no particle has been faster than this for sleepTime the object sleeps (skipped, state kept; 'sleep' event) until disturbed: its anchors or root move, a collider that may reach it moves, is added or removed, the wind changes, set(), pin/unpin/cut, teleport, wake(). 0 = never (default); 0.001 is a safe value to opt in. */
  sleepSpeed?: number;
  /** s: how long it must stay slower than sleepSpeed. Default 1. */
  sleepTime?: number;
  /** 1..16: simulated every Nth fixed step with a step N times as long; pins meet their anchors at the times it runs. Default 1. */
  updateEvery?: number;
  /** 1..1024: in a step where an exact pin's anchor (not a leash or spring pin) moves more than a tenth of the mean edge per substep, the substeps double (2x, 4x, ...) until it does not, up to this many per fixed step. <= the world's substeps: off. Default 64. */
  maxSubsteps?: number;
}

export interface ClothDef extends ClothParams {
  /** A rectangle in its local XY plane: width along +X, height along −Y from `position` (row 0 on top). */
  grid?: { width?: number; height?: number; resolutionX?: number; resolutionY?: number; position?: Vec3Like; rotation?: QuatLike };
  /** Or any indexed triangle mesh, e.g. a three.js BufferGeometry's position array and index. */
  mesh?: { positions: ArrayLike<number>; indices: ArrayLike<number> };
  /** m: mesh vertices closer than this become one particle (0: exact duplicates). */
  weldDistance?: number;
  /** kg/m². Default 0.2. */
  areaDensity?: number;
  /** Particle indices pinned where they start. */
  pinned?: ArrayLike<number>;
}

export interface ClothStats {
  particles: number;
  triangles: number;
  stretchConstraints: number;
  shearConstraints: number;
  bendConstraints: number;
  tethers: number;
  colours: number;
  /** max |length − rest| / rest over structural edges at the end of the last step */
  maxStrain: number;
  meanStrain: number;
  substeps: number;
  iterations: number;
}

export type ColliderType = 'sphere' | 'capsule' | 'plane' | 'box';

export interface ColliderDef {
  /** sphere: centre + radius; capsule: segment along local Y (±halfHeight) + radius; plane: through position, normal = local +Y; box: halfExtents. */
  type: ColliderType;
  position?: Vec3Like;
  rotation?: QuatLike;
  /** m. Default 0.1. */
  radius?: number;
  /** m. Default 0.1. */
  halfHeight?: number;
  /** m. Default [0.1, 0.1, 0.1]. */
  halfExtents?: Vec3Like;
  /** m (capsule): radius at +halfHeight, for a tapered capsule. Default: same as radius. */
  radiusTop?: number;
  /** Coulomb coefficient 0..2. Default 0.3. */
  friction?: number;
  enabled?: boolean;
  /** Sphere, capsule: keep things inside instead of outside. Default false. */
  inside?: boolean;
  /** Bits matched against ChainParams.colliderMask (VRM collider groups). Default all. */
  groups?: number;
}

/** A multiplier along the chain, root (t = 0) to tip (t = 1): [t, value] keys, t increasing, linear between. */
export type Curve = ReadonlyArray<readonly [number, number] | { t: number; value: number }>;

/** Chain parameters that can change at any time (Chain.set). Per-joint value = base * curve(t). */
export interface ChainParams {
  /** 'wisp' (substepped, per-second parameters) or 'vrm' (three-vrm's per-frame rule, VRM meanings). Default 'wisp'. */
  mode?: 'wisp' | 'vrm';
  /** 1/s: velocity decays as dv/dt = -damping v. VRM mode: dragForce (0..1). Default 2. */
  damping?: number;
  /** 1/s: angular frequency of the pull toward the animated pose (relative to the simulated parent). VRM mode: stiffness. Default 4. */
  stiffness?: number;
  /** 0..1: 0 = the pull never overshoots (critically damped), 1 = an undamped spring. Default 0. */
  elasticity?: number;
  /** 0..1: share of the root's motion carried rigidly (1 = no lag). Default 0. */
  inertia?: number;
  /** Multiplies the gravity; negative = anti-gravity. VRM mode: gravityPower (with gravity = gravityDir). Default 1. */
  gravityScale?: number;
  /** m/s²: the chain's own gravity instead of the world's; null = the world's. Default null. */
  gravity?: Vec3Like | null;
  /** m/s², an acceleration on every joint. Default [0, 0, 0]. */
  externalForce?: Vec3Like;
  /** 1/s: coupling to the air velocity (wind). Default 0.5. */
  drag?: number;
  /** m: the capsule around each bone for collisions. VRM mode: hitRadius. Default 0.02. */
  radius?: number;
  /** rad in [0, π]: cone around the animated direction; π = free. Default π. */
  limitAngle?: number;
  /** Keep each bone in the plane normal to hingeAxis (in the joint's rest frame). Default false. */
  hinge?: boolean;
  hingeAxis?: Vec3Like;
  collide?: boolean;
  /** Collides with colliders whose groups share a bit. Default all. */
  colliderMask?: number;
  /** 'world', or 'relative': also carry (1 - spaceInertia) of the motion of the space transform (Chain.setSpace; the root until set). Default 'world'. */
  space?: 'world' | 'relative';
  spaceInertia?: number;
  /** m and rad: a root jump larger than this within one frame is carried rigidly. 0 = off. Defaults 1 m, π/2. */
  teleportDistance?: number;
  teleportAngle?: number;
  /** Fixed steps simulated with the root and the animated pose held still before the first output after creation, reset() and teleport(), so hair starts settled instead of falling from its bind pose. 0..10000, default 0 (off). */
  warmupSteps?: number;
  /** m: no joint strays farther than this (times maxDistanceCurve and the root's scale) from where the animated pose (setPose; the rest pose without it) puts it, after every substep; wins over bone lengths and collisions. 'wisp' mode. Default 0 (off). */
  maxDistance?: number;
  dampingCurve?: Curve; stiffnessCurve?: Curve; elasticityCurve?: Curve; inertiaCurve?: Curve;
  gravityCurve?: Curve; externalForceCurve?: Curve; radiusCurve?: Curve; limitAngleCurve?: Curve; maxDistanceCurve?: Curve;
  /** m/s: once no particle has been faster than this for sleepTime the object sleeps (skipped, state kept; 'sleep' event) until disturbed: its anchors or root move, a collider that may reach it moves, is added or removed, the wind changes, set(), pin/unpin/cut, teleport, wake(). 0 = never (default); 0.001 is a safe value to opt in. */
  sleepSpeed?: number;
  /** s: how long it must stay slower than sleepSpeed. Default 1. */
  sleepTime?: number;
  /** 1..16: simulated every Nth fixed step with a step N times as long; pins meet their anchors at the times it runs. Default 1. */
  updateEvery?: number;
  /**
   * Backstop: each joint stays in front of a surface behind where the animated pose puts it (A).
   * The front direction N is backstopNormal in the animated frame of the joint's parent; with
   * d = backstopDistance × backstopCurve and R = backstopRadius (m, both times the root's scale),
   * R = 0 is a plane, (x − A)·N + d ≥ 0, and R > 0 a sphere of radius R centred at A − N(d + R)
   * the joint stays out of. After every substep, after collisions; maxDistance wins. 'wisp' mode.
   * Default false.
   */
  backstop?: boolean;
  /** Front direction in the animated parent joint's frame (normalised; not zero). Default [0, 0, 1]. */
  backstopNormal?: Vec3Like;
  /** m ≥ 0: how far behind the animated position the surface starts (times backstopCurve). Default 0. */
  backstopDistance?: number;
  /** m ≥ 0: 0 = a plane, else a sphere of this radius. Default 0. */
  backstopRadius?: number;
  backstopCurve?: Curve;
  /**
   * 'vrm' mode: VRMC_springBone_limit (draft 1.0) limits, entry k for bone k (joint k to k + 1,
   * VRM's joint k); null or absent entries are free. At most one per bone. Applied after the
   * length constraint and after every collider push. Default [] (three-vrm's behaviour).
   */
  vrmLimits?: ReadonlyArray<VrmLimit | null>;
  /**
   * 'vrm' mode, 0..100: the air velocity at each joint (world wind and zones, m/s) times this is
   * added to the tail's motion per second (next += air × vrmWind × delta), as gravity is.
   * Default 0 (off: three-vrm's update, bit for bit).
   */
  vrmWind?: number;
}

/**
 * One VRMC_springBone_limit limit. Its frame: the bone's animated frame turned by the shortest
 * arc from +Y onto the bone (a half turn about X when the bone is exactly -Y), then by
 * `rotation`; +Y is the bone's rest direction there. Angles in radians.
 */
export interface VrmLimit {
  /** 'cone' | 'hinge' | 'spherical' | 'none'. Default 'none'. */
  type?: 'none' | 'cone' | 'hinge' | 'spherical';
  /** Cone: largest angle from +Y; hinge: the same within the YZ plane (rotation about X only). 0..π, default π. */
  angle?: number;
  /** Spherical: |atan2(z, y)| at most this (swing about X). 0..π, default π. */
  pitch?: number;
  /** Spherical: |asin(x)| at most this (swing toward X). 0..π/2, default π/2. */
  yaw?: number;
  /** [x, y, z, w], not zero: the limit's rotation from its default frame. Default identity. */
  rotation?: QuatLike;
}

/** Multipliers for Chain.boost (each 0..100; 1 or absent leaves that parameter alone). */
export interface ChainBoost {
  /** Times stiffness. */
  stiffness?: number;
  /** Times damping ('vrm' mode: dragForce, at most 1 after it). */
  damping?: number;
  /** Times drag (air coupling). */
  drag?: number;
  /** Times gravityScale. */
  gravity?: number;
}

/** Options of World.addChainLinks and ChainLinks.set (every one optional). */
export interface ChainLinksOptions {
  /** Also link the last chain to the first (a closed skirt). Default false. */
  loop?: boolean;
  /** Also joint i of chain k to joint i+1 of chain k+1 and i+1 to i (resists shear). Default false. */
  diagonals?: boolean;
  /** m/N ≥ 0: XPBD compliance of every link; 0 = rigid. Default 0. */
  compliance?: number;
  /** ≥ 0: a hard cap, a link is pulled back to rest·(1 + stretch) after the compliant solve (the bones' lengths win where both cannot hold). Default 0.1. */
  stretch?: number;
  /** Link segments collide with colliders as capsules of the chains' radius. Default true. */
  collide?: boolean;
  /** First joint linked, 0 .. joints − 1 (joint 0 rides the root). Default 1. */
  fromJoint?: number;
}

/** XPBD links between neighbouring chains (World.addChainLinks). */
export class ChainLinks {
  readonly disposed: boolean;
  /** Number of live links. */
  readonly linkCount: number;
  /** The current options (a fresh object; set() accepts it back). */
  readonly params: Required<ChainLinksOptions>;
  /** Changes any subset of the options, validated; throws a WispError and changes nothing on bad input. */
  set(options: ChainLinksOptions): void;
  /** [chainIndexA, jointA, chainIndexB, jointB] per link (chain indices into the array given to addChainLinks). A copy. */
  pairs(): Int32Array;
  /** Rest length of each link (m), in pairs() order. A copy. */
  restLengths(): Float32Array;
  /** Removes the links; the chains go on alone. */
  dispose(): void;
}

export interface ChainJointDef {
  /** m, in the parent joint's frame (joint 0: the root's). */
  position: Vec3Like;
  /** Local rest rotation. Default identity. */
  rotation?: QuatLike;
}

export interface ChainDef extends ChainParams {
  /** A bone hierarchy (2 or more joints); or use points. */
  joints?: ChainJointDef[];
  /** World rest positions, x y z ... (2 or more); the bones keep the root's orientation. */
  points?: ArrayLike<number>;
  /** The root's pose at creation. */
  position?: Vec3Like;
  rotation?: QuatLike;
  /** m: a tip past the last joint, so the last bone rotates too. Default 0. */
  endLength?: number;
}

export interface ChainStats {
  joints: number;
  /** m: the largest bone length error after the last step. */
  maxLengthError: number;
  /** m/s. */
  maxSpeed: number;
  teleports: number;
  /** The physics weight now (setPhysicsWeight; 1 = fully simulated). */
  physicsWeight: number;
}

export interface WindZoneDef {
  shape: 'sphere' | 'box';
  position?: Vec3Like;
  rotation?: QuatLike;
  /** m (sphere). Default 1. */
  radius?: number;
  /** m (box). Default [1, 1, 1]. */
  halfExtents?: Vec3Like;
  /** 0..1: the outer fraction of the zone over which its wind fades out. Default 0.25. */
  falloff?: number;
  wind?: WindSettings;
}

export interface StepReport {
  /** Fixed steps run by the last step(). */
  fixedSteps: number;
  /** s cut off by maxFrameDt. */
  droppedTime: number;
  /** s left in the accumulator. */
  leftover: number;
}

export interface WorldStats {
  ropes: number;
  cloths: number;
  chains: number;
  particles: number;
  constraints: number;
  anchors: number;
  colliders: number;
  /** Threads the next step() uses: the setting (at most the machine's), or 1 for a world under 2,048 particles. */
  threads: number;
  simd: boolean;
}

export interface WorldEvent {
  /** 'reset': the object's state went non-finite; it was put back in its rest pose on its anchors, nothing else touched. 'invariant': a debug check failed. 'speed-clamped': particles faster than the object's maxSpeed were slowed to it. 'teleport': a rope or cloth was carried rigidly onto anchors that jumped (teleportDistance / teleportAngle, or Anchor.teleport). 'sleep': the object settled (sleepSpeed / sleepTime) and is skipped until disturbed. 'wake': a sleeping object was disturbed (the message says by what) and runs again from this step. */
  type: 'reset' | 'invariant' | 'speed-clamped' | 'teleport' | 'sleep' | 'wake';
  kind: 'rope' | 'cloth' | 'chain';
  object: Rope | Cloth | Chain | null;
  message: string;
}

export interface ParticleState {
  position: [number, number, number];
  velocity: [number, number, number];
  invMass: number;
  pinned: boolean;
}

export class Wisp {
  readonly threaded: boolean;
  readonly simd: boolean;
  readonly maxThreads: number;
  createWorld(settings?: WorldOptions): World;
  /** Self-test: the library's determinism scene run for `frames` (default 600) frames on `threads` threads; its state hash. A test hook: only the self-test build (build/wasm/selftest/, scripts/build-wasm.sh --tests) has it; the package's build throws an 'unsupported' WispError. */
  determinismSceneHash(threads?: number, frames?: number): string;
  /** Bytes of WASM heap in use, for leak checks. */
  heapUsed(): number;
  readonly module: unknown;
}

export class World {
  /** Reused every call: no allocation per frame. */
  readonly lastStep: StepReport;
  readonly disposed: boolean;
  /** Simulated seconds. */
  readonly time: number;
  /** A fresh copy of the settings. */
  readonly settings: Required<Omit<WorldSettings, 'wind' | 'threads'>> & { threads: number; wind: Required<WindSettings> };
  /** Advances by dt seconds of real time; returns the fixed steps taken. Throws for dt <= 0 or NaN (or > rejectFrameDt when set); longer than maxFrameDt is clamped and reported in lastStep.droppedTime. */
  step(dt: number): number;
  /** Changes any subset of the settings, validated as a whole (not `interpolate`: fixed at creation). */
  set(settings: WorldSettings): void;
  /** The option `interpolate` the world was created with. */
  readonly interpolate: boolean;
  /**
   * With `interpolate`: where the render arrays are between the outputs of the last two fixed
   * steps (0 the previous, 1 the current), set by step() from the time it left over:
   * lastStep.leftover / fixedDt when the two are one step apart. 1 without the option.
   */
  readonly alpha: number;
  /** Re-renders the render arrays at `alpha` (0..1), for a render clock of your own. Needs `interpolate` ('unsupported' otherwise); out of range throws and changes nothing. */
  setAlpha(alpha: number): void;
  setGravity(gravity: Vec3Like): void;
  setWind(wind: WindSettings): void;
  addRope(def: RopeDef): Rope;
  addCloth(def: ClothDef): Cloth;
  /** A spring-bone chain following a root you move every frame (Chain.setRoot). */
  addChain(def: ChainDef): Chain;
  /**
   * One root pose for many chains (e.g. every hair chain on a head): what chain.setRoot(position,
   * rotation) on each gives, in one call into WASM. The pose and every chain are checked before
   * any changes: a bad pose, or an entry that is not a live Chain of this world, throws a
   * WispError and changes nothing. No allocation.
   */
  setChainRoots(chains: ArrayLike<Chain>, position: Vec3Like, rotation?: QuatLike): void;
  /**
   * Links neighbouring chains (≥ 2 distinct Wisp-mode Chains of this world, in ring order, each in
   * at most one links set): joint i of chains[k] to joint i of chains[k+1], up to the shorter
   * chain, rest lengths from the animated pose now. Disposing a linked chain drops its links.
   */
  addChainLinks(chains: Chain[], options?: ChainLinksOptions): ChainLinks;
  addAnchor(position?: Vec3Like): Anchor;
  /** A local wind added to the global one inside a sphere or box. */
  addWindZone(def: WindZoneDef): WindZone;
  /** The air velocity at a point now (global wind + zones), m/s. */
  airVelocityAt(point: Vec3Like): [number, number, number];
  addCollider(def: ColliderDef): Collider;
  /** The full state as bytes; load it and step on for bit-identical results. */
  saveSnapshot(): Uint8Array;
  /** Replaces the whole state; invalid data throws and changes nothing. */
  loadSnapshot(bytes: Uint8Array): void;
  /** The full state as JSON text (for debugging and replay). */
  saveSnapshotJson(): string;
  loadSnapshotJson(json: string): void;
  /** What the last step() noticed: objects reset after going non-finite, and failed debug checks. */
  events(): ReadonlyArray<WorldEvent>;
  /** Test hook: writes NaN into a particle, to exercise containment. Only in the self-test build (as Wisp.determinismSceneHash); the package's build throws an 'unsupported' WispError. */
  injectFault(object: Rope | Cloth | Chain, particle: number): void;
  /** 16 hex digits; equal strings mean bit-identical simulation states. */
  /** Moves the coordinate origin to `offset` (m, current coordinates), for open worlds: every position the world holds becomes position - offset, the motion goes on unchanged; move your own objects by the same offset. Not needed for the simulation's precision (ropes, cloth and chains more than 128 m out simulate relative to origins of their own), but the positions read back are floats (~1 mm 10 km out): keep the origin near the player to keep them fine (PhysX's shiftOrigin). */
  shiftOrigin(offset: Vec3Like): void;
  stateHash(): string;
  stats(): WorldStats;
  /**
   * Handles for every live object, e.g. after loadSnapshot into a fresh world. Objects made
   * through this wrapper come back as the same handles. Allocates: not for every frame.
   */
  objects(): WorldObjects;
  /** Frees the world and everything in it; every output array (positions, normals, rotations) is detached (length 0). */
  dispose(): void;
}

/** Every live object of a world, by kind (World.objects()). */
export interface WorldObjects {
  ropes: Rope[];
  cloths: Cloth[];
  chains: Chain[];
  anchors: Anchor[];
  colliders: Collider[];
  windZones: WindZone[];
}

// Output arrays (positions, normals, rotations): Float32Arrays the wrapper owns and refreshes
// after every step and every call that moves particles. The same array stays valid across WASM
// memory growth; dispose() of the object or its world detaches it (length 0), and so does a cut
// for the rope that was cut. Writing into one does not move particles.

export class Rope {
  readonly disposed: boolean;
  /** x, y, z per particle: an output array (see above); replaced (the old one detached) when the rope is cut. */
  readonly positions: Float32Array;
  /** What a renderer shows: with the world option `interpolate`, positions at World.alpha between the last two fixed steps (an array of its own, kept like an output array); otherwise `positions` itself. */
  readonly renderPositions: Float32Array;
  readonly count: number;
  readonly params: Required<RopeParams>;
  set(params: RopeParams): void;
  particle(index: number): ParticleState;
  setVelocity(index: number, velocity: Vec3Like): void;
  /** m; grows under plastic stretch. */
  restLength(segment: number): number;
  /**
   * Pins particle `index` to `anchor`: exactly (no options), within `maxDistance` m of it (a leash:
   * free to swing inside), or pulled toward it by an XPBD spring of `compliance` m/N (at rest it
   * hangs compliance × the force on it away: a grab that pulls without yanking). One of the two.
   */
  pin(index: number, anchor: Anchor, options?: { maxDistance?: number; compliance?: number }): void;
  unpin(index: number): void;
  /** Cuts segment s (between particles s and s+1); this rope keeps [0, s], the returned rope the rest. */
  cut(segment: number): Rope;
  /** Rigid move without adding velocity: rotation about pivot, then translation. */
  teleport(move?: { translation?: Vec3Like; rotation?: QuatLike; pivot?: Vec3Like }): void;
  /** Back to the creation pose and rest lengths, at rest, pinned particles on their anchors. */
  reset(): void;
  dispose(): void;
}

export class Cloth {
  readonly disposed: boolean;
  /** x, y, z per particle: an output array. */
  readonly positions: Float32Array;
  /** Unit vertex normals, x, y, z per particle, computed each step: an output array. */
  readonly normals: Float32Array;
  /** With the world option `interpolate`: positions at World.alpha between the last two fixed steps; otherwise `positions`. */
  readonly renderPositions: Float32Array;
  /** With the world option `interpolate`: normals lerped between the last two fixed steps and renormalised; otherwise `normals`. */
  readonly renderNormals: Float32Array;
  /** Triangles as particle indices (a copy). */
  readonly indices: Uint32Array;
  /** Mesh cloth: the particle of each input vertex (a copy). */
  readonly vertexMap: Int32Array;
  readonly count: number;
  readonly params: Required<ClothParams>;
  set(params: ClothParams): void;
  stats(): ClothStats;
  particle(index: number): ParticleState;
  setVelocity(index: number, velocity: Vec3Like): void;
  /**
   * Pins particle `index` to `anchor`: exactly (no options), within `maxDistance` m of it (a leash:
   * free to swing inside), or pulled toward it by an XPBD spring of `compliance` m/N (at rest it
   * hangs compliance × the force on it away: a grab that pulls without yanking). One of the two.
   */
  pin(index: number, anchor: Anchor, options?: { maxDistance?: number; compliance?: number }): void;
  unpin(index: number): void;
  teleport(move?: { translation?: Vec3Like; rotation?: QuatLike; pivot?: Vec3Like }): void;
  /** Back to the creation pose, at rest, pinned particles on their anchors. */
  reset(): void;
  dispose(): void;
}

export class Chain {
  readonly disposed: boolean;
  /** Joints, with the end tip if endLength > 0. */
  readonly count: number;
  /** x, y, z per joint: an output array, refreshed every step. */
  readonly positions: Float32Array;
  /** World rotations x, y, z, w per joint: an output array. */
  readonly rotations: Float32Array;
  /** Rotations relative to the parent joint (the root for joint 0), x, y, z, w per joint: what bone.quaternion takes. An output array. */
  readonly localRotations: Float32Array;
  /** With the world option `interpolate`: positions at World.alpha between the last two fixed steps; otherwise `positions`. */
  readonly renderPositions: Float32Array;
  /** With the world option `interpolate`: world rotations nlerped between the last two fixed steps; otherwise `rotations`. */
  readonly renderRotations: Float32Array;
  /** With the world option `interpolate`: local rotations nlerped between the last two fixed steps (what SpringBoneChain writes into the bones); otherwise `localRotations`. */
  readonly renderLocalRotations: Float32Array;
  /** The current parameters (a fresh object; set() accepts it back). Curves as [t, value] pairs; gravity null = the world's. */
  readonly params: Required<Omit<ChainParams, 'gravity'>> & { gravity: [number, number, number] | null };
  set(params: ChainParams): void;
  /** The root's pose from animation, reached at the end of the next step. No allocation. */
  setRoot(position: Vec3Like, rotation?: QuatLike): void;
  /** From a column-major 4x4 world matrix (three.js Matrix4.elements). A uniform scale s makes the chain behave as the unscaled chain scaled by s (bone lengths, joint radii, gravity and external force, teleport distance; colliders keep their own sizes); a non-uniform scale or a mirrored matrix (negative determinant) throws a WispError ('invalid-argument'). setRoot() means scale 1. */
  setRootMatrix(elements: ArrayLike<number>): void;
  setSpace(position: Vec3Like, rotation?: QuatLike): void;
  /** The space's pose from a matrix: a uniform scale is removed; non-uniform or mirrored throws. */
  setSpaceMatrix(elements: ArrayLike<number>): void;
  /**
   * The animated pose for the end of the next step: local rotations x, y, z, w of joints 0..n-1
   * (joint 0 relative to the root, each other joint to its parent; n = length / 4, 1 <= n <= count;
   * the other joints keep their rest rotations). The pose spring, limits and outputs follow it
   * instead of the rest pose; the fixed steps inside a frame see it at their own time on the line
   * from the previous frame's pose. The first call places the pose. Copied into WASM memory; no
   * allocation. A bad length or a zero or non-finite quaternion throws ('invalid-argument').
   */
  setPose(localRotations: ArrayLike<number>): void;
  /**
   * Physics weight: how much of the simulation the outputs show over the animated pose (0 = the
   * animated pose exactly, 1 = fully simulated, the default), reached linearly over `seconds` of
   * simulated time (default 0 = at once). Outputs blend per joint local rotation (nlerp) and stay
   * one skeleton. The simulation runs underneath at any weight. Out of range throws.
   */
  setPhysicsWeight(weight: number, seconds?: number): void;
  /**
   * Timed multipliers, e.g. boost({ stiffness: 3 }, 0.3) for a fast turn: each parameter times
   * 1 + (m − 1)·f, f falling linearly from 1 at the next fixed step to 0 after `seconds` (0..1e4)
   * of the chain's simulated time; then exactly the unboosted chain. Replaces a running boost;
   * seconds 0 ends it. Bad values throw a WispError and change nothing.
   */
  boost(multipliers: ChainBoost, seconds: number): void;
  /** Jumps the root there, carrying the chain rigidly: same shape, no velocity added. */
  teleport(position: Vec3Like, rotation?: QuatLike): void;
  /** The animated pose (the rest pose if none was set) on the current root, at rest. */
  reset(): void;
  stats(): ChainStats;
  particle(index: number): ParticleState;
  setVelocity(index: number, velocity: Vec3Like): void;
  dispose(): void;
}

/** Switching objects off, sleep and update rates: members of Rope, Cloth and Chain. */
export interface Activity {
  /** false: skipped by the step (no solver time), its state kept exactly. Set true again: carried at rest onto its current anchors (a chain: its root), no snap. Setting allocates nothing. */
  enabled: boolean;
  setEnabled(on: boolean): void;
  /** True while it sleeps (params.sleepSpeed). */
  readonly sleeping: boolean;
  /** Wakes it: it runs from the next step. */
  wake(): void;
  /** Fixed steps it has been simulated (disabled, sleeping and skipped steps do not count). */
  readonly updates: number;
}
export interface Rope extends Activity {}
export interface Cloth extends Activity {}
export interface Chain extends Activity {}

export class WindZone {
  readonly disposed: boolean;
  set(def: WindZoneDef): void;
  dispose(): void;
}

export class Anchor {
  readonly disposed: boolean;
  readonly position: [number, number, number];
  /** The target for the end of the next world.step(dt): fixed steps inside the frame see the anchor at their own time on the line from the previous target, so pins follow the scripted path at any frame rate. A jump past an object's teleportDistance/teleportAngle is a teleport. */
  setPosition(position: Vec3Like): void;
  /** Jumps; at the next step the ropes and cloth pinned to it are carried rigidly onto their anchors (no velocity gained). Gives the same result before or after rope/cloth.teleport(). */
  teleport(position: Vec3Like): void;
  dispose(): void;
}

export class Collider {
  readonly disposed: boolean;
  readonly type: ColliderType;
  /** The collider sweeps to this pose across the next step's substeps; { teleport: true } jumps instead. */
  setTransform(position: Vec3Like, rotation?: QuatLike, options?: { teleport?: boolean }): void;
  /** Pose and uniform scale from a column-major 4x4 matrix (three.js Matrix4.elements, e.g. a bone's matrixWorld): radius, radiusTop, halfHeight and halfExtents act as the sizes it was made with times the scale (a plane has none), as a three.js mesh's geometry does; setTransform sets the scale back to 1. A non-uniform scale or a mirrored matrix (negative determinant) throws a WispError and changes nothing. */
  setMatrix(elements: ArrayLike<number>, options?: { teleport?: boolean }): void;
  setEnabled(enabled: boolean): void;
  setFriction(friction: number): void;
  dispose(): void;
}

export const colliderTypes: readonly ColliderType[];
/** The rigid pose of a column-major 4x4 matrix (three.js Matrix4.elements), scale removed; a mirrored matrix throws. */
export function poseFromMatrix(elements: ArrayLike<number>): { position: [number, number, number]; rotation: [number, number, number, number] };
/** The determinism scene's hash after 600 frames, the same for every build (Wisp.determinismSceneHash). */
export const DETERMINISM_GOLDEN_HASH: string;

// ---- detail levels and the frame budget (levels.js, budget.js) ---------------------------

/**
 * An object's detail level: 'full' (every fixed step), 'reduced' (updateEvery 2: half the
 * substeps per simulated second), 'slow' (updateEvery 4), 'frozen' (switched off, pose kept),
 * 'off' (switched off; the LOD helper also hides what it draws).
 */
export type DetailLevel = 'full' | 'reduced' | 'slow' | 'frozen' | 'off';
/** The levels, best first. */
export const detailLevels: readonly DetailLevel[];
/** A Rope, Cloth or Chain (of a World or a WorkerWorld), or an adapter holding one (.rope, .cloth, .chain: RopeMesh, ClothMesh, SpringBoneChain). */
export type Simulated = Rope | Cloth | Chain | WorkerRope | WorkerCloth | WorkerChain
  | { rope: Rope | WorkerRope } | { cloth: Cloth | WorkerCloth } | { chain: Chain | WorkerChain };

export interface BudgetChange {
  object: Rope | Cloth | Chain | WorkerRope | WorkerCloth | WorkerChain;
  /** its cap: the best level allowed (setCap; 'full' by default) */
  from: DetailLevel;
  /** the level the budget gave it */
  to: DetailLevel;
  /** why, with the estimate and the budget */
  reason: string;
}
export interface BudgetReport {
  budgetMs: number;
  /** ms per work unit in use; null before the first calibration */
  msPerUnit: number | null;
  /** ms per fixed step the plan is estimated at (null without msPerUnit) */
  estimateMs: number | null;
  /** work units per fixed step of the plan */
  units: number;
  /** true when even every object frozen (down to its cap) stays over */
  overBudget: boolean;
  calibrations: number;
  /** every object below its cap */
  degraded: BudgetChange[];
}
/**
 * Keeps the world's fixed step under a time budget by lowering objects' levels, lowest priority
 * first, from a cost model (work units x ms per unit). The estimate is learned from measured step
 * times but changes only at calibrations: the same inputs and measured times give the same choices.
 *
 * Over a WorkerWorld the budget runs in the worker, with the same calls: they go to it in order
 * with the world's other calls, and `step(dt)` is `world.step(dt)` run there through the budget,
 * timed by the worker's own clock (the option `clock` throws). `report`, `levelOf` and
 * `msPerUnit` are the worker's plan as of the step the output arrays show (`world.completedSteps`;
 * a plan comes by message, so it may show a frame later), and after `await world.flush()` the
 * plan after every call made; until a plan with an object is shown, levelOf gives its cap, and
 * the calls that re-plan return the report shown, not the plan they cause. Arguments are checked
 * on the page (objects, priorities, levels, budgetMs, ms); what the worker rejects is thrown by
 * the world's next call. With a given msPerUnit and calibrateEvery 0, the plans and state hash
 * are a main-thread FrameBudget's for the same calls.
 */
export class FrameBudget {
  constructor(world: World | WorkerWorld, options: {
    /** ms per fixed step, > 0 */
    budgetMs: number;
    /** ms per work unit to start from; default null (nothing degraded until the first calibration) */
    msPerUnit?: number | null;
    /** measured steps between calibrations, 0..1024 (0: only calibrate()). Default 60. */
    calibrateEvery?: number;
    /** ms clock step() times world.step with. Default performance.now. Not on a WorkerWorld (a function cannot reach the worker). */
    clock?: () => number;
    /** fraction of the budget the plan keeps free for the fixed per-step costs the model does not count, 0..0.9. Default 0.1. */
    headroom?: number;
  });
  /** The last plan (a new object per plan: plans happen on changes and calibrations). */
  readonly report: BudgetReport;
  budgetMs: number;
  readonly msPerUnit: number | null;
  /** Budgets an object; priority >= 0, higher is kept longer (default 1). Re-plans. */
  add(object: Simulated, options?: { priority?: number }): BudgetReport;
  remove(object: Simulated): BudgetReport;
  setPriority(object: Simulated, priority: number): BudgetReport;
  /** The best level the object may have (what a LOD helper chose). */
  setCap(object: Simulated, level: DetailLevel | number): BudgetReport;
  levelOf(object: Simulated): DetailLevel;
  /** world.step(dt), timed; returns its fixed steps. No allocation unless it calibrates. */
  step(dt: number): number;
  /** Records one fixed step's measured time (ms). */
  measure(ms: number): void;
  /** msPerUnit := median of ms / units since the last calibration; re-plans. */
  calibrate(): BudgetReport;
  /** Plans again (after changing the world's substeps or iterations). */
  plan(): BudgetReport;
  /** Whether dispose() was called. */
  readonly disposed: boolean;
  /** Stops budgeting: every object back at its cap (as remove()); further calls throw 'disposed', the last report stays. Over a WorkerWorld: run by the worker in order with the other calls. */
  dispose(): void;
}

// ---- presets (presets.js) ------------------------------------------------------------------

export interface DynamicBoneSettings {
  damping?: number; elasticity?: number; stiffness?: number; inert?: number; radius?: number;
  gravity?: [number, number, number]; force?: [number, number, number]; endLength?: number;
  dampingDistrib?: Curve; elasticityDistrib?: Curve; stiffnessDistrib?: Curve; inertDistrib?: Curve; radiusDistrib?: Curve;
}
/** Dynamic Bone values (tuned at frameRate, default 60) as ChainParams; multiply endLengthRatio by the last bone's length. */
export function fromDynamicBone(settings: DynamicBoneSettings, options?: { frameRate?: number }): { params: ChainParams; endLengthRatio: number };
export interface KawaiiPhysicsSettings {
  Damping?: number; Stiffness?: number; WorldDampingLocation?: number; Radius?: number; LimitAngle?: number;
  Gravity?: [number, number, number]; TargetFramerate?: number;
  DampingCurve?: Curve; StiffnessCurve?: Curve; RadiusCurve?: Curve; LimitAngleCurve?: Curve;
}
/** KawaiiPhysics values (Unreal units and axes) as ChainParams. */
export function fromKawaiiPhysics(settings: KawaiiPhysicsSettings): { params: ChainParams };
export interface VRMJointSettings {
  stiffness?: number; gravityPower?: number; gravityDir?: Vec3Like; dragForce?: number; hitRadius?: number;
}
/** A VRMC_springBone spring's joints as ChainParams for mode 'vrm' (exact: three-vrm's rule). */
export function fromVRMSpring(joints: VRMJointSettings[], boneLengths: number[]): { params: ChainParams };
/**
 * A joint's VRMC_springBone_limit extension ({ specVersion, limit: { cone | hinge | spherical } },
 * draft 1.0) as a VrmLimit; angles past the draft's ranges mean their maximum (pi, yaw pi/2).
 */
export function fromVRMLimit(ext: unknown, where?: string): VrmLimit;
/** A preset as JSON text. */
export function savePreset(params: ChainParams, name?: string): string;
/** Reads a preset saved by savePreset. */
export function loadPreset(json: string): { name: string; params: ChainParams };

// A world stepped in a dedicated worker (createWorkerWorld): the calls of World and its objects
// with the same names and arguments, run by the worker in the order they were made; step()
// returns at once. Per-frame calls (numbers, vectors, quaternions, matrices, typed arrays,
// objects of the world as arguments) go through a SharedArrayBuffer command ring and allocate
// nothing; flat parameter objects go there too (nothing either for up to four values with the
// same keys every frame; else 16 bytes per non-integer value: V8 boxes values read by key);
// adding objects and nested options are posted.
// The output arrays (positions, normals, rotations, localRotations) are views of the shared slot
// holding the last step the worker completed, read in place (no copy): a different Float32Array
// after each step() or flush() that shows a newer step, so read them again after step() (the
// wisp/three adapters do) and do not keep one across steps; between two step() calls the worker
// never writes the slot shown. `completedSteps` says which step they hold (one per step() call),
// `pendingSteps` how many are still running, `flush()` waits for them. With the option
// `interpolate`, the render arrays (renderPositions, ...) are this thread's own arrays (the same
// object for the object's life) holding what a World's render arrays hold at the same alpha;
// without it they are the output arrays. A bad call changes nothing in the worker; its WispError
// is thrown by the next call (or rejects flush()).
// Reading state back: what changes with each step (world time, events(), stats(); an object's
// enabled, sleeping, updates, stats(), params; an anchor's position; world.settings) is
// published with each step's outputs and answers at once, as of the step the output arrays show
// (completedSteps), equal to a World's after that step: a set() shows in params from the next step.
// What needs a query of the whole state returns a Promise of the answer after every call made
// before it: particle(), restLength(), airVelocityAt(), saveSnapshot(), saveSnapshotJson(),
// loadSnapshot(), loadSnapshotJson() (a bad one rejects its own Promise, not the next call).
// rope.cut(s) returns the far part at once; both ropes' arrays (and count) show the cut from the
// first step after it, as the step shown has it. world.objects() throws an 'unsupported'
// WispError. count, indices, vertexMap,
// params and the per-step reads are known once the worker has made the object (after
// `await world.flush()`); before that they throw 'unsupported' too.

/** Activity of a worker-world rope, cloth or chain: as of the step shown; `enabled = x` is setEnabled(x). */
export interface WorkerActivity extends Activity {}
/** Reads that answer by Promise: the answer after every call made before. */
interface WorkerParticles {
  particle(index: number): Promise<ParticleState>;
}
/** Calls every worker-world object has. */
interface WorkerObjectBase {
  readonly disposed: boolean;
  /** Queues the removal; with `interpolate` the render arrays are detached (length 0) now; output arrays kept from before keep the last step shown. An earlier call's pending error is thrown, after the object is disposed. */
  dispose(): void;
}
export interface WorkerRope extends WorkerObjectBase, WorkerActivity, WorkerParticles, Pick<Rope, 'set' | 'setVelocity' | 'unpin' | 'teleport' | 'reset' | 'params'> {
  readonly kind: 'rope';
  restLength(segment: number): Promise<number>;
  /** Cuts segment s (between particles s and s+1) in order with the calls; returns the far part as a new rope at once. Both ropes' arrays and counts show the cut from the first step after it, which the page shows only once the worker has sent the new arrays (a frame or so later; the far part's arrays are empty until then; this rope's render arrays are replaced, the old ones detached). A bad segment is thrown by the next call and cuts nothing. */
  cut(segment: number): WorkerRope;
  /** Particles (after `await world.flush()`). */
  readonly count: number;
  readonly positions: Float32Array;
  readonly renderPositions: Float32Array;
  pin(index: number, anchor: WorkerAnchor, options?: { maxDistance?: number; compliance?: number }): void;
}
export interface WorkerCloth extends WorkerObjectBase, WorkerActivity, WorkerParticles, Pick<Cloth, 'set' | 'setVelocity' | 'unpin' | 'teleport' | 'reset' | 'params' | 'stats'> {
  readonly kind: 'cloth';
  /** Particles, triangles and the input vertex -> particle map (after `await world.flush()`). */
  readonly count: number;
  readonly indices: Uint32Array;
  readonly vertexMap: Int32Array;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  readonly renderPositions: Float32Array;
  readonly renderNormals: Float32Array;
  pin(index: number, anchor: WorkerAnchor, options?: { maxDistance?: number; compliance?: number }): void;
}
export interface WorkerChain extends WorkerObjectBase, WorkerActivity, WorkerParticles, Pick<Chain, 'set' | 'setRoot' | 'setRootMatrix' | 'setSpace' | 'setSpaceMatrix' | 'setPose'
  | 'setPhysicsWeight' | 'boost' | 'teleport' | 'reset' | 'setVelocity' | 'params' | 'stats'> {
  readonly kind: 'chain';
  /** Joints (after `await world.flush()`). */
  readonly count: number;
  readonly positions: Float32Array;
  readonly rotations: Float32Array;
  readonly localRotations: Float32Array;
  readonly renderPositions: Float32Array;
  readonly renderRotations: Float32Array;
  readonly renderLocalRotations: Float32Array;
}
export interface WorkerChainLinks extends WorkerObjectBase {
  readonly kind: 'chainLinks';
}
export interface WorkerAnchor extends WorkerObjectBase, Pick<Anchor, 'setPosition' | 'teleport' | 'position'> {
  readonly kind: 'anchor';
}
export interface WorkerCollider extends WorkerObjectBase, Pick<Collider, 'setTransform' | 'setMatrix' | 'setEnabled' | 'setFriction'> {
  readonly kind: 'collider';
  readonly type: ColliderType;
}
export interface WorkerWindZone extends WorkerObjectBase, Pick<WindZone, 'set'> {
  readonly kind: 'windZone';
}

/**
 * A WorldEvent of a worker world: its object is the worker world's. 'events-dropped' (object null)
 * comes last where events are missing: those of steps the worker published while the page showed
 * none of them (it ran ahead between two step() calls), and those that did not fit the worker's
 * event buffer (only where shared memory cannot grow: 32 KB per step there); its message says how
 * many.
 */
export interface WorkerWorldEvent extends Omit<WorldEvent, 'object' | 'type'> {
  type: WorldEvent['type'] | 'events-dropped';
  object: WorkerRope | WorkerCloth | WorkerChain | null;
}

export class WorkerWorld {
  /** The report of the last completed step (reused). */
  readonly lastStep: StepReport;
  readonly disposed: boolean;
  /** Whether the render arrays interpolate between fixed steps (the option `interpolate`). */
  readonly interpolate: boolean;
  /** With `interpolate`: the render weight of the step shown (as World.alpha); 1 without. */
  readonly alpha: number;
  /** Re-renders the render arrays at alpha (0..1) between the last two fixed steps of the step shown; needs `interpolate`. */
  setAlpha(alpha: number): void;
  /** Steps the worker has completed (one per step() call): the output arrays show the last of them. */
  readonly completedSteps: number;
  /** Steps sent and not yet shown in the output arrays. */
  readonly pendingSteps: number;
  /** Switches the output arrays to the newest completed step, hands the worker the calls made since the last step with a step of dt, returns at once: lastStep.fixedSteps of the completed step shown. dt <= 0 or NaN throws here. */
  step(dt: number): number;
  /** Sends what is queued and resolves when the worker has run everything sent; the arrays then show the last step. Rejects with the WispError of a bad call. */
  flush(): Promise<void>;
  /** The state hash after every call made so far (equal to a main-thread World's after the same calls). */
  stateHash(): Promise<string>;
  /** Simulated time (s) as of the step shown. */
  readonly time: number;
  /** What the step shown noticed, as World.events() (objects are this world's; a shared empty array when nothing happened). The same events until completedSteps changes: handle them once per step shown. */
  events(): ReadonlyArray<WorkerWorldEvent>;
  /** World.stats() as of the step shown (a fresh object). */
  stats(): WorldStats;
  /** The settings as of the step shown (a fresh object). */
  readonly settings: World['settings'];
  /** The air velocity at a point after every call made so far. */
  airVelocityAt(point: Vec3Like): Promise<[number, number, number]>;
  /** The full state after every call made so far. */
  saveSnapshot(): Promise<Uint8Array>;
  saveSnapshotJson(): Promise<string>;
  /** Loads a snapshot of this world's own objects (the same objects and particle counts; another rejects with 'unsupported' and changes nothing), in order with the calls; the output arrays show it from the next step. */
  loadSnapshot(bytes: Uint8Array): Promise<void>;
  loadSnapshotJson(json: string): Promise<void>;
  /** Test hook (the self-test build loaded in the worker: createWorkerWorld(settings, { baseUrl })): queued as the other calls. */
  injectFault(object: WorkerRope | WorkerCloth | WorkerChain, particle: number): void;
  /** Throws 'unsupported': it would hand out objects the page never made (anchors made for `pinned`). */
  objects(): never;
  set(settings: WorldSettings): void;
  setGravity(gravity: Vec3Like): void;
  setWind(wind: WindSettings): void;
  shiftOrigin(offset: Vec3Like): void;
  /** One root pose for many chains (World.setChainRoots): the list and the pose's numbers are checked here before anything is queued; then each chain's setRoot is queued in order. */
  setChainRoots(chains: ArrayLike<WorkerChain>, position: Vec3Like, rotation?: QuatLike): void;
  addRope(def: RopeDef): WorkerRope;
  addCloth(def: ClothDef): WorkerCloth;
  addChain(def: ChainDef): WorkerChain;
  addChainLinks(chains: WorkerChain[], options?: ChainLinksOptions): WorkerChainLinks;
  addAnchor(position?: Vec3Like): WorkerAnchor;
  addCollider(def: ColliderDef): WorkerCollider;
  addWindZone(def: WindZoneDef): WorkerWindZone;
  /** Ends the worker; further use throws 'disposed', with `interpolate` the render arrays are detached (length 0), output arrays kept from before keep the last step shown. Resolves when the worker has ended (at once when the command ring is full); unanswered queries reject with 'disposed'. */
  dispose(): Promise<void>;
}

/**
 * A world stepped in a dedicated worker (a module Worker in browsers, worker_threads in Node),
 * its outputs published through SharedArrayBuffers (a browser page must be cross-origin
 * isolated). `settings` as for createWorld (`interpolate` included), `load` as for createWisp (without
 * print/printErr: functions do not reach the worker). Bad settings reject with the World's WispError.
 */
export function createWorkerWorld(settings?: WorldOptions, load?: Omit<CreateWispOptions, 'print' | 'printErr'>): Promise<WorkerWorld>;
