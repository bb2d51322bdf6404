// One cloth, one frame: the substep loop. Stages as in step_context.h; constraint sets are
// solved colour by colour, each colour in parallel chunks.
#include <algorithm>
#include <cmath>

#include "cloth/cloth_state.h"
#include "constraints/bend_isometric.h"
#include "constraints/distance.h"
#include "constraints/volume.h"
#include "constraints/self_collision.h"
#include "constraints/tether.h"
#include "forces/aerodynamics.h"
#include "forces/integrate.h"
#include "solver/stages.h"
#include "solver/step_context.h"

namespace wisp {

namespace {

void solveEdges(ClothState& c, EdgeSet& set, float alphaTilde, Team& team) {
  for (int col = 0; col < set.colours(); ++col)
    team.forChunks(set.colourStart[col], set.colourStart[col + 1], [&](int b, int e) {
      const int32_t* a = set.a.data();
      const int32_t* bb = set.b.data();
      solveDistances(c, [a](int k) { return a[k]; }, [bb](int k) { return bb[k]; }, [](int k) { return k; },
                     set.rest.data(), set.lambda.data(), b, e, alphaTilde);
    });
}

void solveBends(ClothState& c, float alphaOverH2, Team& team) {
  BendSet& set = c.bends;
  for (int col = 0; col < set.colours(); ++col)
    team.forChunks(set.colourStart[col], set.colourStart[col + 1], [&](int b, int e) {
      for (int k = b; k < e; ++k) solveBend(c, set, k, alphaOverH2);
    });
}

// Largest |length - rest| / rest over the structural edges (order-independent, so exact with
// any thread count), and the mean, summed in a fixed order.
void strain(const ClothState& c, float* maxOut, float* meanOut) {
  float worst = 0;
  double sum = 0;
  const EdgeSet& s = c.stretch;
  for (int e = 0; e < s.size(); ++e) {
    int a = s.a[e], b = s.b[e];
    float dx = c.px[a] - c.px[b], dy = c.py[a] - c.py[b], dz = c.pz[a] - c.pz[b];
    float r = std::fabs(std::sqrt(dx * dx + dy * dy + dz * dz) - s.rest[e]) / s.rest[e];
    worst = std::max(worst, r);
    sum += r;
  }
  *maxOut = worst;
  if (meanOut) *meanOut = s.size() ? static_cast<float>(sum / s.size()) : 0.0f;
}

void clothFrame(ClothState& c, const StepContext& ctx, Team& team) {
  const int n = c.count();
  const ClothParams& p = c.params;
  const float h = ctx.h;
  const float k = 1.0f / (1.0f + h * p.damping);
  const Vec3 gh = ctx.gravity * (p.gravityScale * h);
  const bool aero = p.airDensity > 0.0f && (p.dragCoefficient > 0.0f || p.liftCoefficient != 0.0f);
  const bool tethers = p.tethers && !c.pinnedList.empty();
  const bool collide = ctx.collisions && p.collide && ctx.colliderCount > 0;
  const float h2 = h * h;
  const int total = ctx.fixedSteps * ctx.substeps;
  int iterationsRun = 0;
  bool converged = false;  // written by member 0 before a barrier, read by all after it
  const bool self = p.selfCollision;

  for (int sub = 0; sub < total; ++sub) {
    const float tPrev = static_cast<float>(sub) / static_cast<float>(total);
    const float tNow = static_cast<float>(sub + 1) / static_cast<float>(total);
    const float time = static_cast<float>(ctx.time0 + static_cast<double>(sub + 1) * h);

    // Self-collision candidates, once per fixed step: within the thickness plus twice the
    // distance the fastest particle covers in the step
    if (self && sub % ctx.substeps == 0) {
      team.serial([&] {
        float vmax2 = 0;
        for (int i = 0; i < n; ++i) vmax2 = std::max(vmax2, c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i] + c.vz[i] * c.vz[i]);
        float step = h * static_cast<float>(ctx.substeps);
        findSelfPairs(c, 2.0f * p.radius, 2.0f * p.radius + 2.0f * std::sqrt(vmax2) * step);
      });
    }

    // Stage::Integrate (aerodynamic forces first: they read the velocities before the update)
    if (aero) {
      team.serial([&] { accumulateAerodynamics(c, ctx.wind, time); });
      team.forChunks(n, [&](int b, int e) {
        integrateWithAcceleration(c, b, e, gh, c.ax.data(), c.ay.data(), c.az.data(), k, h);
      });
    } else {
      team.forChunks(n, [&](int b, int e) { integrateUniform(c, b, e, gh, k, h); });
    }
    driveAnchors(c, ctx, tNow, team);

    team.serial([&] {
      std::fill(c.stretch.lambda.begin(), c.stretch.lambda.end(), 0.0f);
      std::fill(c.shear.lambda.begin(), c.shear.lambda.end(), 0.0f);
      std::fill(c.bends.lambda.begin(), c.bends.lambda.end(), 0.0f);
    });
    for (int it = 0; it < ctx.iterations; ++it) {
      solveEdges(c, c.stretch, p.stretchCompliance / h2, team);    // Stage::SolveStretch
      solveEdges(c, c.shear, p.shearCompliance / h2, team);
      if (p.bending) solveBends(c, p.bendCompliance / h2, team);   // Stage::SolveBend
      if (p.pressure > 0.0f && c.closed)                              // Stage::SolveVolume
        team.serial([&] {
          if (it == 0) c.volumeLambda = 0.0f;
          solveVolume(c, p.pressure * c.restVolume, p.volumeCompliance / h2, &c.volumeLambda, c.ax.data(), c.ay.data(), c.az.data());
        });
      ++iterationsRun;
      if (p.residualTolerance > 0.0f && it + 1 < ctx.iterations) {
        team.serial([&] {
          float worst;
          strain(c, &worst, nullptr);
          converged = worst < p.residualTolerance;
        });
        if (converged) break;
      }
    }
    if (tethers) team.forChunks(n, [&](int b, int e) { solveTethers(c, b, e, p.tetherCompliance / h2); });  // Stage::SolveTethers
    if (self) team.serial([&] { solveSelfCollisions(c); });                         // Stage::SelfCollide
    solveLeashes(c, ctx, tNow, team);                                                // Stage::SolveLeashes
    if (collide) collideAll(c, p.radius, p.colliderMask, ctx, tPrev, tNow, team);                    // Stage::Collide
    team.forChunks(n, [&](int b, int e) { updateVelocities(c, b, e, ctx.invH); });  // Stage::UpdateVelocity
  }
  team.serial([&] { c.computeNormals(); });
  team.forChunks(n, [&](int b, int e) { c.writeOutput(b, e); });
  team.serial([&] {
    strain(c, &c.stats.maxStrain, &c.stats.meanStrain);
    c.stats.substeps = total;
    c.stats.iterations = iterationsRun;
  });
}

}  // namespace

void simulateCloth(ClothState& c, const StepContext& ctx, int threads) {
  runTeam(threads, [&](Team& team) { clothFrame(c, ctx, team); });
}

}  // namespace wisp
