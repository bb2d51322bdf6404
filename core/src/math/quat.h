// Quaternion helpers for bones. Like vec3.h: only +, -, *, / and sqrt, so native and WASM agree.
#pragma once
#include <cmath>

#include "math/vec3.h"

namespace wisp {

inline Vec3 normalizeOr(Vec3 v, Vec3 fallback) {
  float l = length(v);
  return l > 1e-20f ? v * (1.0f / l) : fallback;
}

// The shortest rotation taking unit vector a onto unit vector b. Half-angle form: the
// quaternion (a x b, 1 + a.b) normalised. Opposite vectors: a half turn about any perpendicular.
inline Quat fromUnitVectors(Vec3 a, Vec3 b) {
  float r = dot(a, b) + 1.0f;
  if (r < 1e-6f) {
    Vec3 p = std::fabs(a.x) > std::fabs(a.z) ? Vec3{-a.y, a.x, 0} : Vec3{0, -a.z, a.y};
    return normalize(Quat{p.x, p.y, p.z, 0});
  }
  Vec3 c = cross(a, b);
  return normalize(Quat{c.x, c.y, c.z, r});
}

// A bone's world rotation once it points along the unit direction dir: its rest rotation restRot
// turned by the shortest arc from its rest direction r = restRot * axis (unit, world) onto dir.
// The same rotation as restRot followed by the shortest arc from axis onto restRot^-1 dir (three-
// vrm's order; conjugating a shortest arc by a rotation gives the arc between the turned vectors)
// without turning dir back. Where dir is opposite r (fromUnitVectors' 1e-6), no arc is the
// shortest: the half turn is taken about axis's perpendicular in the bone's own frame, as the
// joint-frame form takes it, so that a flipped bone's twist turns with its parent. A NaN dir gives
// a NaN rotation (the comparison is false, and no normalizeOr hides it): the chain's containment
// sees the NaN joint and resets the chain, rather than rotating a bone by an invented arc.
// The arc is fromUnitVectors' half-angle quaternion (r x dir, 1 + r.dir) left unnormalised: the
// product is normalised, and a positive factor on one operand scales out of it (1 + r.dir is at
// least 1e-6 here, so the product is not near zero). That takes a square root and a division off
// every bone's serial chain of operations (each bone's rotation is the next bone's parent).
inline Quat swingRotation(Quat restRot, Vec3 r, Vec3 dir, Vec3 axis) {
  const float w = dot(r, dir) + 1.0f;
  if (w < 1e-6f) return normalize(mul(restRot, fromUnitVectors(axis, -axis)));
  const Vec3 c = cross(r, dir);
  return normalize(mul(Quat{c.x, c.y, c.z, w}, restRot));
}

// |cos| of half the angle between two rotations: 1 = equal, 0 = a half turn apart.
inline float halfAngleCos(Quat a, Quat b) {
  return std::fabs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w);
}

}  // namespace wisp
