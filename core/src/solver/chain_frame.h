// One chain's frame cut into its parts: begin, then each substep (Wisp mode) or the VRM rule's
// fixed steps, then end. simulateChain is these in a row. Drivers that run several chains
// together use the same parts, so a chain gets the same arithmetic whichever way it is solved:
// chain links (solver/chain_links_solver.h) interleave link constraints between the substeps of
// the chains they join, and the lane kernels (solver/chain_lanes.h) solve up to four chains at
// once between begin and end.
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

// What a frame carries from its begin, through the substeps, to its end.
struct ChainFrame {
  Transform rootTarget, spaceTarget;  // the targets set for this frame, restored at its end
  Transform rootStart, spaceStart, spaceEnd, prevRoot, prevSpace;
  Transform root;                     // the root at the end of the substep just run
  Vec3 gravity;
  bool relative = false, turbulent = false;
  float poison = 0;                   // 0 unless something went non-finite
  // Set when a lane kernel took the frame's end scans from its block (JointBlock::finish): the
  // largest squared joint speed and whether the state is finite, outputs written.
  bool scanned = false, finite = true;
  float fastestSq = 0;
};

// A pending warm-up, the frame's end poses (root, space, animated pose) and (Wisp mode) the
// teleport check.
void beginChainFrame(ChainState& c, const StepContext& ctx, ChainFrame* f);
// Substep `sub` (0 .. ctx.totalSubsteps - 1) of a Wisp-mode chain: Carry, Integrate, SolveBones.
void chainSubstep(ChainState& c, const StepContext& ctx, ChainFrame& f, int sub);
// The frame's results (outputs, speed and ChainState::broken, from the lane kernel's block scan
// when ChainFrame::scanned; physics weight, boost); moves the targets on.
void endChainFrame(ChainState& c, const StepContext& ctx, ChainFrame& f);
// Joint rotations again from the joints' positions (after something other than the chain's own
// solve moved them, e.g. links); outputs written when `output`.
void reorientChain(ChainState& c, Quat rootRotation, bool output);
// ChainMode::Vrm's whole frame (begin and end included): a Vrm chain is not substepped.
void simulateVrmChain(ChainState& c, const StepContext& ctx);

}  // namespace wisp
