// A cloth coloured by the strain of its edges: a heat map from blue (compressed) through white (at
// rest length) to red (stretched by `scale` or more). For Wisp's cloth and the classic JS cloth
// alike: anything with `positions` (x y z per particle), drawn with the given triangles.
import * as THREE from 'three';
import { pointDistance, strainColor } from './measures.js';

export class StrainCloth extends THREE.Mesh {
  /** edges: [a, b] particle pairs whose strain is shown; rest: their rest lengths (m). */
  constructor(source, indices, edges, rest, { scale = 0.05 } = {}) {
    const n = source.positions.length / 3;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * n), 3).setUsage(THREE.DynamicDrawUsage));
    geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(3 * n), 3).setUsage(THREE.DynamicDrawUsage));
    geometry.setIndex(Array.from(indices));
    super(geometry, new THREE.MeshStandardMaterial({ vertexColors: true, side: THREE.DoubleSide, roughness: 0.8 }));
    this.source = source;
    this.edgeA = Int32Array.from(edges, (e) => e[0]);
    this.edgeB = Int32Array.from(edges, (e) => e[1]);
    this.rest = Float64Array.from(rest);
    this.vertexStrain = new Float64Array(n);
    this.strainScale = scale;
    this.maxStrain = 0;
    this.frustumCulled = false;
    this.update();
  }

  update() {
    const p = this.source.positions, pos = this.geometry.attributes.position, col = this.geometry.attributes.color.array;
    pos.array.set(p);
    pos.needsUpdate = true;
    const vs = this.vertexStrain.fill(-Infinity);
    let worst = -Infinity;
    for (let e = 0; e < this.rest.length; e++) {
      const a = this.edgeA[e], b = this.edgeB[e];
      const s = pointDistance(p, a, b) / this.rest[e] - 1;
      if (s > worst) worst = s;
      if (s > vs[a]) vs[a] = s;
      if (s > vs[b]) vs[b] = s;
    }
    this.maxStrain = worst;
    for (let i = 0; i < vs.length; i++) strainColor(vs[i], this.strainScale, col, 3 * i);
    this.geometry.attributes.color.needsUpdate = true;
    this.geometry.computeVertexNormals();
  }
}

/** The unique edges of a triangle list, as [a, b] pairs with a < b. */
export function triangleEdges(indices) {
  const seen = new Set(), edges = [];
  for (let t = 0; t < indices.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = Math.min(indices[t + k], indices[t + (k + 1) % 3]), b = Math.max(indices[t + k], indices[t + (k + 1) % 3]);
      const key = a * 1e6 + b;
      if (!seen.has(key)) { seen.add(key); edges.push([a, b]); }
    }
  }
  return edges;
}
