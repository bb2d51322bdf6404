// Isometric bending (Bergou, Wardetzky, Harmon, Zorin, Grinspun, "A quadratic bending model for
// inextensible surfaces", 2006), in the position-based form of Bender, Mueller, Macklin
// ("Position-based simulation methods", 2015): the constraint is the quadratic bending energy
// of the two triangles (x0, x1, x2) and (x1, x0, x3) sharing edge x0-x1,
//   s    = sum_i k_i x_i            (m)  discrete mean-curvature normal, k = cotangent weights
//   C(x) = w/2 (|s|^2 - |s_rest|^2)      dimensionless, w = 3 / (A0 + A1) (1/m^2)
//   grad_i C = w k_i s
// with XPBD compliance alpha = bendCompliance (1/J), alpha~ = alpha / h^2. s is zero for a flat
// pair, so a flat rest shape has C = 0 exactly there.
// Why this form: with C = |s| instead, stiff bending plus inextensible edges gained energy in a
// violently crumpled cloth (kinetic energy x3 in 5 s, measured); the quadratic form stays
// dissipative at every compliance we tried (1e-4 .. 10). And it needs no acos (a dihedral-angle
// constraint does), which keeps native and WASM results bit-identical.
#pragma once
#include <cmath>

#include "cloth/cloth_state.h"

namespace wisp {

inline void solveBend(Particles& p, BendSet& b, int c, float alphaTilde) {
  const int i0 = b.v[0][c], i1 = b.v[1][c], i2 = b.v[2][c], i3 = b.v[3][c];
  const float k0 = b.k[0][c], k1 = b.k[1][c], k2 = b.k[2][c], k3 = b.k[3][c];
  const float w = b.weight[c];
  float sx = k0 * p.px[i0] + k1 * p.px[i1] + k2 * p.px[i2] + k3 * p.px[i3];
  float sy = k0 * p.py[i0] + k1 * p.py[i1] + k2 * p.py[i2] + k3 * p.py[i3];
  float sz = k0 * p.pz[i0] + k1 * p.pz[i1] + k2 * p.pz[i2] + k3 * p.pz[i3];
  float len2 = sx * sx + sy * sy + sz * sz;
  float w0 = p.invMass[i0], w1 = p.invMass[i1], w2 = p.invMass[i2], w3 = p.invMass[i3];
  // sum_i w_i |grad_i C|^2
  float wsum = (w0 * k0 * k0 + w1 * k1 * k1 + w2 * k2 * k2 + w3 * k3 * k3) * w * w * len2;
  if (wsum + alphaTilde == 0.0f) return;  // flat and infinitely stiff, or all pinned
  float C = 0.5f * w * (len2 - b.restNorm[c] * b.restNorm[c]);
  float dl = (-C - alphaTilde * b.lambda[c]) / (wsum + alphaTilde);
  b.lambda[c] += dl;
  float s = dl * w;  // x_i += w_i * grad_i C * dl = w_i k_i (w dl) s
  sx *= s; sy *= s; sz *= s;
  const int idx[4] = {i0, i1, i2, i3};
  const float kw[4] = {k0 * w0, k1 * w1, k2 * w2, k3 * w3};
  for (int j = 0; j < 4; ++j) {
    p.px[idx[j]] += kw[j] * sx;
    p.py[idx[j]] += kw[j] * sy;
    p.pz[idx[j]] += kw[j] * sz;
  }
}

}  // namespace wisp
