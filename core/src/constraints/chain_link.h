// A link between a joint of one chain and a joint of a neighbouring chain (wisp/chain_links.h).
//   C(x) = |x_a - x_b| - rest            (m)
//   compliance alpha                     (m/N);  alpha~ = alpha / h^2
//   dlambda = (-C - alpha~ lambda) / (w_a + w_b + alpha~),  x_a += w_a dlambda n,  x_b -= w_b dlambda n
// as constraints/distance.h (XPBD, Macklin et al. 2016, eq. 18), on two chains' joint arrays
// instead of one particle array. A chain's simulated joints have unit mass (w = 1), joint 0 rides
// the root (w = 0). lambda starts at 0 every substep.
// Then a hard cap, C_max(x) = |x_a - x_b| - rest (1 + stretch) <= 0 (m), projected with zero
// compliance, and the link's capsule (radius r, m) against a collider:
//   C_col(x) = d(p(t)) - r >= 0  (m),  p(t) = x_a + t (x_b - x_a) at the deepest t,
// moving both ends so that p(t) moves out by the depth: x_a += n depth w_a (1 - t) / s,
// x_b += n depth w_b t / s, s = w_a (1 - t)^2 + w_b t^2.
#pragma once
#include <cmath>

#include "colliders/bone_contact.h"
#include "colliders/shapes.h"

namespace wisp {

inline void solveChainLink(Vec3& a, Vec3& b, float wa, float wb, float rest, float alphaTilde, float& lambda) {
  const float wsum = wa + wb;
  if (wsum == 0.0f) return;
  const Vec3 d = a - b;
  const float len = length(d);
  if (len < 1e-9f) return;  // coincident: no direction to push along
  const float c = len - rest;
  const float s = (-c - alphaTilde * lambda) / ((wsum + alphaTilde) * len);
  lambda += s * len;
  a += d * (wa * s);
  b -= d * (wb * s);
}

// Pulls the link back to maxLength when it is longer (C_max above).
inline void capChainLink(Vec3& a, Vec3& b, float wa, float wb, float maxLength) {
  const float wsum = wa + wb;
  if (wsum == 0.0f) return;
  const Vec3 d = a - b;
  const float len = length(d);
  if (!(len > maxLength)) return;
  const float s = (maxLength - len) / (wsum * len);
  a += d * (wa * s);
  b -= d * (wb * s);
}

// Pushes the link's capsule out of one collider (C_col above); true if it moved.
inline bool collideChainLink(const ColliderPose& c, Vec3& a, Vec3& b, float wa, float wb, float radius) {
  float bestT = 0, bestDepth = 0;
  Vec3 normal;
  auto consider = [&](float t) {
    const SurfacePoint s = signedDistance(c, a + (b - a) * t);
    const float depth = radius - s.distance;
    if (depth > bestDepth) { bestDepth = depth; bestT = t; normal = s.normal; }
  };
  consider(0.0f);
  consider(1.0f);
  if (!c.inside) {
    if (c.type == ColliderType::Capsule)
      consider(closestParamSegments(a, b, c.position - c.axis * c.halfHeight, c.position + c.axis * c.halfHeight));
    else if (c.type != ColliderType::Plane)
      consider(closestParam(a, b, c.position));
    consider(0.5f);  // a tapered capsule's deepest point need not be the closest to its axis
  }
  if (bestDepth <= 0.0f) return false;
  const float ta = 1.0f - bestT, tb = bestT;
  const float s = wa * ta * ta + wb * tb * tb;
  if (!(s > 1e-6f)) return false;
  a += normal * (bestDepth * wa * ta / s);
  b += normal * (bestDepth * wb * tb / s);
  return true;
}

}  // namespace wisp
