// The self-test module's own exports: the test suite's determinism scene (tests/scenes/scenes.h)
// and hooks that put a world in states no user call can reach. Linked with the bindings into
// build/wasm/selftest/ only (wasm/CMakeLists.txt): the package's build in wasm/dist/ has none of
// them (tests/js/shipped-build.test.mjs checks).
#include <emscripten/bind.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "scenes/scenes.h"

namespace wisp::bindings {

// bindings.cpp: WorldBinding::injectFault on the world at `world` (WorldBinding::address()).
int injectFault(uintptr_t world, int kind, double id, int particle);

namespace {

// Test hook: grows the heap from another thread (a worker in the threaded build) by allocating
// `bytes` there, so tests can check that views made before are refreshed afterwards. Released
// by releaseGrownMemory(). Returns false where there are no threads.
std::vector<void*>& grownBlocks() {
  static std::vector<void*> blocks;
  return blocks;
}
bool growMemoryFromWorker(double bytes) {
#if WISP_THREADS
  void* block = nullptr;
  std::thread t([&] {
    block = std::malloc(static_cast<size_t>(bytes));
    if (block) std::memset(block, 1, static_cast<size_t>(bytes));  // really touch it
  });
  t.join();
  if (block) grownBlocks().push_back(block);
  return block != nullptr;
#else
  (void)bytes;
  return false;
#endif
}
void releaseGrownMemory() {
  for (void* b : grownBlocks()) std::free(b);
  grownBlocks().clear();
}
// The determinism scene of the test suite (tests/scenes/scenes.h) run for `frames` frames with
// `threads` threads: its hash after 600 frames is the golden value every build must give.
std::string determinismSceneHash(int threads, int frames) {
  scenes::DeterminismScene sc = scenes::makeDeterminismScene(threads);
  for (int f = 0; f < frames; ++f) {
    scenes::driveDeterminismScene(sc, f);
    sc.world->step(1.0 / 60.0);
  }
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(sc.world->stateHash()));
  return buf;
}

}  // namespace
}  // namespace wisp::bindings

EMSCRIPTEN_BINDINGS(wisp_selftest) {
  using namespace wisp::bindings;
  using emscripten::function;
  function("determinismSceneHash", &determinismSceneHash);
  function("growMemoryFromWorker", &growMemoryFromWorker);
  function("releaseGrownMemory", &releaseGrownMemory);
  // Writes NaN into particle `particle` of a rope (kind 0), cloth (1) or chain (2); the status
  // code, with the message in the world's lastError().
  function("injectFault", &injectFault);
}
