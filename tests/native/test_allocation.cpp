// A steady-state step allocates nothing. Global operator new is replaced in this test binary to
// count allocations.
#include <atomic>
#include <cstdlib>
#include <new>

#include "helpers.h"
#include "wisp/interpolate.h"
#include "scenes/character.h"

namespace {
std::atomic<long> gAllocations{0};
}

void* operator new(std::size_t n) {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  std::abort();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace wisp::test {
namespace {

TEST(Allocation, SteadyStateStepAllocatesNothing) {
  for (int threads : {1, 2}) {
    scenes::DeterminismScene sc = scenes::makeDeterminismScene(threads);
    // and objects far from the origin, which simulate relative to origins of their own and see
    // the anchors and colliders converted into their frames
    RopeDef farRope;
    farRope.start = {10000, 2, 10000};
    farRope.end = {10001, 2, 10000};
    farRope.pinned = {0};
    RopeId rope;
    ASSERT_OK(sc.world->addRope(farRope, &rope));
    ClothDef farCloth;
    farCloth.grid = {0.5f, 0.5f, 4, 4, {{0, 2, 1e5f}, {}}};
    farCloth.pinned = {0, 4};
    ClothId cloth;
    ASSERT_OK(sc.world->addCloth(farCloth, &cloth));
    ChainDef farChain;
    farChain.points = {{-10000, 2, 0}, {-10000, 1.9f, 0}, {-10000, 1.8f, 0}};
    ChainId chain;
    ASSERT_OK(sc.world->addChain(farChain, &chain));
    // and five short ropes of one length, which run in a SIMD lane group (solver/rope_lanes.h)
    for (int k = 0; k < 5; ++k) {
      RopeDef small;
      small.start = {0.1f * k, 2, 1};
      small.end = {0.1f * k + 0.4f, 2, 1};
      small.segments = 8;
      small.pinned = {0};
      ASSERT_OK(sc.world->addRope(small, &rope));
    }
    // Warm-up: the first step builds the per-step lists, and self-collision's pair lists grow to
    // their high-water mark while the sheet falls and crumples (about 105 pairs per particle).
    for (int f = 0; f < 180; ++f) {
      scenes::driveDeterminismScene(sc, f);
      ASSERT_OK(sc.world->step(f % 2 ? 1.0 / 144.0 : 1.0 / 30.0));
    }
    long before = gAllocations.load();
    for (int f = 180; f < 240; ++f) {
      scenes::driveDeterminismScene(sc, f);
      sc.world->step(f % 2 ? 1.0 / 144.0 : 1.0 / 30.0);
      sc.world->stateHash();
    }
    EXPECT_EQ(gAllocations.load() - before, 0) << threads << " threads";
  }
}

// A character dressed in linked chains (a skirt with a loop, a cape with diagonals), on 1 and 2
// threads (a cloth beside it makes the world big enough for 2).
TEST(Allocation, LinkedChainsAllocateNothing) {
  for (int threads : {1, 2}) {
    scenes::CharacterOptions o;
    o.threads = threads;
    scenes::Character c = scenes::makeCharacter(o);
    ClothDef cloth;
    cloth.grid = {2, 2, 50, 50, {{5, 3, 0}, {}}};
    ClothId id;
    ASSERT_OK(c.world->addCloth(cloth, &id));
    for (int f = 0; f < 60; ++f) {
      scenes::poseCharacter(c, (f + 1) / 60.0, false);
      ASSERT_OK(c.world->step(1.0 / 60));
    }
    long before = gAllocations.load();
    for (int f = 60; f < 120; ++f) {
      scenes::poseCharacter(c, (f + 1) / 60.0, false);
      c.world->step(1.0 / 60);
    }
    EXPECT_EQ(gAllocations.load() - before, 0) << threads << " threads";
  }
}

// Sleeping, switched-off and reduced-rate objects, switched off and on every frame.
TEST(Allocation, ActivityAllocatesNothing) {
  auto w = scenes::makeWorld();
  AnchorId a, b;
  w->addAnchor({0, 2, 0}, &a);
  w->addAnchor({1, 2, 0}, &b);
  RopeId asleep, slow, toggled;
  RopeDef d;
  d.start = {0, 2, 0};
  d.end = {0, 1, 0};
  d.params.sleepSpeed = 0.001f;
  ASSERT_OK(w->addRope(d, &asleep));
  ASSERT_OK(w->pin(asleep, 0, a));
  d.params = {};
  d.params.updateEvery = 2;
  d.start = {1, 2, 0};
  d.end = {1, 1, 0};
  ASSERT_OK(w->addRope(d, &slow));
  ASSERT_OK(w->pin(slow, 0, b));
  d.params = {};
  d.start = {2, 2, 0};
  d.end = {3, 2, 0};
  ASSERT_OK(w->addRope(d, &toggled));
  for (int f = 0; f < 1200; ++f) w->step(1.0 / 60.0);
  World::ObjectActivity act;
  w->activity(asleep, &act);
  ASSERT_TRUE(act.sleeping);
  long before = gAllocations.load();
  for (int f = 0; f < 60; ++f) {
    w->setAnchorPosition(b, {1 + 0.01f * f, 2, 0});
    w->setEnabled(toggled, f % 2 == 0);
    w->step(1.0 / 60.0);
    w->stateHash();
  }
  EXPECT_EQ(gAllocations.load() - before, 0);
}

// Render interpolation (wisp/interpolate.h) works in the caller's arrays: nothing per frame.
TEST(Allocation, RenderInterpolationAllocatesNothing) {
  std::vector<float> prev(4 * 64, 0.5f), cur(4 * 64, 0.25f), out(4 * 64);
  for (size_t i = 3; i < cur.size(); i += 4) prev[i] = cur[i] = 1;
  long before = gAllocations.load();
  for (int f = 0; f < 100; ++f) {
    const float a = renderAlpha(f * 1e-4, 1.0 / 60.0, 1 + f % 2);
    interpolatePositions(prev.data(), cur.data(), 64, a, out.data());
    interpolateNormals(prev.data(), cur.data(), 64, a, out.data());
    interpolateRotations(prev.data(), cur.data(), 64, a, out.data());
  }
  EXPECT_EQ(gAllocations.load() - before, 0);
}

TEST(Allocation, CounterWorks) {
  long before = gAllocations.load();
  auto w = scenes::makeWorld();
  EXPECT_GT(gAllocations.load(), before);
}

}  // namespace
}  // namespace wisp::test
