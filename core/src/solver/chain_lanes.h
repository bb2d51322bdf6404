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

// A lane group: chains[0..count) (count <= wide::kWidth, equal joint counts, all solvesInLanes,
// all running this frame's full context), with its group slot's parameters from earlier frames
// (reserved for this joint count, brought up to date by the solver), and, between
// beginChainFrame and endChainFrame, its chains' frames.
struct ChainFrame;
struct ChainGroup {
  ChainState* const* chains;
  int count;
  LaneParams* params;
  ChainFrame* frames = nullptr;
};
// One frame of every chain of groups[0..count) (count 1 or 2: two groups of Wisp-rule chains of
// one joint count are solved side by side, solver/chain_lanes_wisp.h): simulateChain's result for
// each, and whether its state went non-finite (ChainState::broken).
void simulateChainGroups(ChainGroup* groups, int count, const StepContext& ctx);
// The VRM rule's fixed steps of such a group, between beginChainFrame (frames[l] for chains[l])
// and endChainFrame, with the frame's end scans taken from the block (ChainFrame::scanned).
void solveChainLanes(ChainState* const* chains, int count, const StepContext& ctx, ChainFrame* frames, LaneParams& params);

}  // namespace wisp
