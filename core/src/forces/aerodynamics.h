// Aerodynamic force on each triangle from the air velocity relative to it (Keckeisen et al.,
// "Interactive cloth simulation in virtual environments", 2004):
//   v   = mean vertex air velocity - mean vertex velocity,   n = unit normal facing the flow (n.v >= 0)
//   F_drag = 1/2 rho Cd A |v| (n.v) n                       pressure drag, along the normal
//   F_lift = 1/2 rho Cl A |v| (n.v) u,  u = unit((n x v) x v)   perpendicular to the flow
// A third of F goes to each vertex as an acceleration F / (3 m). A flag flaps because lift and
// drag change with the angle each triangle makes with the wind. Where the air varies from point to
// point its velocity comes from the vertices' samples (Particles::airx, once per fixed step):
// half as many noise samples as triangles, and none in the substeps between.
#pragma once
#include <cmath>

#include "cloth/cloth_state.h"
#include "math/vec3.h"

namespace wisp {

// sampled: the air velocity is in airx/airy/airz; else it is `meanAir` everywhere.
inline void accumulateAerodynamics(ClothState& c, Vec3 meanAir, bool sampled) {
  const ClothParams& p = c.params;
  std::fill(c.ax.begin(), c.ax.end(), 0.0f);
  std::fill(c.ay.begin(), c.ay.end(), 0.0f);
  std::fill(c.az.begin(), c.az.end(), 0.0f);
  const float halfRho = 0.5f * p.airDensity;
  const int nt = c.triangleCount();
  for (int t = 0; t < nt; ++t) {
    const uint32_t a = c.triangles[3 * t], b = c.triangles[3 * t + 1], d = c.triangles[3 * t + 2];
    Vec3 xa{c.px[a], c.py[a], c.pz[a]}, xb{c.px[b], c.py[b], c.pz[b]}, xd{c.px[d], c.py[d], c.pz[d]};
    Vec3 n2 = cross(xb - xa, xd - xa);
    float twiceArea = length(n2);
    if (twiceArea < 1e-12f) continue;
    Vec3 n = n2 * (1.0f / twiceArea);
    Vec3 vel = Vec3{c.vx[a] + c.vx[b] + c.vx[d], c.vy[a] + c.vy[b] + c.vy[d], c.vz[a] + c.vz[b] + c.vz[d]} * (1.0f / 3.0f);
    Vec3 air = meanAir;
    if (sampled)
      air = Vec3{c.airx[a] + c.airx[b] + c.airx[d], c.airy[a] + c.airy[b] + c.airy[d], c.airz[a] + c.airz[b] + c.airz[d]} *
            (1.0f / 3.0f);
    Vec3 rel = air - vel;
    float vn = dot(rel, n);
    if (vn < 0.0f) { n = -n; vn = -vn; }
    float speed = length(rel);
    if (speed < 1e-6f) continue;
    float scale = halfRho * 0.5f * twiceArea * speed * vn;  // 1/2 rho A |v| (n.v)
    Vec3 force = n * (scale * p.dragCoefficient);
    Vec3 u = cross(cross(n, rel), rel);
    float ulen = length(u);
    if (ulen > 1e-9f) force += u * (scale * p.liftCoefficient / ulen);
    // F / (3 m) per vertex; pinned vertices ignore it (their inverse mass is 0)
    for (uint32_t v : {a, b, d}) {
      float s = c.invMass[v] * (1.0f / 3.0f);
      c.ax[v] += force.x * s;
      c.ay[v] += force.y * s;
      c.az[v] += force.z * s;
    }
  }
}

}  // namespace wisp
