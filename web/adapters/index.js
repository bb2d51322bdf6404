// wisp/three: the three.js adapters. `three` is a peer dependency of this entry only.
//   import { RopeMesh, ClothMesh, ClothSkinning, SpringBoneChain } from 'wisp/three';
export { RopeMesh } from './rope-mesh.js';
export { ClothMesh, gridUVs } from './cloth-mesh.js';
export { ClothSkinning, pinsFromSkinnedMesh } from './cloth-skinning.js';
export { SpringBoneChain, VRMSpringBoneRig } from './spring-bones.js';
export { colliderMesh, placeMesh, taperedCapsuleGeometry } from './collider-mesh.js';
export { ChainDebug, restOf } from './debug-drawer.js';
export { CharacterLOD } from './lod.js';
