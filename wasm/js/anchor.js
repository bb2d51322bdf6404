// A kinematic anchor: particles pinned to it follow it.
import { vec3 } from './args.js';
import { readPose, IDENTITY } from './pose.js';
import { Handle } from './handle.js';

export class Anchor extends Handle {
  /**
   * Target position for the end of the next world.step(dt); the fixed steps inside the frame see
   * it at their own time on the line from the previous target (see index.d.ts).
   */
  setPosition(p) {
    const v = readPose(p, IDENTITY);  // no allocation: called every frame
    const w = this._world, id = this._id, io = w._io, f = io.f32;
    f[0] = v[0]; f[1] = v[1]; f[2] = v[2];
    w._check(w._module._wisp_set_anchor_position(w._address, id, io.ptr));
  }
  /** Jumps there at once; pinned particles follow without gaining velocity. */
  teleport(p) {
    const v = vec3(p, 'anchor position');
    this._world._check(this._world._native.teleportAnchor(this._id, v[0], v[1], v[2]));
    this._world._refreshViews();
  }
  get position() { return this._world._native.anchorPosition(this._id); }
  dispose() { this._dispose((n, id) => n.removeAnchor(id)); }
}
