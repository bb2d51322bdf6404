// The self-test module's own exports: the test suite's determinism scene (tests/scenes/scenes.h)
// and hooks that put a world in states no user call can reach. Linked with the bindings into
// build/wasm/selftest/ only (wasm/CMakeLists.txt): the package's build in wasm/dist/ has none of
// them (tests/js/shipped-build.test.mjs checks).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "math/glm_bridge.h"
#include "wisp/interpolate.h"
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

// The pose of a column-major 4x4 matrix computed by GLM in double precision, as wasm/js/pose.js
// reads one (columns' lengths, the 3x3 determinant, quat_cast of the columns divided by their
// lengths): [x, y, z, qx, qy, qz, qw, sx, sy, sz, det]. tests/js/pose-matrix.test.mjs checks that
// the JavaScript conversion gives these bits.
emscripten::val poseFromMatrixGlm(emscripten::val elements) {
  const std::vector<double> e = emscripten::vecFromJSArray<double>(elements);
  glm::dmat4 m(1.0);
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[c][r] = e.at(static_cast<size_t>(4 * c + r));
  const glm::dvec3 c0(m[0]), c1(m[1]), c2(m[2]);
  const double sx = glm::length(c0), sy = glm::length(c1), sz = glm::length(c2);
  const double det = glm::determinant(glm::dmat3(m));
  const glm::dquat q = glm::quat_cast(glm::dmat3(c0 / sx, c1 / sy, c2 / sz));
  const double out[11] = {m[3][0], m[3][1], m[3][2], q.x, q.y, q.z, q.w, sx, sy, sz, det};
  emscripten::val a = emscripten::val::array();
  for (double v : out) a.call<void>("push", v);
  return a;
}

// The core's render interpolation (wisp/interpolate.h) of float32 arrays `prev` and `cur` at
// `alpha` (mode 0 points, 1 unit vectors, 2 rotations, as wasm/js/interpolation.js numbers them):
// tests/js/interpolation-bits.test.mjs checks that the JavaScript copy gives these bits.
emscripten::val interpolateCore(int mode, emscripten::val prevArray, emscripten::val curArray,
                                float alpha) {
  const std::vector<float> prev = emscripten::vecFromJSArray<float>(prevArray);
  const std::vector<float> cur = emscripten::vecFromJSArray<float>(curArray);
  std::vector<float> out(cur.size());
  const int stride = mode == 2 ? 4 : 3;
  const int count = static_cast<int>(cur.size()) / stride;
  if (prev.size() == cur.size()) {
    if (mode == 0) interpolatePositions(prev.data(), cur.data(), count, alpha, out.data());
    if (mode == 1) interpolateNormals(prev.data(), cur.data(), count, alpha, out.data());
    if (mode == 2) interpolateRotations(prev.data(), cur.data(), count, alpha, out.data());
  }
  emscripten::val a = emscripten::val::array();
  for (float v : out) a.call<void>("push", v);
  return a;
}
double renderAlphaCore(double leftover, double fixedDt, int span) {
  return renderAlpha(leftover, fixedDt, span);
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
  function("poseFromMatrixGlm", &poseFromMatrixGlm);
  function("interpolateCore", &interpolateCore);
  function("renderAlphaCore", &renderAlphaCore);
}
