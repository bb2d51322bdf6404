// Ropes solved several at once, one per SIMD lane (wide::kWidth ropes per lane group). A group's
// state lives in one node-major lane block for the whole frame (node i of every rope together),
// and the common stages of every substep run there: integration, pins, tethers, the direct
// stretch solve (every Newton step, each lane converging on its own), the Gauss-Seidel stretch
// passes, bending and the velocity update. Each lane does exactly the scalar stage's operations
// in the same order (math/wide_vec.h), so a rope's results do not depend on whether, or with
// whom, it was grouped. The rare stages (air that varies, plastic tether limits, leashes,
// collisions, plasticity) run the scalar solver's code on the rope itself, lane by lane
// (solver/rope_frame.h), so every rope feature is kept.
#pragma once
#include "math/wide.h"
#include "rope/rope_state.h"
#include "solver/step_context.h"

namespace wisp {

// Ropes longer than this run alone: the lane block lives on the stack (about 25 KB at 64
// segments; WebAssembly's stack is 64 KB).
constexpr int kRopeLaneMaxSegments = 64;

// The one place that decides which ropes the lane groups take; every other rope runs the scalar
// solver (rope_solver.cpp) on its own.
bool solvesInLanes(const RopeState& r);
// On by default (rope_lanes.cpp). Tests switch the lane groups on and off (between steps, never
// during one) to compare every rope with the scalar solver's bits.
void setRopeLanesEnabled(bool on);
bool ropeLanesEnabled();

// One frame of every rope in ropes[0..count) (count <= wide::kWidth, equal segment counts, all
// solvesInLanes, all running this frame's full context ctx), on one thread: simulateRope's
// result for each, finished as the world finishes a rope's frame (broken, the speed cap and
// clampedSpeed, activity.speed for sleep: world/world_kinds.cpp's finishFrame).
void simulateRopeGroup(RopeState* const* ropes, int count, const StepContext& ctx);

}  // namespace wisp
