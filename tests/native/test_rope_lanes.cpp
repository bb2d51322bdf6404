// Ropes solved in SIMD lane groups (solver/rope_lanes.h) give exactly the bits of the scalar
// solver, whoever shares their group: the peer here is the scalar solver itself (lanes switched
// off) and the same rope in a world of its own, over many frames, on 1 and 2 threads, for ropes
// of mixed lengths and features, through a cut that regroups them.
#include <cstring>

#include "helpers.h"
#include "solver/rope_lanes.h"

namespace wisp::test {
namespace {

// Switches the lane groups for one scope (and back on after it, also when a test fails).
struct Lanes {
  explicit Lanes(bool on) : before(ropeLanesEnabled()) { setRopeLanesEnabled(on); }
  ~Lanes() { setRopeLanesEnabled(before); }
  bool before;
};

// Ten ropes that differ in what a lane carries: segment counts (five of 31 share groups, two of
// 16, the others alone), pins (the first particle, both ends, none, one on a moving anchor),
// stretch compliance, bending, plasticity, tethers, damping, drag, gravity scale, collisions.
constexpr int kRopes = 10;
RopeDef variedRope(int k) {
  static const int kSegments[kRopes] = {31, 16, 31, 5, 31, 16, 31, 1, 31, 40};
  RopeDef d;
  // from horizontal, so they swing hard
  d.start = {0.1f * k - 0.5f, 1.5f, 0.05f * (k % 3)};
  d.end = d.start + Vec3{0.6f + 0.03f * k, 0.0f, 0.02f * k};
  d.segments = kSegments[k];
  d.massPerLength = 0.05f + 0.02f * k;
  if (k != 6) d.pinned = {0};
  if (k == 4) d.pinned.push_back(kSegments[k]);  // both ends: a hanging catenary
  RopeParams& p = d.params;
  p.stretchCompliance = k == 2 ? 1e-4f : 0.0f;
  p.bending = k % 3 == 1;
  p.bendCompliance = 1e-3f * (1 + k);
  p.yieldRatio = k == 8 || k == 5 ? 1.02f : 0.0f;
  p.plasticity = 2.0f;
  p.tethers = k != 0;
  p.damping = 0.05f * k;
  p.drag = k == 3 ? 0.0f : 1.0f;
  p.gravityScale = 0.5f + 0.1f * k;
  p.collide = k != 7;
  p.radius = 0.01f + 0.002f * k;
  // rope 2 hangs from a whip in runHashWith: at the world's substeps, so that its further Newton
  // steps run in its lanes (a fast rope leaves its group: AFastRopeLeavesItsGroup...)
  if (k == 2) p.maxSubsteps = 1;
  return d;
}

struct Scene {
  std::unique_ptr<World> world;
  ColliderId sphere;
  AnchorId hand;
  std::vector<RopeId> ropes;
};

Scene makeScene(const std::vector<int>& which, int threads, int substeps = 10, int iterations = 1) {
  Scene s;
  WorldSettings ws;
  ws.threads = threads;
  ws.substeps = substeps;
  ws.iterations = iterations;
  s.world = scenes::makeWorld(ws);
  ColliderDef sphere;
  sphere.radius = 0.15f;
  EXPECT_TRUE(s.world->addCollider(sphere, &s.sphere).ok());
  EXPECT_TRUE(s.world->addAnchor({0, 1.5f, 0.3f}, &s.hand).ok());
  for (int k : which) {
    RopeId id;
    EXPECT_TRUE(s.world->addRope(variedRope(k), &id).ok());
    if (k == 9) {
      EXPECT_TRUE(s.world->pin(id, 40, s.hand, 0.05f).ok());  // a spring pin on a moving hand
    }
    s.ropes.push_back(id);
  }
  return s;
}

// Frame f: the sphere sweeps under the ropes, the hand circles; rope 0 (if there) is cut at
// frame 60, which moves its tail into groups of other lengths; frames of 1/60 s with a few of
// 1/30 s and 1/144 s.
void drive(Scene& s, const std::vector<int>& which, int f) {
  const float t = f / 60.0f;
  EXPECT_TRUE(s.world->setColliderTransform(s.sphere, {{0.4f * std::sin(2 * t), 1.2f, 0.1f}, {}}).ok());
  EXPECT_TRUE(s.world->setAnchorPosition(s.hand, {0.3f * std::cos(3 * t), 1.5f, 0.3f + 0.3f * std::sin(3 * t)}).ok());
  if (f == 60 && !which.empty() && which[0] == 0) {
    RopeId tail;
    EXPECT_TRUE(s.world->cutRope(s.ropes[0], 12, &tail).ok());
  }
  s.world->step(f % 17 == 5 ? 1.0 / 30.0 : f % 11 == 3 ? 1.0 / 144.0 : 1.0 / 60.0);
}

// Every bit a rope shows: each particle's position and velocity.
std::vector<uint32_t> bitsOf(const World& w, RopeId id) {
  int n = 0;
  w.ropeParticleCount(id, &n);
  std::vector<float> f;
  for (int i = 0; i < n; ++i) {
    ParticleState p;
    w.particle(id, i, &p);
    f.insert(f.end(), {p.position.x, p.position.y, p.position.z, p.velocity.x, p.velocity.y, p.velocity.z});
  }
  std::vector<uint32_t> bits(f.size());
  std::memcpy(bits.data(), f.data(), 4 * f.size());
  return bits;
}

std::vector<int> all() {
  std::vector<int> v;
  for (int k = 0; k < kRopes; ++k) v.push_back(k);
  return v;
}
constexpr int kFrames = 180;

uint64_t runHash(bool lanes, int threads) {
  Lanes on(lanes);
  const std::vector<int> which = all();
  Scene s = makeScene(which, threads);
  for (int f = 0; f < kFrames; ++f) drive(s, which, f);
  return s.world->stateHash();
}

TEST(RopeLanes, RopesInLaneGroupsEqualTheScalarSolverBitForBitOnOneAndTwoThreads) {
  const uint64_t scalar = runHash(false, 1);
  EXPECT_EQ(runHash(true, 1), scalar);
  EXPECT_EQ(runHash(true, 2), scalar);
  EXPECT_EQ(runHash(false, 2), scalar);
}

TEST(RopeLanes, ARopeInAGroupEqualsTheSameRopeAloneBitForBitEveryFrame) {
  const std::vector<int> which = all();
  Scene together = makeScene(which, 2);
  std::vector<Scene> alone;
  {
    Lanes off(false);
    for (int k : which) alone.push_back(makeScene({k}, 1));
  }
  for (int f = 0; f < kFrames; ++f) {
    {
      Lanes on(true);  // whatever the default
      drive(together, which, f);
    }
    {
      Lanes off(false);
      for (size_t k = 0; k < which.size(); ++k) drive(alone[k], {which[k]}, f);
    }
    // rope 0 alone is cut with the others (drive cuts rope 0 of a scene whose first rope is 0)
    for (size_t k = 0; k < which.size(); ++k)
      ASSERT_EQ(bitsOf(*together.world, together.ropes[k]), bitsOf(*alone[k].world, alone[k].ropes[0]))
          << "rope " << which[k] << " frame " << f;
  }
}

// Every stage the lane groups run in lanes (integration, pins, tethers alike and mixed within a
// group, the direct solve's Newton steps, the Gauss-Seidel passes, bending, the velocity update)
// and those they run rope by rope (air that varies, plastic tether limits, leashes, collisions,
// plasticity, a cut), at 1, 2, 3 and 10 substeps and 1 and 2 iterations. Rope 2 (in a group of
// four) hangs from a whip, an anchor circling at 15 m/s, so its direct solve takes further
// Newton steps while the others in its lanes have converged; rope 4 (both ends pinned) has its
// far end pulled out of reach over frames 40 to 70, where its Newton steps stop after the first;
// steady wind (the same air at every particle, in lanes) over frames 20 to 50, turbulent wind
// (per-particle air, rope by rope) after.
uint64_t runHashWith(bool lanes, int substeps, int iterations) {
  Lanes on(lanes);
  const std::vector<int> which = all();
  Scene s = makeScene(which, 1, substeps, iterations);
  AnchorId whip;
  EXPECT_TRUE(s.world->addAnchor({-0.3f, 1.5f, 0.1f}, &whip).ok());
  EXPECT_TRUE(s.world->pin(s.ropes[2], 0, whip).ok());
  const RopeDef four = variedRope(4);
  AnchorId stretcher;
  EXPECT_TRUE(s.world->addAnchor(four.end, &stretcher).ok());
  EXPECT_TRUE(s.world->pin(s.ropes[4], four.segments, stretcher).ok());
  for (int f = 0; f < 90; ++f) {
    const float t = f / 60.0f;
    EXPECT_TRUE(s.world->setAnchorPosition(whip, {-0.3f + 0.25f * std::cos(60 * t), 1.5f, 0.1f + 0.25f * std::sin(60 * t)}).ok());
    EXPECT_TRUE(s.world->setAnchorPosition(stretcher, f >= 40 && f < 70 ? four.end + Vec3{0.25f, 0, 0} : four.end).ok());
    if (f == 20 || f == 50) {
      WindSettings wind;
      wind.direction = {1, 0, 0.3f};
      wind.speed = 6;
      wind.turbulence = f == 50 ? 1.5f : 0.0f;
      wind.seed = 7;
      EXPECT_TRUE(s.world->setWind(wind).ok());
    }
    drive(s, which, f);
  }
  return s.world->stateHash();
}

TEST(RopeLanes, EveryLaneStageEqualsTheScalarSolverAtOneToTenSubstepsAndTwoIterations) {
  for (int substeps : {1, 2, 3, 10})
    for (int iterations : {1, 2})
      EXPECT_EQ(runHashWith(true, substeps, iterations), runHashWith(false, substeps, iterations))
          << substeps << " substeps x " << iterations << " iterations";
}

// Ropes with no rare stage (no collisions, plasticity, leashes or varying air) run their groups
// lean: the block filled with positions, velocities and rest lengths only, each substep's
// velocity update in the next one's integration pass, the start positions stored in the last
// substep only. Groups of four and a group of two (31, 16 and 5 segments: whole and partial
// transposes), pins at the first node, at both ends, in the middle and none (tethers to one node
// or to several across a group, still nodes inside the rope), a whip that makes one rope take
// further Newton steps alone in its group, bending, a compliant rope, steady wind, a speed cap
// that clamps, sleep, a rope disabled and enabled again, and a cut; at 1, 2, 3 and 10 substeps
// and 1 and 2 iterations.
RopeDef plainRope(int k) {
  static const int kSegments[10] = {31, 31, 31, 31, 16, 16, 16, 16, 5, 5};
  RopeDef d = variedRope(k);
  d.segments = kSegments[k];
  d.pinned.clear();
  if (k % 4 == 0 || k % 4 == 1) d.pinned.push_back(0);
  if (k % 4 == 1) d.pinned.push_back(d.segments);
  if (k % 4 == 3) d.pinned.push_back(d.segments / 2);
  RopeParams& p = d.params;
  p.collide = false;
  p.yieldRatio = 0.0f;
  p.tethers = k != 5;
  p.bending = k % 3 == 0;
  p.maxSpeed = k == 6 ? 1.5f : 100.0f;
  p.sleepSpeed = k == 7 ? 0.01f : 0.0f;
  p.maxSubsteps = k == 1 ? 1 : p.maxSubsteps;  // the whip: as rope 2 of variedRope
  return d;
}

uint64_t runPlainHash(bool lanes, int substeps, int iterations) {
  Lanes on(lanes);
  WorldSettings ws;
  ws.threads = 1;
  ws.substeps = substeps;
  ws.iterations = iterations;
  auto w = scenes::makeWorld(ws);
  std::vector<RopeId> ropes(10);
  for (int k = 0; k < 10; ++k) EXPECT_TRUE(w->addRope(plainRope(k), &ropes[k]).ok());
  AnchorId whip;
  EXPECT_TRUE(w->addAnchor(plainRope(1).start, &whip).ok());
  EXPECT_TRUE(w->pin(ropes[1], 0, whip).ok());
  for (int f = 0; f < 90; ++f) {
    const float t = f / 60.0f;
    const Vec3 s = plainRope(1).start;
    EXPECT_TRUE(w->setAnchorPosition(whip, s + Vec3{0.25f * std::cos(60 * t), 0, 0.25f * std::sin(60 * t)}).ok());
    if (f == 20 || f == 50) {
      WindSettings wind;
      wind.direction = {1, 0, 0.3f};
      wind.speed = f == 20 ? 6.0f : 0.0f;
      EXPECT_TRUE(w->setWind(wind).ok());
    }
    if (f == 30 || f == 45) {
      EXPECT_TRUE(w->setEnabled(ropes[2], f == 45).ok());
    }
    if (f == 60) {
      RopeId tail;
      EXPECT_TRUE(w->cutRope(ropes[0], 12, &tail).ok());
    }
    w->step(f % 17 == 5 ? 1.0 / 30.0 : f % 11 == 3 ? 1.0 / 144.0 : 1.0 / 60.0);
  }
  return w->stateHash();
}

TEST(RopeLanes, LeanGroupsWithoutRareStagesEqualTheScalarSolverAtOneToTenSubstepsAndTwoIterations) {
  for (int substeps : {1, 2, 3, 10})
    for (int iterations : {1, 2})
      EXPECT_EQ(runPlainHash(true, substeps, iterations), runPlainHash(false, substeps, iterations))
          << substeps << " substeps x " << iterations << " iterations";
}

// The ropes really swing, stretch little and are grouped: the comparison above is not of ropes
// at rest or of ropes that all ran alone.
TEST(RopeLanes, TheComparedRopesSwingAndKeepTheirLength) {
  Lanes on(true);
  const std::vector<int> which = all();
  Scene s = makeScene(which, 1);
  float lowest = 10.0f;
  for (int f = 0; f < 40; ++f) {
    drive(s, which, f);
    ParticleState p;
    s.world->particle(s.ropes[1], 16, &p);
    lowest = std::min(lowest, p.position.y);
  }
  EXPECT_LT(lowest, 1.5f - 0.3f);  // the free end of rope 1 (0.63 m) fell from horizontal
  int n = 0;
  s.world->ropeParticleCount(s.ropes[3], &n);
  float length = 0;
  ParticleState a, b;
  for (int i = 0; i + 1 < n; ++i) {
    s.world->particle(s.ropes[3], i, &a);
    s.world->particle(s.ropes[3], i + 1, &b);
    length += std::sqrt((b.position - a.position).x * (b.position - a.position).x +
                        (b.position - a.position).y * (b.position - a.position).y +
                        (b.position - a.position).z * (b.position - a.position).z);
  }
  EXPECT_NEAR(length, 0.69f, 0.69f * 0.02f);  // rope 3, inextensible: within 2 % of its rest length
}

// A fast rope (solver/rope_substeps.h: neighbours moving apart faster than a quarter segment per
// substep) runs more substeps than its lane group: it leaves the group for the frame and runs
// alone. Four ropes of 31 segments, one of them 5 cm long (1.6 mm segments) falling from
// horizontal, on 1 and 2 threads: each equals the same rope in a world of its own with the lane
// groups off, every frame; and the short rope did run more substeps (its bits differ from the
// same rope kept at the world's substeps).
TEST(RopeLanes, AFastRopeLeavesItsGroupAndEqualsItselfAloneBitForBit) {
  auto rope = [](int k, int maxSubsteps) {
    RopeDef d;
    d.start = {0.2f * k, 1.5f, 0};
    d.end = d.start + Vec3{k == 1 ? 0.05f : 0.8f, 0, 0};
    d.segments = 31;
    d.pinned = {0};
    d.params.collide = false;
    d.params.maxSubsteps = maxSubsteps;
    return d;
  };
  auto world = [](int threads) {
    WorldSettings ws;
    ws.threads = threads;
    return scenes::makeWorld(ws);
  };
  for (int threads : {1, 2}) {
    auto together = world(threads);
    std::vector<RopeId> ids(4);
    for (int k = 0; k < 4; ++k) ASSERT_OK(together->addRope(rope(k, 64), &ids[k]));
    std::vector<std::unique_ptr<World>> alone;
    std::vector<RopeId> single(4);
    for (int k = 0; k < 4; ++k) {
      alone.push_back(world(1));
      ASSERT_OK(alone[k]->addRope(rope(k, 64), &single[k]));
    }
    auto fixed = world(1);
    RopeId slow;
    ASSERT_OK(fixed->addRope(rope(1, 1), &slow));
    bool differs = false;
    for (int f = 0; f < 60; ++f) {
      {
        Lanes on(true);
        ASSERT_OK(together->step(1.0 / 60));
      }
      {
        Lanes off(false);
        for (int k = 0; k < 4; ++k) ASSERT_OK(alone[k]->step(1.0 / 60));
        ASSERT_OK(fixed->step(1.0 / 60));
      }
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(bitsOf(*together, ids[k]), bitsOf(*alone[k], single[k])) << "rope " << k << " frame " << f << ", " << threads << " threads";
      differs |= bitsOf(*alone[1], single[1]) != bitsOf(*fixed, slow);
    }
    EXPECT_TRUE(differs) << "the short rope never ran more substeps";
  }
}

}  // namespace
}  // namespace wisp::test
