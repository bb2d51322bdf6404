// Types for wisp/three, the three.js adapters. `three` (and @types/three for TypeScript users) is
// a peer dependency of this entry.
import * as THREE from 'three';
import type { Rope, Cloth, Chain, World, ChainParams, ColliderDef, DetailLevel, Simulated, FrameBudget, WorkerRope, WorkerCloth, WorkerChain } from '../../wasm/js/index.js';

/** A tube that follows a rope; update() after each world.step() (picks up cuts). */
export class RopeMesh extends THREE.Mesh<THREE.BufferGeometry, THREE.MeshStandardMaterial> {
  constructor(rope: Rope, options?: { radius?: number; sides?: number; color?: number });
  readonly rope: Rope;
  radius: number;
  sides: number;
  update(): void;
  dispose(): void;
}

/** A mesh whose position and normal attributes are the cloth's views into WASM memory; update() after each step. */
export class ClothMesh extends THREE.Mesh<THREE.BufferGeometry, THREE.Material> {
  constructor(cloth: Cloth, options?: { color?: number; uv?: Float32Array | null; material?: THREE.Material | null });
  readonly cloth: Cloth;
  update(): void;
  dispose(): void;
}
/** UVs for a grid cloth of resolutionX x resolutionY quads (row 0 on top). */
export function gridUVs(resolutionX: number, resolutionY: number): Float32Array;

export interface SkinPin {
  /** index of the cloth particle */
  particle: number;
  /** the bone (or any Object3D) the particle follows */
  bone: THREE.Object3D;
  /** m of slack around where the bone puts the particle; 0 (default) pins exactly */
  maxDistance?: number;
}
/** Cloth pinned to bones: call beforeStep() after animation, before world.step(). */
export class ClothSkinning {
  constructor(world: World, cloth: Cloth, pins: SkinPin[]);
  readonly cloth: Cloth;
  beforeStep(): void;
  dispose(): void;
}
/** Pins for ClothSkinning from a SkinnedMesh whose vertices are the cloth's (through cloth.vertexMap for welded meshes). */
export function pinsFromSkinnedMesh(mesh: THREE.SkinnedMesh, cloth: Cloth, options?: { minWeight?: number; maxDistance?: number }): SkinPin[];

/** A Wisp chain over bones[0..n-1] (each a child of the previous), following bones[0].parent. */
export class SpringBoneChain {
  /**
   * followAnimation: beforeStep() also hands the bones' local rotations (the animation mixer's
   * output for this frame) to the chain as its animated pose (Chain.setPose); a bone the animation
   * did not write keeps its last animated rotation. Off by default (the chain follows the rest pose).
   */
  constructor(world: World, bones: THREE.Object3D[], params?: ChainParams, options?: { endLength?: number; followAnimation?: boolean });
  readonly bones: THREE.Object3D[];
  readonly root: THREE.Object3D;
  readonly chain: Chain;
  followAnimation: boolean;
  /** Hands the root's world matrix (after animation), and with followAnimation the bones' local rotations, to the chain. No allocation. */
  beforeStep(): void;
  /** Writes the simulated local rotations into bone.quaternion. */
  afterStep(): void;
  /** Jump: the chain keeps its shape and gains no velocity. */
  teleport(): void;
  dispose(): void;
}

/** The part of three-vrm's VRMSpringBoneManager the rig reads (vrm.springBoneManager). */
export interface VRMSpringBoneManagerLike {
  joints: Iterable<{
    bone: THREE.Object3D;
    child: THREE.Object3D | null;
    settings: { stiffness: number; dragForce: number; gravityPower: number; gravityDir: THREE.Vector3; hitRadius: number };
    colliderGroups: Array<{ colliders: Array<THREE.Object3D & { shape: { type?: string; radius?: number; inside?: boolean; offset: THREE.Vector3; tail?: THREE.Vector3; normal?: THREE.Vector3 } }> }>;
  }>;
}
/** A loaded VRM's spring bones and colliders as Wisp chains (mode 'vrm'); replaces manager.update(). */
export class VRMSpringBoneRig {
  /**
   * `gltf`: the loaded glTF (parser.json, parser.associations), for the joints'
   * VRMC_springBone_limit (draft 1.0) limits; `vrmWind`: ChainParams.vrmWind of every chain
   * (default 0: three-vrm's update exactly).
   */
  constructor(world: World, manager: VRMSpringBoneManagerLike, options?: {
    gltf?: { parser: { json: unknown; associations: { get(object: unknown): { nodes?: number } | undefined } } } | null;
    vrmWind?: number;
  });
  readonly chains: SpringBoneChain[];
  beforeStep(): void;
  afterStep(): void;
  dispose(): void;
}

/** A mesh for a collider definition; tapered capsules are drawn tapered. */
export function colliderMesh(def: ColliderDef, color?: number, options?: { wireframe?: boolean }): THREE.Object3D;
/** Sets a mesh's pose from [x, y, z] and [qx, qy, qz, qw]. */
export function placeMesh(mesh: THREE.Object3D, position: ArrayLike<number>, rotation?: ArrayLike<number>): void;
/** The hull of two end spheres (radiusBottom at y = -halfHeight, radiusTop at +halfHeight). */
export function taperedCapsuleGeometry(radiusBottom: number, radiusTop: number, halfHeight: number,
  options?: { segments?: number; arcSegments?: number }): THREE.BufferGeometry;

/** Rest data ChainDebug needs per chain. */
export interface ChainRest {
  /** rest direction of each bone in its parent's frame (n - 1 entries, unit) */
  axis: THREE.Vector3[];
  /** rest length of each bone, m */
  length: number[];
  /** rest local rotation of each joint */
  local: THREE.Quaternion[];
  /** rotation of the chain's root */
  rootRotation: THREE.Quaternion;
}
/** Debug view of chains: a wireframe sphere per joint (its collision radius) and each bone's limit-cone axis. */
export class ChainDebug extends THREE.Group {
  constructor(maxJoints: number);
  /** After world.step(): radiusAt(joint, jointCount) in m, limit in rad. */
  update(chains: ReadonlyArray<{ chain: Chain; rest: ChainRest }>, radiusAt: (joint: number, count: number) => number, limit: number): void;
}
/** ChainRest for a chain built from bone offsets with identity local rotations. */
export function restOf(offsets: ReadonlyArray<readonly [number, number, number]>, rootRotation: THREE.Quaternion): ChainRest;

/** A character of CharacterLOD: its objects and where it is (updated by update()). */
export interface LODCharacter {
  readonly objects: ReadonlyArray<Rope | Cloth | Chain | WorkerRope | WorkerCloth | WorkerChain>;
  readonly level: DetailLevel;
  /** inside the view frustum at the last update */
  readonly visible: boolean;
  /** m from the camera to the bounding sphere's surface at the last update */
  readonly distance: number;
}
/**
 * Detail levels per character from the camera: distance thresholds with hysteresis and frustum
 * culling. Call update(camera) before world.step(). Deterministic for a camera path.
 */
export class CharacterLOD {
  constructor(options?: {
    /** m where reduced, slow, frozen and off start (4 increasing). Default [10, 20, 40, 80]. */
    distances?: [number, number, number, number];
    /** m of hysteresis around each threshold. Default 1. */
    margin?: number;
    /** the least level outside the frustum. Default 'frozen'. */
    offscreen?: DetailLevel;
    /** m the sphere grows while it counts as on screen. Default 0.5. */
    frustumMargin?: number;
    /** a FrameBudget whose caps the levels set (it may lower them further); one over a WorkerWorld too (the caps go to the worker). */
    budget?: FrameBudget | null;
  });
  readonly characters: LODCharacter[];
  /** What the last update() changed (reused object). */
  readonly report: { changes: Array<{ character: LODCharacter; from: DetailLevel | null; to: DetailLevel }> };
  add(character: {
    objects: Simulated[];
    /** an Object3D (with radius), a sphere, or a function filling in the sphere */
    bounds: THREE.Object3D | THREE.Sphere | ((target: THREE.Sphere) => void);
    /** m, with an Object3D's bounds. Default 1. */
    radius?: number;
    /** hidden at level 'off' */
    hide?: THREE.Object3D[];
    onLevel?: (to: DetailLevel, from: DetailLevel | null) => void;
  }): LODCharacter;
  remove(character: LODCharacter): void;
  update(camera: THREE.Camera): CharacterLOD['report'];
}
