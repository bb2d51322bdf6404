// Signed distance from a point to each collider shape, with the outward normal.
//   sphere:  d = |p - c| - R
//   capsule: segment along local Y in [-halfHeight, halfHeight]; with equal radii
//            d = |p - closest(segment)| - R. Tapered (radius ra at -halfHeight, rb at +halfHeight):
//            the convex hull of the two end spheres, a cone touching both. In the (axial x, radial
//            y) half plane the cone's outward normal is n = (sin a, cos a) with sin a = (ra - rb)/L;
//            s = x cos a - y sin a picks the region: s < 0 nearer sphere a, s > L cos a sphere b,
//            between them d = x sin a + y cos a - ra.
//   plane:   d = (p - o) . n, n = local +Y
//   box:     outside: distance to the closest surface point; inside: minus the distance to
//            the nearest face (pushed out through that face)
// A particle of radius r touches when d < r.
#pragma once
#include <algorithm>
#include <cmath>

#include "math/frame.h"
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
  float radiusTop;  // capsule radius at +halfHeight (already resolved: >= 0)
  float halfHeight;
  Vec3 halfExtents;
  float friction;
  bool inside;      // sphere, capsule: the inside is free space, the outside solid
};

// m: no point of the shape is farther than this from its position, so a segment or sphere farther
// than this plus its own reach cannot touch it (a broad-phase rejection). An inside collider
// (solid everywhere but its inside) and a plane reach everywhere.
inline float boundingRadius(const ColliderPose& c) {
  if (c.inside) return 3.0e38f;
  switch (c.type) {
    case ColliderType::Sphere: return c.radius;
    case ColliderType::Capsule: return c.halfHeight + (c.radius > c.radiusTop ? c.radius : c.radiusTop);
    case ColliderType::Box: return length(c.halfExtents);
    case ColliderType::Plane: return 3.0e38f;
  }
  return 3.0e38f;
}

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

// A unit vector perpendicular to unit `a`, chosen deterministically.
inline Vec3 anyPerpendicular(Vec3 a) {
  Vec3 t = std::fabs(a.x) < 0.7f ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  Vec3 p = cross(a, t);
  return p * (1.0f / length(p));
}

inline SurfacePoint taperedCapsuleDistance(const ColliderPose& c, Vec3 p) {
  const float ra = c.radius, rb = c.radiusTop, len = 2.0f * c.halfHeight;
  Vec3 a = c.position - c.axis * c.halfHeight;
  Vec3 b = c.position + c.axis * c.halfHeight;
  // One sphere holds the other: the hull is the bigger sphere.
  if (len <= std::fabs(ra - rb)) return ra >= rb ? distanceToPoint(p, a, ra) : distanceToPoint(p, b, rb);
  const float sinA = (ra - rb) / len;
  const float cosA = std::sqrt(std::max(0.0f, 1.0f - sinA * sinA));
  Vec3 d = p - a;
  float x = dot(d, c.axis);
  Vec3 radial = d - c.axis * x;
  float y = length(radial);
  float s = x * cosA - y * sinA;
  if (s < 0.0f) return distanceToPoint(p, a, ra);
  if (s > len * cosA) return distanceToPoint(p, b, rb);
  Vec3 out = y > 1e-12f ? radial * (1.0f / y) : anyPerpendicular(c.axis);
  return {x * sinA + y * cosA - ra, c.axis * sinA + out * cosA};
}

inline SurfacePoint solidDistance(const ColliderPose& c, Vec3 p) {
  switch (c.type) {
    case ColliderType::Sphere:
      return distanceToPoint(p, c.position, c.radius);
    case ColliderType::Capsule: {
      if (c.radiusTop != c.radius) return taperedCapsuleDistance(c, p);
      float t = dot(p - c.position, c.axis);
      t = std::clamp(t, -c.halfHeight, c.halfHeight);
      return distanceToPoint(p, c.position + c.axis * t, c.radius);
    }
    case ColliderType::Plane:
      return {dot(p - c.position, c.axis), c.axis};
    case ColliderType::Box: {
      Vec3 q = intoFrame(c, p);
      Vec3 e = c.halfExtents;
      Vec3 k{std::clamp(q.x, -e.x, e.x), std::clamp(q.y, -e.y, e.y), std::clamp(q.z, -e.z, e.z)};
      Vec3 d = q - k;
      float len = length(d);
      if (len > 0.0f) return {len, turn(c.rotation, d * (1.0f / len))};
      // inside: leave through the nearest face
      float fx = e.x - std::fabs(q.x), fy = e.y - std::fabs(q.y), fz = e.z - std::fabs(q.z);
      Vec3 n;
      float depth;
      if (fx <= fy && fx <= fz) { depth = fx; n = {q.x < 0 ? -1.0f : 1.0f, 0, 0}; }
      else if (fy <= fz) { depth = fy; n = {0, q.y < 0 ? -1.0f : 1.0f, 0}; }
      else { depth = fz; n = {0, 0, q.z < 0 ? -1.0f : 1.0f}; }
      return {-depth, turn(c.rotation, n)};
    }
  }
  return {1e30f, Vec3{0, 1, 0}};
}

// Signed distance to the free space's boundary: for an inside collider the roles swap.
inline SurfacePoint signedDistance(const ColliderPose& c, Vec3 p) {
  SurfacePoint s = solidDistance(c, p);
  if (c.inside) return {-s.distance, -s.normal};
  return s;
}

}  // namespace wisp
