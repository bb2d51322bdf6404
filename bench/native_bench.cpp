// Native benchmarks of the solver. Setups match bench/wasm_bench.mjs and the plain-JS
// Verlet baseline (bench/plain_verlet.mjs): ropes pinned at one end, swinging under gravity,
// 10 constraint passes per 1/60 s step (Wisp: 10 substeps x 1 iteration).
//   build/native/bench/wisp_bench            (or: npm run bench, which runs everything)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <vector>
#include <string>

#include "scenes/character.h"
#include "scenes/scenes.h"
#include "solver/rope_lanes.h"

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
// 1 iteration: the setup of bench/plain_cloth.mjs and bench/wasm_bench.mjs. 316 x 316 quads is
// the 100,000-vertex cloth (100,489 particles).
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
  d.params.tethers = false;  // structural + shear only, as the plain-JS cloth
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
BENCHMARK(cloth)->ArgsProduct({{32, 64, 128, 316}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// The cape of tests/native/test_robust_cloth.cpp (1 m x 1 m, 16 x 16 quads, defaults, top row on
// anchors), one frame per iteration. Arg: 0 = hanging still, 1 = whipped across its face at
// 20 m/s turning every 0.25 s, 2 = whipped with ClothParams::maxSubsteps = 8 (fast pins off: the
// default 8 substeps throughout).
void BM_WhippedCape(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  WorldSettings s;
  s.threads = 1;
  auto w = scenes::makeWorld(s);
  ClothDef d;
  d.grid.transform.position = {-0.5f, 2.0f, 0};
  if (mode == 2) d.params.maxSubsteps = 8;
  ClothId id;
  w->addCloth(d, &id);
  std::vector<AnchorId> anchors(17);
  for (int i = 0; i <= 16; ++i) {
    w->addAnchor({-0.5f + i / 16.0f, 2.0f, 0}, &anchors[i]);
    w->pin(id, i, anchors[i]);
  }
  int f = 0;
  auto frame = [&] {
    const double u = std::fmod(++f / 60.0, 0.5) / 0.25;
    const float z = mode == 0 ? 0.0f : static_cast<float>(20.0 * 0.25 * (u < 1 ? u : 2 - u));
    for (int i = 0; i <= 16; ++i) w->setAnchorPosition(anchors[i], {-0.5f + i / 16.0f, 2.0f, z});
    w->step(1.0 / 60.0);
  };
  for (int k = 0; k < 30; ++k) frame();
  for (auto _ : state) frame();
  ClothStats st;
  w->clothStats(id, &st);
  state.SetLabel(std::string(mode == 0 ? "still" : mode == 1 ? "whipped at 20 m/s" : "whipped, maxSubsteps 8") +
                 ", 16x16 cape, " + std::to_string(st.substeps) + " substeps in the last frame");
}
BENCHMARK(BM_WhippedCape)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_Ropes1000x32(benchmark::State& s) { run(s, 1000, 32); }
// The same ropes with the rope lane groups off (solver/rope_lanes.h): the scalar solver, the
// baseline of the lane groups in the same run
void BM_Ropes1000x32ScalarPath(benchmark::State& s) {
  const bool before = ropeLanesEnabled();
  setRopeLanesEnabled(false);
  run(s, 1000, 32);
  setRopeLanesEnabled(before);
}
void BM_Rope1x10000(benchmark::State& s) { run(s, 1, 10000); }

BENCHMARK(BM_Ropes1000x32)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Ropes1000x32ScalarPath)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Rope1x10000)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

// Chains: the setup of bench/chain_bench.mjs. 1000 chains x 8 joints on a turning, bobbing head
// with 4 sphere colliders; Arg 0: threads, Arg 1: 0 = Wisp rule (8 substeps), 1 = VRM mode.
void BM_Chains1000x8(benchmark::State& state) {
  const int threads = static_cast<int>(state.range(0));
  const bool vrm = state.range(1) == 1;
  WorldSettings s;
  s.threads = threads;
  auto w = scenes::makeWorld(s);
  const float spheres[4][4] = {{0, 0, 0, 0.1f}, {0, -0.25f, -0.05f, 0.08f}, {-0.12f, -0.3f, 0, 0.06f}, {0.12f, -0.3f, 0, 0.06f}};
  std::vector<ColliderId> colliders(4);
  for (int k = 0; k < 4; ++k) {
    ColliderDef d;
    d.radius = spheres[k][3];
    w->addCollider(d, &colliders[k]);
  }
  std::vector<ChainId> chains(1000);
  for (int c = 0; c < 1000; ++c) {
    ChainDef d;
    d.root.position = {0, 1.6f, 0};
    d.joints.push_back({{0.01f * c, 0.05f, -0.12f}, {}});
    for (int j = 1; j < 8; ++j) d.joints.push_back({{0, -0.05f, -0.01f}, {}});
    d.params.radius = 0.02f;
    if (vrm) {
      d.params.mode = ChainMode::Vrm;
      d.params.stiffness = 1;
      d.params.damping = 0.4f;
      d.params.customGravity = true;
      d.params.gravity = {0, -1, 0};
      d.params.gravityScale = 0.5f;
    }
    w->addChain(d, &chains[c]);
  }
  int f = 0;
  auto frame = [&] {
    float t = f++ / 60.0f, a = 0.8f * std::sin(2 * t);
    Transform head{{0.2f * std::sin(3 * t), 1.6f, 0}, {0, std::sin(a / 2), 0, std::cos(a / 2)}};
    for (int k = 0; k < 4; ++k) {
      Transform tr = head;
      Vec3 o{spheres[k][0], spheres[k][1], spheres[k][2]};
      Vec3 u{head.rotation.x, head.rotation.y, head.rotation.z};
      Vec3 tt = cross(u, o) * 2.0f;
      tr.position = head.position + o + tt * head.rotation.w + cross(u, tt);
      w->setColliderTransform(colliders[k], tr);
    }
    w->setChainRoots(chains.data(), static_cast<int>(chains.size()), head);  // as bench/chain_bench.mjs
    w->step(1.0 / 60.0);
  };
  // warm-up frames, as BM_Wig2000x16 has (bench/chain_bench.mjs warms up 10): the chains leave
  // their rest pose and reach the colliders, and a callgrind run of one timed frame counts the
  // same 31 frames in any build
  for (int k = 0; k < 30; ++k) frame();
  for (auto _ : state) frame();
  state.SetLabel(std::string("1000 chains x 8 joints, 4 spheres, ") + (vrm ? "VRM mode (1 update/frame)" : "Wisp rule (8 substeps)") +
                 ", " + std::to_string(w->stats().threads) + " thread(s)");
  state.counters["time/joint/frame"] = benchmark::Counter(8000.0, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Chains1000x8)->ArgsProduct({{1, 2}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();

// The anti-gravity wig at scale (web/scenes/wig.js, hair-common.js): 2,000 strands x 16 joints
// (0.32 m) leaving a 0.1 m scalp along a Fibonacci spiral, rooted on a head turning +-1.3 rad at
// 3 rad/s, gravity scale -1 (the strands rise), the scene's chain parameters (stiffness 3/s,
// elasticity 0.3, damping 2/s, inertia 0.2, radius 1 cm), against the head sphere (0.105 m), two
// tapered shoulder capsules and a torso capsule posed with the head; Wisp rule, 8 substeps.
// Arg 0: threads. Target (issue 15): under 4 ms per frame on 2 threads.
void BM_Wig2000x16(benchmark::State& state) {
  constexpr int kStrands = 2000, kJoints = 16;
  WorldSettings s;
  s.threads = static_cast<int>(state.range(0));
  auto w = scenes::makeWorld(s);
  struct Part { Vec3 local; Quat rot; float radius, radiusTop, halfHeight; bool capsule; };
  const Part parts[4] = {{{0, 0, 0}, {}, 0.105f, -1, 0.1f, false},
                         {{-0.14f, -0.27f, -0.01f}, {0, 0, 0.7071068f, 0.7071068f}, 0.07f, 0.055f, 0.12f, true},
                         {{0.14f, -0.27f, -0.01f}, {0, 0, -0.7071068f, 0.7071068f}, 0.07f, 0.055f, 0.12f, true},
                         {{0, -0.45f, 0}, {}, 0.13f, 0.16f, 0.14f, true}};
  std::vector<ColliderId> colliders(4);
  for (int k = 0; k < 4; ++k) {
    ColliderDef d;
    d.type = parts[k].capsule ? ColliderType::Capsule : ColliderType::Sphere;
    d.radius = parts[k].radius;
    d.radiusTop = parts[k].radiusTop;
    d.halfHeight = parts[k].halfHeight;
    w->addCollider(d, &colliders[k]);
  }
  auto headAt = [](int f) {
    const float a = 1.3f * std::sin(3.0f * f / 60.0f);
    return Transform{{0, 1.6f, 0}, {0, std::sin(a / 2), 0, std::cos(a / 2)}};
  };
  auto rotate = [](const Quat& q, Vec3 v) {
    const Vec3 u{q.x, q.y, q.z}, t = cross(u, v) * 2.0f;
    return v + t * q.w + cross(u, t);
  };
  std::vector<ChainId> chains(kStrands);
  const float seg = 0.32f / (kJoints - 1), golden = 3.14159265f * (3 - std::sqrt(5.0f));
  for (int i = 0; i < kStrands; ++i) {
    const float y = 1 - (i + 0.5f) / kStrands * 0.85f, r = std::sqrt(1 - y * y), a = i * golden;
    const Vec3 n{r * std::cos(a), y, r * std::sin(a)};
    ChainDef d;
    d.root = headAt(0);
    d.joints.push_back({n * 0.1f, {}});
    for (int j = 1; j < kJoints; ++j) d.joints.push_back({n * seg, {}});
    d.params.stiffness = 3;
    d.params.elasticity = 0.3f;
    d.params.damping = 2;
    d.params.inertia = 0.2f;
    d.params.gravityScale = -1;
    d.params.radius = 0.01f;
    w->addChain(d, &chains[i]);
  }
  int f = 0;
  auto frame = [&] {
    const Transform head = headAt(++f);
    for (int k = 0; k < 4; ++k) {
      const Quat q = mul(head.rotation, parts[k].rot);
      w->setColliderTransform(colliders[k], Transform{head.position + rotate(head.rotation, parts[k].local), q});
    }
    w->setChainRoots(chains.data(), kStrands, head);  // every strand on the head: one call, as bench/setups.mjs's wig does
    w->step(1.0 / 60.0);
  };
  for (int k = 0; k < 30; ++k) frame();
  for (auto _ : state) frame();
  state.SetLabel("2000 strands x 16 joints, gravity scale -1, head sphere + 2 shoulder capsules + torso capsule, turning head, Wisp rule (8 substeps), " +
                 std::to_string(w->stats().threads) + " thread(s)");
  state.counters["time/joint/frame"] = benchmark::Counter(double(kStrands) * kJoints, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Wig2000x16)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The playground's scenes in gusty wind (turbulence 0.5), where the air differs at every
// particle: Arg 0 = 0 flag (30 x 20 quads, pinned to its pole, aerodynamic drag and lift, 8 m/s),
// 1 curtain (160 ropes x 24 segments, drag 1.5/s, 3 m/s), 2 wig (240 chains x 9 joints rising at
// gravity scale -1, 3 m/s); Arg 1: threads. Default substeps (8) and iterations (1).
void BM_GustyWind(benchmark::State& state) {
  const int scene = static_cast<int>(state.range(0)), threads = static_cast<int>(state.range(1));
  WorldSettings s;
  s.threads = threads;
  s.wind.direction = {1, 0, 0.3f};
  s.wind.turbulence = 0.5f;
  s.wind.speed = scene == 0 ? 8.0f : 3.0f;
  auto w = scenes::makeWorld(s);
  std::string what;
  if (scene == 0) {
    ClothDef d;
    d.grid = {1.5f, 1.0f, 30, 20, {{0.05f, 2.7f, 0}, {}}};
    for (int j = 0; j <= 20; ++j) d.pinned.push_back(j * 31);
    ClothId id;
    w->addCloth(d, &id);
    what = "flag 30x20 quads, aerodynamics, 8 m/s";
  } else if (scene == 1) {
    for (int k = 0; k < 160; ++k) {
      const float x = -1.6f + 3.2f * k / 159.0f;
      RopeDef d;
      d.start = {x, 2.2f, 0};
      d.end = {x, 0.6f, 0};
      d.segments = 24;
      d.pinned = {0};
      d.params.drag = 1.5f;
      RopeId id;
      w->addRope(d, &id);
    }
    what = "curtain 160 ropes x 24 segments, 3 m/s";
  } else {
    for (int k = 0; k < 240; ++k) {
      ChainDef d;
      const float a = 2.39996f * k;
      for (int j = 0; j < 9; ++j) d.points.push_back({0.1f * std::cos(a), 1.7f + 0.03f * j, 0.1f * std::sin(a)});
      d.params.gravityScale = -1;
      ChainId id;
      w->addChain(d, &id);
    }
    what = "wig 240 chains x 9 joints, gravity scale -1, 3 m/s";
  }
  for (int f = 0; f < 60; ++f) w->step(1.0 / 60.0);
  for (auto _ : state) w->step(1.0 / 60.0);
  state.SetLabel(what + ", turbulence 0.5, 8 substeps, " + std::to_string(w->stats().threads) + " thread(s)");
  state.counters["particles"] = w->stats().particles;
}
BENCHMARK(BM_GustyWind)->ArgsProduct({{0, 1, 2}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// A fully dressed character (tests/scenes/character.h): a skirt of 14 chains x 6 joints linked in
// a loop, a ponytail of 8 joints and a cape of 8 chains x 8 joints linked with diagonals, against
// two tapered thigh capsules, a torso capsule and a head sphere, on a procedural run cycle at
// 60 Hz, 8 substeps. Arg 0: characters in the world (1; 16 side by side, 2,496 joints, enough for
// the step to use 2 threads: below 2,048 particles it runs on 1 whatever the setting); Arg 1:
// threads; Arg 2: 1 = linked, 0 = the same chains unlinked (the baseline for the links' cost).
// Each character's colliders are in a group of their own, its chains' colliderMask that group.
void BM_DressedCharacter(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0)), threads = static_cast<int>(state.range(1));
  scenes::CharacterOptions o;
  o.threads = threads;
  o.linked = state.range(2) == 1;
  WorldSettings s;
  s.threads = threads;
  auto world = scenes::makeWorld(s);
  std::vector<scenes::Character> people(count);
  for (int k = 0; k < count; ++k) {
    o.groups = 1u << k;  // each character meets its own colliders
    scenes::dressCharacter(people[k], *world, o, Vec3{3.0f * k, 0, 0});
  }
  int f = 0;
  for (auto _ : state) {
    const double t = std::fmod((++f) / 60.0, 10.0);  // the 10 s run cycle, over and over
    for (scenes::Character& c : people) scenes::poseCharacter(c, t, f % 600 == 0);
    world->step(1.0 / 60.0);
  }
  int joints = 0;
  joints = world->stats().particles;
  state.SetLabel(std::to_string(count) + " character(s), " + std::to_string(joints) + " joints, " +
                 (o.linked ? "linked" : "unlinked (baseline)") + ", " + std::to_string(world->stats().threads) + " thread(s)");
  state.counters["time/character/frame"] =
      benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DressedCharacter)
    ->Args({1, 1, 0})->Args({1, 1, 1})->Args({16, 1, 0})->Args({16, 1, 1})->Args({16, 2, 0})->Args({16, 2, 1})
    ->Unit(benchmark::kMicrosecond)->UseRealTime();

BENCHMARK_MAIN();
