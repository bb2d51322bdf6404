// A rope tube coloured by the strain of its segments: a heat map from blue (compressed) through
// white (at rest length) to red (stretched by `scale` or more). Works for Wisp ropes and for the
// classic JS ropes alike (anything with `positions`), for ropes that are not cut.
import * as THREE from 'three';
import { RopeMesh } from '../adapters/rope-mesh.js';
import { segmentStrains, strainColor } from './measures.js';

export class StrainTube extends RopeMesh {
  /** restOf(s): rest length of segment s (m); scale: strain shown fully red (e.g. 0.05 = 5%). */
  constructor(source, restOf, { scale = 0.05, radius = 0.015, sides = 8 } = {}) {
    super(source, { radius, sides, color: 0xffffff });
    this.material.vertexColors = true;
    this.restOf = restOf;
    this.strainScale = scale;
    const count = source.positions.length / 3;
    this.strains = new Float64Array(Math.max(1, count - 1));
    this.maxStrain = 0;
    this.geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(count * sides * 3), 3).setUsage(THREE.DynamicDrawUsage));
    this.update();
  }

  update() {
    super.update();
    const colors = this.geometry.attributes.color;
    if (!colors) return;  // during construction
    const p = this.rope.positions, count = p.length / 3, s = this.sides, c = colors.array;
    this.maxStrain = segmentStrains(p, this.restOf, this.strains);
    for (let i = 0; i < count; i++) {
      // a vertex shows the larger strain of its two segments
      const e = Math.max(this.strains[Math.max(0, i - 1)], this.strains[Math.min(count - 2, i)]);
      for (let k = 0; k < s; k++) strainColor(e, this.strainScale, c, 3 * (i * s + k));
    }
    colors.needsUpdate = true;
  }
}
