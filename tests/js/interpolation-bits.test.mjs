// Render interpolation is written twice: in the core (core/src/output/interpolate.cpp, for C++
// users) and in JavaScript (wasm/js/interpolation.js, which the package runs so a frame crosses
// into WebAssembly once, not once per view). The JavaScript copy promises the core's bits; this
// compares the two over random and edge-case outputs through the self-test build's
// interpolateCore and renderAlphaCore (wasm/src/selftest.cpp).
import test from 'node:test';
import assert from 'node:assert/strict';
import { interpolate, renderAlpha, POINTS, UNIT_VECTORS, ROTATIONS } from '../../wasm/js/interpolation.js';
import { selftest } from './selftest.mjs';
import { seededRandom } from '../../web/scenes/random.js';

const core = selftest.single.module;

function unit(u, n) {
  const v = Array.from({ length: n }, () => u() - 0.5);
  const l = Math.hypot(...v);
  return v.map((x) => x / l);
}

// Random outputs of one mode, with the cases that take other branches mixed in: equal entries,
// opposite unit vectors (their lerp vanishes at 0.5), opposite quaternions (the shortest arc
// flips the sign), -0, tiny and large coordinates.
function outputs(mode, u, count) {
  const stride = mode === ROTATIONS ? 4 : 3;
  const prev = new Float32Array(count * stride), cur = new Float32Array(count * stride);
  for (let i = 0; i < count; i++) {
    const kind = i % 6;
    let a, b;
    if (mode === POINTS) {
      const scale = [1, 1e-6, 1e4, 1, 1, 1][kind];
      a = [0, 0, 0].map(() => (u() - 0.5) * scale);
      b = kind === 3 ? a.slice() : a.map((x) => x + (u() - 0.5) * scale);
      if (kind === 4) { a = [-0, 0, -0]; b = [0, -0, 0]; }
    } else {
      a = unit(u, stride);
      b = kind === 1 ? a.slice() : kind === 2 ? a.map((x) => -x) : unit(u, stride);
      if (kind === 3) b = a.map((x, j) => x + (j === 0 ? 1e-4 : 0));
    }
    prev.set(a, i * stride);
    cur.set(b, i * stride);
  }
  return { prev, cur };
}

const MODES = [['points', POINTS], ['unit vectors', UNIT_VECTORS], ['rotations', ROTATIONS]];
// Render alphas (float32 values, as renderAlpha gives them) and what setAlpha may be handed:
// doubles that round to 0 or 1 in float32, and the endpoints.
const ALPHAS = [0, 1, 0.5, 0.25, 1 / 3, 0.999, 1e-7, 1 - 1e-9, 1e-50, 0.5 + 1e-12];

for (const [name, mode] of MODES) {
  test(`JavaScript interpolation of ${name} gives the core's bits (600 outputs x ${ALPHAS.length + 20} weights)`, () => {
    const u = seededRandom(7 + mode);
    const { prev, cur } = outputs(mode, u, 600);
    const out = new Float32Array(cur.length), at = new Float64Array(1);
    const alphas = ALPHAS.concat(Array.from({ length: 20 }, () => Math.fround(u())));
    for (const alpha of alphas) {
      at[0] = alpha;
      interpolate(mode, prev, cur, at, out);
      const want = core.interpolateCore(mode, Array.from(prev), Array.from(cur), alpha);
      for (let i = 0; i < out.length; i++) {
        if (!Object.is(out[i], want[i])) {
          assert.fail(`alpha ${alpha}, float ${i}: JavaScript ${out[i]}, core ${want[i]} (prev ${prev[i]}, cur ${cur[i]})`);
        }
      }
    }
  });
}

test('renderAlpha gives the core\'s bits (leftovers across a step, spans 0..4, 60 and 144 Hz steps)', () => {
  const u = seededRandom(3);
  for (const fixedDt of [1 / 60, 1 / 144, 1 / 30, 0.1]) {
    for (let span = 0; span <= 4; span++) {
      for (let k = 0; k < 200; k++) {
        const leftover = k < 3 ? [0, fixedDt, -1e-12][k] : u() * fixedDt;
        const js = renderAlpha(leftover, fixedDt, span), c = core.renderAlphaCore(leftover, fixedDt, span);
        assert.ok(Object.is(js, c), `leftover ${leftover}, fixedDt ${fixedDt}, span ${span}: ${js} vs ${c}`);
      }
    }
  }
});
