// One rope, one frame: the substep loop, its stages named in comments (step_context.h says why
// there is no stage table). The frame is cut at the direct stretch solve (solver/rope_frame.h)
// so that a lane group (solver/rope_lanes.cpp) can run that solve for several ropes at once.
#include "solver/rope_frame.h"

#include <algorithm>

#include "colliders/contact.h"
#include "constraints/distance.h"
#include "constraints/plastic.h"
#include "constraints/rope_direct.h"
#include "constraints/tether.h"
#include "forces/integrate.h"
#include "jobs/job_pool.h"
#include "solver/stages.h"

namespace wisp {

RopeFrame::RopeFrame(RopeState& rope, const StepContext& c)
    : r(rope), ctx(c), n(rope.count()), h(c.h), k(1.0f / (1.0f + c.h * (rope.params.damping + rope.params.drag))),
      gh(c.gravity * (rope.params.gravityScale * c.h)), dragH(rope.params.drag * c.h),
      uniformA(gh + c.wind.global.mean * dragH), turbulent(c.airVaries && rope.params.drag > 0.0f),
      stretchAlpha(rope.params.stretchCompliance / c.h2), bendAlpha(rope.params.bendCompliance / c.h2),
      bend(rope.params.bending && rope.bends() > 0), collide(c.collides(rope.params.collide)),
      plastic(rope.params.yieldRatio > 1.0f), invYield(plastic ? 1.0f / rope.params.yieldRatio : 0.0f),
      plasticRate(std::min(1.0f, rope.params.plasticity * c.h)), tethers(rope.params.tethers && !rope.pinnedList.empty()) {}

void RopeFrame::begin(Team& team) {
  if (tethers && !plastic) team.serial([&] { computeRopeTetherLimits(r); });  // rest lengths only change under plasticity
  if (turbulent) team.serial([&] { r.sizeAirSamples(); });
  team.serial([&] { r.sizeDirectScratch(); });
}

void RopeFrame::integrate(int sub, Team& team) {
  const bool sampleAirNow = turbulent && ctx.startsStep(sub);
  // Integrate (where the air varies, sampled first at the start of each fixed step)
  team.forChunks(n, [&](int b, int e) {
    if (sampleAirNow) sampleAir(r, b, e, ctx.wind, ctx.airTime(sub));
    if (turbulent) integrateWithPerParticle(r, b, e, gh, r.airx.data(), r.airy.data(), r.airz.data(), dragH, k, h);
    else integrateUniform(r, b, e, uniformA, k, h);
  });
}

void RopeFrame::startSubstep(int sub, Team& team) {
  const float tNow = ctx.frameT(sub + 1, ctx.totalSubsteps);
  integrate(sub, team);

  driveAnchors(r, ctx, tNow, team);  // DriveAnchors (serial: pins are few)

  // SolveTethers: first, so the stretch solve starts from a rope that is not overlong
  // and ends with every segment at its length
  if (tethers) {
    if (plastic) team.serial([&] { computeRopeTetherLimits(r); });
    team.forChunks(n, [&](int b, int e) { solveTethers(r, b, e); });
  }

  // XPBD multipliers accumulate over the iterations of one substep only.
  team.forChunks(static_cast<int>(r.lambda.size()), [&](int b, int e) { std::fill(r.lambda.begin() + b, r.lambda.begin() + e, 0.0f); });
}

void RopeFrame::afterDirect(Team& team) {
  // the red-black Gauss-Seidel passes, which take out what the direct solve left
  for (int colour = 0; colour < 2; ++colour)
    team.forChunks(stretchPassSize(r, colour), [&](int b, int e) { solveStretchPass(r, colour, b, e, stretchAlpha); });
  // SolveBend
  if (bend)
    for (int colour = 0; colour < 2; ++colour)
      team.forChunks(bendPassSize(r, colour), [&](int b, int e) { solveBendPass(r, colour, b, e, bendAlpha); });
}

void RopeFrame::endSubstep(int sub, Team& team) {
  beforeVelocity(sub, team);
  // UpdateVelocity
  team.forChunks(n, [&](int b, int e) { updateVelocities(r, b, e, ctx.invH); });
}

void RopeFrame::beforeVelocity(int sub, Team& team) {
  const int total = ctx.totalSubsteps;
  const float tPrev = ctx.frameT(sub, total);
  const float tNow = ctx.frameT(sub + 1, total);

  solveLeashes(r, ctx, tNow, team);  // SolveLeashes

  // Collide: after the constraints, so no particle ends a substep inside a collider.
  if (collide) collideAll(r, r.params.radius, r.params.colliderMask, ctx, tPrev, tNow, team);

  // Plasticity
  if (plastic) team.forChunks(r.segments(), [&](int b, int e) { applyPlasticity(r, b, e, invYield, plasticRate); });
}

void RopeFrame::end(Team& team) {
  team.forChunks(n, [&](int b, int e) { r.writeOutput(b, e); });
}

namespace {

void ropeFrame(RopeState& r, const StepContext& ctx, Team& team) {
  RopeFrame f(r, ctx);
  f.begin(team);
  for (int sub = 0; sub < ctx.totalSubsteps; ++sub) {
    f.startSubstep(sub, team);
    for (int it = 0; it < ctx.iterations; ++it) {
      // SolveStretch: every segment at once (constraints/rope_direct.h, Newton steps
      // until within 1 %), then the Gauss-Seidel passes; then SolveBend
      team.serial([&] { solveStretchDirectConverged(r, f.stretchAlpha, r.directScratch.data()); });
      f.afterDirect(team);
    }
    f.endSubstep(sub, team);
  }
  f.end(team);
}

}  // namespace

void simulateRope(RopeState& r, const StepContext& ctx, int threads) {
  runTeam(threads, [&](Team& team) { ropeFrame(r, ctx, team); });
}

}  // namespace wisp
