// Plastic stretch. Once a segment is longer than rest * yieldRatio, its rest length creeps
// towards length / yieldRatio at `plasticity` (1/s), so a rope pulled hard stays longer after it
// is released. Below the yield ratio the rope is purely elastic (stretchCompliance).
//   excess = |x_a - x_b| / yieldRatio - rest   (m), applied when > 0
//   rest  += excess * min(1, plasticity * h)
#pragma once
#include <cmath>

#include "rope/rope_state.h"

namespace wisp {

inline void applyPlasticity(RopeState& r, int begin, int end, float invYield, float rate) {
  for (int s = begin; s < end; ++s) {
    float dx = r.px[s] - r.px[s + 1], dy = r.py[s] - r.py[s + 1], dz = r.pz[s] - r.pz[s + 1];
    float len = std::sqrt(dx * dx + dy * dy + dz * dz);
    float excess = len * invYield - r.rest[s];
    if (excess > 0.0f) r.rest[s] += excess * rate;
  }
}

}  // namespace wisp
