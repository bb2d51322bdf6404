// ClothMesh: a three.js mesh whose position and normal attributes are the cloth's own output
// arrays (no copy). update() after each world.step() marks them for upload. With the world
// option `interpolate` it shows the render arrays (renderPositions, renderNormals): the pose
// between the last two fixed steps. On a worker world (createWorkerWorld) the output arrays are
// views of the shared slot the worker filled, a different one after each step(): update() puts
// the new view in the attribute (BufferAttribute.array, same length: no new attribute, no copy).
// Make it after `await world.flush()` there (the triangles come from the worker).
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
      // first call, or a worker world's next slot
      bind(this.geometry, 'position', p);
      bind(this.geometry, 'normal', this.cloth.renderNormals);
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

// The attribute `name` reads `array`: the existing attribute when the length is the same (its GPU
// buffer is updated in place), else a new one.
function bind(geometry, name, array) {
  const a = geometry.getAttribute(name);
  if (a !== undefined && a.array.length === array.length) a.array = array;
  else geometry.setAttribute(name, new THREE.BufferAttribute(array, 3).setUsage(THREE.DynamicDrawUsage));
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
