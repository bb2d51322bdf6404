// A plain-JavaScript port of three-vrm's per-frame spring-bone rule on flat typed arrays, for
// the chain benchmark: what a hand-written JS implementation of the same algorithm costs without
// three.js objects. Joint k's tail is joint k+1; joint 0 rides the root. Sphere colliders only.
export class PlainSpringBones {
  /**
   * @param {number} chains  @param {number} joints per chain
   * @param {{ offsets: number[][], stiffness: number, drag: number, gravityPower: number, hitRadius: number }} s
   * @param {number[][]} spheres  [x, y, z, r] in the root's frame
   */
  constructor(chains, joints, s, spheres) {
    this.chains = chains; this.joints = joints; this.s = s; this.spheres = spheres;
    const n = chains * joints;
    this.cur = new Float64Array(3 * n); this.prev = new Float64Array(3 * n); this.pos = new Float64Array(3 * n);
    this.rot = new Float64Array(4 * n);  // world rotation per joint
    this.len = s.offsets.slice(1).map((o) => Math.hypot(o[0], o[1], o[2]));
    this.axis = s.offsets.slice(1).map((o, k) => o.map((v) => v / this.len[k]));
    this.root = [0, 0, 0, 0, 0, 0, 1];
    this.spherePos = new Float64Array(4 * spheres.length);
    this.setRoot([0, 0, 0], [0, 0, 0, 1]);
    // rest pose
    for (let c = 0; c < chains; c++) {
      let x = 0, y = 0, z = 0;
      for (let j = 0; j < joints; j++) {
        const o = s.offsets[j];
        x += o[0]; y += o[1]; z += o[2];
        const i = 3 * (c * joints + j);
        this.cur[i] = this.prev[i] = this.pos[i] = x + 0.01 * c;
        this.cur[i + 1] = this.prev[i + 1] = this.pos[i + 1] = y;
        this.cur[i + 2] = this.prev[i + 2] = this.pos[i + 2] = z;
      }
    }
  }
  setRoot(p, q) {
    this.root[0] = p[0]; this.root[1] = p[1]; this.root[2] = p[2];
    this.root[3] = q[0]; this.root[4] = q[1]; this.root[5] = q[2]; this.root[6] = q[3];
    for (let k = 0; k < this.spheres.length; k++) {
      const sp = this.spheres[k], out = rotate(q, sp[0], sp[1], sp[2]);
      this.spherePos[4 * k] = p[0] + out[0]; this.spherePos[4 * k + 1] = p[1] + out[1];
      this.spherePos[4 * k + 2] = p[2] + out[2]; this.spherePos[4 * k + 3] = sp[3];
    }
  }
  update(dt) {
    const { joints, s, cur, prev, pos, rot, len, axis, root, spherePos } = this;
    const ns = this.spheres.length;
    for (let c = 0; c < this.chains; c++) {
      const base = c * joints;
      // joint 0 on the root
      const o0 = s.offsets[0], r0 = rotate([root[3], root[4], root[5], root[6]], o0[0] + 0.01 * c, o0[1], o0[2]);
      pos[3 * base] = root[0] + r0[0]; pos[3 * base + 1] = root[1] + r0[1]; pos[3 * base + 2] = root[2] + r0[2];
      let qx = root[3], qy = root[4], qz = root[5], qw = root[6];
      for (let k = 0; k + 1 < joints; k++) {
        const a = 3 * (base + k), j = 3 * (base + k + 1);
        const ax = axis[k], ra = rotate([qx, qy, qz, qw], ax[0], ax[1], ax[2]);
        const px = pos[a], py = pos[a + 1], pz = pos[a + 2];
        const l = Math.hypot(pos[j] - px, pos[j + 1] - py, pos[j + 2] - pz);
        let nx = cur[j] + (cur[j] - prev[j]) * (1 - s.drag) + ra[0] * s.stiffness * dt;
        let ny = cur[j + 1] + (cur[j + 1] - prev[j + 1]) * (1 - s.drag) + ra[1] * s.stiffness * dt - s.gravityPower * dt;
        let nz = cur[j + 2] + (cur[j + 2] - prev[j + 2]) * (1 - s.drag) + ra[2] * s.stiffness * dt;
        let dx = nx - px, dy = ny - py, dz = nz - pz, d = Math.hypot(dx, dy, dz);
        nx = px + dx * l / d; ny = py + dy * l / d; nz = pz + dz * l / d;
        for (let m = 0; m < ns; m++) {
          const cx = nx - spherePos[4 * m], cy = ny - spherePos[4 * m + 1], cz = nz - spherePos[4 * m + 2];
          const cl = Math.hypot(cx, cy, cz), dist = cl - s.hitRadius - spherePos[4 * m + 3];
          if (dist < 0) {
            nx -= cx / cl * dist; ny -= cy / cl * dist; nz -= cz / cl * dist;
            dx = nx - px; dy = ny - py; dz = nz - pz; d = Math.hypot(dx, dy, dz);
            nx = px + dx * l / d; ny = py + dy * l / d; nz = pz + dz * l / d;
          }
        }
        prev[j] = cur[j]; prev[j + 1] = cur[j + 1]; prev[j + 2] = cur[j + 2];
        cur[j] = nx; cur[j + 1] = ny; cur[j + 2] = nz;
        dx = nx - px; dy = ny - py; dz = nz - pz; d = Math.hypot(dx, dy, dz);
        pos[j] = px + dx / d * len[k]; pos[j + 1] = py + dy / d * len[k]; pos[j + 2] = pz + dz / d * len[k];
        // rotation: the shortest arc from the rest axis to the new direction, on the parent's
        const ux = dx / d, uy = dy / d, uz = dz / d;
        let sx = ra[1] * uz - ra[2] * uy, sy = ra[2] * ux - ra[0] * uz, sz = ra[0] * uy - ra[1] * ux, sw = 1 + ra[0] * ux + ra[1] * uy + ra[2] * uz;
        const sn = Math.hypot(sx, sy, sz, sw); sx /= sn; sy /= sn; sz /= sn; sw /= sn;
        const rx = sw * qx + sx * qw + sy * qz - sz * qy, ry = sw * qy - sx * qz + sy * qw + sz * qx;
        const rz = sw * qz + sx * qy - sy * qx + sz * qw, rw = sw * qw - sx * qx - sy * qy - sz * qz;
        qx = rx; qy = ry; qz = rz; qw = rw;
        const r = 4 * (base + k);
        rot[r] = qx; rot[r + 1] = qy; rot[r + 2] = qz; rot[r + 3] = qw;
      }
    }
  }
}

function rotate(q, x, y, z) {
  const [qx, qy, qz, qw] = q;
  const tx = 2 * (qy * z - qz * y), ty = 2 * (qz * x - qx * z), tz = 2 * (qx * y - qy * x);
  return [x + qw * tx + qy * tz - qz * ty, y + qw * ty + qz * tx - qx * tz, z + qw * tz + qx * ty - qy * tx];
}
