// Argument checks: types here, values (NaN, ranges) in the core. Each throws a WispError naming
// the argument and what it got.
import { WispError } from './error.js';

function fail(message, code = 'invalid-argument') { throw new WispError(message, code); }
function num(v, name) {
  if (typeof v !== 'number') fail(`${name} must be a number (got ${v === null ? 'null' : typeof v})`);
  return v;
}
// A finite number > 0 (a budget in ms).
function positive(v, name) {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) fail(`${name} must be a finite number > 0 (got ${String(v)})`);
  return v;
}
// A finite number >= 0 (a priority, a measured time).
function nonNegative(v, name) {
  num(v, name);
  if (!(v >= 0) || !Number.isFinite(v)) fail(`${name} must be a finite number >= 0 (got ${v})`);
  return v;
}
function int(v, name) {
  num(v, name);
  if (!Number.isInteger(v)) fail(`${name} must be an integer (got ${v})`);
  return v;
}
function bool(v, name) {
  if (typeof v !== 'boolean') fail(`${name} must be a boolean (got ${typeof v})`);
  return v;
}
function vec3(v, name) {
  if (!v || typeof v !== 'object' || typeof v.length !== 'number' || v.length !== 3) {
    // also accept {x, y, z} (three.js Vector3)
    if (v && typeof v === 'object' && 'x' in v && 'y' in v && 'z' in v) return [num(v.x, `${name}.x`), num(v.y, `${name}.y`), num(v.z, `${name}.z`)];
    fail(`${name} must be [x, y, z] or {x, y, z}`);
  }
  return [num(v[0], `${name}[0]`), num(v[1], `${name}[1]`), num(v[2], `${name}[2]`)];
}
function quat(v, name) {
  if (v && typeof v === 'object' && 'w' in v && 'x' in v) return [num(v.x, `${name}.x`), num(v.y, `${name}.y`), num(v.z, `${name}.z`), num(v.w, `${name}.w`)];
  if (!v || typeof v.length !== 'number' || v.length !== 4) fail(`${name} must be [x, y, z, w] or {x, y, z, w}`);
  return [num(v[0], `${name}[0]`), num(v[1], `${name}[1]`), num(v[2], `${name}[2]`), num(v[3], `${name}[3]`)];
}
function objectArg(v, name) {
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object') fail(`${name} must be an object`);
  return v;
}
// The options of `spec` present in `src`, type-checked; any key neither in `spec` nor in
// `handled` (keys the caller reads itself) is an error.
function pick(src, spec, where, handled = []) {
  const out = {};
  for (const [key, check] of Object.entries(spec)) {
    if (src[key] !== undefined) out[key] = check(src[key], `${where}.${key}`);
  }
  for (const key of Object.keys(src)) {
    if (!(key in spec) && !handled.includes(key)) fail(`${where}.${key} is not a known option`);
  }
  return out;
}
function uint32(v, name) {
  int(v, name);
  if (v < 0 || v > 0xffffffff) fail(`${name} must be in [0, 4294967295] (got ${v})`);
  return v;
}
// A curve over the chain's length: [[t, value], ...] or [{ t, value }, ...].
function curve(v, name) {
  if (!Array.isArray(v)) fail(`${name} must be an array of [t, value] keys`);
  return v.map((k, i) => {
    if (Array.isArray(k) && k.length === 2) return [num(k[0], `${name}[${i}][0]`), num(k[1], `${name}[${i}][1]`)];
    if (k && typeof k === 'object' && 't' in k && 'value' in k) return [num(k.t, `${name}[${i}].t`), num(k.value, `${name}[${i}].value`)];
    fail(`${name}[${i}] must be [t, value] or { t, value }`);
  });
}
function oneOf(names) {
  return (v, name) => {
    if (!(v in names)) fail(`${name} must be one of ${Object.keys(names).map((k) => `'${k}'`).join(', ')} (got ${String(v)})`);
    return names[v];
  };
}
function nameOf(names, code) { return Object.keys(names).find((k) => names[k] === code); }
function numberArray(v, name) {
  if (!v || typeof v !== 'object' || typeof v.length !== 'number') fail(`${name} must be a typed array or an array of numbers`);
  return v;
}
function intArray(v, name) {
  numberArray(v, name);
  for (let i = 0; i < v.length; i++) int(v[i], `${name}[${i}]`);
  return v;
}

export { fail, num, positive, nonNegative, int, bool, vec3, quat, objectArg, pick, uint32, curve, oneOf, nameOf, numberArray, intArray };
