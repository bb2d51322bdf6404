// The one way into GLM (Debian's libglm-dev 0.9.9.8) for Wisp code and tests.
//
// Determinism rules, checked here at compile time:
//  - pure mode only: no GLM_FORCE_INTRINSICS / GLM_FORCE_SSE* / GLM_FORCE_AVX* (natively they
//    switch normalize() to the approximate _mm_rsqrt_ps, which differs by vendor; and GLM has no
//    wasm_simd128 path, so native and WASM would part ways);
//  - no default-aligned gentypes (they change struct layouts and so the snapshot and hash bytes);
//  - quaternions stored x, y, z, w, as Wisp's Quat (GLM's constructor is quat(w, x, y, z)).
// Only arithmetic GLM functions are deterministic across targets (+, -, *, /, sqrt): anything
// that reaches libm (angleAxis, slerp, mix on quaternions, eulerAngles, rotation, angle,
// quaternion exp/log/pow, rotate by an angle) gives different bits in glibc and Emscripten's
// libc. tests/js/glm-lint.test.mjs fails `npm test` if core/ calls one of them.
// The hand-written math (math/vec3.h, math/quat.h, math/trig.h, math/wide.h) stays: wide.h is
// 4-lane SIMD GLM cannot express, the trig is deterministic by construction, and lerp/nlerp are
// exact at their endpoints where glm::mix is not, and the hand-written quaternion product and
// rotation serve the solver's per-substep chain joints and are what GLM is an oracle for. Rigid
// frames (math/frame.h: builders, chain rest hierarchy and pose, cloth grid frame, box and
// capsule colliders, wind zones, points following a moving collider, and the rigid motions of
// teleports and a chain's carry with its root in particles/rigid_motion.h) compose with GLM's
// operators.
// GLM checks the hand-written math in tests/native/test_glm_oracle.cpp.
#pragma once

#ifdef GLM_VERSION
#error "GLM was included before math/glm_bridge.h: include GLM only through it"
#endif
#if defined(GLM_FORCE_INTRINSICS) || defined(GLM_FORCE_SSE2) || defined(GLM_FORCE_SSE3) || \
    defined(GLM_FORCE_SSSE3) || defined(GLM_FORCE_SSE41) || defined(GLM_FORCE_SSE42) || defined(GLM_FORCE_AVX) || \
    defined(GLM_FORCE_AVX2) || defined(GLM_FORCE_AVX512) || defined(GLM_FORCE_NEON)
#error "Wisp uses GLM in pure mode only: SIMD forcing gives vendor- and target-dependent results"
#endif
#if defined(GLM_FORCE_DEFAULT_ALIGNED_GENTYPES) || defined(GLM_FORCE_ALIGNED_GENTYPES) || defined(GLM_FORCE_ALIGNED)
#error "Wisp uses packed GLM types: aligned gentypes change layouts"
#endif
#if defined(GLM_FORCE_QUAT_DATA_WXYZ)
#error "Wisp's quaternions are x, y, z, w in memory"
#endif

#define GLM_FORCE_PURE
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstddef>

#include "wisp/types.h"

#if GLM_ARCH != GLM_ARCH_UNKNOWN || GLM_CONFIG_SIMD != GLM_DISABLE
#error "GLM is not in pure mode"
#endif

namespace wisp::glmb {

static_assert(sizeof(glm::quat) == 4 * sizeof(float), "glm::quat is four packed floats");
static_assert(offsetof(glm::quat, x) == offsetof(Quat, x) && offsetof(glm::quat, y) == offsetof(Quat, y) &&
                  offsetof(glm::quat, z) == offsetof(Quat, z) && offsetof(glm::quat, w) == offsetof(Quat, w),
              "glm::quat stores x, y, z, w like wisp::Quat");
static_assert(sizeof(glm::vec3) == sizeof(Vec3) && offsetof(glm::vec3, x) == offsetof(Vec3, x) &&
                  offsetof(glm::vec3, z) == offsetof(Vec3, z),
              "glm::vec3 is laid out like wisp::Vec3");

inline glm::vec3 toGlm(Vec3 v) { return {v.x, v.y, v.z}; }
inline glm::quat toGlm(Quat q) { return glm::quat(q.w, q.x, q.y, q.z); }  // GLM's constructor takes w first
inline Vec3 fromGlm(glm::vec3 v) { return {v.x, v.y, v.z}; }
inline Quat fromGlm(glm::quat q) { return {q.x, q.y, q.z, q.w}; }

}  // namespace wisp::glmb
