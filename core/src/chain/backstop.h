// Backstop (ChainParams::backstop): a joint may not go behind a surface set relative to where
// the animated pose puts it (Magica Cloth 2's and NvCloth's backstop). With A the animated
// position, N the unit front direction in the animated parent frame, d >= 0 the distance behind
// A and R >= 0 the radius (m):
//   R = 0, a plane:   C(x) = (x - A).N + d >= 0
//   R > 0, a sphere:  C(x) = |x - c| - R >= 0, c = A - N (d + R)
// A violated constraint is projected exactly (a hard limit, as maxDistance): the joint moves
// along the gradient of C until C = 0.
#pragma once
#include "math/vec3.h"

namespace wisp {

inline Vec3 keepInFrontOfBackstop(Vec3 x, Vec3 animated, Vec3 normal, float distance, float radius) {
  if (radius <= 0.0f) {
    const float c = dot(x - animated, normal) + distance;
    return c < 0.0f ? x - normal * c : x;
  }
  const Vec3 centre = animated - normal * (distance + radius);
  const Vec3 off = x - centre;
  const float l2 = lengthSq(off);
  if (l2 >= radius * radius) return x;
  const float l = std::sqrt(l2);
  // at the centre itself any direction is a way out: the front one
  return centre + (l > 0.0f ? off * (radius / l) : normal * radius);
}

}  // namespace wisp
