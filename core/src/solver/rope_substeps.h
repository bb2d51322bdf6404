// Fast ropes: how many times the world's substeps a rope runs this frame.
//
// The direct stretch solve (constraints/rope_direct.h) takes Newton steps from the substep's
// predicted positions x + h v. Where neighbours move apart or together by a large part of their
// segment within one substep, that start is far from the solution, the worst residual stops
// falling after a step or two, and the solve stops with segments long: a 1 m rope of 1,000
// particles falling from horizontal at 10 substeps was 25 % longer than its rest length, one of
// 10,000 78 % (docs/physics.md). Smaller substeps are what helps (more Newton steps did not pay),
// so, as cloth does for fast pins (solver/cloth_solver.cpp), a rope whose neighbours' relative
// velocity would move them more than kSegmentTravel of their rest length in one substep runs 2,
// 4, 8... times the substeps, the fewest that bring it under, up to RopeParams::maxSubsteps per
// fixed step.
//
// Relative, not absolute, velocity: a rope carried along or swung rigidly predicts its segments
// at their lengths however fast it moves; only stretching motion (|v_{j+1} - v_j| along or
// across segment j) puts the start off. Measured on that falling rope at a fixed substep count,
// the largest |v_{j+1} - v_j| h / l_j of the first 2 s against its worst total length: 0.13 →
// 1.0000x, 0.28 → 1.003x, 0.35 → 1.0008x, 0.92 → 1.08x, 1.8 → 1.25x, 22 → 1.78x.
//
// Depends only on the rope's velocities and rest lengths at the start of the frame, its exact
// pins' anchor paths and the frame's timing: the same on every thread count and build, and whether the rope runs alone or
// in a lane group (which takes only ropes at the factor 1).
#pragma once
#include <algorithm>

#include "math/wide.h"
#include "rope/rope_state.h"
#include "solver/step_context.h"

namespace wisp {

constexpr float kSegmentTravel = 0.25f;  // of a segment's rest length, per substep

// |v_{j+1} - v_j|^2 of segment j (m^2/s^2): how fast its ends move apart or together
inline float segmentSpread2(const RopeState& r, int j) {
  const float dx = r.vx[j + 1] - r.vx[j], dy = r.vy[j + 1] - r.vy[j], dz = r.vz[j + 1] - r.vz[j];
  return dx * dx + dy * dy + dz * dz;
}

inline int fastRopeFactor(const RopeState& r, const StepContext& ctx) {
  const int base = ctx.substeps;
  if (r.params.maxSubsteps < 2 * base) return 1;
  // the largest |v_{j+1} - v_j|^2 / l_j^2 (1/s^2); segments of no length cannot be off. Most
  // ropes have no segment over the first limit: that is found with products alone, four
  // segments at a time, and the division runs only for a rope that has one. The scan adds 1.2 %
  // to a frame of the benchmark's 1000 ropes x 32 (native instructions; 2.7 % with a division
  // per segment).
  const float limit2 = kSegmentTravel * kSegmentTravel;
  const int m = r.segments();
  const float *vx = r.vx.data(), *vy = r.vy.data(), *vz = r.vz.data(), *rest = r.rest.data();
  const wide::F4 h2 = wide::splat(ctx.h2), lim = wide::splat(limit2);
  wide::F4 fast = wide::lessThan(h2, wide::splat(0.0f));  // no lane
  int j = 0;
  for (; j + wide::kWidth <= m; j += wide::kWidth) {
    const wide::F4 dx = wide::load(vx + j + 1) - wide::load(vx + j), dy = wide::load(vy + j + 1) - wide::load(vy + j),
                   dz = wide::load(vz + j + 1) - wide::load(vz + j), l = wide::load(rest + j);
    fast = wide::maskOr(fast, wide::lessThan(lim * (l * l), (dx * dx + dy * dy + dz * dz) * h2));
  }
  bool over = wide::any(fast);
  for (; j < m; ++j) over |= segmentSpread2(r, j) * ctx.h2 > limit2 * (rest[j] * rest[j]);
  float worst = 0.0f;
  if (over)
    for (int j = 0; j < m; ++j) {
      const float l = rest[j];
      if (l > 0.0f) worst = std::max(worst, segmentSpread2(r, j) / (l * l));
    }
  // An exact pin moves with its anchor this frame, not at the velocity it had: a whip's turn
  // starts inside the frame, so its neighbours' velocities at the start cannot show it (as
  // cloth's fast pins, its anchor's path does)
  const float toVelocity = ctx.frameDt > 0.0f ? ctx.tSpan / ctx.frameDt : 0.0f;
  for (int32_t i : r.pinnedList) {
    const AnchorPath& a = ctx.anchors[r.anchor[i]];
    const Vec3 va = (a.to - a.from) * toVelocity;
    for (int j : {i - 1, i + 1}) {
      if (j < 0 || j > m) continue;
      const float dx = r.vx[j] - va.x, dy = r.vy[j] - va.y, dz = r.vz[j] - va.z;
      const float l = r.rest[std::min(i, j)];
      if (l > 0.0f) worst = std::max(worst, (dx * dx + dy * dy + dz * dz) / (l * l));
    }
  }
  // per substep: |dv| h / l > kSegmentTravel * factor, squared (NaN compares false: factor 1,
  // and the world resets a rope whose state went non-finite)
  const float travel2 = worst * ctx.h2;
  int factor = 1;
  while (travel2 > limit2 * static_cast<float>(factor * factor) && 2 * factor * base <= r.params.maxSubsteps) factor *= 2;
  return factor;
}

}  // namespace wisp
