// The lane group of ropes (solver/rope_lanes.h). Every kernel here mirrors its scalar stage
// statement by statement (integrate.h, stages.h's driveAnchorsIn, tether.h, rope_direct.h,
// distance.h, world_kinds.cpp's finishFrame); what differs is only where values live (a
// node-major lane block for the whole frame) and that branches are per-lane selects of both
// sides. Keep the two in step:
// tests/native/test_rope_lanes.cpp compares every state bit of ropes solved here with the same
// ropes solved alone.
#include "solver/rope_lanes.h"

#include <atomic>
#include <cmath>

#include "checks/invariants.h"
#include "constraints/distance.h"
#include "constraints/rope_direct.h"
#include "constraints/tether.h"
#include "math/wide_vec.h"
#include "particles/fastest.h"
#include "solver/lane_transpose.h"
#include "solver/rope_frame.h"
#include "solver/stages.h"

namespace wisp {

namespace {
// On by default, natively and in WebAssembly: with the whole substep in lanes, 1000 ropes x 32
// take about half the scalar solver's time in both (docs/benchmarks.md, "Ropes in lanes, whole
// substep"). Off gives the same bits; only speed differs.
constexpr bool kLanesByDefault = true;
std::atomic<bool> gLanesEnabled{kLanesByDefault};
}  // namespace

void setRopeLanesEnabled(bool on) { gLanesEnabled.store(on, std::memory_order_relaxed); }
bool ropeLanesEnabled() { return gLanesEnabled.load(std::memory_order_relaxed); }

bool solvesInLanes(const RopeState& r) {
  // the world's own frame (no origin of its own, every fixed step) so that one context serves
  // the whole group, and short enough for the lane block on the stack
  return gLanesEnabled.load(std::memory_order_relaxed) && r.origin.zero() && r.params.updateEvery <= 1 &&
         r.segments() >= 1 && r.segments() <= kRopeLaneMaxSegments;
}

namespace {

using wide::F4;
using wide::V3;
constexpr int kLanes = wide::kWidth;
constexpr int kNodes = kRopeLaneMaxSegments + 1;

// A group's ropes for one frame, node-major: lane l of node (or segment) i at [kLanes * i + l],
// so node i of every rope is one F4 load. Gathered from the ropes once at the start of the frame
// and scattered back once at its end; a rope's rare stages run on the rope itself between
// (toRope, then the scalar stage, then fromRope). Spare lanes repeat lane 0.
struct Block {
  alignas(16) float px[kLanes * kNodes], py[kLanes * kNodes], pz[kLanes * kNodes];
  alignas(16) float vx[kLanes * kNodes], vy[kLanes * kNodes], vz[kLanes * kNodes];
  alignas(16) float ox[kLanes * kNodes], oy[kLanes * kNodes], oz[kLanes * kNodes];
  alignas(16) float qx[kLanes * kNodes], qy[kLanes * kNodes], qz[kLanes * kNodes];
  alignas(16) float w[kLanes * kNodes];
  // SolveTethers: the limit, and the node tethered to (the node itself where there is none:
  // tetherOn is 0 there, 1 where tethered)
  alignas(16) float tetherLimit[kLanes * kNodes], tetherOn[kLanes * kNodes];
  int32_t tetherTo[kLanes * kNodes];
  // Derived from the above once per frame (and again where a plastic rope's limits change), so
  // that a substep does not recompute them: per node the tether's squared limit and its `off`
  // mask (lanes not tethered), and which tether case the node is: kNoTether (no lane tethered),
  // the one node every lane is tethered to (a group of ropes pinned alike: one load), or
  // kMixedTethers (lanes gathered one by one).
  alignas(16) float tetherLimit2[kLanes * kNodes], tetherOff[kLanes * kNodes];
  int32_t tetherCase[kNodes];
  // per node: some lane has inverse mass 0 there (the direct solve must keep its position)
  bool still[kNodes];
  // per segment, the direct solve's w_j + w_{j+1} + alphaTilde, its singularity threshold
  // 1e-12 (diag + 1e-30), and the mask of lanes whose segment can move (w_j + w_{j+1} > 0 and
  // rest > 0): fixed over the frame but for the rest lengths of plastic ropes, which renew it
  alignas(16) float diag[kLanes * kRopeLaneMaxSegments], diagTiny[kLanes * kRopeLaneMaxSegments];
  alignas(16) float movable[kLanes * kRopeLaneMaxSegments];
  // per segment: rest length and multiplier; per bend the same (lambda's bend part)
  alignas(16) float rest[kLanes * kRopeLaneMaxSegments], lambda[kLanes * kRopeLaneMaxSegments];
  alignas(16) float bendRest[kLanes * kRopeLaneMaxSegments], bendLambda[kLanes * kRopeLaneMaxSegments];
  // the direct solve's scratch: directions, eliminated super-diagonal and right side
  V3 dir[kRopeLaneMaxSegments];
  F4 up[kRopeLaneMaxSegments], rhs[kRopeLaneMaxSegments];
};

// The state a frame changes, block field and rope field side by side: fn(block array, rope
// vector, length) for the particle fields, then the constraint fields.
template <class Fn>
void forStateFields(Block& b, RopeState& r, Fn fn) {
  const int n = r.count(), m = r.segments();
  fn(b.px, r.px.data(), n); fn(b.py, r.py.data(), n); fn(b.pz, r.pz.data(), n);
  fn(b.vx, r.vx.data(), n); fn(b.vy, r.vy.data(), n); fn(b.vz, r.vz.data(), n);
  fn(b.ox, r.ox.data(), n); fn(b.oy, r.oy.data(), n); fn(b.oz, r.oz.data(), n);
  fn(b.qx, r.qx.data(), n); fn(b.qy, r.qy.data(), n); fn(b.qz, r.qz.data(), n);
  fn(b.rest, r.rest.data(), m);
  fn(b.lambda, r.lambda.data(), m);
  fn(b.bendLambda, r.lambda.data() + m, r.bends());
}
void fromRope(Block& b, RopeState& r, int l) {
  forStateFields(b, r, [l](float* lane, const float* v, int n) {
    for (int i = 0; i < n; ++i) lane[kLanes * i + l] = v[i];
  });
}
void toRope(Block& b, RopeState& r, int l) {
  forStateFields(b, r, [l](const float* lane, float* v, int n) {
    for (int i = 0; i < n; ++i) v[i] = lane[kLanes * i + l];
  });
}
// The whole group's state in (every field, as fromRope) or, with `lean`, only what the frame
// reads before writing it: positions, velocities and rest lengths (integration writes o and q
// and the substep clears the multipliers before anything reads them).
void fromRopes(Block& b, RopeState* const (&rope)[kLanes], bool lean) {
  const int n = rope[0]->count(), m = rope[0]->segments();
  auto field = [&](float* lane, std::vector<float> RopeState::*f, int count, int offset = 0) {
    const float* const v[kLanes] = {(rope[0]->*f).data() + offset, (rope[1]->*f).data() + offset,
                                    (rope[2]->*f).data() + offset, (rope[3]->*f).data() + offset};
    block::gather(v, count, lane);
  };
  field(b.px, &RopeState::px, n); field(b.py, &RopeState::py, n); field(b.pz, &RopeState::pz, n);
  field(b.vx, &RopeState::vx, n); field(b.vy, &RopeState::vy, n); field(b.vz, &RopeState::vz, n);
  field(b.rest, &RopeState::rest, m);
  if (lean) return;
  field(b.ox, &RopeState::ox, n); field(b.oy, &RopeState::oy, n); field(b.oz, &RopeState::oz, n);
  field(b.qx, &RopeState::qx, n); field(b.qy, &RopeState::qy, n); field(b.qz, &RopeState::qz, n);
  field(b.lambda, &RopeState::lambda, m);
  field(b.bendLambda, &RopeState::lambda, rope[0]->bends(), m);
}
// Every field a frame changes back into the first `count` ropes (toRope's, but for the rest
// lengths, which only plastic ropes change and which their rare stage left in the rope). Spare
// lanes are not stored.
void toRopes(const Block& b, RopeState* const (&rope)[kLanes], int count) {
  const int n = rope[0]->count(), m = rope[0]->segments();
  auto field = [&](const float* lane, std::vector<float> RopeState::*f, int size, int offset = 0) {
    float* v[kLanes] = {};
    for (int l = 0; l < count; ++l) v[l] = (rope[l]->*f).data() + offset;
    block::scatter(lane, size, v, count);
  };
  field(b.px, &RopeState::px, n); field(b.py, &RopeState::py, n); field(b.pz, &RopeState::pz, n);
  field(b.vx, &RopeState::vx, n); field(b.vy, &RopeState::vy, n); field(b.vz, &RopeState::vz, n);
  field(b.ox, &RopeState::ox, n); field(b.oy, &RopeState::oy, n); field(b.oz, &RopeState::oz, n);
  field(b.qx, &RopeState::qx, n); field(b.qy, &RopeState::qy, n); field(b.qz, &RopeState::qz, n);
  field(b.lambda, &RopeState::lambda, m);
  field(b.bendLambda, &RopeState::lambda, rope[0]->bends(), m);
}
// What a frame only reads: inverse masses, bend rest lengths, tethers (tetherLimit is read
// again after a plastic rope recomputes it).
void fromRopeConstant(Block& b, const RopeState& r, const RopeFrame& f, int l) {
  const int n = r.count();
  for (int i = 0; i < n; ++i) {
    b.w[kLanes * i + l] = r.invMass[i];
    const bool tethered = f.tethers && r.tetherTo[i] >= 0 && r.invMass[i] != 0.0f;  // solveTethers' skip
    b.tetherOn[kLanes * i + l] = tethered ? 1.0f : 0.0f;
    b.tetherTo[kLanes * i + l] = tethered ? r.tetherTo[i] : i;
    b.tetherLimit[kLanes * i + l] = r.tetherLimit[i];
  }
  for (int j = 0; j < r.bends(); ++j) b.bendRest[kLanes * j + l] = r.bendRest[j];
}

inline F4 at(const float* a, int i) { return wide::load(a + kLanes * i); }
inline void put(float* a, int i, F4 v) { wide::store(a + kLanes * i, v); }
inline V3 pos(const Block& b, int i) { return {at(b.px, i), at(b.py, i), at(b.pz, i)}; }
inline void putPos(Block& b, int i, V3 x) { put(b.px, i, x.x); put(b.py, i, x.y); put(b.pz, i, x.z); }
// a <= b, also false where either is NaN (as the scalar comparison)
inline F4 lessEqual(F4 a, F4 b) { return wide::maskOr(wide::lessThan(a, b), wide::equal(a, b)); }

// The constants Block derives once per frame: the tethers' (again after a plastic rope's limits
// changed), the direct solve's per segment (again after plasticity changed rest lengths) and per
// node. Each is the expression the kernels below used to compute every substep, unchanged.
constexpr int32_t kNoTether = -1, kMixedTethers = -2;
void tetherConstants(Block& b, int n) {
  const F4 zero = wide::splat(0.0f), one = wide::splat(1.0f);
  for (int i = 0; i < n; ++i) {
    const F4 limit = at(b.tetherLimit, i), on = at(b.tetherOn, i);
    put(b.tetherLimit2, i, limit * limit);
    put(b.tetherOff, i, wide::lessThan(on, one));
    const int32_t* p = b.tetherTo + kLanes * i;
    b.tetherCase[i] = !wide::any(wide::lessThan(zero, on))                    ? kNoTether
                      : (p[0] == p[1] && p[0] == p[2] && p[0] == p[3]) ? p[0]
                                                                         : kMixedTethers;
  }
}
void segmentConstants(Block& b, int m, F4 alpha) {
  const F4 zero = wide::splat(0.0f), tiny = wide::splat(1e-12f), tinier = wide::splat(1e-30f);
  for (int j = 0; j < m; ++j) {
    const F4 wj = at(b.w, j), wn = at(b.w, j + 1);
    const F4 diag = wj + wn + alpha;
    put(b.diag, j, diag);
    put(b.diagTiny, j, tiny * (diag + tinier));
    put(b.movable, j, wide::maskAnd(wide::lessThan(zero, wj + wn), wide::lessThan(zero, at(b.rest, j))));
  }
}
void nodeConstants(Block& b, int n) {
  for (int i = 0; i < n; ++i) b.still[i] = wide::any(wide::equal(at(b.w, i), wide::splat(0.0f)));
}

// integrateUniform for nodes [0, n), with Velocity after the previous substep's updateVelocities
// in the same pass (nothing runs between the two when no lane has a rare stage). With Old the
// start positions o are stored; without, they are not (no lane reads them before the frame's
// last substep, which stores them).
template <bool Velocity, bool Old>
void advanceLanes(Block& b, int n, V3 a, F4 k, F4 h, F4 invH) {
  for (int i = 0; i < n; ++i) {
    F4 vx = at(b.vx, i), vy = at(b.vy, i), vz = at(b.vz, i);
    const V3 x = pos(b, i);
    if constexpr (Velocity) {
      vx = vx + (x.x - at(b.qx, i)) * invH;
      vy = vy + (x.y - at(b.qy, i)) * invH;
      vz = vz + (x.z - at(b.qz, i)) * invH;
    }
    vx = (vx + a.x) * k, vy = (vy + a.y) * k, vz = (vz + a.z) * k;
    if constexpr (Old) {
      put(b.ox, i, x.x); put(b.oy, i, x.y); put(b.oz, i, x.z);
    }
    const V3 nx{x.x + vx * h, x.y + vy * h, x.z + vz * h};
    putPos(b, i, nx);
    put(b.qx, i, nx.x); put(b.qy, i, nx.y); put(b.qz, i, nx.z);
    put(b.vx, i, vx); put(b.vy, i, vy); put(b.vz, i, vz);
  }
}
void integrateLanes(Block& b, int n, V3 a, F4 k, F4 h, F4 invH, bool velocity, bool old) {
  if (velocity) old ? advanceLanes<true, true>(b, n, a, k, h, invH) : advanceLanes<true, false>(b, n, a, k, h, invH);
  else old ? advanceLanes<false, true>(b, n, a, k, h, invH) : advanceLanes<false, false>(b, n, a, k, h, invH);
}

// solveTethers (alphaTilde 0) for nodes [0, n). Where every lane is tethered to the same node
// (a group of ropes pinned alike) its position is one load; otherwise four.
void tethersLanes(Block& b, int n) {
  for (int i = 0; i < n; ++i) {
    const int32_t c = b.tetherCase[i];
    if (c == kNoTether) continue;
    V3 xp;
    if (c >= 0) {
      xp = pos(b, c);
    } else {
      const int32_t* p = b.tetherTo + kLanes * i;
      auto g = [&](const float* a) {
        return wide::make(a[kLanes * p[0]], a[kLanes * p[1] + 1], a[kLanes * p[2] + 2], a[kLanes * p[3] + 3]);
      };
      xp = {g(b.px), g(b.py), g(b.pz)};
    }
    const V3 x = pos(b, i);
    const V3 d = x - xp;
    const F4 d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    // (an untethered node's tetherTo is itself, d = 0, so it stays anyway; off says so outright)
    const F4 stay = wide::maskOr(lessEqual(d2, at(b.tetherLimit2, i)), at(b.tetherOff, i));
    const F4 s = at(b.tetherLimit, i) / wide::sqrt(d2);
    putPos(b, i, wide::select(stay, x, xp + d * s));
  }
}

// One Newton step of solveChainDirect(r, identity, m, rest, lambda, alphaTilde, scratch,
// skipBelow) in every lane: each lane's residual is computed; a lane moves only where `want`
// is set and its residual is above skipBelow (elsewhere its positions and multipliers keep their
// bits). Returns the residuals. The per-frame parts of the matrix come from segmentConstants;
// the sub-diagonal of row j + 1 is the super-diagonal of row j (the same product), and the back
// substitution, the position update and the multipliers' update are one pass from the last
// segment down.
F4 newtonStepLanes(Block& b, int m, F4 alpha, F4 want, F4 skipBelow) {
  const F4 zero = wide::splat(0.0f), one = wide::splat(1.0f);
  F4 worst = zero;
  V3 next = pos(b, 0);
  for (int j = 0; j < m; ++j) {
    const V3 x = next;
    next = pos(b, j + 1);
    const V3 e = next - x;
    const F4 len = wide::sqrt(e.x * e.x + e.y * e.y + e.z * e.z);
    const F4 positive = wide::lessThan(zero, len);
    const F4 inv = wide::select(positive, one / len, zero);
    b.dir[j] = e * inv;
    const F4 rest = at(b.rest, j);
    b.rhs[j] = wide::select(positive, wide::neg(len - rest) - alpha * at(b.lambda, j), zero);
    // std::max(worst, |rhs| / rest) where the segment can move
    const F4 cand = wide::abs(b.rhs[j]) / rest;
    worst = wide::select(wide::maskAnd(at(b.movable, j), wide::lessThan(worst, cand)), cand, worst);
  }
  const F4 moving = wide::maskAnd(want, wide::lessThan(skipBelow, worst));  // !(worst <= skipBelow)
  if (!wide::any(moving)) return worst;
  // every lane moves (the first step, as a rule): no selects on `moving`
  const bool all = !wide::any(wide::equal(moving, zero));
  // forward elimination
  F4 prevUp = zero, prevRhs = zero, sub = zero;
  for (int j = 0; j < m; ++j) {
    const F4 super = j + 1 < m ? wide::neg(at(b.w, j + 1)) * wide::dot(b.dir[j], b.dir[j + 1]) : zero;
    const F4 denom = at(b.diag, j) - sub * prevUp;
    const F4 ok = wide::lessThan(at(b.diagTiny, j), denom);
    const F4 inv = one / denom;
    prevUp = b.up[j] = wide::select(ok, super * inv, zero);
    prevRhs = b.rhs[j] = wide::select(ok, (b.rhs[j] - sub * prevRhs) * inv, zero);
    sub = super;
  }
  // back substitution (rhs becomes dLambda), and with dLambda_i known for i and i - 1:
  // dx_i = -w_i n_i dLambda_i + w_i n_{i-1} dLambda_{i-1}, for movable particles of moving lanes
  const V3 none{zero, zero, zero};
  auto move = [&](int i, V3 g) {
    const V3 x = pos(b, i);
    const F4 wi = at(b.w, i);
    V3 nx = x + g * wi;
    if (!all) nx = wide::select(moving, nx, x);
    if (b.still[i]) nx = wide::select(wide::equal(wi, zero), x, nx);
    putPos(b, i, nx);
  };
  auto addLambda = [&](int j, F4 d) {
    const F4 lambda = at(b.lambda, j);
    put(b.lambda, j, all ? lambda + d : wide::select(moving, lambda + d, lambda));
  };
  F4 d = b.rhs[m - 1];
  move(m, none + b.dir[m - 1] * d);
  for (int j = m - 2; j >= 0; --j) {
    const F4 dj = b.rhs[j] - b.up[j] * d;
    move(j + 1, (none - b.dir[j + 1] * d) + b.dir[j] * dj);
    addLambda(j + 1, d);
    d = dj;
  }
  move(0, none - b.dir[0] * d);
  addLambda(0, d);
  return worst;
}

// pinsWithinReach on lane l of the block
bool pinsWithinReachLane(const Block& b, const RopeState& r, int l) {
  for (size_t k = 0; k + 1 < r.pinnedList.size(); ++k) {
    const int p = r.pinnedList[k], q = r.pinnedList[k + 1];
    float rest = 0.0f;
    for (int j = p; j < q; ++j) rest += b.rest[kLanes * j + l];
    const float dx = b.px[kLanes * q + l] - b.px[kLanes * p + l], dy = b.py[kLanes * q + l] - b.py[kLanes * p + l],
                dz = b.pz[kLanes * q + l] - b.pz[kLanes * p + l];
    if (dx * dx + dy * dy + dz * dz > rest * rest) return false;
  }
  return true;
}

// solveStretchDirectConverged in every lane: the first Newton step, then more (continueChainConverged)
// per lane while that lane's residual is above the tolerance and falling, as long as its rope
// can reach its pins. valid: the lanes that hold a rope.
void directSolveLanes(Block& b, RopeState* const* rope, int count, int m, F4 alpha, F4 valid) {
  const F4 all = wide::equal(wide::splat(0.0f), wide::splat(0.0f));
  F4 last = newtonStepLanes(b, m, alpha, all, wide::splat(-1.0f));
  const F4 tol = wide::splat(kDirectTolerance);
  F4 active = wide::maskAnd(valid, wide::lessThan(tol, last));
  if (!wide::any(active)) return;
  // more(): asked only of the lanes the first step left above the tolerance
  float first[kLanes], more[kLanes] = {0.0f, 0.0f, 0.0f, 0.0f};
  wide::store(first, last);
  for (int l = 0; l < count; ++l)
    if (first[l] > kDirectTolerance) more[l] = pinsWithinReachLane(b, *rope[l], l) ? 1.0f : 0.0f;
  active = wide::maskAnd(active, wide::lessThan(wide::splat(0.0f), wide::load(more)));
  for (int step = 1; step < kDirectMaxSteps && wide::any(active); ++step) {
    const F4 now = newtonStepLanes(b, m, alpha, active, tol);
    // the scalar loop stops once now <= tolerance (nothing moved) or now >= last
    active = wide::maskAnd(active, wide::maskAnd(wide::lessThan(tol, now), wide::lessThan(now, last)));
    last = wide::select(active, now, last);
  }
}

// solveStretchPass for both colours: segment j joins nodes j and j + 1
void stretchPassesLanes(Block& b, int m, F4 alpha) {
  for (int colour = 0; colour < 2; ++colour)
    for (int j = colour; j < m; j += 2) {
      DistanceLanes d{at(b.px, j), at(b.py, j), at(b.pz, j), at(b.px, j + 1), at(b.py, j + 1), at(b.pz, j + 1), at(b.lambda, j)};
      solveDistanceLanes(d, at(b.w, j), at(b.w, j + 1), at(b.rest, j), alpha);
      put(b.px, j, d.ax); put(b.py, j, d.ay); put(b.pz, j, d.az);
      put(b.px, j + 1, d.bx); put(b.py, j + 1, d.by); put(b.pz, j + 1, d.bz);
      put(b.lambda, j, d.lambda);
    }
}

// solveBendPass for both colours in the lanes where `on` is set (bend k joins nodes k and k + 2)
void bendPassesLanes(Block& b, int bends, F4 alpha, F4 on) {
  for (int colour = 0; colour < 2; ++colour)
    for (int k = 2 * colour; k < bends; k += (k % 4 == 2 * colour) ? 1 : 3) {
      DistanceLanes d{at(b.px, k), at(b.py, k), at(b.pz, k), at(b.px, k + 2), at(b.py, k + 2), at(b.pz, k + 2), at(b.bendLambda, k)};
      solveDistanceLanes(d, at(b.w, k), at(b.w, k + 2), at(b.bendRest, k), alpha);
      const V3 a = pos(b, k), c = pos(b, k + 2);
      putPos(b, k, wide::select(on, V3{d.ax, d.ay, d.az}, a));
      putPos(b, k + 2, wide::select(on, V3{d.bx, d.by, d.bz}, c));
      put(b.bendLambda, k, wide::select(on, d.lambda, at(b.bendLambda, k)));
    }
}

// updateVelocities for nodes [0, n)
void updateVelocitiesLanes(Block& b, int n, F4 invH) {
  for (int i = 0; i < n; ++i) {
    put(b.vx, i, at(b.vx, i) + (at(b.px, i) - at(b.qx, i)) * invH);
    put(b.vy, i, at(b.vy, i) + (at(b.py, i) - at(b.qy, i)) * invH);
    put(b.vz, i, at(b.vz, i) + (at(b.pz, i) - at(b.qz, i)) * invH);
  }
}

F4 perLane(const float* v) { return wide::make(v[0], v[1], v[2], v[3]); }

// The world's finishFrame (world/world_kinds.cpp) for every lane at once, on the block before it
// goes back to the ropes: allFinite (before the cap), World::Impl::capSpeed and fastestSpeed,
// each the same operations per particle; `fast` is capSpeed's fastest squared speed, `fastest`
// fastestSpeed's after the cap. Saves the three scans of every rope after the frame.
void finishLanes(Block& b, int n, RopeState* const (&rope)[kLanes], int count) {
  float ms[kLanes];
  for (int l = 0; l < kLanes; ++l) ms[l] = rope[l]->params.maxSpeed;
  const F4 zero = wide::splat(0.0f), one = wide::splat(1.0f), maxSpeed = perLane(ms);
  const F4 capOn = wide::lessThan(zero, maxSpeed), max2 = maxSpeed * maxSpeed;
  F4 diff = zero, fast = zero, fastest = zero;
  for (int i = 0; i < n; ++i) {
    const V3 x = pos(b, i);
    F4 vx = at(b.vx, i), vy = at(b.vy, i), vz = at(b.vz, i);
    diff = diff + nonFiniteTerms(x.x, x.y, x.z, vx, vy, vz);
    F4 v2 = vx * vx + vy * vy + vz * vz;
    const F4 over = wide::maskAnd(capOn, wide::lessThan(max2, v2));
    if (wide::any(over)) {
      fast = wide::select(wide::maskAnd(over, wide::lessThan(fast, v2)), v2, fast);
      const F4 s = maxSpeed / wide::sqrt(v2);
      vx = wide::select(over, vx * s, vx);
      vy = wide::select(over, vy * s, vy);
      vz = wide::select(over, vz * s, vz);
      put(b.vx, i, vx); put(b.vy, i, vy); put(b.vz, i, vz);
      v2 = vx * vx + vy * vy + vz * vz;
    }
    fastest = fasterOf(fastest, v2);
  }
  float ok[kLanes], fast2[kLanes], fastest2[kLanes];
  wide::store(ok, wide::select(wide::equal(diff, zero), one, zero));
  wide::store(fast2, fast);
  wide::store(fastest2, fastest);
  for (int l = 0; l < count; ++l) {
    RopeState& r = *rope[l];
    r.broken = ok[l] != 1.0f;
    r.clampedSpeed = std::sqrt(fast2[l]);
    if (r.params.sleepSpeed > 0.0f) r.activity.speed = std::sqrt(fastest2[l]);
  }
}
F4 maskOf(const bool* v) {
  const F4 zero = wide::splat(0.0f);
  return wide::lessThan(zero, wide::make(v[0] ? 1.0f : 0.0f, v[1] ? 1.0f : 0.0f, v[2] ? 1.0f : 0.0f, v[3] ? 1.0f : 0.0f));
}

}  // namespace

void simulateRopeGroup(RopeState* const* ropes, int count, const StepContext& ctx) {
  Team solo;  // one thread: the world runs groups side by side
  // constructed in place: RopeFrame holds references and is neither copied nor assigned
  alignas(RopeFrame) unsigned char storage[kLanes][sizeof(RopeFrame)];
  RopeFrame* f[kLanes];
  RopeState* rope[kLanes];
  for (int l = 0; l < kLanes; ++l) rope[l] = ropes[l < count ? l : 0];
  for (int l = 0; l < count; ++l) {
    f[l] = new (storage[l]) RopeFrame(*ropes[l], ctx);
    f[l]->begin(solo);
  }
  for (int l = count; l < kLanes; ++l) f[l] = f[0];
  const int m = ropes[0]->segments(), n = m + 1, bends = ropes[0]->bends();

  // per-lane constants, and which lanes need which stage
  float kv[kLanes], ax[kLanes], ay[kLanes], az[kLanes], sa[kLanes], ba[kLanes];
  bool bend[kLanes], valid[kLanes];
  bool anyBend = false, anyTethers = false, anyRare = false, anyPlastic = false;
  for (int l = 0; l < kLanes; ++l) {
    const RopeFrame& g = *f[l];
    kv[l] = g.k;
    ax[l] = g.uniformA.x; ay[l] = g.uniformA.y; az[l] = g.uniformA.z;
    sa[l] = g.stretchAlpha;
    ba[l] = g.bendAlpha;
    bend[l] = g.bend;
    valid[l] = l < count;
    anyBend |= g.bend;
    anyTethers |= g.tethers;
    anyPlastic |= g.plastic;
    anyRare |= g.turbulent || (g.tethers && g.plastic) || !g.r.leashList.empty() || g.collide || g.plastic;
  }
  const F4 k = perLane(kv), stretchAlpha = perLane(sa), bendAlpha = perLane(ba), bendOn = maskOf(bend);
  const F4 validLanes = maskOf(valid), h = wide::splat(ctx.h), invH = wide::splat(ctx.invH);
  const V3 a{perLane(ax), perLane(ay), perLane(az)};
  const int total = ctx.totalSubsteps;
  // Without rare stages nothing but the lanes touches the block within the frame: it is filled
  // lean (fromRopes), the velocity update of one substep runs in the integration pass of the
  // next, and the start positions o are stored in the last substep only. A rare stage reads and
  // writes the whole rope between the lane stages, so there every field is kept every substep.
  const bool lean = !anyRare && total > 0;

  Block b;
  fromRopes(b, rope, lean);
  for (int l = 0; l < kLanes; ++l) fromRopeConstant(b, *rope[l], *f[l], l);
  tetherConstants(b, n);
  segmentConstants(b, m, stretchAlpha);
  nodeConstants(b, n);

  for (int sub = 0; sub < total; ++sub) {
    const float tNow = ctx.frameT(sub + 1, total);
    const bool last = sub + 1 == total;
    // Integrate; where the air varies, the rope's own per-particle integration replaces its lane
    if (anyRare)
      for (int l = 0; l < count; ++l)
        if (f[l]->turbulent) toRope(b, *ropes[l], l);
    integrateLanes(b, n, a, k, h, invH, lean && sub > 0, !lean || last);
    if (anyRare)
      for (int l = 0; l < count; ++l)
        if (f[l]->turbulent) {
          f[l]->integrate(sub, solo);
          fromRope(b, *ropes[l], l);
        }
    // DriveAnchors, lane by lane (pins are few; spare lanes repeat lane 0's)
    for (int l = 0; l < kLanes; ++l)
      for (int32_t i : rope[l]->pinnedList) {
        const AnchorPath& p = ctx.anchors[rope[l]->anchor[i]];
        const Vec3 x = lerp(p.from, p.to, tNow);
        b.px[kLanes * i + l] = x.x; b.py[kLanes * i + l] = x.y; b.pz[kLanes * i + l] = x.z;
      }
    // SolveTethers; under plasticity the limits follow the rest lengths
    if (anyTethers) {
      if (anyRare)
        for (int l = 0; l < count; ++l)
          if (f[l]->tethers && f[l]->plastic) {
            toRope(b, *ropes[l], l);
            computeRopeTetherLimits(*ropes[l]);
            fromRopeConstant(b, *ropes[l], *f[l], l);
            tetherConstants(b, n);
          }
      tethersLanes(b, n);
    }
    // the multipliers cleared
    for (int j = 0; j < m; ++j) put(b.lambda, j, wide::splat(0.0f));
    for (int j = 0; j < bends; ++j) put(b.bendLambda, j, wide::splat(0.0f));
    for (int it = 0; it < ctx.iterations; ++it) {
      // SolveStretch: Newton steps until converged, the Gauss-Seidel passes; then SolveBend
      directSolveLanes(b, ropes, count, m, stretchAlpha, validLanes);
      stretchPassesLanes(b, m, stretchAlpha);
      if (anyBend) bendPassesLanes(b, bends, bendAlpha, bendOn);
    }
    // SolveLeashes, Collide, Plasticity: rope by rope
    if (anyRare)
      for (int l = 0; l < count; ++l)
        if (!ropes[l]->leashList.empty() || f[l]->collide || f[l]->plastic) {
          toRope(b, *ropes[l], l);
          f[l]->beforeVelocity(sub, solo);
          fromRope(b, *ropes[l], l);
        }
    if (anyPlastic) segmentConstants(b, m, stretchAlpha);  // the rest lengths crept
    // UpdateVelocity; lean, it runs in the next substep's integration pass
    if (!lean || last) updateVelocitiesLanes(b, n, invH);
  }
  finishLanes(b, n, rope, count);
  toRopes(b, rope, count);
  for (int l = 0; l < count; ++l) {
    f[l]->end(solo);
    f[l]->~RopeFrame();
  }
}

}  // namespace wisp
