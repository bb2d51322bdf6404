// Checks on an object's state after a step: the non-finite scan behind containment (always on,
// cheap) and the invariants of WorldSettings::debugChecks (positions finite, pins exact, stretch
// and penetration within tolerance, speeds under a cap). Each returns the first problem found as
// text, or an empty string; text is built only when something is wrong.
#pragma once
#include <cmath>
#include <string>

#include "colliders/shapes.h"
#include "math/wide.h"
#include "particles/particles.h"
#include "solver/step_context.h"

namespace wisp {

// Documented limits of the debug checks (docs/reliability.md).
constexpr float kDebugMaxSpeed = 500.0f;        // m/s: nothing in a game scene moves this fast
constexpr float kDebugMaxStretch = 2.0f;        // a compliance-0 cloth edge longer than 3 x rest: an explosion
constexpr float kDebugMaxRopeStretch = 0.5f;    // a compliance-0 rope longer than 1.5 x its rest length
constexpr float kDebugMaxPenetration = 0.5f;    // of the particle radius, into a collider

// NaN and inf both fail x - x == 0: x - x is +0 for every finite x and NaN otherwise, so a sum
// of such differences is +0 exactly when all are finite (no sum of the values themselves, which
// could overflow). On each lane: +0 if a particle's position and velocity are finite, NaN if not.
// allFinite sums it over an object; the lane-ordered solvers' frame ends
// (solver/chain_joint_block.h, solver/rope_lanes.cpp) over their blocks.
inline wide::F4 nonFiniteTerms(wide::F4 px, wide::F4 py, wide::F4 pz, wide::F4 vx, wide::F4 vy, wide::F4 vz) {
  return (px - px) + (py - py) + (pz - pz) + (vx - vx) + (vy - vy) + (vz - vz);
}

inline bool allFinite(const Particles& p) {
  // four particles at a time on the lanes, the rest one by one
  const int n = p.count();
  int i = 0;
  wide::F4 lanes = wide::splat(0.0f);
  for (; i + wide::kWidth <= n; i += wide::kWidth) {
    auto at = [i](const std::vector<float>& a) { return wide::load(a.data() + i); };
    lanes = lanes + nonFiniteTerms(at(p.px), at(p.py), at(p.pz), at(p.vx), at(p.vy), at(p.vz));
  }
  float d = wide::lane(lanes, 0) + wide::lane(lanes, 1) + wide::lane(lanes, 2) + wide::lane(lanes, 3);
  for (; i < n; ++i)
    d += (p.px[i] - p.px[i]) + (p.py[i] - p.py[i]) + (p.pz[i] - p.pz[i]) + (p.vx[i] - p.vx[i]) + (p.vy[i] - p.vy[i]) +
         (p.vz[i] - p.vz[i]);
  return d == 0.0f;
}

inline std::string describeParticle(const char* kind, int index, const Particles& p, int i) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %d particle %d at (%g, %g, %g) moving (%g, %g, %g)", kind, index, i, p.px[i],
                p.py[i], p.pz[i], p.vx[i], p.vy[i], p.vz[i]);
  return buf;
}

// Finite, under the speed cap, hard pins on their anchors (bit-exact), not inside a collider by
// more than kDebugMaxPenetration of `radius` (radius 0 or no colliders: skipped).
inline std::string checkParticles(const char* kind, int index, const Particles& p, const AnchorPath* anchors,
                                  const ColliderPath* colliders, int colliderCount, float radius, bool collide,
                                  uint32_t mask = 0xFFFFFFFFu) {
  for (int i = 0; i < p.count(); ++i) {
    Vec3 x{p.px[i], p.py[i], p.pz[i]}, v{p.vx[i], p.vy[i], p.vz[i]};
    if (!isFinite(x) || !isFinite(v)) return describeParticle(kind, index, p, i) + ": not finite";
    if (lengthSq(v) > kDebugMaxSpeed * kDebugMaxSpeed)
      return describeParticle(kind, index, p, i) + ": faster than " + std::to_string(int(kDebugMaxSpeed)) + " m/s";
    if (p.hardPinned(i)) {
      Vec3 a = anchors[p.anchor[i]].to;
      if (a.x != x.x || a.y != x.y || a.z != x.z) return describeParticle(kind, index, p, i) + ": not on its anchor";
    }
    if (collide && radius > 0.0f && p.invMass[i] > 0.0f)
      for (int c = 0; c < colliderCount; ++c) {
        if ((colliders[c].groups & mask) == 0) continue;
        SurfacePoint s = signedDistance(poseAt(colliders[c], 1.0f), x);
        if (radius - s.distance > kDebugMaxPenetration * radius)
          return describeParticle(kind, index, p, i) + ": " + std::to_string(radius - s.distance) +
                 " m inside collider " + std::to_string(c);
      }
  }
  return {};
}

// An edge (a, b) of rest length `rest` that should not stretch (compliance 0).
inline std::string checkStretch(const char* kind, int index, const Particles& p, int a, int b, float rest) {
  float len = length(Vec3{p.px[a] - p.px[b], p.py[a] - p.py[b], p.pz[a] - p.pz[b]});
  if (len > rest * (1.0f + kDebugMaxStretch))
    return std::string(kind) + " " + std::to_string(index) + " edge " + std::to_string(a) + "-" + std::to_string(b) +
           " is " + std::to_string(len / rest) + " x its rest length";
  return {};
}

}  // namespace wisp
