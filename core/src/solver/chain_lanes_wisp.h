// The Wisp rule (ChainMode::Wisp, chain_solver.cpp) on SIMD lanes: wide::kWidth chains of the
// same joint count per group, joint j of every chain together, each lane doing exactly the
// scalar rule's operations in the same order (math/wide_vec.h), so a chain's bits do not depend
// on whether, or with whom, it was grouped (solver/chain_lanes.h says which chains are grouped).
#pragma once
#include "chain/chain_state.h"
#include "solver/chain_frame.h"
#include "solver/chain_lane_params.h"
#include "solver/chain_lanes.h"
#include "solver/step_context.h"

namespace wisp {

// Does a Wisp-rule chain's frame fit the kernel? The features it batches are listed here; the
// rest route the chain to the scalar rule (solvesInLanes calls this).
bool wispSolvesInLanes(const ChainState& c);

// The substeps of groups[0..count) of Wisp-rule chains (count 1 or 2; ChainGroup), between
// beginChainFrame and endChainFrame. Two groups of one joint count have their bones walked side
// by side (each group's operations are its own: a chain's bits are the same either way).
void solveWispChainLanes(const ChainGroup* groups, int count, const StepContext& ctx);

}  // namespace wisp
