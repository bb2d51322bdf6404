// A chain's timed parameter multipliers (World::boostChain, ChainBoost): the multipliers given
// fade linearly back to 1 over the boost's length in the chain's simulated time. Each fixed step
// reads the value at its own start, so the schedule does not depend on the frame rate.
#pragma once
#include <algorithm>

#include "chain/chain_state.h"

namespace wisp {

// The multipliers in force `elapsed` seconds of simulated time after the current frame began:
// 1 + (m - 1) f with f = (secondsLeft - elapsed) / seconds clamped to [0, 1]; exactly 1 when no
// boost runs (so an unboosted chain computes the same bits as without the feature).
inline ChainBoost boostAt(const ChainState& c, float elapsed) {
  if (!(c.boostLeft > 0.0f)) return ChainBoost{};
  const float f = std::clamp((c.boostLeft - elapsed) / c.boostSeconds, 0.0f, 1.0f);
  const ChainBoost& m = c.boost;
  return {1.0f + (m.stiffness - 1.0f) * f, 1.0f + (m.damping - 1.0f) * f, 1.0f + (m.drag - 1.0f) * f,
          1.0f + (m.gravity - 1.0f) * f};
}

// After a frame of `seconds` simulated: the time left shrinks; a finished boost is cleared (its
// state then equals a chain never boosted, state hash included).
inline void advanceBoost(ChainState& c, float seconds) {
  if (!(c.boostLeft > 0.0f)) return;
  c.boostLeft -= seconds;
  if (!(c.boostLeft > 0.0f)) {
    c.boost = ChainBoost{};
    c.boostSeconds = 0;
    c.boostLeft = 0;
  }
}

}  // namespace wisp
