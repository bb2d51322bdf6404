// A bone's contact with a solid sphere (colliders/bone_contact.h, C(b) there) for four bones at
// once, one per lane: the lane kernel of the Wisp rule (solver/chain_lanes_wisp.cpp) runs it
// instead of the scalar collideBone lane by lane. Hair rooted on a head touches the head sphere
// at some bone in most substeps, and the scalar call per lane (with each lane's values taken out
// of the registers and put back) was a sixth of a 2,000-strand wig's step.
// Every operation is the scalar code's, in its order (closestParam's clamp, std::max and
// distanceToPoint's test as selects), so each lane has the scalar bits:
// tests/native/test_chain_lanes.cpp compares the kernel with the scalar rule bit for bit.
#pragma once
#include "colliders/shapes.h"
#include "math/wide_vec.h"

namespace wisp {

// closestParam (bone_contact.h): the parameter on [a, b] of the point closest to p.
inline wide::F4 closestParamLanes(wide::V3 a, wide::V3 b, wide::V3 p) {
  using namespace wide;
  const V3 ab = b - a;
  const F4 l2 = dot(ab, ab), zero = splat(0.0f), one = splat(1.0f);
  const F4 v = dot(p - a, ab) / l2;
  const F4 clamped = select(lessThan(v, zero), zero, select(lessThan(one, v), one, v));  // std::clamp
  return select(lessThan(zero, l2), clamped, zero);
}

// distanceToPoint (shapes.h) of a sphere of radius `radius` around `centre`.
inline void sphereDistanceLanes(wide::V3 p, wide::V3 centre, wide::F4 radius, wide::F4* distance, wide::V3* normal) {
  using namespace wide;
  const V3 d = p - centre;
  const F4 len = length(d);
  const F4 atCentre = lessThan(len, splat(1e-12f));
  const V3 n = d * (splat(1.0f) / len);
  *distance = select(atCentre, neg(radius), len - radius);
  *normal = select(atCentre, V3{splat(0.0f), splat(1.0f), splat(0.0f)}, n);
}

// collideBone's geometry (solver/chain_solver.cpp) for a solid sphere (not `inside`) of radius
// R = bound around `centre`, in the lanes of `on`: its bounding test, boneContact's two points
// (the tail, and the bone's point closest to the centre) and the push of the tail x, with the
// bone's direction d and tail kept at length len from a. Returns the lanes it pushed (their
// contact normals in *normal); x and d change in those lanes only.
inline wide::F4 sphereBoneLanes(wide::V3 centre, float bound, wide::V3 a, wide::V3& x, wide::V3& d, wide::F4 len,
                                wide::F4 r, wide::F4 on, wide::V3* normal) {
  using namespace wide;
  const F4 zero = splat(0.0f), one = splat(1.0f), R = splat(bound);
  // the bounding test: no contact when the bone's closest point is beyond reach
  const F4 tc = closestParamLanes(a, x, centre);
  const V3 q = a + (x - a) * tc;
  const V3 off = q - centre;
  const F4 reach = (R + r) * splat(1.01f) + splat(1e-4f);
  on = maskAnd(on, equal(lessThan(reach * reach, dot(off, off)), zero));
  if (!any(on)) return on;
  // boneContact: the parent joint's own penetration, then the tail, then the closest point
  F4 dist;
  V3 n;
  sphereDistanceLanes(a, centre, R, &dist, &n);
  const F4 sunk = r - dist;
  const F4 atParent = select(lessThan(sunk, zero), zero, sunk);  // std::max(sunk, 0)
  F4 bestT = one, bestDepth = zero;
  V3 bestN = {zero, zero, zero};
  auto consider = [&](F4 t) {
    sphereDistanceLanes(a + (x - a) * t, centre, R, &dist, &n);
    const F4 depth = r - dist - (one - t) * atParent;
    const F4 deeper = lessThan(bestDepth, depth);
    bestT = select(deeper, t, bestT);
    bestDepth = select(deeper, depth, bestDepth);
    bestN = select(deeper, n, bestN);
  };
  consider(one);
  consider(tc);
  const F4 hit = maskAnd(on, lessThan(zero, bestDepth));
  if (!any(hit)) return hit;
  // the push: the tail by depth / max(t, 1/4) along the normal, then back to the bone's length
  const F4 lever = select(lessThan(bestT, splat(0.25f)), splat(0.25f), bestT);  // std::max(t, 0.25f)
  const V3 pushed = x + bestN * (bestDepth / lever);
  const V3 dir = normalizeOr(pushed - a, d);
  x = select(hit, a + dir * len, x);
  d = select(hit, dir, d);
  *normal = bestN;
  return hit;
}

// surfaceVelocity (solver/chain_solver.cpp) of four points x at once: the velocity over the
// substep of the material point of a collider that moved from `before` to `now` and is at x now,
// (x - followFrame(now, before, x)) / h with followFrame's GLM operations (math/frame.h's
// intoFrame and fromFrame as wide::unrotate and wide::turn), so each lane has the scalar bits.
inline wide::V3 surfaceVelocityLanes(const ColliderPose& before, const ColliderPose& now, wide::V3 x, float invH) {
  using namespace wide;
  const V3 local = unrotate(splat4(now.rotation), x - splat3(now.position));  // intoFrame(now, x)
  const V3 then = splat3(before.position) + turn(splat4(before.rotation), local);  // fromFrame(before, local)
  return (x - then) * splat(invH);
}

}  // namespace wisp
