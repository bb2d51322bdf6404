// Contact of a bone with a collider. The bone is a capsule around the segment from its parent
// joint a (already solved, fixed) to its tail b, radius r; the test looks for the deepest point
// of the segment, not only the tail, so a collider cannot slip between two joints.
//   C(b) = d(p(t)) - r + (1 - t) max(r - d(a), 0) >= 0   (m), p(t) = a + t (b - a), t the
//   deepest point's parameter (the last term: see boneContact)
// Only b moves, so the bone turns about a: moving b by n * depth / t moves p(t) by n * depth.
#pragma once
#include <algorithm>

#include "colliders/shapes.h"

namespace wisp {

struct BoneContact {
  float t = 1;      // where along the bone (0 = parent, 1 = tail)
  float depth = 0;  // m, > 0 when penetrating
  Vec3 normal;
};

inline float closestParam(Vec3 a, Vec3 b, Vec3 p) {
  Vec3 ab = b - a;
  float l2 = lengthSq(ab);
  return l2 > 0.0f ? std::clamp(dot(p - a, ab) / l2, 0.0f, 1.0f) : 0.0f;
}

// Parameter on [a, b] of the closest pair of points between segments [a, b] and [c, d].
inline float closestParamSegments(Vec3 a, Vec3 b, Vec3 c, Vec3 d) {
  Vec3 u = b - a, v = d - c, w = a - c;
  float uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uw = dot(u, w), vw = dot(v, w);
  float den = uu * vv - uv * uv;
  float s = den > 1e-12f * uu * vv ? std::clamp((uv * vw - vv * uw) / den, 0.0f, 1.0f) : 0.0f;
  // the other segment's parameter for that s, clamped, then s again for that point
  float t = vv > 0.0f ? std::clamp((uv * s + vw) / vv, 0.0f, 1.0f) : 0.0f;
  return uu > 0.0f ? std::clamp((uv * t - uw) / uu, 0.0f, 1.0f) : 0.0f;
}

inline BoneContact boneContact(const ColliderPose& c, Vec3 a, Vec3 b, float r) {
  BoneContact best;
  // The parent joint a is fixed: a penetration it has (it rides the root, or its own bone could
  // not leave) is not the tail's to fix, and pushing the tail for it would turn the bone without
  // end (a push of depth / t near a). So the bone may sink as deep as a does, fading to nothing
  // at the tail: depth(t) is measured beyond (1 - t) depth(a).
  const float atParent = std::max(r - signedDistance(c, a).distance, 0.0f);
  auto consider = [&](float t) {
    SurfacePoint s = signedDistance(c, a + (b - a) * t);
    float depth = r - s.distance - (1.0f - t) * atParent;
    if (depth > best.depth) best = {t, depth, s.normal};
  };
  consider(1.0f);
  if (c.inside) return best;  // distance to a convex solid's centre is largest at an end point
  switch (c.type) {
    case ColliderType::Sphere:
    case ColliderType::Box:
      consider(closestParam(a, b, c.position));
      break;
    case ColliderType::Capsule:
      consider(closestParamSegments(a, b, c.position - c.axis * c.halfHeight, c.position + c.axis * c.halfHeight));
      break;
    case ColliderType::Plane:
      break;  // linear along the segment: deepest at an end, and a is fixed
  }
  return best;
}

}  // namespace wisp
