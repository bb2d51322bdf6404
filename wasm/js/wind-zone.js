// A wind zone: a local wind added to the global one inside a sphere or box.
import { fail, objectArg, pick } from './args.js';
import { ZONE, ZONE_SHAPES } from './options.js';
import { Handle } from './handle.js';

function zoneArg(def) {
  const d = objectArg(def, 'wind zone');
  const shape = ZONE_SHAPES[d.shape];
  if (shape === undefined) fail(`wind zone shape must be 'sphere' or 'box' (got ${String(d.shape)})`);
  const { shape: _, ...rest } = d;
  const clean = pick(rest, ZONE, 'wind zone');
  clean.shape = shape;
  return clean;
}

export class WindZone extends Handle {
  /** Replaces the zone's definition (move it, change its wind). */
  set(def) { this._world._check(this._world._native.setWindZone(this._id, zoneArg(def))); }
  dispose() { this._dispose((n, id) => n.removeWindZone(id)); }
}

export { zoneArg };
