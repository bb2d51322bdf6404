// What every chain update rule does around its substeps, shared by the scalar solver
// (chain_solver.cpp) and the lane kernels (chain_lanes.cpp), so that a chain solved in a lane
// group goes through exactly the same per-chain steps as one solved alone.
#pragma once
#include "chain/chain_state.h"
#include "math/quat.h"
#include "solver/step_context.h"

namespace wisp {

inline Transform interpolate(const Transform& a, const Transform& b, float t) {
  return {lerp(a.position, b.position, t), nlerp(a.rotation, b.rotation, t)};
}

inline Vec3 gravityOf(const ChainState& c, const StepContext& ctx) {
  return c.params.customGravity ? c.params.gravity : ctx.gravity;
}

inline bool collides(const ChainState& c, const StepContext& ctx) { return ctx.collides(c.params.collide); }

// The animated pose at fraction t of the frame's fixed steps (ChainState::animFrom -> animEnd).
inline void animatedPoseAt(ChainState& c, float t) {
  if (!c.animated) return;
  for (int j = 0; j < c.joints(); ++j) c.animNow[j] = nlerp(c.animFrom[j], c.animEnd[j], t);
}

// simulateChain = beginChainFrame, the rule's substeps, endChainFrame. Begin runs a pending
// warm-up and sets the frame's end poses (root, space, animated pose); end stores the frame's
// results (outputs, speed, physics weight, boost) and moves the targets on.
struct ChainFrameTargets {
  Transform root, space;
};
ChainFrameTargets beginChainFrame(ChainState& c, const StepContext& ctx);
void endChainFrame(ChainState& c, const StepContext& ctx, const ChainFrameTargets& targets);

}  // namespace wisp
