// Ropes solved several at once, one per SIMD lane (wide::kWidth ropes per lane group): the first
// Newton step of the direct stretch solve (constraints/rope_direct.h), the bulk of a small
// rope's frame, runs node-major over the group (node i of every rope together), each lane doing
// exactly the scalar step's operations in the same order (math/wide_vec.h), so a rope's results
// do not depend on whether, or with whom, it was grouped. Everything else (pins, tethers,
// bending, plasticity, collisions, further Newton steps) is the scalar solver's code, run rope
// by rope between the lane steps (solver/rope_frame.h), so every rope feature is kept.
#pragma once
#include "math/wide.h"
#include "rope/rope_state.h"
#include "solver/step_context.h"

namespace wisp {

// Ropes longer than this run alone: the lane step keeps its node-major copies on the stack.
constexpr int kRopeLaneMaxSegments = 128;

// The one place that decides which ropes the lane groups take; every other rope runs the scalar
// solver (rope_solver.cpp) on its own.
bool solvesInLanes(const RopeState& r);
// On by default natively, off in WebAssembly (rope_lanes.cpp says why). Tests switch the lane
// groups on and off (between steps, never during one) to compare every rope with the scalar
// solver's bits.
void setRopeLanesEnabled(bool on);
bool ropeLanesEnabled();

// One frame of every rope in ropes[0..count) (count <= wide::kWidth, equal segment counts, all
// solvesInLanes, all running this frame's full context ctx), on one thread: simulateRope's
// result for each.
void simulateRopeGroup(RopeState* const* ropes, int count, const StepContext& ctx);

}  // namespace wisp
