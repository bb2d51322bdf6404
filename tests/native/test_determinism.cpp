// Same inputs, same bits: across runs, thread counts, SIMD on/off and native vs WASM.
#include <cstdio>

#include "helpers.h"
#include "jobs/job_pool.h"

namespace wisp::test {
namespace {

// State hash of the determinism scene after 600 fixed steps (10 s at 60 Hz). The same value is
// expected from the SIMD build, the scalar build, every thread count and the WASM build; it
// changes only when the solver's arithmetic changes on purpose.
constexpr uint64_t kGoldenHash = 0x82c31487f5f484dcull;

// With the debug checks on: every step of the scene must pass them (no events at all).
uint64_t runScene(int threads, int frames = 600) {
  scenes::DeterminismScene sc = scenes::makeDeterminismScene(threads);
  WorldSettings s = sc.world->settings();
  s.debugChecks = true;
  EXPECT_TRUE(sc.world->setSettings(s).ok());
  for (int f = 0; f < frames; ++f) {
    scenes::driveDeterminismScene(sc, f);
    sc.world->step(1.0 / 60.0);
    for (const WorldEvent& e : sc.world->events()) ADD_FAILURE() << "frame " << f << ": " << e.message;
    if (!sc.world->events().empty()) break;
  }
  return sc.world->stateHash();
}

TEST(Determinism, TwoRunsGiveTheSameHash) { EXPECT_EQ(runScene(1, 120), runScene(1, 120)); }

TEST(Determinism, ThreadCountDoesNotChangeTheResult) {
  uint64_t serial = runScene(1, 120);
  for (int t : {2, 3, 4}) EXPECT_EQ(runScene(t, 120), serial) << t << " threads";
  EXPECT_EQ(runScene(0, 120), serial) << "all hardware threads";
  if (!jobs::threadsAvailable()) GTEST_SKIP() << "single-threaded build";
}

TEST(Determinism, GoldenHash) {
  uint64_t h = runScene(jobs::threadsAvailable() ? 2 : 1);
  std::printf("determinism scene hash after 600 steps: 0x%016llx\n", static_cast<unsigned long long>(h));
  EXPECT_EQ(h, kGoldenHash) << "the solver's results changed (or this platform differs)";
}

TEST(Determinism, HashSeesEveryBit) {
  auto a = runScene(1, 10), b = runScene(1, 11);
  EXPECT_NE(a, b);
}

}  // namespace
}  // namespace wisp::test
