// Long-range attachment ("tether") to the nearest pinned particle (Kim, Chentanez, Mueller,
// "Long Range Attachments", 2012). Unilateral:
//   C(x) = |x_i - x_p| - L_ip <= 0      (m), L_ip = rest length along the rope between i and p
// The pinned particle p does not move (w_p = 0), so the projection is exact and every particle
// is independent: a rope or cloth cannot sag past its length however few substeps or
// iterations it gets, which is what plain Gauss-Seidel passes struggle with on long chains.
// L_ip: along the rope for ropes; the shortest path over rest edge lengths for cloth.
#pragma once
#include <cmath>

#include "math/vec3.h"
#include "rope/rope_state.h"

namespace wisp {

// Rope tether limits: the rest length along the rope between i and its pinned particle
// (recomputed each substep under plasticity, which changes rest lengths).
inline void computeRopeTetherLimits(RopeState& r) {
  float acc = 0;
  const int n = r.count();
  for (int i = 0; i < n; ++i) {
    r.restPrefix[i] = acc;
    if (i < r.segments()) acc += r.rest[i];
  }
  for (int i = 0; i < n; ++i)
    if (r.tetherTo[i] >= 0) r.tetherLimit[i] = std::fabs(r.restPrefix[i] - r.restPrefix[r.tetherTo[i]]);
  // Two pins further apart than the rope between them: the tethers cannot all hold, and each
  // side's would keep its particles at rest length from its pin, leaving the whole stretch to
  // the one segment where the sides meet (a 1 m rope between pins 1.2 m apart: one segment 320 %
  // long). Their limits grow by the same ratio the pins are apart, so the stretch is shared.
  for (size_t k = 0; k + 1 < r.pinnedList.size(); ++k) {
    const int a = r.pinnedList[k], b = r.pinnedList[k + 1];
    const float rest = r.restPrefix[b] - r.restPrefix[a];
    const float dx = r.px[b] - r.px[a], dy = r.py[b] - r.py[a], dz = r.pz[b] - r.pz[a];
    const float apart2 = dx * dx + dy * dy + dz * dz;
    if (!(rest > 0.0f) || apart2 <= rest * rest) continue;
    const float ratio = std::sqrt(apart2) / rest;
    for (int i = a + 1; i < b; ++i) r.tetherLimit[i] *= ratio;
  }
}

// alphaTilde = compliance / h^2 (compliance in m/N): 0 projects exactly; otherwise XPBD with a
// multiplier that starts at 0 each substep (one pass), so the particle moves the fraction
// w / (w + alphaTilde) of the way: a tether that gives under load like a stiff spring.
inline void solveTethers(Particles& r, int begin, int end, float alphaTilde = 0.0f) {
  for (int i = begin; i < end; ++i) {
    int p = r.tetherTo[i];
    if (p < 0 || r.invMass[i] == 0.0f) continue;
    float limit = r.tetherLimit[i];
    float dx = r.px[i] - r.px[p], dy = r.py[i] - r.py[p], dz = r.pz[i] - r.pz[p];
    float d2 = dx * dx + dy * dy + dz * dz;
    if (d2 <= limit * limit) continue;
    float s = limit / std::sqrt(d2);
    float tx = r.px[p] + dx * s, ty = r.py[p] + dy * s, tz = r.pz[p] + dz * s;
    if (alphaTilde > 0.0f) {
      const float f = r.invMass[i] / (r.invMass[i] + alphaTilde);
      tx = r.px[i] + (tx - r.px[i]) * f;
      ty = r.py[i] + (ty - r.py[i]) * f;
      tz = r.pz[i] + (tz - r.pz[i]) * f;
    }
    r.px[i] = tx;
    r.py[i] = ty;
    r.pz[i] = tz;
  }
}

// Leash: a particle pinned with a maximum distance d stays within d of its anchor's position
// a (which moves along its path like an exact pin's):  C(x) = |x - a| - d <= 0  (m).
// The anchor is kinematic, so the projection is exact: a vertex skinned to a bone can swing
// freely up to d away from where the bone puts it.
//
// Spring pin (pinCompliance α > 0, in m/N): C(x) = |x - a| = 0 with compliance α, one XPBD
// iteration per substep (λ starts at 0): Δλ = -C / (w + α/h²), so x moves toward a by the fraction
// w / (w + α/h²). At rest it hangs α × (the force on it) from the anchor, whatever the substeps:
// a grab that pulls hard without yanking a cloth apart. h2 is the substep length squared.
inline void solveLeash(Particles& p, int i, Vec3 a, float h2) {
  const float alpha = p.pinCompliance[i];
  if (alpha > 0.0f) {
    const float w = p.invMass[i], f = w / (w + alpha / h2);
    p.px[i] += (a.x - p.px[i]) * f;
    p.py[i] += (a.y - p.py[i]) * f;
    p.pz[i] += (a.z - p.pz[i]) * f;
    return;
  }
  float dx = p.px[i] - a.x, dy = p.py[i] - a.y, dz = p.pz[i] - a.z;
  float d2 = dx * dx + dy * dy + dz * dz, limit = p.pinDistance[i];
  if (d2 <= limit * limit) return;
  float s = limit / std::sqrt(d2);
  p.px[i] = a.x + dx * s;
  p.py[i] = a.y + dy * s;
  p.pz[i] = a.z + dz * s;
}

}  // namespace wisp
