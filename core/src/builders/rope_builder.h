// Turns a RopeDef into particles and rest lengths.
#pragma once
#include "rope/rope_state.h"
#include "wisp/rope.h"
#include "wisp/status.h"

namespace wisp {

constexpr int kMaxRopeParticles = 1 << 20;

// Validates `def` and fills `out` (positions, masses, rest lengths, creation snapshot). Pins are
// left to the caller, which owns the anchors.
Status buildRope(const RopeDef& def, RopeState* out);

// Recomputes rest lengths of the bending constraints from the current rest lengths' geometry
// at creation: the straight-line distance between particles i and i+2.
void computeBendRest(RopeState& r);

}  // namespace wisp
