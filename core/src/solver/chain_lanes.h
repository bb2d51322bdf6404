// Chains solved several at once, one per SIMD lane (wide::kWidth chains per lane group): joint j
// of every chain in the group together, each lane doing exactly the scalar rule's operations in
// the same order (math/wide_vec.h), so a chain's results do not depend on whether, or with whom,
// it was grouped. Groups hold chains of the same joint count; a group of fewer chains than lanes
// starts its spare lanes as copies of its first chain and stores only its own chains (the Wisp
// rule's spare lanes then drift from the first chain: they only ever skip work, never feed a
// stored lane).
#pragma once
#include "chain/chain_state.h"
#include "math/wide.h"
#include "solver/chain_lane_params.h"
#include "solver/step_context.h"

namespace wisp {

// The one place that decides which chains the lane kernels take; every other chain runs the
// scalar solver (chain_solver.cpp). Features the kernels do not batch route chains here.
bool solvesInLanes(const ChainState& c);
// On by default. Tests switch the lane kernels off (between steps, never during one) to compare
// every chain with the scalar solver's bits.
void setChainLanesEnabled(bool on);

// One frame of every chain in chains[0..count) (count <= wide::kWidth, equal joint counts,
// all solvesInLanes, all running this frame's full context ctx): simulateChain's result for each,
// and whether its state went non-finite (ChainState::broken).
// params: the group slot's parameters from earlier frames (reserved for this joint count),
// brought up to date here.
void simulateChainGroup(ChainState* const* chains, int count, const StepContext& ctx, LaneParams& params);
// The VRM rule's fixed steps of such a group, between beginChainFrame (frames[l] for chains[l])
// and endChainFrame, with the frame's end scans taken from the block (ChainFrame::scanned).
struct ChainFrame;
void solveChainLanes(ChainState* const* chains, int count, const StepContext& ctx, ChainFrame* frames, LaneParams& params);

}  // namespace wisp
