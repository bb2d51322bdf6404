// Particle-collider contact, solved as a position projection at the end of each substep.
//   C(x) = d(x) - r >= 0      (m), d = signed distance to the surface, r = particle radius
// Friction (position-based Coulomb, Macklin et al. 2014, "Unified particle physics", sec. 6.1):
// the particle's displacement over the substep relative to the collider surface, tangential
// part dt, is cancelled when |dt| < mu * penetration (static), else shortened by mu * penetration
// (kinetic). The collider's motion is its linear displacement over the substep.
#pragma once
#include "colliders/shapes.h"
#include "particles/particles.h"

namespace wisp {

inline void collideParticle(Particles& r, int i, const ColliderPose& now, Vec3 colliderMove, float radius) {
  Vec3 p{r.px[i], r.py[i], r.pz[i]};
  SurfacePoint s = signedDistance(now, p);
  float pen = radius - s.distance;
  if (pen <= 0.0f) return;
  p += s.normal * pen;
  float mu = now.friction;
  if (mu > 0.0f) {
    Vec3 move = Vec3{p.x - r.ox[i], p.y - r.oy[i], p.z - r.oz[i]} - colliderMove;
    Vec3 tangential = move - s.normal * dot(move, s.normal);
    float tlen = length(tangential);
    float limit = mu * pen;
    if (tlen <= limit) p -= tangential;
    else p -= tangential * (limit / tlen);
  }
  r.px[i] = p.x; r.py[i] = p.y; r.pz[i] = p.z;
}

}  // namespace wisp
