// Solver code (core/) may use GLM's arithmetic only: functions that reach the platform's libm
// (trig, exp, log, pow) give different bits in glibc and in Emscripten's libc, which would part
// native and WASM results. This scans core/ for them; core/src/math/glm_bridge.h says why.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BRIDGE = 'core/src/math/glm_bridge.h';
// trig, exponentials and what is built on them (angleAxis, slerp, mix on quaternions, Euler
// angles, rotation between vectors, angles, rotate by an angle, projections, polar coordinates),
// and GLM's random numbers (std::rand: another sequence in each C library)
const FORBIDDEN = [
  'angleAxis', 'slerp', 'mix', 'eulerAngles', 'eulerAngleX', 'eulerAngleY', 'eulerAngleZ', 'eulerAngleXYZ', 'eulerAngleYXZ',
  'yawPitchRoll', 'orientate3', 'orientate4', 'rotation', 'angle', 'orientedAngle', 'rotate', 'rotateX', 'rotateY', 'rotateZ',
  'exp', 'exp2', 'log', 'log2', 'pow', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'sinh', 'cosh', 'tanh',
  'asinh', 'acosh', 'atanh', 'sec', 'csc', 'cot', 'asec', 'acsc', 'acot',
  'pitch', 'yaw', 'roll', 'perspective', 'perspectiveFov', 'squad', 'intermediate', 'fastSin', 'fastCos',
  'orientation', 'rotateNormalizedAxis', 'extractEulerAngleXYZ', 'polar', 'euclidean',
  'linearRand', 'gaussRand', 'circularRand', 'sphericalRand', 'diskRand', 'ballRand',
];
const CALL = new RegExp(`\\bglm\\s*::\\s*(?:\\w+\\s*::\\s*)*(${FORBIDDEN.join('|')})\\s*(?:<[^>]*>)?\\s*\\(`);
const USING = new RegExp(`\\busing\\s+glm\\s*::\\s*(${FORBIDDEN.join('|')})\\b`);

/** Problems in one file's text: [line number, message]. */
export function lintGlm(path, text) {
  const out = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    let m;
    if (/#\s*include\s*[<"]glm\//.test(code) && path !== BRIDGE) out.push([i + 1, 'includes GLM directly: use math/glm_bridge.h']);
    if (/\busing\s+namespace\s+glm\b/.test(code)) out.push([i + 1, '`using namespace glm` hides which GLM functions are called']);
    if ((m = CALL.exec(code))) out.push([i + 1, `calls glm::${m[1]} (platform trig/exp: not deterministic across targets)`]);
    if ((m = USING.exec(code))) out.push([i + 1, `brings in glm::${m[1]} (platform trig/exp)`]);
  });
  return out;
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.(h|hpp|cpp|cc|inl)$/.test(e.name) ? [p] : [];
  });
}

test('the GLM lint catches what it must', () => {
  const bad = [
    'auto q = glm::angleAxis(a, axis);', 'glm::quat s = glm::slerp(a, b, t);', 'q = glm::mix(a, b, 0.5f);',
    'v = glm::eulerAngles(q);', 'q = glm::rotation(u, v);', 'float a = glm::angle(q);', 'q = glm::exp(q);',
    'm = glm::rotate(m, angle, axis);', 'using glm::pow;', 'using namespace glm;', '#include <glm/gtx/quaternion.hpp>',
    'float h = glm::atanh(x);', 'glm::vec3 p = glm::polar(v);', 'glm::vec3 j = glm::sphericalRand(1.0f);',
  ];
  for (const line of bad) assert.equal(lintGlm('core/src/solver/x.cpp', line).length, 1, line);
  const fine = [
    'auto q = glm::normalize(a * b);', 'glm::mat3 m = glm::mat3_cast(q);', 'float f = glm::dot(a, b); // glm::slerp( in a comment',
    'glm::mat4 inv = glm::inverse(m);', 'glm::quat r = glm::quat_cast(glm::mat3(m));', 'auto c = glm::conjugate(q);',
  ];
  for (const line of fine) assert.deepEqual(lintGlm('core/src/solver/x.cpp', line), [], line);
  assert.deepEqual(lintGlm(BRIDGE, '#include <glm/gtc/quaternion.hpp>'), [], 'the bridge includes GLM');
});

test('solver code (core/) calls no GLM function that uses platform trig or exp', () => {
  const problems = [];
  for (const file of sources(join(ROOT, 'core'))) {
    const rel = relative(ROOT, file).split('\\').join('/');
    for (const [line, msg] of lintGlm(rel, readFileSync(file, 'utf8'))) problems.push(`${rel}:${line}: ${msg}`);
  }
  assert.deepEqual(problems, []);
});
