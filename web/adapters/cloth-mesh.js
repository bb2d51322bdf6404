// ClothMesh: a three.js mesh whose position and normal attributes are the cloth's own views into
// WASM memory (no copy). update() after each world.step() marks them for upload; if WASM memory
// grew, the views are re-made and re-bound. With the world option `interpolate` it shows the
// render arrays (renderPositions, renderNormals): the pose between the last two fixed steps.
import * as THREE from 'three';

export class ClothMesh extends THREE.Mesh {
  #positions = null;

  /**
   * @param {import('../../wasm/js/index.js').Cloth} cloth
   * @param {{ color?: number, uv?: Float32Array, material?: THREE.Material }} options
   */
  constructor(cloth, { color = 0xc8423a, uv = null, material = null } = {}) {
    super(new THREE.BufferGeometry(), material ?? new THREE.MeshStandardMaterial({ color, roughness: 0.85, side: THREE.DoubleSide }));
    this.cloth = cloth;
    this.frustumCulled = false;  // vertices move every frame
    this.geometry.setIndex(new THREE.BufferAttribute(cloth.indices, 1));
    if (uv) this.geometry.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
    this.update();
  }

  update() {
    const p = this.cloth.renderPositions;
    if (p !== this.#positions) {
      // first call, or WASM memory grew: bind the fresh views
      this.geometry.setAttribute('position', new THREE.BufferAttribute(p, 3).setUsage(THREE.DynamicDrawUsage));
      this.geometry.setAttribute('normal', new THREE.BufferAttribute(this.cloth.renderNormals, 3).setUsage(THREE.DynamicDrawUsage));
      this.#positions = p;
    }
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.attributes.normal.needsUpdate = true;
  }

  dispose() {
    this.geometry.dispose();
    this.material.dispose();
  }
}

/** UVs for a grid cloth of resolutionX x resolutionY quads (row 0 on top). */
export function gridUVs(resolutionX, resolutionY) {
  const uv = new Float32Array((resolutionX + 1) * (resolutionY + 1) * 2);
  for (let j = 0; j <= resolutionY; j++)
    for (let i = 0; i <= resolutionX; i++) {
      const k = 2 * (j * (resolutionX + 1) + i);
      uv[k] = i / resolutionX;
      uv[k + 1] = 1 - j / resolutionY;
    }
  return uv;
}
