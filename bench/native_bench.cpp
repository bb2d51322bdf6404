// Native benchmarks of the rope solver. Setups match bench/wasm_bench.mjs and the plain-JS
// Verlet baseline (bench/plain_verlet.mjs): ropes pinned at one end, swinging under gravity,
// 10 constraint passes per 1/60 s step (Wisp: 10 substeps x 1 iteration).
//   build/native/bench/wisp_bench            (or: npm run bench, which runs everything)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "scenes/scenes.h"

namespace {

using namespace wisp;

std::unique_ptr<World> ropes(int count, int particles, int threads) {
  WorldSettings s;
  s.substeps = 10;
  s.iterations = 1;
  s.threads = threads;
  auto w = scenes::makeWorld(s);
  for (int k = 0; k < count; ++k) {
    RopeDef d = scenes::straightRope({0, 2, 0.01f * k}, particles - 1, 1.0f / (particles - 1));
    d.pinned = {0};
    RopeId id;
    w->addRope(d, &id);
  }
  for (int f = 0; f < 10; ++f) w->step(1.0 / 60.0);  // past the first, straight pose
  return w;
}

void run(benchmark::State& state, int count, int particles) {
  const int threads = static_cast<int>(state.range(0));
  auto w = ropes(count, particles, threads);
  for (auto _ : state) w->step(1.0 / 60.0);
  state.SetLabel(std::to_string(count) + " ropes x " + std::to_string(particles) + " particles, 10 substeps x 1 iteration, " +
                 std::to_string(w->stats().threads) + " thread(s), SIMD " + (w->stats().simd ? "on" : "off"));
  state.counters["particles"] = count * particles;
  state.counters["ns/particle/pass"] = benchmark::Counter(double(count) * particles * 10,
                                                          benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// N x N quads, top row pinned, structural + shear (no bending, no aerodynamics), 10 substeps x
// 1 iteration: the setup of bench/plain_cloth.mjs and bench/wasm_bench.mjs.
void cloth(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), threads = static_cast<int>(state.range(1));
  WorldSettings s;
  s.substeps = 10;
  s.threads = threads;
  auto w = scenes::makeWorld(s);
  ClothDef d;
  d.grid = {1, 1, n, n, {{0, 2, 0}, {}}};
  for (int i = 0; i <= n; ++i) d.pinned.push_back(i);
  d.params.bending = false;
  d.params.dragCoefficient = 0;
  d.params.liftCoefficient = 0;
  ClothId id;
  w->addCloth(d, &id);
  for (int f = 0; f < 10; ++f) w->step(1.0 / 60.0);
  for (auto _ : state) w->step(1.0 / 60.0);
  state.SetLabel(std::to_string(n) + "x" + std::to_string(n) + " cloth, top row pinned, structural + shear, 10 substeps x 1 iteration, " +
                 std::to_string(w->stats().threads) + " thread(s)");
  state.counters["particles"] = (n + 1) * (n + 1);
}
BENCHMARK(cloth)->ArgsProduct({{32, 64, 128}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Ropes1000x32(benchmark::State& s) { run(s, 1000, 32); }
void BM_Rope1x10000(benchmark::State& s) { run(s, 1, 10000); }

BENCHMARK(BM_Ropes1000x32)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Rope1x10000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
