// All of a rope's stretch constraints solved at once (Deul, Kugelstadt, Weiler, Bender, "Direct
// position-based solver for stiff rods", 2018, for the distance constraints of a chain):
//   C_j(x) = |x_{j+1} - x_j| - l_j      (m), segment j joins particles j and j+1
// One XPBD Newton step for the whole set: (J W J^T + alphaTilde) dLambda = -C - alphaTilde lambda,
// dx = W J^T dLambda. Each particle is shared by two neighbouring segments only, so the matrix is
// tridiagonal:
//   diagonal     w_j + w_{j+1} + alphaTilde
//   off-diagonal -w_{j+1} (n_j . n_{j+1})          n_j the unit direction of segment j
// and the Thomas algorithm solves it in O(segments). Gauss-Seidel passes carry a correction one
// segment per pass, so a long rope sags and stretches under its own weight or a fast anchor
// (30 segments whipped at 20 m/s stretched 117 % at 8 substeps); the direct solve carries it
// along the whole rope in one step. The matrix is diagonally dominant (|n_j . n_{j+1}| <= 1), so
// the elimination is stable without pivoting. Serial by nature, and the same on any thread count.
//
// One Newton step is exact only for small moves: the directions n_j are those at the start of
// the step. An anchor whipped at 20 m/s moves 4 cm per default substep, most of a 5 cm segment,
// and one step left segments 50 % long (frames after a turn). So the solve takes further Newton
// steps while the worst residual |C_j + alphaTilde lambda_j| / l_j is above kDirectTolerance, up
// to kDirectMaxSteps in all (measured on that whip: 1 step 50 %, 2 steps 9 %, 4 steps 2 %, 8
// steps < 0.1 %). A rope at rest or swinging gently is within the tolerance after the first
// step, and pays one more pass over its segments to find that out.
#pragma once
#include <algorithm>
#include <cmath>

#include "rope/rope_state.h"

namespace wisp {

constexpr float kDirectTolerance = 1e-2f;  // relative residual: 1 % of a segment's length
constexpr int kDirectMaxSteps = 8;

// One Newton step over the chain of particles node(0), node(1), ..., node(m) (segment j joins
// node(j) and node(j + 1), rest length rest[j], multiplier lambda[j]), unless the worst relative
// residual at its start is at most skipBelow (then nothing moves). Returns that residual.
// scratch: 5 floats per segment (direction xyz, and the eliminated super-diagonal and right side).
template <class Node>
inline float solveChainDirect(Particles& r, Node node, int m, const float* rest, float* lambda, float alphaTilde,
                              float* scratch, float skipBelow = -1.0f) {
  if (m == 0) return 0.0f;
  float* nx = scratch;
  float* ny = scratch + m;
  float* nz = scratch + 2 * m;
  float* up = scratch + 3 * m;   // c'_j
  float* rhs = scratch + 4 * m;  // d'_j, then dLambda_j
  const float* invMass = r.invMass.data();
  auto w = [&](int i) { return invMass[node(i)]; };
  float worst = 0.0f;
  for (int j = 0; j < m; ++j) {
    const int a = node(j), b = node(j + 1);
    const float ex = r.px[b] - r.px[a], ey = r.py[b] - r.py[a], ez = r.pz[b] - r.pz[a];
    const float len = std::sqrt(ex * ex + ey * ey + ez * ez);
    const float inv = len > 0.0f ? 1.0f / len : 0.0f;
    nx[j] = ex * inv; ny[j] = ey * inv; nz[j] = ez * inv;
    rhs[j] = len > 0.0f ? -(len - rest[j]) - alphaTilde * lambda[j] : 0.0f;
    // segments between two pinned particles cannot change: their residual is not the solve's
    if (w(j) + w(j + 1) > 0.0f && rest[j] > 0.0f) worst = std::max(worst, std::fabs(rhs[j]) / rest[j]);
  }
  if (worst <= skipBelow) return worst;
  // forward elimination
  float prevUp = 0.0f, prevRhs = 0.0f;
  for (int j = 0; j < m; ++j) {
    const float diag = w(j) + w(j + 1) + alphaTilde;
    const float sub = j > 0 ? -w(j) * (nx[j - 1] * nx[j] + ny[j - 1] * ny[j] + nz[j - 1] * nz[j]) : 0.0f;
    const float super =
        j + 1 < m ? -w(j + 1) * (nx[j] * nx[j + 1] + ny[j] * ny[j + 1] + nz[j] * nz[j + 1]) : 0.0f;
    const float denom = diag - sub * prevUp;
    if (denom > 1e-12f * (diag + 1e-30f)) {
      const float inv = 1.0f / denom;
      up[j] = super * inv;
      rhs[j] = (rhs[j] - sub * prevRhs) * inv;
    } else {  // both ends pinned, no compliance: the segment cannot change
      up[j] = 0.0f;
      rhs[j] = 0.0f;
    }
    prevUp = up[j];
    prevRhs = rhs[j];
  }
  // back substitution: rhs becomes dLambda
  for (int j = m - 2; j >= 0; --j) rhs[j] -= up[j] * rhs[j + 1];
  // dx_j = -w_j n_j dLambda_j + w_j n_{j-1} dLambda_{j-1}
  for (int i = 0; i <= m; ++i) {
    const float wi = w(i);
    if (wi == 0.0f) continue;
    float gx = 0, gy = 0, gz = 0;
    if (i < m) { gx -= nx[i] * rhs[i]; gy -= ny[i] * rhs[i]; gz -= nz[i] * rhs[i]; }
    if (i > 0) { gx += nx[i - 1] * rhs[i - 1]; gy += ny[i - 1] * rhs[i - 1]; gz += nz[i - 1] * rhs[i - 1]; }
    const int k = node(i);
    r.px[k] += wi * gx;
    r.py[k] += wi * gy;
    r.pz[k] += wi * gz;
  }
  for (int j = 0; j < m; ++j) lambda[j] += rhs[j];
  return worst;
}

// True when every two neighbouring pinned particles are no farther apart than the rope between
// them. When they are (pins pulled apart), C = 0 has no solution: Newton steps would put the
// whole excess into one segment, where one step and the Gauss-Seidel passes spread it.
inline bool pinsWithinReach(const RopeState& r) {
  for (size_t k = 0; k + 1 < r.pinnedList.size(); ++k) {
    const int a = r.pinnedList[k], b = r.pinnedList[k + 1];
    float rest = 0.0f;
    for (int j = a; j < b; ++j) rest += r.rest[j];
    const float dx = r.px[b] - r.px[a], dy = r.py[b] - r.py[a], dz = r.pz[b] - r.pz[a];
    if (dx * dx + dy * dy + dz * dz > rest * rest) return false;
  }
  return true;
}

// The Newton steps after the first, whose residual was `last`: more, if more() says they may
// help (asked only when the first step left too much), while the residual keeps falling.
// solver/rope_lanes.cpp takes the same steps for four ropes at once, lane by lane.
template <class Node, class More>
inline void continueChainConverged(Particles& r, Node node, int m, const float* rest, float* lambda,
                                   float alphaTilde, float* scratch, More more, float last) {
  if (last <= kDirectTolerance || !more()) return;
  for (int step = 1; step < kDirectMaxSteps; ++step) {
    const float now = solveChainDirect(r, node, m, rest, lambda, alphaTilde, scratch, kDirectTolerance);
    if (now <= kDirectTolerance || now >= last) break;
    last = now;
  }
}

// Newton steps until converged (see above): the first always, then continueChainConverged.
template <class Node, class More>
inline void solveChainConverged(Particles& r, Node node, int m, const float* rest, float* lambda, float alphaTilde,
                                float* scratch, More more) {
  continueChainConverged(r, node, m, rest, lambda, alphaTilde, scratch, more,
                         solveChainDirect(r, node, m, rest, lambda, alphaTilde, scratch));
}

// A rope's Newton steps after a first one with residual `first`: more only while it can reach
// its pins.
inline void continueStretchDirect(RopeState& r, float alphaTilde, float* scratch, float first) {
  continueChainConverged(r, [](int i) { return i; }, r.segments(), r.rest.data(), r.lambda.data(), alphaTilde,
                         scratch, [&r] { return pinsWithinReach(r); }, first);
}
// A rope's Newton steps until converged: the first, then continueStretchDirect.
inline void solveStretchDirectConverged(RopeState& r, float alphaTilde, float* scratch) {
  continueStretchDirect(r, alphaTilde, scratch,
                        solveChainDirect(r, [](int i) { return i; }, r.segments(), r.rest.data(), r.lambda.data(),
                                         alphaTilde, scratch));
}

}  // namespace wisp
