// Matrix -> pose stays in JavaScript (wasm/js/pose.js; docs/architecture.md says why) and gives
// GLM's bits: the self-test build's poseFromMatrixGlm (wasm/src/selftest.cpp) converts the same
// matrices with glm::length, glm::determinant and glm::quat_cast in double precision.
import test from 'node:test';
import assert from 'node:assert/strict';
import { poseFromMatrix } from '../../wasm/js/index.js';
import { readMatrix } from '../../wasm/js/pose.js';
import { selftest } from './selftest.mjs';
import { rejects } from './load.mjs';
import { seededRandom } from '../../web/scenes/random.js';

const glm = selftest.single.module;

// Column-major matrix of rotation q (unit), scales s and translation t.
function matrix(q, s, t) {
  const [x, y, z, w] = q;
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
  ];
  return [r[0] * s[0], r[1] * s[0], r[2] * s[0], 0, r[3] * s[1], r[4] * s[1], r[5] * s[1], 0,
    r[6] * s[2], r[7] * s[2], r[8] * s[2], 0, t[0], t[1], t[2], 1];
}
function randomQuat(u) {
  const q = [u() - 0.5, u() - 0.5, u() - 0.5, u() - 0.5];
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
}
const same = (a, b) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

test('the JavaScript matrix -> pose gives GLM\'s bits (10,000 random rigid and scaled matrices, and edge cases)', () => {
  const u = seededRandom(12);
  const cases = [
    matrix([0, 0, 0, 1], [1, 1, 1], [0, 0, 0]),
    matrix([1, 0, 0, 0], [1, 1, 1], [1, 2, 3]), matrix([0, 1, 0, 0], [2, 2, 2], [0, 0, 0]), matrix([0, 0, 1, 0], [1, 1, 1], [0, 0, 0]),
    matrix([Math.SQRT1_2, 0, 0, Math.SQRT1_2], [0.5, 0.5, 0.5], [-4, 0, 9]),
    [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1],
  ];
  for (let i = 0; i < 10000; i++) {
    const s = u() * 3 + 0.01;
    const scale = i % 3 === 0 ? [s, u() * 3 + 0.01, u() * 3 + 0.01] : [s, s, s];
    cases.push(matrix(randomQuat(u), scale, [(u() - 0.5) * 200, (u() - 0.5) * 200, (u() - 0.5) * 200]));
  }
  let differ = 0, first = -1;
  cases.forEach((e, i) => {
    const js = poseFromMatrix(e);
    const g = glm.poseFromMatrixGlm(e);
    if (!same([...js.position, ...js.rotation], g.slice(0, 7))) {
      differ++;
      if (first < 0) first = i;
    }
  });
  assert.equal(differ, 0, `${differ} of ${cases.length} matrices differ from GLM (first: case ${first})`);
});

test('validation reads the scales and the determinant GLM computes', () => {
  const u = seededRandom(13);
  for (let i = 0; i < 200; i++) {
    const e = matrix(randomQuat(u), [1 + u(), 3 + u(), 1 + u()], [0, 0, 0]);
    const g = glm.poseFromMatrixGlm(e);
    rejects(() => readMatrix(e, 'setTransform'), 'invalid-argument',
      new RegExp(`^setTransform: matrix has a non-uniform scale \\(${g[7]}, ${g[8]}, ${g[9]}\\)`.replace(/\./g, '\\.')));
    const mirrored = e.map((v, k) => (k < 4 ? -v : v));
    const gm = glm.poseFromMatrixGlm(mirrored);
    assert.ok(gm[10] < 0);
    rejects(() => poseFromMatrix(mirrored), 'invalid-argument', new RegExp(`determinant ${gm[10]} <= 0`.replace(/[.+]/g, '\\$&')));
  }
});
