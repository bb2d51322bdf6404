// Signed distance from a point to each collider shape, with the outward normal.
//   sphere:  d = |p - c| - R
//   capsule: d = |p - closest(segment)| - R, segment along local Y in [-halfHeight, halfHeight]
//   plane:   d = (p - o) . n, n = local +Y
//   box:     outside: distance to the closest surface point; inside: minus the distance to
//            the nearest face (pushed out through that face)
// A particle of radius r touches when d < r.
#pragma once
#include <algorithm>
#include <cmath>

#include "math/vec3.h"
#include "wisp/collider.h"

namespace wisp {

// A collider's pose at one instant of a substep, with derived quantities ready for contacts.
struct ColliderPose {
  ColliderType type;
  Vec3 position;
  Quat rotation;
  Vec3 axis;        // capsule axis or plane normal (world), from rotation
  float radius;
  float halfHeight;
  Vec3 halfExtents;
  float friction;
};

struct SurfacePoint {
  float distance;  // m, negative inside
  Vec3 normal;     // unit, pointing out of the shape
};

inline SurfacePoint distanceToPoint(Vec3 p, Vec3 centre, float radius) {
  Vec3 d = p - centre;
  float len = length(d);
  // At the exact centre any direction is right; pick +Y so the result is still deterministic.
  if (len < 1e-12f) return {-radius, Vec3{0, 1, 0}};
  return {len - radius, d * (1.0f / len)};
}

inline SurfacePoint signedDistance(const ColliderPose& c, Vec3 p) {
  switch (c.type) {
    case ColliderType::Sphere:
      return distanceToPoint(p, c.position, c.radius);
    case ColliderType::Capsule: {
      float t = dot(p - c.position, c.axis);
      t = std::clamp(t, -c.halfHeight, c.halfHeight);
      return distanceToPoint(p, c.position + c.axis * t, c.radius);
    }
    case ColliderType::Plane:
      return {dot(p - c.position, c.axis), c.axis};
    case ColliderType::Box: {
      Vec3 q = rotate(conjugate(c.rotation), p - c.position);
      Vec3 e = c.halfExtents;
      Vec3 k{std::clamp(q.x, -e.x, e.x), std::clamp(q.y, -e.y, e.y), std::clamp(q.z, -e.z, e.z)};
      Vec3 d = q - k;
      float len = length(d);
      if (len > 0.0f) return {len, rotate(c.rotation, d * (1.0f / len))};
      // inside: leave through the nearest face
      float fx = e.x - std::fabs(q.x), fy = e.y - std::fabs(q.y), fz = e.z - std::fabs(q.z);
      Vec3 n;
      float depth;
      if (fx <= fy && fx <= fz) { depth = fx; n = {q.x < 0 ? -1.0f : 1.0f, 0, 0}; }
      else if (fy <= fz) { depth = fy; n = {0, q.y < 0 ? -1.0f : 1.0f, 0}; }
      else { depth = fz; n = {0, 0, q.z < 0 ? -1.0f : 1.0f}; }
      return {-depth, rotate(c.rotation, n)};
    }
  }
  return {1e30f, Vec3{0, 1, 0}};
}

}  // namespace wisp
