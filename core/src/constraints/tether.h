// Long-range attachment ("tether") to the nearest pinned particle (Kim, Chentanez, Mueller,
// "Long Range Attachments", 2012). Unilateral:
//   C(x) = |x_i - x_p| - L_ip <= 0      (m), L_ip = rest length along the rope between i and p
// The pinned particle p does not move (w_p = 0), so the projection is exact and every particle
// is independent: a rope cannot sag past its length however few substeps or iterations it gets,
// which is what plain Gauss-Seidel stretch passes struggle with on long chains.
#pragma once
#include <cmath>

#include "particles/rope_state.h"

namespace wisp {

// restPrefix[i] = sum of rest lengths of segments 0..i-1 (recomputed each substep: plasticity
// changes rest lengths).
inline void computeRestPrefix(RopeState& r) {
  float acc = 0;
  const int n = r.count();
  for (int i = 0; i < n; ++i) {
    r.restPrefix[i] = acc;
    if (i < r.segments()) acc += r.rest[i];
  }
}

inline void solveTethers(RopeState& r, int begin, int end) {
  for (int i = begin; i < end; ++i) {
    int p = r.tetherTo[i];
    if (p < 0 || r.invMass[i] == 0.0f) continue;
    float limit = std::fabs(r.restPrefix[i] - r.restPrefix[p]);
    float dx = r.px[i] - r.px[p], dy = r.py[i] - r.py[p], dz = r.pz[i] - r.pz[p];
    float d2 = dx * dx + dy * dy + dz * dz;
    if (d2 <= limit * limit) continue;
    float s = limit / std::sqrt(d2);
    r.px[i] = r.px[p] + dx * s;
    r.py[i] = r.py[p] + dy * s;
    r.pz[i] = r.pz[p] + dz * s;
  }
}

}  // namespace wisp
