// A SkinnedMesh from rings of vertices (a tube, a skirt): `cols` vertices per ring, each ring
// joined to the next with the last vertex of a ring joined back to its first. The positions are
// in world space as the bones are now (bound with an identity bind matrix, detached).
import * as THREE from 'three';

/** positions, skinIndex, skinWeight: flat arrays, ring after ring; bones: the skeleton's bones. */
export function skinnedRings(positions, skinIndex, skinWeight, cols, bones, material) {
  const rings = positions.length / 3 / cols, index = [];
  for (let r = 0; r + 1 < rings; r++) {
    for (let s = 0; s < cols; s++) {
      const i0 = r * cols + s, i1 = r * cols + ((s + 1) % cols);
      index.push(i0, i0 + cols, i1, i1, i0 + cols, i1 + cols);
    }
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
  geometry.setIndex(index);
  geometry.computeVertexNormals();
  const mesh = new THREE.SkinnedMesh(geometry, material);
  mesh.frustumCulled = false;  // the bind-pose bounds do not follow the bones
  mesh.bind(new THREE.Skeleton(bones), new THREE.Matrix4());
  mesh.bindMode = 'detached';
  return mesh;
}
