// The per-kind functions of the kind table (kinds.h): what the world does differently for a
// rope, a cloth and a chain when it steps, resets, counts and checks them.
#include "solver/chain_lanes.h"
#include "solver/rope_lanes.h"
#include "solver/rope_substeps.h"
#include "world/world_impl.h"

namespace wisp {

const char* kindName(ObjectKind kind) {
  const char* name = "object";
  forEachKindRow([&](auto row) {
    if (row.kind == kind) name = row.name;
  });
  return name;
}

namespace {
// After a rope's or cloth's share of the frame, in its own job: whether its state went
// non-finite, its speed cap, and its fastest speed (for sleep). Rope lane groups do the same in
// lanes (solver/rope_lanes.cpp, finishLanes): keep the two in step.
template <class State>
void finishFrame(State& o) {
  o.broken = !allFinite(o);
  o.clampedSpeed = World::Impl::capSpeed(o, o.params.maxSpeed);
  if (o.params.sleepSpeed > 0.0f) o.activity.speed = World::Impl::fastestSpeed(o);
}
}  // namespace

// --- rope ---------------------------------------------------------------------------------

// A fast rope (solver/rope_substeps.h) runs its frame at more substeps than the world's
static void stepRope(RopeState& r, const StepContext& ctx, int factor, int threads) {
  simulateRope(r, ctx.finer(factor), threads);
  finishFrame(r);
}

void KindRow<RopeState>::step(RopeState& r, const StepContext& ctx, int threads) {
  stepRope(r, ctx, fastRopeFactor(r, ctx), threads);
}

void KindRow<RopeState>::stepGroup(RopeState* const* ropes, int count, const StepContext& ctx) {
  // A fast rope (solver/rope_substeps.h) runs more substeps than the group: alone, as it would
  // outside one (the lanes give every other rope the same bits with or without it)
  RopeState* lanes[wide::kWidth];
  int n = 0;
  for (int l = 0; l < count; ++l) {
    const int factor = fastRopeFactor(*ropes[l], ctx);
    if (factor > 1) stepRope(*ropes[l], ctx, factor, 1);
    else lanes[n++] = ropes[l];
  }
  if (n > 0) simulateRopeGroup(lanes, n, ctx);  // finishFrame's work included, in lanes
}

void KindRow<RopeState>::resetToRest(World::Impl& w, RopeState& r) {
  r.resetParticles();
  r.rest = r.initialRest;  // undo plastic creep
  computeBendRest(r);
  w.putPinsOnAnchors(r);
}

int KindRow<RopeState>::constraints(const RopeState& r) { return r.segments() + (r.params.bending ? r.bends() : 0); }

std::string KindRow<RopeState>::check(const World::Impl& w, int i, const RopeState& r, int nc) {
  std::string m = checkParticles(name, i, r, w.anchorsOf(r), w.collidersOf(r), nc, r.params.radius,
                                 w.settings.collisions && r.params.collide, r.params.colliderMask);
  if (m.empty() && r.params.stretchCompliance == 0.0f && r.params.yieldRatio == 0.0f) {
    float total = 0, rest = 0;
    // the rope as a whole: with one pass per substep a long rope's single edges strain by far
    // more than the rope does while it whips, so edges are not a useful alarm here
    for (int s = 0; s < r.segments(); ++s) {
      total += length(Vec3{r.px[s + 1] - r.px[s], r.py[s + 1] - r.py[s], r.pz[s + 1] - r.pz[s]});
      rest += r.rest[s];
    }
    if (total > rest * (1.0f + kDebugMaxRopeStretch))
      m = "rope " + std::to_string(i) + " is " + std::to_string(total / rest) + " x its rest length";
  }
  return m;
}

// --- cloth --------------------------------------------------------------------------------

void KindRow<ClothState>::step(ClothState& c, const StepContext& ctx, int threads) {
  simulateCloth(c, ctx, threads);
  finishFrame(c);
}

void KindRow<ClothState>::resetToRest(World::Impl& w, ClothState& c) {
  c.resetParticles();
  w.putPinsOnAnchors(c);
  c.computeNormals();
}

int KindRow<ClothState>::constraints(const ClothState& c) {
  return c.stretch.size() + c.shear.size() + (c.params.bending ? c.bends.size() : 0);
}

std::string KindRow<ClothState>::check(const World::Impl& w, int i, const ClothState& c, int nc) {
  std::string m = checkParticles(name, i, c, w.anchorsOf(c), w.collidersOf(c), nc, c.params.radius,
                                 w.settings.collisions && c.params.collide, c.params.colliderMask);
  if (m.empty() && c.params.stretchCompliance == 0.0f)
    for (size_t e = 0; e < c.stretch.a.size() && m.empty(); ++e)
      m = checkStretch(name, i, c, c.stretch.a[e], c.stretch.b[e], c.stretch.rest[e]);
  return m;
}

// --- chain --------------------------------------------------------------------------------

void KindRow<ChainState>::step(ChainState& c, const StepContext& ctx, int) {
  simulateChain(c, ctx);  // small and sequential: always one thread; notes ChainState::broken
}

void KindRow<ChainState>::stepGroups(ChainGroup* groups, int count, const StepContext& ctx) {
  simulateChainGroups(groups, count, ctx);  // notes ChainState::broken too
}

void KindRow<ChainState>::resetToRest(World::Impl&, ChainState& c) { poseChainAtRest(c); }

int KindRow<ChainState>::constraints(const ChainState& c) { return c.bones(); }

std::string KindRow<ChainState>::check(const World::Impl& w, int i, const ChainState& c, int nc) {
  // joints: finite and under the speed cap (bone capsules, not joint spheres, meet colliders)
  std::string m = checkParticles(name, i, c, w.anchorsOf(c), w.collidersOf(c), nc, 0.0f, false);
  for (int k = 0; k + 1 < c.joints() && m.empty(); ++k) {
    float len = length(Vec3{c.px[k + 1] - c.px[k], c.py[k + 1] - c.py[k], c.pz[k + 1] - c.pz[k]});
    if (!(std::fabs(len - c.boneLength[k]) <= 1e-4f * c.boneLength[k] + 1e-6f))
      m = "chain " + std::to_string(i) + " bone " + std::to_string(k) + " is " + std::to_string(len) + " m long, not " +
          std::to_string(c.boneLength[k]);
  }
  return m;
}

}  // namespace wisp
