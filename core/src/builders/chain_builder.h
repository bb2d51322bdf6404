// Turns a ChainDef into a ChainState: the rest hierarchy, bone lengths, positions along the
// chain, and the per-joint parameters resolved from the curves.
#pragma once
#include "chain/chain_state.h"
#include "wisp/chain.h"
#include "wisp/status.h"

namespace wisp {

constexpr int kMaxChainJoints = 1024;

// Fills the per-joint arrays of `c` from `p` and `c.along`; an error (naming the joint) if a
// product of base and curve leaves its range. `c` is unchanged on error.
Status resolveChainParams(ChainState& c, const ChainParams& p);
// Validates `def` and fills `out`, posed at rest on def.root.
Status buildChain(const ChainDef& def, ChainState* out);
// Rest pose (the animated pose once set) on the current root (rootTo), velocities zero, outputs written.
void poseChainAtRest(ChainState& c);
// Sets the root's uniform scale (ChainState::scale): rest lengths, radii, gravity, external force
// and teleport distance follow it, and the joints are carried about the root to the new size.
void scaleChain(ChainState& c, float scale);
// A curve's multiplier at t (1 for an empty curve; constant past the end keys).
float evaluateCurve(const Curve& curve, float t);

}  // namespace wisp
