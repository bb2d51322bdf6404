// One rope's frame cut into its stages (rope_solver.cpp), so that the scalar solver
// (simulateRope) and the lane groups (rope_lanes.cpp) run the same code around the direct
// stretch solve: per substep startSubstep; per iteration the direct solve, then afterDirect;
// then endSubstep.
#pragma once
#include "math/vec3.h"
#include "rope/rope_state.h"
#include "solver/step_context.h"

namespace wisp {

class Team;

struct RopeFrame {
  RopeFrame(RopeState& rope, const StepContext& c);
  void begin(Team& team);
  // Integrate, DriveAnchors, SolveTethers, and the multipliers cleared
  void startSubstep(int sub, Team& team);
  // the Gauss-Seidel stretch passes and SolveBend, after the direct stretch solve
  void afterDirect(Team& team);
  // SolveLeashes, Collide, Plasticity, UpdateVelocity
  void endSubstep(int sub, Team& team);
  void end(Team& team);

  RopeState& r;
  const StepContext& ctx;
  const int n;
  const float h, k;
  const Vec3 gh;
  const float dragH;
  const Vec3 uniformA;
  const bool turbulent;
  const float stretchAlpha, bendAlpha;
  const bool bend, collide, plastic;
  const float invYield, plasticRate;
  const bool tethers;
};

}  // namespace wisp
