// RopeMesh: a three.js tube that follows a Wisp rope. Each frame update() rebuilds the ring
// vertices around the rope's particle positions (its output array, read in place) with a
// parallel-transport frame, so the tube does not twist. No allocation per frame. With the world
// option `interpolate` it follows rope.renderPositions (between the last two fixed steps).
import * as THREE from 'three';

export class RopeMesh extends THREE.Mesh {
  /**
   * @param {import('../../wasm/js/index.js').Rope} rope
   * @param {{ radius?: number, sides?: number, color?: number }} options
   */
  constructor(rope, { radius = 0.015, sides = 8, color = 0xff8a1f } = {}) {
    const geometry = new THREE.BufferGeometry();
    super(geometry, new THREE.MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.05 }));
    this.rope = rope;
    this.radius = radius;
    this.sides = sides;
    this.frustumCulled = false;  // vertices move every frame; skip bounding-sphere upkeep
    this.#allocate((rope.renderPositions ?? rope.positions).length / 3);  // (a worker world's rope: 0 until the worker made it)
    this.update();
  }

  #count = 0;
  #t = new THREE.Vector3(); #n = new THREE.Vector3(); #b = new THREE.Vector3(); #prevT = new THREE.Vector3();
  #tmp = new THREE.Vector3();

  #allocate(count) {
    this.#count = count;
    const s = this.sides;
    const verts = count * s;
    this.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(verts * 3), 3).setUsage(THREE.DynamicDrawUsage));
    this.geometry.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(verts * 3), 3).setUsage(THREE.DynamicDrawUsage));
    const index = [];
    for (let i = 0; i + 1 < count; i++) {
      for (let k = 0; k < s; k++) {
        const a = i * s + k, b = i * s + ((k + 1) % s), c = a + s, d = b + s;
        index.push(a, c, b, b, c, d);
      }
    }
    this.geometry.setIndex(index);
  }

  /** Call after world.step(). Picks up cuts (fewer particles) by rebuilding its buffers. */
  update() {
    // (the teaching scenes' plain-JS solvers have positions only: no render arrays)
    const p = this.rope.renderPositions ?? this.rope.positions;
    const count = p.length / 3;
    if (count !== this.#count) this.#allocate(count);
    const pos = this.geometry.attributes.position.array;
    const nor = this.geometry.attributes.normal.array;
    const s = this.sides, r = this.radius;
    const t = this.#t, n = this.#n, b = this.#b, prevT = this.#prevT, tmp = this.#tmp;
    for (let i = 0; i < count; i++) {
      const i0 = Math.max(0, i - 1), i1 = Math.min(count - 1, i + 1);
      t.set(p[3 * i1] - p[3 * i0], p[3 * i1 + 1] - p[3 * i0 + 1], p[3 * i1 + 2] - p[3 * i0 + 2]);
      if (t.lengthSq() < 1e-12) t.set(1, 0, 0);
      t.normalize();
      if (i === 0) {
        // any normal perpendicular to the first tangent
        tmp.set(Math.abs(t.y) < 0.9 ? 0 : 1, Math.abs(t.y) < 0.9 ? 1 : 0, 0);
        n.crossVectors(t, tmp).normalize();
      } else {
        // parallel transport: remove the component along the new tangent
        n.addScaledVector(t, -n.dot(t));
        if (n.lengthSq() < 1e-12) n.crossVectors(t, prevT.set(0, 1, 0));
        n.normalize();
      }
      b.crossVectors(t, n);
      prevT.copy(t);
      for (let k = 0; k < s; k++) {
        const a = (k / s) * Math.PI * 2, c = Math.cos(a), sn = Math.sin(a);
        const nx = n.x * c + b.x * sn, ny = n.y * c + b.y * sn, nz = n.z * c + b.z * sn;
        const o = 3 * (i * s + k);
        pos[o] = p[3 * i] + nx * r; pos[o + 1] = p[3 * i + 1] + ny * r; pos[o + 2] = p[3 * i + 2] + nz * r;
        nor[o] = nx; nor[o + 1] = ny; nor[o + 2] = nz;
      }
    }
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.attributes.normal.needsUpdate = true;
  }

  dispose() {
    this.geometry.dispose();
    this.material.dispose();
  }
}
