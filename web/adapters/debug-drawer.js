// Debug drawing for spring-bone chains: a wireframe sphere per joint sized by its collision
// radius, and a line per bone along the axis of its limit cone. For colliders use
// colliderMesh(def, color, { wireframe: true }) from collider-mesh.js (tapered capsules drawn
// tapered). Each frame after world.step(): debug.update(chains, radiusAt, limit). No allocation
// per frame.
import * as THREE from 'three';

/** Joint spheres sized by their collision radius, and a line per bone along its limit cone's axis. */
export class ChainDebug extends THREE.Group {
  constructor(maxJoints) {
    super();
    this.spheres = new THREE.InstancedMesh(new THREE.SphereGeometry(1, 10, 6),
      new THREE.MeshBasicMaterial({ color: 0x46c8ff, wireframe: true }), maxJoints);
    this.spheres.frustumCulled = false;
    this.axes = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: 0xffd23f }));
    this.axes.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(maxJoints * 6), 3));
    this.axes.frustumCulled = false;
    this.add(this.spheres, this.axes);
    this.m = new THREE.Matrix4();
    this.q = new THREE.Quaternion();
    this.v = new THREE.Vector3();
  }
  /** chains: [{ chain, rest: { axis: Vector3[], length: number[], local: Quaternion[] } }], radius(j, n) in m, limit in rad. */
  update(chains, radiusAt, limit) {
    let k = 0, l = 0;
    const line = this.axes.geometry.attributes.position.array;
    for (const { chain, rest } of chains) {
      const p = chain.renderPositions, r = chain.renderRotations, n = chain.count;
      for (let j = 0; j < n; j++) {
        const s = radiusAt(j, n);
        this.m.makeScale(s, s, s).setPosition(p[3 * j], p[3 * j + 1], p[3 * j + 2]);
        if (k < this.spheres.count) this.spheres.setMatrixAt(k++, this.m);
        if (j === 0 || l + 6 > line.length || !rest.axis[j - 1]) continue;  // no cone for the end tip
        // the cone axis of bone j-1: its rest direction under its simulated parent
        const parent = j >= 2 ? this.q.set(r[4 * (j - 2)], r[4 * (j - 2) + 1], r[4 * (j - 2) + 2], r[4 * (j - 2) + 3]) : rest.rootRotation;
        this.v.copy(rest.axis[j - 1]).applyQuaternion(rest.local[j - 1]).applyQuaternion(parent).multiplyScalar(rest.length[j - 1] * (limit < 3.1 ? 1 : 0.5));
        line[l++] = p[3 * (j - 1)]; line[l++] = p[3 * (j - 1) + 1]; line[l++] = p[3 * (j - 1) + 2];
        line[l++] = p[3 * (j - 1)] + this.v.x; line[l++] = p[3 * (j - 1) + 1] + this.v.y; line[l++] = p[3 * (j - 1) + 2] + this.v.z;
      }
    }
    this.spheres.count = k;
    this.spheres.instanceMatrix.needsUpdate = true;
    this.axes.geometry.setDrawRange(0, l / 3);
    this.axes.geometry.attributes.position.needsUpdate = true;
  }
}

/** Rest data the debug view needs for a chain built from bone offsets (identity local rotations). */
export function restOf(offsets, rootRotation) {
  return {
    axis: offsets.slice(1).map((o) => new THREE.Vector3(o[0], o[1], o[2]).normalize()),
    length: offsets.slice(1).map((o) => Math.hypot(o[0], o[1], o[2])),
    local: offsets.map(() => new THREE.Quaternion()),
    rootRotation,
  };
}
