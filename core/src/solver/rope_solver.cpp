// One rope, one frame: the substep loop, its stages named in comments (step_context.h says why
// there is no stage table).
#include <algorithm>

#include "colliders/contact.h"
#include "constraints/distance.h"
#include "constraints/plastic.h"
#include "constraints/rope_direct.h"
#include "constraints/tether.h"
#include "forces/integrate.h"
#include "jobs/job_pool.h"
#include "rope/rope_state.h"
#include "solver/stages.h"
#include "solver/step_context.h"

namespace wisp {

namespace {

void ropeFrame(RopeState& r, const StepContext& ctx, Team& team) {
  const int n = r.count();
  const RopeParams& p = r.params;
  const float h = ctx.h;
  const float k = 1.0f / (1.0f + h * (p.damping + p.drag));
  const Vec3 gh = ctx.gravity * (p.gravityScale * h);
  const float dragH = p.drag * h;
  const Vec3 uniformA = gh + ctx.wind.global.mean * dragH;
  const bool turbulent = ctx.airVaries && p.drag > 0.0f;
  const float stretchAlpha = p.stretchCompliance / ctx.h2;
  const float bendAlpha = p.bendCompliance / ctx.h2;
  const bool bend = p.bending && r.bends() > 0;
  const bool collide = ctx.collides(p.collide);
  const bool plastic = p.yieldRatio > 1.0f;
  const float invYield = plastic ? 1.0f / p.yieldRatio : 0.0f;
  const float plasticRate = std::min(1.0f, p.plasticity * h);
  const int total = ctx.totalSubsteps;
  const bool anyPinned = !r.pinnedList.empty();
  const bool tethers = p.tethers && anyPinned;
  if (tethers && !plastic) team.serial([&] { computeRopeTetherLimits(r); });  // rest lengths only change under plasticity
  if (turbulent) team.serial([&] { r.sizeAirSamples(); });
  team.serial([&] { r.sizeDirectScratch(); });

  for (int sub = 0; sub < total; ++sub) {
    const float tPrev = ctx.frameT(sub, total);
    const float tNow = ctx.frameT(sub + 1, total);
    const bool sampleAirNow = turbulent && ctx.startsStep(sub);

    // Integrate (where the air varies, sampled first at the start of each fixed step)
    team.forChunks(n, [&](int b, int e) {
      if (sampleAirNow) sampleAir(r, b, e, ctx.wind, ctx.airTime(sub));
      if (turbulent) integrateWithPerParticle(r, b, e, gh, r.airx.data(), r.airy.data(), r.airz.data(), dragH, k, h);
      else integrateUniform(r, b, e, uniformA, k, h);
    });

    driveAnchors(r, ctx, tNow, team);  // DriveAnchors (serial: pins are few)

    // SolveTethers: first, so the stretch solve starts from a rope that is not overlong
    // and ends with every segment at its length
    if (tethers) {
      if (plastic) team.serial([&] { computeRopeTetherLimits(r); });
      team.forChunks(n, [&](int b, int e) { solveTethers(r, b, e); });
    }

    // XPBD multipliers accumulate over the iterations of one substep only.
    team.forChunks(static_cast<int>(r.lambda.size()), [&](int b, int e) { std::fill(r.lambda.begin() + b, r.lambda.begin() + e, 0.0f); });
    for (int it = 0; it < ctx.iterations; ++it) {
      // SolveStretch: every segment at once (constraints/rope_direct.h, Newton steps
      // until within 1 %), then the red-black Gauss-Seidel passes, which take out what is left
      team.serial([&] { solveStretchDirectConverged(r, stretchAlpha, r.directScratch.data()); });
      for (int colour = 0; colour < 2; ++colour)
        team.forChunks(stretchPassSize(r, colour), [&](int b, int e) { solveStretchPass(r, colour, b, e, stretchAlpha); });
      // SolveBend
      if (bend)
        for (int colour = 0; colour < 2; ++colour)
          team.forChunks(bendPassSize(r, colour), [&](int b, int e) { solveBendPass(r, colour, b, e, bendAlpha); });
    }

    solveLeashes(r, ctx, tNow, team);  // SolveLeashes

    // Collide: after the constraints, so no particle ends a substep inside a collider.
    if (collide) collideAll(r, p.radius, p.colliderMask, ctx, tPrev, tNow, team);

    // Plasticity
    if (plastic)
      team.forChunks(r.segments(), [&](int b, int e) { applyPlasticity(r, b, e, invYield, plasticRate); });

    // UpdateVelocity
    team.forChunks(n, [&](int b, int e) { updateVelocities(r, b, e, ctx.invH); });
  }
  team.forChunks(n, [&](int b, int e) { r.writeOutput(b, e); });
}

}  // namespace

void simulateRope(RopeState& r, const StepContext& ctx, int threads) {
  runTeam(threads, [&](Team& team) { ropeFrame(r, ctx, team); });
}

}  // namespace wisp
