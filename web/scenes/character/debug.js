// Debug lines for the character's dress, in the conventions of the package's debug drawer
// (adapters/debug-drawer.js: a preallocated buffer, update() after world.step(), no allocation
// per frame): the links between neighbouring chains, and each joint's backstop.
import * as THREE from 'three';

function lines(maxSegments, color) {
  const l = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color }));
  l.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(maxSegments * 6), 3));
  l.frustumCulled = false;
  return l;
}

/** A line per link between the two joints it holds together. */
export class LinkDebug extends THREE.Group {
  constructor(maxLinks) {
    super();
    this.lines = lines(maxLinks, 0xff6fd8);
    this.add(this.lines);
  }
  /** chains: the Chain objects, in the order given to addChainLinks; pairs: links.pairs(). */
  update(chains, pairs) {
    const line = this.lines.geometry.attributes.position.array;
    let l = 0;
    for (let i = 0; i + 3 < pairs.length && l + 6 <= line.length; i += 4) {
      const a = chains[pairs[i]].positions, ja = 3 * pairs[i + 1], b = chains[pairs[i + 2]].positions, jb = 3 * pairs[i + 3];
      line[l++] = a[ja]; line[l++] = a[ja + 1]; line[l++] = a[ja + 2];
      line[l++] = b[jb]; line[l++] = b[jb + 1]; line[l++] = b[jb + 2];
    }
    this.lines.geometry.setDrawRange(0, l / 3);
    this.lines.geometry.attributes.position.needsUpdate = true;
  }
}

/**
 * Each joint's backstop plane (ChainParams.backstop with backstopRadius 0), as a small square:
 * the surface lies `distance` behind where the animated pose puts the joint (A_j), facing N.
 */
export class BackstopDebug extends THREE.Group {
  constructor(maxJoints, size = 0.035) {
    super();
    this.lines = lines(4 * maxJoints, 0x7dff7a);
    this.add(this.lines);
    this.size = size;
    this.m = new THREE.Matrix4();
    this.p = new THREE.Vector3();
    this.n = new THREE.Vector3();
    this.u = new THREE.Vector3();
    this.v = new THREE.Vector3();
    this.c = new THREE.Vector3();
  }
  /**
   * entries: [{ root (Object3D: the chain's root), offsets ([[x, y, z]] per joint, each in its
   * parent's frame, identity rotations: the animated pose), normal (Vector3 in the root's frame) }];
   * distance (m). Joint 0 rides the root and has no backstop.
   */
  update(entries, distance) {
    const line = this.lines.geometry.attributes.position.array, h = this.size / 2;
    let l = 0;
    for (const { root, offsets, normal } of entries) {
      const e = root.matrixWorld;
      this.n.copy(normal).transformDirection(e);
      this.u.set(0, 1, 0).transformDirection(e);
      this.v.crossVectors(this.n, this.u).normalize();
      this.u.crossVectors(this.v, this.n);
      this.p.set(0, 0, 0);
      for (let j = 0; j < offsets.length; j++) {
        const o = offsets[j];
        this.p.x += o[0]; this.p.y += o[1]; this.p.z += o[2];
        if (j === 0 || l + 24 > line.length) continue;
        this.c.copy(this.p).applyMatrix4(e).addScaledVector(this.n, -distance);
        for (let s = 0; s < 4; s++) {
          // corners (±h, ±h) in the plane's (u, v), in order round the square
          const a0 = s === 0 || s === 3 ? -h : h, b0 = s < 2 ? -h : h;
          const a1 = s === 0 || s === 1 ? h : -h, b1 = s === 0 || s === 3 ? -h : h;
          line[l++] = this.c.x + a0 * this.u.x + b0 * this.v.x; line[l++] = this.c.y + a0 * this.u.y + b0 * this.v.y; line[l++] = this.c.z + a0 * this.u.z + b0 * this.v.z;
          line[l++] = this.c.x + a1 * this.u.x + b1 * this.v.x; line[l++] = this.c.y + a1 * this.u.y + b1 * this.v.y; line[l++] = this.c.z + a1 * this.u.z + b1 * this.v.z;
        }
      }
    }
    this.lines.geometry.setDrawRange(0, l / 3);
    this.lines.geometry.attributes.position.needsUpdate = true;
  }
}
