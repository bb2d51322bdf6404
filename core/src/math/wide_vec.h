// math/vec3.h, math/quat.h and the rotations of math/frame.h on 4 lanes (wide::F4 per
// component): lane i of every result has exactly the bits the scalar function gives for lane i's
// inputs, because each one is the same IEEE operations in the same order (branches become
// per-lane selects of both sides, and both sides are pure). Lane kernels (solver/chain_lanes.cpp)
// rely on that to solve several chains at once with the results of solving each alone.
#pragma once
#include "math/vec3.h"
#include "math/wide.h"

namespace wisp::wide {

struct V3 {
  F4 x, y, z;
};
struct Q4 {
  F4 x, y, z, w;
};

inline V3 splat3(Vec3 v) { return {splat(v.x), splat(v.y), splat(v.z)}; }
inline Q4 splat4(Quat q) { return {splat(q.x), splat(q.y), splat(q.z), splat(q.w)}; }
// One vector or rotation per lane, into the lanes and back (only values move; no bit changes).
inline V3 vecs(const Vec3 (&v)[kWidth]) {
  return {make(v[0].x, v[1].x, v[2].x, v[3].x), make(v[0].y, v[1].y, v[2].y, v[3].y),
          make(v[0].z, v[1].z, v[2].z, v[3].z)};
}
inline Q4 quats(const Quat (&q)[kWidth]) {
  return {make(q[0].x, q[1].x, q[2].x, q[3].x), make(q[0].y, q[1].y, q[2].y, q[3].y),
          make(q[0].z, q[1].z, q[2].z, q[3].z), make(q[0].w, q[1].w, q[2].w, q[3].w)};
}
inline Vec3 laneOf(V3 v, int l) { return {lane(v.x, l), lane(v.y, l), lane(v.z, l)}; }
// v with lane l replaced by s (the rare per-lane scalar work writes back through this)
inline V3 withLane(V3 v, int l, Vec3 s) {
  float x[kWidth], y[kWidth], z[kWidth];
  store(x, v.x);
  store(y, v.y);
  store(z, v.z);
  x[l] = s.x;
  y[l] = s.y;
  z[l] = s.z;
  return {load(x), load(y), load(z)};
}
// GLM's conjugate: the inverse of a unit rotation (only signs flip, exactly)
inline Q4 conjugate(Q4 q) { return {neg(q.x), neg(q.y), neg(q.z), q.w}; }
// -v (signs flip, exactly)
inline V3 neg(V3 v) { return {neg(v.x), neg(v.y), neg(v.z)}; }
inline V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 operator*(V3 a, F4 s) { return {a.x * s, a.y * s, a.z * s}; }
inline F4 dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline F4 length(V3 a) { return sqrt(dot(a, a)); }
inline V3 select(F4 m, V3 a, V3 b) { return {select(m, a.x, b.x), select(m, a.y, b.y), select(m, a.z, b.z)}; }
inline Q4 select(F4 m, Q4 a, Q4 b) {
  return {select(m, a.x, b.x), select(m, a.y, b.y), select(m, a.z, b.z), select(m, a.w, b.w)};
}
// std::min(a, b) as the standard library defines it: (b < a) ? b : a
inline F4 min(F4 a, F4 b) { return select(lessThan(b, a), b, a); }

// quat.h's normalizeOr
inline V3 normalizeOr(V3 v, V3 fallback) {
  const F4 l = length(v);
  return select(lessThan(splat(1e-20f), l), v * (splat(1.0f) / l), fallback);
}
// vec3.h's normalize(Quat)
inline Q4 normalize(Q4 q) {
  const F4 n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  const F4 s = splat(1.0f) / n;
  return {q.x * s, q.y * s, q.z * s, q.w * s};
}
// vec3.h's mul
inline Q4 mul(Q4 a, Q4 b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
// vec3.h's rotate: v + 2w(q x v) + 2 q x (q x v), in that order
inline V3 rotate(Q4 q, V3 v) {
  const V3 u{q.x, q.y, q.z};
  const V3 t = cross(u, v) * splat(2.0f);
  return v + t * q.w + cross(u, t);
}
// frame.h's turn: GLM's q * v, i.e. v + ((uv w) + uuv) 2 with u = q.xyz, uv = u x v,
// uuv = u x uv (GLM 0.9.9's operator*(qua, vec3), pure mode)
inline V3 turn(Q4 q, V3 v) {
  const V3 u{q.x, q.y, q.z};
  const V3 uv = cross(u, v), uuv = cross(u, uv);
  const F4 two = splat(2.0f);
  return {v.x + (uv.x * q.w + uuv.x) * two, v.y + (uv.y * q.w + uuv.y) * two, v.z + (uv.z * q.w + uuv.z) * two};
}
// frame.h's turnMatrix (GLM's mat3_cast), m[column][row], and turn by it (GLM's mat3 * vec3)
struct M3 {
  F4 m[3][3];
};
inline M3 turnMatrix(Q4 q) {
  const F4 one = splat(1.0f), two = splat(2.0f);
  const F4 qxx = q.x * q.x, qyy = q.y * q.y, qzz = q.z * q.z, qxz = q.x * q.z, qxy = q.x * q.y, qyz = q.y * q.z;
  const F4 qwx = q.w * q.x, qwy = q.w * q.y, qwz = q.w * q.z;
  return {{{one - two * (qyy + qzz), two * (qxy + qwz), two * (qxz - qwy)},
           {two * (qxy - qwz), one - two * (qxx + qzz), two * (qyz + qwx)},
           {two * (qxz + qwy), two * (qyz - qwx), one - two * (qxx + qyy)}}};
}
inline V3 turn(const M3& t, V3 v) {
  const auto& m = t.m;
  return {m[0][0] * v.x + m[1][0] * v.y + m[2][0] * v.z, m[0][1] * v.x + m[1][1] * v.y + m[2][1] * v.z,
          m[0][2] * v.x + m[1][2] * v.y + m[2][2] * v.z};
}
// frame.h's unrotate: GLM's conjugate(q) * v
inline V3 unrotate(Q4 q, V3 v) { return turn(conjugate(q), v); }
// vec3.h's nlerp, both of its early returns selected per lane
inline Q4 nlerp(Q4 a, Q4 b, F4 t) {
  const F4 zero = splat(0.0f), one = splat(1.0f);
  const F4 d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  const F4 sb = select(lessThan(d, zero), neg(t), t);
  const F4 sa = one - t;
  const Q4 mixed = normalize(Q4{a.x * sa + b.x * sb, a.y * sa + b.y * sb, a.z * sa + b.z * sb, a.w * sa + b.w * sb});
  const F4 same = maskAnd(maskAnd(equal(a.x, b.x), equal(a.y, b.y)), maskAnd(equal(a.z, b.z), equal(a.w, b.w)));
  const F4 notPositive = equal(lessThan(zero, t), zero);  // !(t > 0), i.e. t <= 0 for a number
  const F4 whole = equal(lessThan(t, one), zero);          // t >= 1 for a number
  return select(whole, b, select(maskOr(notPositive, same), a, mixed));
}
// quat.h's fromUnitVectors; the opposite-vectors branch is computed only when some lane takes
// it (rarely: a bone turned half round), and then selected per lane
inline Q4 fromUnitVectors(V3 a, V3 b) {
  const F4 r = dot(a, b) + splat(1.0f);
  const V3 c = cross(a, b);
  const Q4 turned = normalize(Q4{c.x, c.y, c.z, r});
  const F4 opposed = lessThan(r, splat(1e-6f));
  if (!any(opposed)) return turned;
  const F4 zero = splat(0.0f);
  const F4 xMajor = lessThan(abs(a.z), abs(a.x));
  const Q4 opposite = normalize(Q4{select(xMajor, neg(a.y), zero), select(xMajor, a.x, neg(a.z)),
                                   select(xMajor, zero, a.y), zero});
  return select(opposed, opposite, turned);
}

// quat.h's swingRotation (the arc unnormalised); the half-turn side is computed only when some
// lane takes it
inline Q4 swingRotation(Q4 restRot, V3 r, V3 dir, V3 axis) {
  const F4 w = dot(r, dir) + splat(1.0f);
  const V3 c = cross(r, dir);
  const Q4 turned = normalize(mul(Q4{c.x, c.y, c.z, w}, restRot));
  const F4 opposed = lessThan(w, splat(1e-6f));
  if (!any(opposed)) return turned;
  return select(opposed, normalize(mul(restRot, fromUnitVectors(axis, neg(axis)))), turned);
}
}  // namespace wisp::wide
