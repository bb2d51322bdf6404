// The largest squared particle speed of an object (ChainState::maxSpeed is its root), taken four
// particles at a time on the lanes.
#pragma once
#include <algorithm>

#include "math/vec3.h"
#include "math/wide.h"
#include "particles/particles.h"

namespace wisp {

// One step of the scan on each lane: std::max(fastest, sq), so a NaN sq is passed over as
// std::max passes it. The lane-ordered solvers' frame ends (solver/chain_joint_block.h,
// solver/rope_lanes.cpp) scan their blocks with it too.
inline wide::F4 fasterOf(wide::F4 fastest, wide::F4 sq) {
  return wide::select(wide::lessThan(fastest, sq), sq, fastest);
}

// 0 if every particle is at rest; NaNs are passed over, as std::max(fastest, x) passes them. The
// largest of a set does not depend on the order it is taken in, so the lanes' maxima and then
// the rest give the one-by-one scan's result exactly (squared speeds are never -0).
inline float fastestSpeedSq(const Particles& p) {
  const int n = p.count();
  int i = 0;
  wide::F4 lanes = wide::splat(0.0f);
  for (; i + wide::kWidth <= n; i += wide::kWidth) {
    const wide::F4 x = wide::load(p.vx.data() + i), y = wide::load(p.vy.data() + i), z = wide::load(p.vz.data() + i);
    lanes = fasterOf(lanes, x * x + y * y + z * z);  // lengthSq
  }
  float fastest = 0;
  for (int l = 0; l < wide::kWidth; ++l) fastest = std::max(fastest, wide::lane(lanes, l));
  for (; i < n; ++i) fastest = std::max(fastest, lengthSq(Vec3{p.vx[i], p.vy[i], p.vz[i]}));
  return fastest;
}

}  // namespace wisp
