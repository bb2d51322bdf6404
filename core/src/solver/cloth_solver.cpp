// One cloth, one frame: the substep loop, its stages named in comments (step_context.h says why
// there is no stage table); constraint sets are solved colour by colour, each colour in parallel
// chunks.
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
#include "math/wide.h"
#include "solver/stages.h"
#include "solver/step_context.h"

namespace wisp {

namespace {

// One colour after another; in the first iteration of a substep the multipliers start at 0
// (solveEdgeList writes them without reading them: no separate stage or pass to clear them).
void solveEdges(ClothState& c, EdgeSet& set, float alphaTilde, bool resetLambda, Team& team) {
  for (int col = 0; col < set.colours(); ++col)
    team.forChunks(set.colourStart[col], set.colourStart[col + 1], [&](int b, int e) {
      solveEdgeList(c, set.a.data(), set.b.data(), set.runs.data(), set.rest.data(), set.lambda.data(), b, e, alphaTilde,
                    resetLambda);
    });
}

void solveBends(ClothState& c, float alphaOverH2, bool resetLambda, Team& team) {
  BendSet& set = c.bends;
  for (int col = 0; col < set.colours(); ++col)
    team.forChunks(set.colourStart[col], set.colourStart[col + 1], [&](int b, int e) {
      if (resetLambda) std::fill(set.lambda.begin() + b, set.lambda.begin() + e, 0.0f);
      for (int k = b; k < e; ++k) solveBend(c, set, k, alphaOverH2);
    });
}

#if WISP_SIMD
// |length - rest| / rest of four structural edges, lane by lane the operations of the scalar
// tail of strainOf.
wide::F4 strainLanes(wide::F4 dx, wide::F4 dy, wide::F4 dz, wide::F4 rest) {
  using namespace wide;
  return abs(sqrt(dx * dx + dy * dy + dz * dz) - rest) / rest;
}
#endif

// Largest and summed |length - rest| / rest over structural edges [begin, end). The strains are
// computed four at a time (whole loads along the edge runs, as solveEdgeList) and summed one by
// one in edge order: the same bits as edge after edge.
void strainOf(const ClothState& c, int begin, int end, float* worstOut, double* sumOut) {
  float worst = 0;
  double sum = 0;
  const EdgeSet& s = c.stretch;
  int e = begin;
#if WISP_SIMD
  using namespace wide;
  const float *px = c.px.data(), *py = c.py.data(), *pz = c.pz.data();
  const int32_t *ea = s.a.data(), *eb = s.b.data(), *runs = s.runs.data();
  const float* rest = s.rest.data();
  for (; e + kWidth <= end; e += kWidth) {
    const int32_t a = ea[e], b = eb[e];
    F4 dx, dy, dz;
    if (runs[e] > 0) {
      dx = load(px + a) - load(px + b); dy = load(py + a) - load(py + b); dz = load(pz + a) - load(pz + b);
    } else if (runs[e] < 0) {
      const F4 xl = load(px + a), xh = load(px + a + 4), yl = load(py + a), yh = load(py + a + 4);
      const F4 zl = load(pz + a), zh = load(pz + a + 4);
      dx = evens(xl, xh) - odds(xl, xh); dy = evens(yl, yh) - odds(yl, yh); dz = evens(zl, zh) - odds(zl, zh);
    } else {
      auto at = [&](const float* v, const int32_t* i) { return make(v[i[e]], v[i[e + 1]], v[i[e + 2]], v[i[e + 3]]); };
      dx = at(px, ea) - at(px, eb); dy = at(py, ea) - at(py, eb); dz = at(pz, ea) - at(pz, eb);
    }
    alignas(16) float r[kWidth];
    store(r, strainLanes(dx, dy, dz, load(rest + e)));
    for (int j = 0; j < kWidth; ++j) {
      worst = std::max(worst, r[j]);
      sum += r[j];
    }
  }
#endif
  for (; e < end; ++e) {
    int a = s.a[e], b = s.b[e];
    float dx = c.px[a] - c.px[b], dy = c.py[a] - c.py[b], dz = c.pz[a] - c.pz[b];
    float r = std::fabs(std::sqrt(dx * dx + dy * dy + dz * dz) - s.rest[e]) / s.rest[e];
    worst = std::max(worst, r);
    sum += r;
  }
  *worstOut = worst;
  *sumOut = sum;
}

// Stats: the strain of the structural edges, over fixed blocks of kStrainBlock edges in
// parallel, then the blocks in order, so the mean has the same bits with any thread count.
void strainStage(ClothState& c, float* maxOut, float* meanOut, Team& team) {
  const int m = c.stretch.size();
  const int blocks = (m + ClothState::kStrainBlock - 1) / ClothState::kStrainBlock;
  team.forParts(0, blocks, 1, [&](int b, int e) {
    for (int k = b; k < e; ++k)
      strainOf(c, k * ClothState::kStrainBlock, std::min(m, (k + 1) * ClothState::kStrainBlock), &c.strainWorst[k],
               &c.strainSum[k]);
  });
  team.sync();
  team.serial([&] {
    float worst = 0;
    double sum = 0;
    for (int k = 0; k < blocks; ++k) {
      worst = std::max(worst, c.strainWorst[k]);
      sum += c.strainSum[k];
    }
    *maxOut = worst;
    if (meanOut) *meanOut = m ? static_cast<float>(sum / m) : 0.0f;
  });
}

// Area-weighted vertex normals in two stages: each triangle's (twice-area) normal, then each
// vertex sums its triangles in triangle order and normalises.
void normalsStage(ClothState& c, Team& team) {
  team.forChunks(c.triangleCount(), [&](int b, int e) { c.triangleNormals(b, e); });
  team.forChunks(c.count(), [&](int b, int e) { c.vertexNormals(b, e); });
}

// Fast pins: how many times the world's substeps this cloth runs this frame. An anchor moves
// along a straight path over the frame, so its particle moves |to - from| * tSpan / total per
// substep; when that is more than kPinTravel of the mean edge, the substeps double until it is
// not, or until ClothParams::maxSubsteps. Depends only on the anchors' paths and the cloth's
// rest lengths: the same on every thread count and build.
constexpr float kPinTravel = 0.1f;
int fastPinFactor(const ClothState& c, const StepContext& ctx) {
  const int base = ctx.substeps;
  if (c.params.maxSubsteps < 2 * base || !(c.meanEdge > 0.0f)) return 1;
  // exact pins only: a leash or a spring pin gives, and the playground's grab (a spring pin
  // whose compliance is set from the default substep) would change its feel with the substeps
  float travel2 = 0;
  for (int32_t i : c.pinnedList) {
    const AnchorPath& a = ctx.anchors[c.anchor[i]];
    const Vec3 d = a.to - a.from;
    travel2 = std::max(travel2, d.x * d.x + d.y * d.y + d.z * d.z);
  }
  if (travel2 == 0.0f) return 1;
  const float perSubstep = std::sqrt(travel2) * ctx.tSpan / static_cast<float>(ctx.fixedSteps * base);
  const float limit = kPinTravel * c.meanEdge;
  int m = 1;
  while (perSubstep > limit * static_cast<float>(m) && 2 * m * base <= c.params.maxSubsteps) m *= 2;
  return m;
}

void clothFrame(ClothState& c, const StepContext& frame, Team& team) {
  // every member computes the same factor from the same data: no barrier needed
  const int fast = fastPinFactor(c, frame);
  const StepContext ctx = frame.finer(fast);
  const int n = c.count();
  const ClothParams& p = c.params;
  const float h = ctx.h;
  const float k = 1.0f / (1.0f + h * p.damping);
  const Vec3 gh = ctx.gravity * (p.gravityScale * h);
  const bool aero = p.airDensity > 0.0f && (p.dragCoefficient > 0.0f || p.liftCoefficient != 0.0f);
  const bool tethers = p.tethers && !c.pinnedList.empty();
  const bool collide = ctx.collides(p.collide);
  const float h2 = ctx.h2;
  const int total = ctx.totalSubsteps;
  int iterationsRun = 0;
  bool converged = false;  // written by member 0 before a barrier, read by all after it
  const bool self = p.selfCollision;
  // The velocity update of a substep only reads and writes each particle's own data, so unless
  // a stage between it and the next integration reads other particles' velocities
  // (aerodynamics, self-collision candidates), it runs in the next substep's integration stage:
  // one barrier fewer per substep.
  const bool deferVelocity = !aero && !self;
  const bool airVaries = aero && ctx.airVaries;
  if (airVaries) team.serial([&] { c.sizeAirSamples(); });

  for (int sub = 0; sub < total; ++sub) {
    const float tPrev = ctx.frameT(sub, total);
    const float tNow = ctx.frameT(sub + 1, total);

    // Self-collision candidates, once per fixed step: within the thickness plus twice the
    // distance the fastest particle covers in the step
    if (self && ctx.startsStep(sub)) {
      team.serial([&] {
        float vmax2 = 0;
        for (int i = 0; i < n; ++i) vmax2 = std::max(vmax2, c.vx[i] * c.vx[i] + c.vy[i] * c.vy[i] + c.vz[i] * c.vz[i]);
        findSelfPairs(c, 2.0f * p.radius, 2.0f * p.radius + 2.0f * std::sqrt(vmax2) * ctx.stepDt);
      });
    }

    // Integrate, with the previous substep's velocity update and DriveAnchors
    // fused in (aerodynamic forces first: they read the velocities before the update)
    if (airVaries && ctx.startsStep(sub))
      team.forChunks(n, [&](int b, int e) { sampleAir(c, b, e, ctx.wind, ctx.airTime(sub)); });
    if (aero) team.serial([&] { accumulateAerodynamics(c, ctx.wind.global.mean, airVaries); });
    // Only Collide reads the substep-start positions o within a substep; the state keeps the
    // last substep's
    const bool keepStart = collide || sub + 1 == total;
    const bool update = deferVelocity && sub > 0;
    team.forChunks(n, [&](int b, int e) {
      if (aero)
        integrateWithPerParticle(c, b, e, gh, c.ax.data(), c.ay.data(), c.az.data(), h, k, h);
      else if (update)
        keepStart ? integrateUniformAfter<true, true>(c, b, e, ctx.invH, gh, k, h)
                  : integrateUniformAfter<true, false>(c, b, e, ctx.invH, gh, k, h);
      else
        keepStart ? integrateUniformAfter<false, true>(c, b, e, ctx.invH, gh, k, h)
                  : integrateUniformAfter<false, false>(c, b, e, ctx.invH, gh, k, h);
      driveAnchorsIn(c, ctx, tNow, b, e);
    });

    for (int it = 0; it < ctx.iterations; ++it) {
      const bool first = it == 0;
      solveEdges(c, c.stretch, p.stretchCompliance / h2, first, team);  // SolveStretch
      solveEdges(c, c.shear, p.shearCompliance / h2, first, team);
      if (p.bending) solveBends(c, p.bendCompliance / h2, first, team);   // SolveBend
      if (p.pressure > 0.0f && c.closed)                                 // SolveVolume
        team.serial([&] {
          if (first) c.volumeLambda = 0.0f;
          solveVolume(c, p.pressure * c.restVolume, p.volumeCompliance / h2, &c.volumeLambda, c.ax.data(), c.ay.data(), c.az.data());
        });
      ++iterationsRun;
      if (p.residualTolerance > 0.0f && it + 1 < ctx.iterations) {
        float worst = 0;
        strainStage(c, &worst, nullptr, team);
        team.serial([&] { converged = worst < p.residualTolerance; });
        if (converged) break;
      }
    }
    if (tethers) team.forChunks(n, [&](int b, int e) { solveTethers(c, b, e, p.tetherCompliance / h2); });  // SolveTethers
    if (self) team.serial([&] { solveSelfCollisions(c); });                         // SelfCollide
    solveLeashes(c, ctx, tNow, team);                                                // SolveLeashes
    if (collide) collideAll(c, p.radius, p.colliderMask, ctx, tPrev, tNow, team);     // Collide
    if (!deferVelocity) team.forChunks(n, [&](int b, int e) { updateVelocities(c, b, e, ctx.invH); });  // UpdateVelocity
  }
  team.forChunks(n, [&](int b, int e) {
    if (deferVelocity && total > 0) updateVelocities(c, b, e, ctx.invH);
    c.writeOutput(b, e);
  });
  normalsStage(c, team);
  strainStage(c, &c.stats.maxStrain, &c.stats.meanStrain, team);
  team.serial([&] {
    c.stats.substeps = total;
    c.stats.iterations = iterationsRun;
  });
}

}  // namespace

void simulateCloth(ClothState& c, const StepContext& ctx, int threads) {
  runTeam(threads, [&](Team& team) { clothFrame(c, ctx, team); });
}

}  // namespace wisp
