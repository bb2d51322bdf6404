// Isometric bending (Bergou, Wardetzky, Harmon, Zorin, Grinspun, "A quadratic bending model for
// inextensible surfaces", 2006), as a single XPBD constraint per interior edge.
// For the two triangles (x0, x1, x2) and (x1, x0, x3) sharing edge x0-x1 the bending energy is
//   E = (3 / (A0 + A1)) |s|^2 / 2,   s = sum_i k_i x_i
// with cotangent weights k fixed at rest. s is the discrete mean-curvature normal: zero for a
// flat pair. The constraint is
//   C(x) = |s| - |s_rest|    (m),   grad_i C = k_i s/|s|,   compliance alpha~ = alpha / (w h^2)
// where w = 3 / (A0 + A1) and alpha = bendCompliance (1/(N*m)). Only + - * / sqrt: unlike a
// dihedral-angle constraint it needs no acos, which keeps native and WASM results identical.
#pragma once
#include <cmath>

#include "cloth/cloth_state.h"

namespace wisp {

inline void solveBend(Particles& p, BendSet& b, int c, float alphaOverH2) {
  const int i0 = b.v[0][c], i1 = b.v[1][c], i2 = b.v[2][c], i3 = b.v[3][c];
  const float k0 = b.k[0][c], k1 = b.k[1][c], k2 = b.k[2][c], k3 = b.k[3][c];
  float sx = k0 * p.px[i0] + k1 * p.px[i1] + k2 * p.px[i2] + k3 * p.px[i3];
  float sy = k0 * p.py[i0] + k1 * p.py[i1] + k2 * p.py[i2] + k3 * p.py[i3];
  float sz = k0 * p.pz[i0] + k1 * p.pz[i1] + k2 * p.pz[i2] + k3 * p.pz[i3];
  float len = std::sqrt(sx * sx + sy * sy + sz * sz);
  if (len < 1e-9f) return;  // flat: satisfied, and no direction to push along
  float w0 = p.invMass[i0], w1 = p.invMass[i1], w2 = p.invMass[i2], w3 = p.invMass[i3];
  float wsum = w0 * k0 * k0 + w1 * k1 * k1 + w2 * k2 * k2 + w3 * k3 * k3;
  if (wsum == 0.0f) return;
  float alpha = alphaOverH2 / b.weight[c];
  float C = len - b.restNorm[c];
  float dl = (-C - alpha * b.lambda[c]) / (wsum + alpha);
  b.lambda[c] += dl;
  float s = dl / len;
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
