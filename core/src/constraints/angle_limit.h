// Angle limits for spring bones, on the unit bone direction d (dimensionless).
//   Cone:   C(d) = cos(theta) - d.r <= 0, r the bone's animated (rest) direction, theta the limit.
//           Projection: rotate d toward r, in their common plane, onto the cone's surface.
//   Hinge:  C(d) = d.n = 0, n the hinge axis: the bone swings in the plane normal to n only.
//           Projection: remove the component along n.
#pragma once
#include "colliders/shapes.h"
#include "math/quat.h"

namespace wisp {

inline Vec3 limitCone(Vec3 d, Vec3 r, float cosLimit, float sinLimit) {
  float c = dot(d, r);
  if (c >= cosLimit) return d;
  Vec3 perp = d - r * c;
  float pl = length(perp);
  Vec3 u = pl > 1e-6f ? perp * (1.0f / pl) : anyPerpendicular(r);  // d opposite r: any side
  return r * cosLimit + u * sinLimit;
}

inline Vec3 limitHinge(Vec3 d, Vec3 axis, Vec3 fallback) {
  return normalizeOr(d - axis * dot(d, axis), fallback);
}

}  // namespace wisp
