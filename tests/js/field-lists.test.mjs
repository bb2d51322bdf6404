// One field list for everything that lists fields: the TypeScript option interfaces in
// wasm/js/index.d.ts name exactly the members of core/src/snapshot/fields.h (the list the
// snapshots, the state hash and the bindings are made from), apart from the differences listed
// below with their reasons. A parameter added to the solver but not to the types, or a typed
// option the solver does not have, fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const fieldsH = readFileSync(new URL('core/src/snapshot/fields.h', root), 'utf8');
const dts = readFileSync(new URL('wasm/js/index.d.ts', root), 'utf8');

// The names each `visit(Ar& ar, Struct& x) { ar("name", ...); ... }` lists.
function fieldsOf(struct) {
  const m = fieldsH.match(new RegExp(`void visit\\(Ar& ar, ${struct}& \\w+\\) \\{([\\s\\S]*?)\\n\\}`));
  assert.ok(m, `fields.h has no field list for ${struct}`);
  return new Set([...m[1].matchAll(/ar\("(\w+)"/g)].map((x) => x[1]));
}
// The property names of `export interface Name [extends ...] { ... }` (its own, not inherited).
function propertiesOf(name) {
  const m = dts.match(new RegExp(`export interface ${name}\\b[^{]*\\{([\\s\\S]*?)\\n\\}`));
  assert.ok(m, `index.d.ts has no interface ${name}`);
  const body = m[1].replace(/\/\*\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const names = body.split(/[;\n]/).map((l) => l.trim().match(/^(?:readonly\s+)?(\w+)\??\s*:/)).filter(Boolean);
  return new Set(names.map((x) => x[1]));
}

const PAIRS = [
  {
    struct: 'WorldSettings', iface: 'WorldSettings',
    // a world switch the bindings read and write beside the field list: checking invariants is
    // not state, so snapshots and the state hash leave it out
    typesOnly: ['debugChecks'],
  },
  { struct: 'WindSettings', iface: 'WindSettings' },
  { struct: 'RopeParams', iface: 'RopeParams' },
  { struct: 'ClothParams', iface: 'ClothParams' },
  {
    struct: 'ChainParams', iface: 'ChainParams',
    // JavaScript says `gravity: null` for "the world's gravity" instead of a separate flag
    fieldsOnly: ['customGravity'],
  },
  { struct: 'ChainBoost', iface: 'ChainBoost' },
  { struct: 'VrmLimit', iface: 'VrmLimit' },
  { struct: 'ChainLinksParams', iface: 'ChainLinksOptions' },
];

for (const { struct, iface, typesOnly = [], fieldsOnly = [] } of PAIRS) {
  test(`index.d.ts ${iface} names the fields of ${struct} in fields.h`, () => {
    const fields = fieldsOf(struct), props = propertiesOf(iface);
    const missing = [...fields].filter((f) => !props.has(f) && !fieldsOnly.includes(f));
    const extra = [...props].filter((p) => !fields.has(p) && !typesOnly.includes(p));
    assert.deepEqual(missing, [], `${iface} lacks fields of ${struct}`);
    assert.deepEqual(extra, [], `${iface} has options ${struct} does not`);
    for (const f of fieldsOnly) assert.ok(fields.has(f), `stale exception: ${struct}.${f} is gone`);
    for (const p of typesOnly) assert.ok(props.has(p), `stale exception: ${iface}.${p} is gone`);
  });
}

// The JavaScript option tables (wasm/js/options.js) that check what users pass: each names the
// fields of its struct, so an option the solver gained is accepted from JavaScript and an option
// it lost is refused, not silently dropped.
const options = await import(new URL('wasm/js/options.js', root));
const TABLES = [
  { table: 'WORLD', struct: 'WorldSettings', tableOnly: ['debugChecks'] },
  { table: 'WIND', struct: 'WindSettings' },
  { table: 'ROPE_PARAMS', struct: 'RopeParams' },
  { table: 'CLOTH_PARAMS', struct: 'ClothParams' },
  { table: 'CHAIN_PARAMS', struct: 'ChainParams', fieldsOnly: ['customGravity'] },
  { table: 'CHAIN_BOOST', struct: 'ChainBoost' },
  { table: 'VRM_LIMIT', struct: 'VrmLimit' },
  { table: 'CHAIN_LINKS_PARAMS', struct: 'ChainLinksParams' },
];
for (const { table, struct, tableOnly = [], fieldsOnly = [] } of TABLES) {
  test(`options.js ${table} names the fields of ${struct} in fields.h`, () => {
    const fields = fieldsOf(struct), keys = new Set(Object.keys(options[table]));
    assert.deepEqual([...fields].filter((f) => !keys.has(f) && !fieldsOnly.includes(f)), [], `${table} lacks fields of ${struct}`);
    assert.deepEqual([...keys].filter((k) => !fields.has(k) && !tableOnly.includes(k)), [], `${table} has options ${struct} does not`);
  });
}
