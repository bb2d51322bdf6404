// The lane group of ropes (solver/rope_lanes.h). solveFirstStepLanes mirrors solveChainDirect
// (constraints/rope_direct.h) statement by statement; what differs is only where values live
// (node-major copies on the stack) and that branches are per-lane selects of both sides. Keep
// the two in step: tests/native/test_rope_lanes.cpp compares every state bit of ropes solved
// here with the same ropes solved alone.
#include "solver/rope_lanes.h"

#include <atomic>

#include "constraints/rope_direct.h"
#include "math/wide_vec.h"
#include "solver/rope_frame.h"
#include "solver/stages.h"

namespace wisp {

namespace {
// On natively, off in WebAssembly by default. Both give the same bits; only speed differs. The
// kernel made 1000 ropes x 32 faster natively (8.2 -> 5.0 ms per step, one thread) but slower as
// WebAssembly (6.9 -> 10.4 ms, Node 20, back to back on the same build), so there the ropes keep
// the scalar path until the kernel is fast there too (docs/benchmarks.md, "Ropes in lanes").
#ifdef __EMSCRIPTEN__
constexpr bool kLanesByDefault = false;
#else
constexpr bool kLanesByDefault = true;
#endif
std::atomic<bool> gLanesEnabled{kLanesByDefault};
}  // namespace

void setRopeLanesEnabled(bool on) { gLanesEnabled.store(on, std::memory_order_relaxed); }
bool ropeLanesEnabled() { return gLanesEnabled.load(std::memory_order_relaxed); }

bool solvesInLanes(const RopeState& r) {
  // the world's own frame (no origin of its own, every fixed step) so that one context serves
  // the whole group, and short enough for the stack copies
  return gLanesEnabled.load(std::memory_order_relaxed) && r.origin.zero() && r.params.updateEvery <= 1 &&
         r.segments() >= 1 && r.segments() <= kRopeLaneMaxSegments;
}

namespace {

using wide::F4;
using wide::V3;
constexpr int kLanes = wide::kWidth;

// solveChainDirect(r, identity, m, r.rest, r.lambda, alphaTilde, scratch) for each rope in
// lanes; spare lanes repeat lane 0 and are not stored. worst[l]: lane l's residual.
void solveFirstStepLanes(RopeState* const* rope, int count, int m, const float* alpha, float* worst) {
  const RopeState* c[kLanes];
  for (int l = 0; l < kLanes; ++l) c[l] = rope[l < count ? l : 0];
  auto gather = [&](const std::vector<float> Particles::*f, int i) {
    return wide::make((c[0]->*f)[i], (c[1]->*f)[i], (c[2]->*f)[i], (c[3]->*f)[i]);
  };
  auto gatherRope = [&](const std::vector<float> RopeState::*f, int i) {
    return wide::make((c[0]->*f)[i], (c[1]->*f)[i], (c[2]->*f)[i], (c[3]->*f)[i]);
  };
  F4 w[kRopeLaneMaxSegments + 1];
  V3 x[kRopeLaneMaxSegments + 1];
  V3 dir[kRopeLaneMaxSegments];
  F4 up[kRopeLaneMaxSegments], rhs[kRopeLaneMaxSegments];
  for (int i = 0; i <= m; ++i) {
    w[i] = gather(&Particles::invMass, i);
    x[i] = {gather(&Particles::px, i), gather(&Particles::py, i), gather(&Particles::pz, i)};
  }
  const F4 zero = wide::splat(0.0f), one = wide::splat(1.0f);
  const F4 at = wide::make(alpha[0], alpha[count > 1 ? 1 : 0], alpha[count > 2 ? 2 : 0], alpha[count > 3 ? 3 : 0]);
  F4 worstL = zero;
  for (int j = 0; j < m; ++j) {
    const V3 e = x[j + 1] - x[j];
    const F4 len = wide::sqrt(e.x * e.x + e.y * e.y + e.z * e.z);
    const F4 positive = wide::lessThan(zero, len);
    const F4 inv = wide::select(positive, one / len, zero);
    dir[j] = e * inv;
    const F4 rest = gatherRope(&RopeState::rest, j);
    const F4 lambda = gatherRope(&RopeState::lambda, j);
    rhs[j] = wide::select(positive, wide::neg(len - rest) - at * lambda, zero);
    // std::max(worst, |rhs| / rest) where the segment can move
    const F4 movable = wide::maskAnd(wide::lessThan(zero, w[j] + w[j + 1]), wide::lessThan(zero, rest));
    const F4 cand = wide::abs(rhs[j]) / rest;
    worstL = wide::select(wide::maskAnd(movable, wide::lessThan(worstL, cand)), cand, worstL);
  }
  // forward elimination
  F4 prevUp = zero, prevRhs = zero;
  const F4 tiny = wide::splat(1e-12f), tinier = wide::splat(1e-30f);
  for (int j = 0; j < m; ++j) {
    const F4 diag = w[j] + w[j + 1] + at;
    const F4 sub = j > 0 ? wide::neg(w[j]) * wide::dot(dir[j - 1], dir[j]) : zero;
    const F4 super = j + 1 < m ? wide::neg(w[j + 1]) * wide::dot(dir[j], dir[j + 1]) : zero;
    const F4 denom = diag - sub * prevUp;
    const F4 ok = wide::lessThan(tiny * (diag + tinier), denom);
    const F4 inv = one / denom;
    up[j] = wide::select(ok, super * inv, zero);
    rhs[j] = wide::select(ok, (rhs[j] - sub * prevRhs) * inv, zero);
    prevUp = up[j];
    prevRhs = rhs[j];
  }
  // back substitution: rhs becomes dLambda
  for (int j = m - 2; j >= 0; --j) rhs[j] = rhs[j] - up[j] * rhs[j + 1];
  // dx_i = -w_i n_i dLambda_i + w_i n_{i-1} dLambda_{i-1}, stored for movable particles only
  float lx[kLanes], ly[kLanes], lz[kLanes], ll[kLanes];
  for (int i = 0; i <= m; ++i) {
    V3 g{zero, zero, zero};
    if (i < m) g = g - dir[i] * rhs[i];
    if (i > 0) g = g + dir[i - 1] * rhs[i - 1];
    const V3 moved = wide::select(wide::equal(w[i], zero), x[i], x[i] + g * w[i]);
    wide::store(lx, moved.x);
    wide::store(ly, moved.y);
    wide::store(lz, moved.z);
    for (int l = 0; l < count; ++l) {
      rope[l]->px[i] = lx[l];
      rope[l]->py[i] = ly[l];
      rope[l]->pz[i] = lz[l];
    }
  }
  for (int j = 0; j < m; ++j) {
    wide::store(ll, gatherRope(&RopeState::lambda, j) + rhs[j]);
    for (int l = 0; l < count; ++l) rope[l]->lambda[j] = ll[l];
  }
  wide::store(ll, worstL);
  for (int l = 0; l < count; ++l) worst[l] = ll[l];
}

}  // namespace

void simulateRopeGroup(RopeState* const* ropes, int count, const StepContext& ctx) {
  Team solo;  // one thread: the world runs groups side by side
  // constructed in place: RopeFrame holds references and is neither copied nor assigned
  alignas(RopeFrame) unsigned char storage[kLanes][sizeof(RopeFrame)];
  RopeFrame* f[kLanes];
  float alpha[kLanes], worst[kLanes];
  for (int l = 0; l < count; ++l) {
    f[l] = new (storage[l]) RopeFrame(*ropes[l], ctx);
    alpha[l] = f[l]->stretchAlpha;
    f[l]->begin(solo);
  }
  const int m = ropes[0]->segments();
  for (int sub = 0; sub < ctx.totalSubsteps; ++sub) {
    for (int l = 0; l < count; ++l) f[l]->startSubstep(sub, solo);
    for (int it = 0; it < ctx.iterations; ++it) {
      // SolveStretch: the first Newton step in lanes, the rest of each rope alone (rope_frame.h)
      solveFirstStepLanes(ropes, count, m, alpha, worst);
      for (int l = 0; l < count; ++l) {
        continueStretchDirect(*ropes[l], alpha[l], ropes[l]->directScratch.data(), worst[l]);
        f[l]->afterDirect(solo);
      }
    }
    for (int l = 0; l < count; ++l) f[l]->endSubstep(sub, solo);
  }
  for (int l = 0; l < count; ++l) {
    f[l]->end(solo);
    f[l]->~RopeFrame();
  }
}

}  // namespace wisp
