// One chain's frame cut into its parts, for drivers that run several chains in lock step (chain
// links, solver/chain_links_solver.h): begin, then each substep, then end. simulateChain is these
// three in a row; a driver that interleaves other work between the substeps of several chains
// gets the same arithmetic for each chain, so an unlinked chain is bit-identical either way.
#pragma once

#include "chain/chain_state.h"
#include "solver/step_context.h"

namespace wisp {

// What a Wisp-mode frame carries from substep to substep.
struct ChainFrame {
  Transform rootTarget, spaceTarget;  // the targets set for this frame, restored at its end
  Transform rootStart, spaceStart, spaceEnd, prevRoot, prevSpace;
  Transform root;                     // the root at the end of the substep just run
  Vec3 gravity;
  bool relative = false, turbulent = false;
  float poison = 0;                   // 0 unless something went non-finite
};

// Warm-up, the frame's end targets and (Wisp mode) the teleport check.
void beginChainFrame(ChainState& c, const StepContext& ctx, ChainFrame* f);
// Substep `sub` (0 .. ctx.totalSubsteps - 1) of a Wisp-mode chain: Carry, Integrate, SolveBones.
void chainSubstep(ChainState& c, const StepContext& ctx, ChainFrame& f, int sub);
// Outputs, physics weight, boost and the frame's bookkeeping.
void endChainFrame(ChainState& c, const StepContext& ctx, ChainFrame& f);
// Joint rotations again from the joints' positions (after something other than the chain's own
// solve moved them, e.g. links); outputs written when `output`.
void reorientChain(ChainState& c, Quat rootRotation, bool output);
// ChainMode::Vrm's whole frame (begin and end included): a Vrm chain is not substepped.
void simulateVrmChain(ChainState& c, const StepContext& ctx);

}  // namespace wisp
