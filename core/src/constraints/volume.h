// Volume (pressure) of a closed triangle mesh, one global XPBD constraint:
//   C(x) = V(x) - pressure * V0   (m^3),  V = (1/6) sum over triangles (x_a x x_b) . x_c
//   grad_i C = (1/6) sum over triangles containing i of (x_j x x_k), (i, j, k) in winding order
// Compliance alpha in m^3/Pa (the energy is C^2 / (2 alpha)); pressure 1 keeps the rest volume,
// > 1 inflates. The gradient is gathered into the scratch arrays (ax, ay, az), then every free
// particle moves by w_i grad_i C dlambda, with dlambda = (-C - alpha~ lambda) / (sum w |grad|^2 + alpha~).
// Serial: one constraint couples every particle (Mueller et al. 2007, "Position based dynamics", 4.4).
#pragma once
#include "cloth/cloth_state.h"
#include "math/vec3.h"

namespace wisp {

inline double meshVolume(const Particles& p, const std::vector<uint32_t>& tris) {
  double v = 0;
  for (size_t t = 0; t + 2 < tris.size(); t += 3) {
    Vec3 a{p.px[tris[t]], p.py[tris[t]], p.pz[tris[t]]};
    Vec3 b{p.px[tris[t + 1]], p.py[tris[t + 1]], p.pz[tris[t + 1]]};
    Vec3 c{p.px[tris[t + 2]], p.py[tris[t + 2]], p.pz[tris[t + 2]]};
    v += static_cast<double>(dot(cross(a, b), c));
  }
  return v / 6.0;
}

// gx, gy, gz: scratch of the particle count (the aerodynamics arrays, free at this stage).
inline void solveVolume(ClothState& c, float target, float alphaTilde, float* lambda, float* gx, float* gy, float* gz) {
  const int n = c.count();
  for (int i = 0; i < n; ++i) gx[i] = gy[i] = gz[i] = 0.0f;
  const std::vector<uint32_t>& tris = c.triangles;
  for (size_t t = 0; t + 2 < tris.size(); t += 3) {
    const uint32_t ia = tris[t], ib = tris[t + 1], ic = tris[t + 2];
    Vec3 a{c.px[ia], c.py[ia], c.pz[ia]}, b{c.px[ib], c.py[ib], c.pz[ib]}, d{c.px[ic], c.py[ic], c.pz[ic]};
    Vec3 ga = cross(b, d), gb = cross(d, a), gc = cross(a, b);
    gx[ia] += ga.x; gy[ia] += ga.y; gz[ia] += ga.z;
    gx[ib] += gb.x; gy[ib] += gb.y; gz[ib] += gb.z;
    gx[ic] += gc.x; gy[ic] += gc.y; gz[ic] += gc.z;
  }
  const float C = static_cast<float>(meshVolume(c, tris)) - target;
  float denom = alphaTilde;
  for (int i = 0; i < n; ++i) {
    gx[i] *= (1.0f / 6.0f); gy[i] *= (1.0f / 6.0f); gz[i] *= (1.0f / 6.0f);
    denom += c.invMass[i] * (gx[i] * gx[i] + gy[i] * gy[i] + gz[i] * gz[i]);
  }
  if (!(denom > 1e-20f)) return;
  const float dl = (-C - alphaTilde * *lambda) / denom;
  *lambda += dl;
  for (int i = 0; i < n; ++i) {
    const float s = c.invMass[i] * dl;
    c.px[i] += gx[i] * s; c.py[i] += gy[i] * s; c.pz[i] += gz[i] * s;
  }
}

}  // namespace wisp
