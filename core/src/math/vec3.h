// Small vector/quaternion helpers. Only +, -, *, / and sqrt: these are correctly rounded in
// IEEE-754 on every target we build for, which is what makes native and WASM runs agree bit
// for bit (together with -ffp-contract=off). No platform trig or exp in solver paths.
#pragma once
#include <cmath>
#include <cstdint>

#include "wisp/types.h"

namespace wisp {

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3 operator*(float s, Vec3 a) { return {a.x * s, a.y * s, a.z * s}; }
inline Vec3& operator+=(Vec3& a, Vec3 b) { a = a + b; return a; }
inline Vec3& operator-=(Vec3& a, Vec3 b) { a = a - b; return a; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float lengthSq(Vec3 a) { return dot(a, a); }
inline float length(Vec3 a) { return std::sqrt(dot(a, a)); }
inline bool isFinite(Vec3 a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }
inline bool isFinite(Quat q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}
// Exact at t = 0, at t = 1 and when a == b: a pin on a still anchor stays on the same bits
// however a frame is cut into substeps (a*(1-t) + a*t is not always a in floating point).
inline Vec3 lerp(Vec3 a, Vec3 b, float t) { return t >= 1.0f ? b : a + (b - a) * t; }

// floor(v) as a grid cell index; NaN, inf and values past +-2e9 map to cell 0 instead of the
// undefined behaviour of converting them (only a state that is already broken reaches that).
inline int32_t floorToCell(float v) {
  if (!(v >= -2.0e9f && v <= 2.0e9f)) return 0;
  return static_cast<int32_t>(std::floor(v));
}

inline Quat normalize(Quat q) {
  float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  float s = 1.0f / n;
  return {q.x * s, q.y * s, q.z * s, q.w * s};
}
inline Quat conjugate(Quat q) { return {-q.x, -q.y, -q.z, q.w}; }
// Hand-written for the solver's per-substep chain work and teleports (GLM's operator* adds the y
// and z terms in another order: other last bits); rigid frames compose with GLM (math/frame.h).
// GLM checks this product (tests/native/test_glm_oracle.cpp).
inline Quat mul(Quat a, Quat b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
          a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
          a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
// v' = v + 2w(q x v) + 2 q x (q x v), summed in this order (GLM's q * v adds the last two terms
// first: other last bits). The solver's hot paths use this one; frames use GLM's (math/frame.h).
inline Vec3 rotate(Quat q, Vec3 v) {
  Vec3 u{q.x, q.y, q.z};
  Vec3 t = cross(u, v) * 2.0f;
  return v + t * q.w + cross(u, t);
}
// Normalised linear interpolation along the shorter arc; exactly a when a == b or t == 0, and
// exactly b when t == 1.
inline Quat nlerp(Quat a, Quat b, float t) {
  if (t >= 1.0f) return b;
  if (t <= 0.0f || (a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w)) return a;
  float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  float sb = d < 0 ? -t : t;
  float sa = 1.0f - t;
  return normalize({a.x * sa + b.x * sb, a.y * sa + b.y * sb, a.z * sa + b.z * sb, a.w * sa + b.w * sb});
}

}  // namespace wisp
