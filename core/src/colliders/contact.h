// Particle-collider contact, solved as a position projection at the end of each substep, after a
// swept test of the substep's path against solid spheres, capsules and boxes (sweepParticle).
//   C(x) = d(x) - r >= 0      (m), d = signed distance to the surface, r = particle radius
// Friction (position-based Coulomb, Macklin et al. 2014, "Unified particle physics", sec. 6.1):
// the particle's displacement over the substep relative to the collider surface, tangential
// part dt, is cancelled when |dt| < mu * penetration (static), else shortened by mu * penetration
// (kinetic). The collider's motion is its linear displacement over the substep.
#pragma once
#include "colliders/shapes.h"
#include "particles/particles.h"

namespace wisp {

// Where the particle's path over the substep (from `from` to `to`, both in the collider's frame
// at the end of the substep) first comes within `radius` of a solid sphere, capsule or box, or
// false when it does not: the swept test that keeps a fast particle from passing through a thin
// collider, or from ending past its middle and being pushed out of the far side. Sphere tracing:
// the signed distance outside these shapes is exact, so each step of (distance - radius) along
// the path cannot pass the surface.
inline bool firstContact(const ColliderPose& c, Vec3 from, Vec3 to, float radius, Vec3* at, SurfacePoint* s) {
  const Vec3 path = to - from;
  const float len = length(path);
  if (len <= 0.0f) return false;
  const float tolerance = 1e-3f * radius + 1e-6f;
  float t = 0.0f;
  for (int it = 0; it < 24; ++it) {
    const Vec3 x = from + path * (t / len);
    const SurfacePoint d = signedDistance(c, x);
    const float gap = d.distance - radius;
    if (gap <= tolerance) {
      *at = x;
      *s = d;
      return true;
    }
    t += gap;
    if (t >= len) return false;
  }
  return false;  // grazing: the end point's own test handles it
}

// A particle that was clear of a solid sphere, capsule or box at the start of the substep (its
// start seen in the collider's frame now: `before` -> `now` moves it with the collider) and whose
// path entered it stops where it entered, instead of going through or being projected out of
// the nearest face (for a thin collider, the far one). Returns true when it moved the particle.
inline bool sweepParticle(Particles& r, int i, const ColliderPose& before, const ColliderPose& now, float radius) {
  if (now.inside || now.type == ColliderType::Plane) return false;  // the end point's test holds
  const Vec3 p{r.px[i], r.py[i], r.pz[i]};
  const Vec3 o = followFrame(before, now, Vec3{r.ox[i], r.oy[i], r.oz[i]});
  // Slower than its own radius per substep, a particle cannot pass a collider's middle: the end
  // point's test pushes it back the way it came (and resting contact keeps sliding freely)
  if (lengthSq(p - o) <= radius * radius) return false;
  const SurfacePoint atStart = signedDistance(now, o);
  if (atStart.distance < radius) return false;  // already touching: the end point's test
  const SurfacePoint atEnd = signedDistance(now, p);
  // it can only have crossed if the path is longer than the two gaps together
  if (length(p - o) <= (atStart.distance - radius) + std::max(atEnd.distance - radius, 0.0f)) return false;
  // an end point inside whose way out is backwards (against the motion) needs no sweep
  if (atEnd.distance < radius && dot(atEnd.normal, p - o) <= 0.0f) return false;
  Vec3 at;
  SurfacePoint s;
  if (!firstContact(now, o, p, radius, &at, &s)) return false;
  r.px[i] = at.x; r.py[i] = at.y; r.pz[i] = at.z;
  return true;
}

inline void collideParticle(Particles& r, int i, const ColliderPose& before, const ColliderPose& now, Vec3 colliderMove,
                            float radius) {
  sweepParticle(r, i, before, now, radius);
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
