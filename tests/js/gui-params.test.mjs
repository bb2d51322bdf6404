// The playground's GUI specs (web/world-params.js, web/scenes/*.js) against the one field list:
// a spec driving a solver parameter names it (`field: 'Struct.member'`, or a list), the member
// must be in core/src/snapshot/fields.h, and every value the slider or menu can give (through
// `toField` when the GUI's unit differs) must pass the range core/src/validate.cpp checks. A spec
// whose key is a solver parameter's name must say which one it drives (`field: null`: none, it
// only shares the name).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const fieldsH = readFileSync(new URL('core/src/snapshot/fields.h', root), 'utf8');
const validateCpp = readFileSync(new URL('core/src/validate.cpp', root), 'utf8');

// Struct -> its member names, from every `void visit(Ar& ar, Struct& x) { ar("name", ...) }`.
const FIELDS = new Map();
for (const m of fieldsH.matchAll(/void visit\(Ar& ar, (\w+)& \w+\) \{([\s\S]*?)\n?\}\n/g)) {
  FIELDS.set(m[1], new Set([...m[2].matchAll(/ar\("(\w+)"/g)].map((x) => x[1])));
}

// 'Struct.member' -> [lo, hi] from validate.cpp: checkRange("Struct.member", v, lo, hi) with
// numeric bounds, and the checks validateObjectParams makes for each kind that calls it.
export function validatedRanges(text) {
  const ranges = new Map();
  const number = (s) => (/^-?[\d.]+(e-?\d+)?$/.test(s.trim()) ? Number(s) : NaN);
  for (const m of text.matchAll(/checkRange\("(\w+\.\w+)",[^,]+,\s*([^,]+),\s*([^)]+)\)/g)) {
    const lo = number(m[2]), hi = number(m[3]);
    if (Number.isFinite(lo) && Number.isFinite(hi)) ranges.set(m[1], [lo, hi]);
  }
  const shared = [...text.matchAll(/checkRange\(\(k \+ "\.(\w+)"\)[^,]*,[^,]+,\s*([^,]+),\s*([^)]+)\)/g)];
  for (const [, kind] of text.matchAll(/validateObjectParams\("(\w+)"/g)) {
    for (const m of shared) ranges.set(`${kind}.${m[1]}`, [number(m[2]), number(m[3])]);
  }
  return ranges;
}
const RANGES = validatedRanges(validateCpp);

const SOLVER_STRUCTS = ['WorldSettings', 'WindSettings', 'RopeParams', 'ClothParams', 'ChainParams'];
const solverNames = new Set(SOLVER_STRUCTS.flatMap((s) => [...FIELDS.get(s)]));

// Problems of one set of specs: [key, message].
export function checkSpecs(specs) {
  const out = [];
  for (const [key, s] of Object.entries(specs)) {
    if (!s.field) {
      if (s.field !== null && solverNames.has(key)) out.push([key, `names the solver parameter ${key}: say which with field: 'Struct.${key}'`]);
      continue;
    }
    const values = s.options ? Object.values(s.options).filter((v) => typeof v === 'number')
      : typeof s.value === 'number' ? [s.min, s.max] : [];
    for (const f of [s.field].flat()) {
      const [struct, member, rest] = f.split('.');
      if (rest !== undefined || !FIELDS.has(struct) || !FIELDS.get(struct).has(member)) {
        out.push([key, `field ${f} is not in core/src/snapshot/fields.h`]);
        continue;
      }
      const range = RANGES.get(f);
      if (!range) continue;  // a vector, a flag, a mode, or a check of its own shape
      for (const v of values) {
        const x = s.toField ? s.toField(v) : v;
        if (!(x >= range[0] && x <= range[1])) out.push([key, `${v} gives ${f} = ${x}, outside the validated [${range[0]}, ${range[1]}]`]);
      }
    }
  }
  return out;
}

test('validate.cpp\'s ranges are read (the parse would otherwise check nothing)', () => {
  assert.deepEqual(RANGES.get('RopeParams.damping'), [0, 1e4]);
  assert.deepEqual(RANGES.get('ClothParams.bendCompliance'), [1e-5, 1e6]);
  assert.deepEqual(RANGES.get('ChainParams.teleportAngle'), [0, 3.1416]);
  assert.deepEqual(RANGES.get('WorldSettings.substeps'), [1, 128]);
  assert.ok(RANGES.size > 60, `${RANGES.size} ranges`);
  for (const f of RANGES.keys()) {
    const [struct, member] = f.split('.');
    if (FIELDS.has(struct)) assert.ok(FIELDS.get(struct).has(member), `validate.cpp checks ${f}, which fields.h does not list`);
  }
});

test('the check catches a slider naming no field, a range outside validation, and an unnamed solver parameter', () => {
  assert.equal(checkSpecs({ a: { field: 'RopeParams.stiffness', value: 1, min: 0, max: 1 } }).length, 1);
  assert.equal(checkSpecs({ a: { field: 'RopeParams.damping', value: 1, min: -1, max: 1 } }).length, 1);
  assert.equal(checkSpecs({ a: { field: 'ClothParams.bendCompliance', value: 1, min: 0, max: 1 } }).length, 1);
  assert.equal(checkSpecs({ a: { field: 'ChainParams.limitAngle', value: 1, min: 0, max: 180 } }).length, 1);
  assert.equal(checkSpecs({ a: { field: 'WorldSettings.threads', value: 0, options: { auto: 0, lots: 99 } } }).length, 1);
  assert.equal(checkSpecs({ damping: { value: 1, min: 0, max: 1 } }).length, 1);
  assert.deepEqual(checkSpecs({ speed: { field: null, value: 1, min: 0, max: 3 } }), []);
  assert.deepEqual(checkSpecs({ a: { field: 'ChainParams.limitAngle', toField: (d) => (d * Math.PI) / 180, value: 1, min: 0, max: 180 } }), []);
});

const { worldParams } = await import(new URL('web/world-params.js', root));
const scenes = [['web/world-params.js', worldParams]];
// A scene is a module (web/scenes/x.js) or a folder whose index.js is the scene.
for (const e of readdirSync(new URL('web/scenes/', root), { withFileTypes: true })) {
  const f = e.isDirectory() ? `${e.name}/index.js` : e.name;
  const def = (await import(new URL(`web/scenes/${f}`, root))).default;
  if (def && def.params) scenes.push([`web/scenes/${f}`, def.params]);
}

test('every scene has GUI specs to check', () => assert.ok(scenes.length >= 12, `${scenes.length} spec sets`));

for (const [file, specs] of scenes) {
  test(`${file}: each GUI spec driving a solver parameter names a field of fields.h with a validated range`, () => {
    assert.deepEqual(checkSpecs(specs), []);
  });
}
