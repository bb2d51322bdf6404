// The lane group of ropes (solver/rope_lanes.h). Every kernel here mirrors its scalar stage
// statement by statement (integrate.h, stages.h's driveAnchorsIn, tether.h, rope_direct.h,
// distance.h); what differs is only where values live (a node-major lane block for the whole
// frame) and that branches are per-lane selects of both sides. Keep the two in step:
// tests/native/test_rope_lanes.cpp compares every state bit of ropes solved here with the same
// ropes solved alone.
#include "solver/rope_lanes.h"

#include <atomic>

#include "constraints/distance.h"
#include "constraints/rope_direct.h"
#include "constraints/tether.h"
#include "math/wide_vec.h"
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

// integrateUniform for nodes [0, n)
void integrateLanes(Block& b, int n, V3 a, F4 k, F4 h) {
  for (int i = 0; i < n; ++i) {
    const F4 vx = (at(b.vx, i) + a.x) * k, vy = (at(b.vy, i) + a.y) * k, vz = (at(b.vz, i) + a.z) * k;
    const V3 x = pos(b, i);
    put(b.ox, i, x.x); put(b.oy, i, x.y); put(b.oz, i, x.z);
    const V3 nx{x.x + vx * h, x.y + vy * h, x.z + vz * h};
    putPos(b, i, nx);
    put(b.qx, i, nx.x); put(b.qy, i, nx.y); put(b.qz, i, nx.z);
    put(b.vx, i, vx); put(b.vy, i, vy); put(b.vz, i, vz);
  }
}

// solveTethers (alphaTilde 0) for nodes [0, n). Where every lane is tethered to the same node
// (a group of ropes pinned alike) its position is one load; otherwise four.
void tethersLanes(Block& b, int n) {
  for (int i = 0; i < n; ++i) {
    const F4 on = wide::lessThan(wide::splat(0.0f), at(b.tetherOn, i));
    if (!wide::any(on)) continue;
    const int32_t* p = b.tetherTo + kLanes * i;
    V3 xp;
    if (p[0] == p[1] && p[0] == p[2] && p[0] == p[3]) {
      xp = pos(b, p[0]);
    } else {
      auto g = [&](const float* a) {
        return wide::make(a[kLanes * p[0]], a[kLanes * p[1] + 1], a[kLanes * p[2] + 2], a[kLanes * p[3] + 3]);
      };
      xp = {g(b.px), g(b.py), g(b.pz)};
    }
    const V3 x = pos(b, i);
    const F4 limit = at(b.tetherLimit, i);
    const V3 d = x - xp;
    const F4 d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    // (an untethered node's tetherTo is itself, d = 0, so it stays anyway; off says so outright)
    const F4 off = wide::lessThan(at(b.tetherOn, i), wide::splat(1.0f));
    const F4 stay = wide::maskOr(lessEqual(d2, limit * limit), off);
    const F4 s = limit / wide::sqrt(d2);
    putPos(b, i, wide::select(stay, x, xp + d * s));
  }
}

// One Newton step of solveChainDirect(r, identity, m, rest, lambda, alphaTilde, scratch,
// skipBelow) in every lane: each lane's residual is computed; a lane moves only where `want`
// is set and its residual is above skipBelow (elsewhere its positions and multipliers keep their
// bits). Returns the residuals.
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
    const F4 movable = wide::maskAnd(wide::lessThan(zero, at(b.w, j) + at(b.w, j + 1)), wide::lessThan(zero, rest));
    const F4 cand = wide::abs(b.rhs[j]) / rest;
    worst = wide::select(wide::maskAnd(movable, wide::lessThan(worst, cand)), cand, worst);
  }
  const F4 moving = wide::maskAnd(want, wide::lessThan(skipBelow, worst));  // !(worst <= skipBelow)
  if (!wide::any(moving)) return worst;
  // forward elimination
  F4 prevUp = zero, prevRhs = zero;
  const F4 tiny = wide::splat(1e-12f), tinier = wide::splat(1e-30f);
  for (int j = 0; j < m; ++j) {
    const F4 wj = at(b.w, j), wn = at(b.w, j + 1);
    const F4 diag = wj + wn + alpha;
    const F4 sub = j > 0 ? wide::neg(wj) * wide::dot(b.dir[j - 1], b.dir[j]) : zero;
    const F4 super = j + 1 < m ? wide::neg(wn) * wide::dot(b.dir[j], b.dir[j + 1]) : zero;
    const F4 denom = diag - sub * prevUp;
    const F4 ok = wide::lessThan(tiny * (diag + tinier), denom);
    const F4 inv = one / denom;
    b.up[j] = wide::select(ok, super * inv, zero);
    b.rhs[j] = wide::select(ok, (b.rhs[j] - sub * prevRhs) * inv, zero);
    prevUp = b.up[j];
    prevRhs = b.rhs[j];
  }
  // back substitution: rhs becomes dLambda
  for (int j = m - 2; j >= 0; --j) b.rhs[j] = b.rhs[j] - b.up[j] * b.rhs[j + 1];
  // dx_i = -w_i n_i dLambda_i + w_i n_{i-1} dLambda_{i-1}, for movable particles of moving lanes
  for (int i = 0; i <= m; ++i) {
    V3 g{zero, zero, zero};
    if (i < m) g = g - b.dir[i] * b.rhs[i];
    if (i > 0) g = g + b.dir[i - 1] * b.rhs[i - 1];
    const F4 wi = at(b.w, i);
    const V3 x = pos(b, i);
    putPos(b, i, wide::select(wide::equal(wi, zero), x, wide::select(moving, x + g * wi, x)));
  }
  for (int j = 0; j < m; ++j) {
    const F4 lambda = at(b.lambda, j);
    put(b.lambda, j, wide::select(moving, lambda + b.rhs[j], lambda));
  }
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

  Block b;
  for (int l = 0; l < kLanes; ++l) {
    fromRope(b, *rope[l], l);
    fromRopeConstant(b, *rope[l], *f[l], l);
  }
  // per-lane constants, and which lanes need which stage
  float kv[kLanes], ax[kLanes], ay[kLanes], az[kLanes], sa[kLanes], ba[kLanes];
  bool bend[kLanes], valid[kLanes];
  bool anyBend = false, anyTethers = false, anyRare = false;
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
    anyRare |= g.turbulent || (g.tethers && g.plastic) || !g.r.leashList.empty() || g.collide || g.plastic;
  }
  const F4 k = perLane(kv), stretchAlpha = perLane(sa), bendAlpha = perLane(ba), bendOn = maskOf(bend);
  const F4 validLanes = maskOf(valid), h = wide::splat(ctx.h), invH = wide::splat(ctx.invH);
  const V3 a{perLane(ax), perLane(ay), perLane(az)};

  for (int sub = 0; sub < ctx.totalSubsteps; ++sub) {
    const float tNow = ctx.frameT(sub + 1, ctx.totalSubsteps);
    // Integrate; where the air varies, the rope's own per-particle integration replaces its lane
    if (anyRare)
      for (int l = 0; l < count; ++l)
        if (f[l]->turbulent) toRope(b, *ropes[l], l);
    integrateLanes(b, n, a, k, h);
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
    updateVelocitiesLanes(b, n, invH);
  }
  for (int l = 0; l < count; ++l) {
    toRope(b, *ropes[l], l);
    f[l]->end(solo);
    f[l]->~RopeFrame();
  }
}

}  // namespace wisp
