// One rope's frame cut into its stages (rope_solver.cpp): per substep startSubstep; per
// iteration the direct solve, then afterDirect; then endSubstep. The lane groups
// (rope_lanes.cpp) run the common stages in lanes and call the pieces here for a rope's rare
// ones (air that varies, plastic tether limits, leashes, collisions, plasticity).
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
  // Integrate alone (the lane groups run the rest of startSubstep in lanes)
  void integrate(int sub, Team& team);
  // the Gauss-Seidel stretch passes and SolveBend, after the direct stretch solve
  void afterDirect(Team& team);
  // SolveLeashes, Collide, Plasticity, UpdateVelocity
  void endSubstep(int sub, Team& team);
  // endSubstep without UpdateVelocity: the stages a lane group runs rope by rope
  void beforeVelocity(int sub, Team& team);
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
