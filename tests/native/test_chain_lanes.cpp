// Chains solved together in SIMD lane groups (solver/chain_lanes.h) give exactly the bits of the
// scalar solver, whoever shares their group: the peer here is the scalar solver itself (lanes
// switched off) and the same chain in a world of its own.
#include <cstring>
#include <random>

#include "helpers.h"
#include "math/frame.h"
#include "math/quat.h"
#include "math/wide_vec.h"
#include "solver/chain_joint_block.h"
#include "solver/chain_lanes.h"

namespace wisp::test {
namespace {

// Switches the lane kernels for one scope (and back on after it, also when a test fails).
struct Lanes {
  explicit Lanes(bool on) { setChainLanesEnabled(on); }
  ~Lanes() { setChainLanesEnabled(true); }
};

// Seven chains that differ in everything a lane carries: joint counts (three of 8 share a group,
// the others have groups of their own), stiffness, drag, gravity (the world's or their own, and
// its scale), hit radius, which colliders they meet, a boost, an animated pose.
ChainDef variedChain(int k, ChainMode mode) {
  static const int kJoints[7] = {8, 3, 8, 5, 8, 2, 9};
  ChainDef d;
  d.root.position = {0, 1.6f, 0};
  d.joints.push_back({{0.03f * k - 0.09f, 0.05f, -0.12f}, {}});
  for (int j = 1; j < kJoints[k]; ++j)
    d.joints.push_back({{0.004f * k, -0.05f - 0.002f * j, -0.01f * (k % 3)}, {0, 0.05f * (j % 2), 0, 1}});
  for (ChainJoint& j : d.joints) {
    const Quat q = j.rotation;
    const float n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    j.rotation = {q.x / n, q.y / n, q.z / n, q.w / n};
  }
  ChainParams& p = d.params;
  p.mode = mode;
  p.stiffness = 0.5f + 0.4f * k;
  p.damping = mode == ChainMode::Vrm ? 0.1f + 0.1f * k : 1.0f + 0.5f * k;
  p.gravityScale = 0.3f + 0.2f * k;
  p.customGravity = k % 2 == 1;
  p.gravity = {0.1f * k, -1.0f, 0};
  p.radius = 0.01f + 0.005f * k;
  p.colliderMask = k == 3 ? 0x1u : 0xFFFFFFFFu;  // chain 3 meets only the first collider
  p.collide = k != 5;
  p.stiffnessCurve = k == 4 ? Curve{{{0, 1}, {1, 0.2f}}} : Curve{};
  return d;
}

// A head that turns and bobs, a sphere, a capsule, a box and an inside sphere of its own group.
struct Scene {
  std::unique_ptr<World> world;
  std::vector<ColliderId> colliders;
  std::vector<ChainId> chains;
};

// Wisp-rule chain k with, besides variedChain's differences, one more feature each: the lane
// kernel's (inertia and a warm-up, elasticity, a boost (makeScene), a relative space, external
// force, drag and a teleport distance) and the scalar rule's, which the predicate routes there
// (chain 4's cone limit, chain 1's max distance).
ChainDef wispChain(int k) {
  ChainDef d = variedChain(k, ChainMode::Wisp);
  ChainParams& p = d.params;
  if (k == 0) {
    p.inertia = 0.5f;
    p.warmupSteps = 10;
  }
  if (k == 1) {
    p.elasticity = 0.4f;
    p.maxDistance = 0.3f;
  }
  if (k == 3) {
    p.space = ChainSpace::Relative;
    p.spaceInertia = 0.3f;
  }
  if (k == 4) p.limitAngle = 0.6f;
  if (k == 5) p.externalForce = {0.5f, 0, 0.2f};
  if (k == 6) {
    p.drag = 2.0f;
    p.teleportDistance = 0.2f;
  }
  return d;
}

Scene makeScene(const std::vector<int>& which, ChainMode mode, const WorldSettings& ws, bool featured = false) {
  Scene s;
  s.world = scenes::makeWorld(ws);
  ColliderDef sphere, capsule, box, inside;
  sphere.radius = 0.1f;
  sphere.groups = 0x1u;
  capsule.type = ColliderType::Capsule;
  capsule.radius = 0.05f;
  capsule.halfHeight = 0.1f;
  capsule.groups = 0x2u;
  box.type = ColliderType::Box;
  box.halfExtents = {0.08f, 0.05f, 0.05f};
  box.groups = 0x2u;
  inside.radius = 0.7f;
  inside.inside = true;
  inside.groups = 0x4u;
  for (const ColliderDef& d : {sphere, capsule, box, inside}) {
    ColliderId id;
    EXPECT_TRUE(s.world->addCollider(d, &id).ok());
    s.colliders.push_back(id);
  }
  for (int k : which) {
    ChainId id;
    EXPECT_TRUE(s.world->addChain(featured ? wispChain(k) : variedChain(k, mode), &id).ok());
    s.chains.push_back(id);
    if (k == 2) {
      EXPECT_TRUE(s.world->boostChain(id, {3, 0.5f, 1, 2}, 0.5f).ok());
    }
  }
  return s;
}

Scene makeScene(const std::vector<int>& which, ChainMode mode, int threads) {
  WorldSettings ws;
  ws.threads = threads;
  return makeScene(which, mode, ws);
}

// Frame f: the head's pose, the colliders on it, chain 6's animated pose; frames of 1/60 s with a
// few of 1/30 s (two fixed steps) and 1/144 s (ending between fixed steps).
void drive(Scene& s, const std::vector<int>& which, int f, float scale = 1) {
  const float t = f / 60.0f, a = 0.9f * std::sin(2 * t);
  const Transform head{{0.25f * std::sin(3 * t), 1.6f + 0.05f * std::sin(5 * t), 0}, {0, std::sin(a / 2), 0, std::cos(a / 2)}};
  const Vec3 offsets[4] = {{0, 0, 0}, {0, -0.25f, -0.08f}, {0.1f, -0.3f, -0.1f}, {0, -0.2f, 0}};
  for (int k = 0; k < 4; ++k) {
    Transform tr = head;
    const Vec3 u{head.rotation.x, head.rotation.y, head.rotation.z}, o = offsets[k];
    const Vec3 tt = cross(u, o) * 2.0f;
    tr.position = head.position + o + tt * head.rotation.w + cross(u, tt);
    EXPECT_TRUE(s.world->setColliderTransform(s.colliders[k], tr).ok());
  }
  for (size_t i = 0; i < which.size(); ++i) {
    EXPECT_TRUE(s.world->setChainRoot(s.chains[i], head, scale).ok());
    EXPECT_TRUE(s.world->setChainSpace(s.chains[i], {{0, 0.1f * std::sin(2 * t), 0}, {}}).ok());
    if (which[i] == 6) {
      int n = 0;
      s.world->chainJointCount(s.chains[i], &n);
      std::vector<float> pose(4 * n);
      for (int j = 0; j < n; ++j) {
        const float b = 0.3f * std::sin(4 * t + j);
        pose[4 * j] = std::sin(b / 2);
        pose[4 * j + 3] = std::cos(b / 2);
      }
      EXPECT_TRUE(s.world->setChainPose(s.chains[i], pose.data(), n).ok());
    }
  }
  s.world->step(f % 17 == 5 ? 1.0 / 30.0 : f % 11 == 3 ? 1.0 / 144.0 : 1.0 / 60.0);
}

// Every bit a chain shows: positions, world and local rotations, and each joint's velocity.
std::vector<uint32_t> bitsOf(const World& w, ChainId id) {
  int n = 0;
  w.chainJointCount(id, &n);
  std::vector<float> f(w.chainPositions(id), w.chainPositions(id) + 3 * n);
  f.insert(f.end(), w.chainRotations(id), w.chainRotations(id) + 4 * n);
  f.insert(f.end(), w.chainLocalRotations(id), w.chainLocalRotations(id) + 4 * n);
  for (int j = 0; j < n; ++j) {
    ParticleState p;
    w.particle(id, j, &p);
    f.insert(f.end(), {p.position.x, p.position.y, p.position.z, p.velocity.x, p.velocity.y, p.velocity.z});
  }
  std::vector<uint32_t> bits(f.size());
  std::memcpy(bits.data(), f.data(), 4 * f.size());
  return bits;
}

// bitsOf every chain of `ids`, one after the other.
std::vector<uint32_t> bitsOf(const World& w, const std::vector<ChainId>& ids) {
  std::vector<uint32_t> bits;
  for (ChainId id : ids) {
    const std::vector<uint32_t> b = bitsOf(w, id);
    bits.insert(bits.end(), b.begin(), b.end());
  }
  return bits;
}

const std::vector<int> kAll{0, 1, 2, 3, 4, 5, 6};
constexpr int kFrames = 150;

uint64_t runHash(const std::vector<int>& which, ChainMode mode, bool lanes, int threads) {
  Lanes on(lanes);
  Scene s = makeScene(which, mode, threads);
  for (int f = 0; f < kFrames; ++f) drive(s, which, f);
  return s.world->stateHash();
}

TEST(ChainLanes, VrmChainsInLaneGroupsEqualTheScalarSolverBitForBit) {
  EXPECT_EQ(runHash(kAll, ChainMode::Vrm, true, 1), runHash(kAll, ChainMode::Vrm, false, 1));
}

void expectGroupedEqualsAlone(ChainMode mode) {
  Scene all = makeScene(kAll, mode, 1);
  std::vector<Scene> alone;
  for (int k : kAll) {
    Lanes off(false);  // alone and scalar
    alone.push_back(makeScene({k}, mode, 1));
  }
  for (int f = 0; f < kFrames; ++f) {
    drive(all, kAll, f);
    {
      Lanes off(false);
      for (int k : kAll) drive(alone[k], {k}, f);
    }
    for (int k : kAll)
      ASSERT_EQ(bitsOf(*all.world, all.chains[k]), bitsOf(*alone[k].world, alone[k].chains[0])) << "chain " << k << ", frame " << f;
  }
  // and the chains moved, met colliders and differ from each other (the comparison is not vacuous)
  EXPECT_NE(bitsOf(*all.world, all.chains[0]), bitsOf(*all.world, all.chains[2]));
}

TEST(ChainLanes, AChainInAGroupEqualsTheSameChainAloneBitForBit) { expectGroupedEqualsAlone(ChainMode::Vrm); }

// ---- the Wisp rule (solver/chain_lanes_wisp.h) ----

TEST(ChainLanes, WispChainsInLaneGroupsEqualTheScalarSolverBitForBit) {
  EXPECT_EQ(runHash(kAll, ChainMode::Wisp, true, 1), runHash(kAll, ChainMode::Wisp, false, 1));
}

TEST(ChainLanes, AWispChainInAGroupEqualsTheSameChainAloneBitForBit) { expectGroupedEqualsAlone(ChainMode::Wisp); }

// Every feature the Wisp kernel batches, and chains it routes to the scalar rule beside them, in
// turbulent wind, at 1 to 13 substeps: each chain's bits equal the scalar solver's, frame by frame.
TEST(ChainLanes, WispFeaturesAtAnySubstepCountEqualTheScalarSolver) {
  const std::vector<int> which{0, 1, 2, 3, 4, 5, 6, 0, 2, 3, 5, 6, 0, 6};
  for (int substeps : {1, 2, 3, 8, 13}) {
    WorldSettings ws;
    ws.substeps = substeps;
    ws.wind.speed = 3.0f;
    ws.wind.turbulence = 0.5f;
    Scene lanes = makeScene(which, ChainMode::Wisp, ws, true), scalar;
    {
      Lanes off(false);
      scalar = makeScene(which, ChainMode::Wisp, ws, true);
    }
    for (int f = 0; f < 90; ++f) {
      drive(lanes, which, f);
      {
        Lanes off(false);
        drive(scalar, which, f);
      }
      for (size_t i = 0; i < which.size(); ++i)
        ASSERT_EQ(bitsOf(*lanes.world, lanes.chains[i]), bitsOf(*scalar.world, scalar.chains[i]))
            << "chain " << which[i] << ", frame " << f << ", substeps " << substeps;
    }
    EXPECT_EQ(lanes.world->stateHash(), scalar.world->stateHash());
  }
}

// Enough Wisp-rule chains for the step to use 2 threads (2,048 particles): lane groups on either
// thread give the single-threaded scalar solver's bits.
TEST(ChainLanes, WispChainsOnTwoThreadsEqualTheScalarSolver) {
  std::vector<int> which;
  for (int i = 0; i < 420; ++i) which.push_back(i % 7);
  auto run = [&](bool lanes, int threads) {
    Lanes on(lanes);
    WorldSettings ws;
    ws.threads = threads;
    Scene s = makeScene(which, ChainMode::Wisp, ws, true);
    for (int f = 0; f < 40; ++f) drive(s, which, f);
    EXPECT_EQ(s.world->stats().threads, threads);
    return s.world->stateHash();
  };
  const uint64_t scalar = run(false, 1);
  EXPECT_EQ(run(true, 1), scalar);
  EXPECT_EQ(run(true, 2), scalar);
}

// Chains the lanes take (VRM rule) between chains they do not (Wisp rule, updateEvery 2): the
// same bits as with every chain on the scalar solver, on 1 and 2 threads.
TEST(ChainLanes, MixedBatchableAndScalarChains) {
  auto run = [](bool lanes, int threads) {
    Lanes on(lanes);
    WorldSettings ws;
    ws.threads = threads;
    auto w = scenes::makeWorld(ws);
    ColliderId sphere;
    ColliderDef d;
    d.transform.position = {0, 1.45f, -0.1f};
    EXPECT_TRUE(w->addCollider(d, &sphere).ok());
    std::vector<ChainId> ids;
    for (int k = 0; k < 21; ++k) {
      ChainDef c = variedChain(k % 7, k % 3 == 1 ? ChainMode::Wisp : ChainMode::Vrm);
      if (k % 5 == 4) c.params.updateEvery = 2;
      ChainId id;
      EXPECT_TRUE(w->addChain(c, &id).ok());
      ids.push_back(id);
    }
    for (int f = 0; f < 120; ++f) {
      const float t = f / 60.0f, a = 0.8f * std::sin(2 * t);
      for (ChainId id : ids) w->setChainRoot(id, {{0.2f * std::sin(3 * t), 1.6f, 0}, {0, std::sin(a / 2), 0, std::cos(a / 2)}});
      w->step(1.0 / 60.0);
    }
    return w->stateHash();
  };
  const uint64_t scalar = run(false, 1);
  EXPECT_EQ(run(true, 1), scalar);
  EXPECT_EQ(run(true, 2), scalar);
}

// Chains whose roots are far from a sphere that only their lower bones reach, swaying into it
// (the Wisp kernel skips a collider for the bones whose reach from joint 0 cannot touch it, and
// must not for the others), with an inertia that varies along the chain (the carry reuses a
// joint's turn for the next joint only when their shares are equal): the scalar solver's bits.
TEST(ChainLanes, WispBonesThatReachAColliderOnlyFarFromTheRootEqualTheScalarSolver) {
  auto run = [](bool lanes, bool sphere) {
    Lanes on(lanes);
    auto w = scenes::makeWorld(WorldSettings{});
    if (sphere) {
      ColliderDef d;
      d.radius = 0.06f;
      d.transform.position = {0.05f, 1.6f - 0.33f, 0.02f};
      ColliderId id;
      EXPECT_TRUE(w->addCollider(d, &id).ok());
    }
    std::vector<ChainId> ids;
    for (int c = 0; c < 8; ++c) {
      ChainDef d;
      d.joints.push_back({{0.02f * c, 0, 0}, {}});
      for (int j = 1; j < 9; ++j) d.joints.push_back({{0, -0.045f, 0}, {}});
      d.params.radius = 0.01f;
      d.params.inertia = 0.6f;
      if (c % 2 == 0) d.params.inertiaCurve = Curve{{{0, 1}, {1, 0.1f}}};
      ChainId id;
      EXPECT_TRUE(w->addChain(d, &id).ok());
      ids.push_back(id);
    }
    std::vector<std::vector<uint32_t>> frames;
    for (int f = 0; f < 120; ++f) {
      const float t = f / 60.0f, a = 0.6f * std::sin(3 * t);
      for (ChainId id : ids) w->setChainRoot(id, {{0.15f * std::sin(2 * t), 1.6f, 0}, {0, 0, std::sin(a / 2), std::cos(a / 2)}});
      w->step(1.0 / 60.0);
      frames.push_back(bitsOf(*w, ids));
    }
    return frames;
  };
  const auto scalar = run(false, true), lanes = run(true, true);
  for (size_t f = 0; f < scalar.size(); ++f) ASSERT_EQ(lanes[f], scalar[f]) << "frame " << f;
  EXPECT_NE(scalar.back(), run(false, false).back());  // the sphere was met
}

// Long bones swung through clumps of overlapping spheres, so that one sphere's push turns a bone
// into the next sphere in the same pass: the kernel's cheap reach test (mayTouch) for each
// collider must see the bone as the pushes before it left it, as collideBone's loop in the scalar
// rule does. Seeded clumps, 1 and 2 substeps (deep contacts, big turns per push).
TEST(ChainLanes, WispBonesPushedFromSphereIntoSphereEqualTheScalarSolver) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    for (int substeps : {1, 2}) {
      auto run = [seed, substeps](bool lanes, bool spheres) {
        Lanes on(lanes);
        WorldSettings ws;
        ws.substeps = substeps;
        auto w = scenes::makeWorld(ws);
        uint32_t state = seed * 2654435761u;
        auto rnd = [&state]() {  // in [0, 1)
          state = state * 1664525u + 1013904223u;
          return static_cast<float>(state >> 8) / 16777216.0f;
        };
        if (spheres) {
          for (int s = 0; s < 24; ++s) {
            ColliderDef d;
            d.radius = 0.03f + 0.06f * rnd();
            d.transform.position = {0.5f * rnd() - 0.25f, 1.6f - 0.1f - 0.5f * rnd(), 0.5f * rnd() - 0.25f};
            ColliderId id;
            EXPECT_TRUE(w->addCollider(d, &id).ok());
          }
        }
        std::vector<ChainId> ids;
        for (int c = 0; c < 16; ++c) {
          ChainDef d;
          d.joints.push_back({{0.1f * rnd() - 0.05f, 0, 0.1f * rnd() - 0.05f}, {}});
          for (int j = 1; j < 4; ++j) d.joints.push_back({{0.1f * rnd() - 0.05f, -0.2f, 0.1f * rnd() - 0.05f}, {}});
          d.params.radius = 0.01f + 0.01f * rnd();
          d.params.stiffness = 0.3f;
          ChainId id;
          EXPECT_TRUE(w->addChain(d, &id).ok());
          ids.push_back(id);
        }
        std::vector<std::vector<uint32_t>> frames;
        for (int f = 0; f < 240; ++f) {
          const float t = static_cast<float>(f) / 60.0f, a = 2.0f * std::sin(7 * t);
          for (ChainId id : ids)
            w->setChainRoot(id, {{0.12f * std::sin(9 * t), 1.6f, 0.1f * std::cos(6 * t)}, {std::sin(a / 2) * 0.6f, 0, std::sin(a / 2) * 0.8f, std::cos(a / 2)}});
          w->step(1.0 / 60.0);
          frames.push_back(bitsOf(*w, ids));
        }
        return frames;
      };
      const auto scalar = run(false, true), lanes = run(true, true);
      for (size_t f = 0; f < scalar.size(); ++f) ASSERT_EQ(lanes[f], scalar[f]) << "seed " << seed << ", " << substeps << " substeps, frame " << f;
      EXPECT_NE(scalar.back(), run(false, false).back());  // the spheres were met
    }
  }
}

// Chains whose roots move alike share the roots' interpolated substep poses (RootPath, kept
// from lane group to lane group on a thread): in groups where every lane shares the root, where
// one lane's differs in one bit of its rotation or position, where the frame starts at the same
// root for every lane and ends elsewhere for one lane or for all, and in a second world stepped
// right after the first on the same thread, from the same root to the same root with another
// substep count.
TEST(ChainLanes, WispChainsSharingARootOrNotEqualTheScalarSolver) {
  auto run = [](bool lanes) {
    Lanes on(lanes);
    std::unique_ptr<World> worlds[2];
    std::vector<ChainId> ids[2];
    for (int k = 0; k < 2; ++k) {
      WorldSettings ws;
      ws.substeps = k == 0 ? 8 : 3;
      worlds[k] = scenes::makeWorld(ws);
      for (int c = 0; c < 14; ++c) {
        ChainDef d;
        d.joints.push_back({{0.02f * c - 0.1f, 0.05f, 0}, {}});
        for (int j = 1; j < 6; ++j) d.joints.push_back({{0, -0.04f, 0.01f}, {}});
        d.params.stiffness = 0.5f;
        d.params.inertia = c % 3 == 0 ? 0.4f : 0.0f;
        ChainId id;
        EXPECT_TRUE(worlds[k]->addChain(d, &id).ok());
        ids[k].push_back(id);
      }
    }
    auto nudge = [](float v) {  // the next float up: one bit apart
      uint32_t u;
      std::memcpy(&u, &v, 4);
      ++u;
      std::memcpy(&v, &u, 4);
      return v;
    };
    std::vector<std::vector<uint32_t>> frames;
    for (int f = 0; f < 90; ++f) {
      const float a = 0.7f * std::sin(0.2f * f);
      const Transform pose{{0.1f * std::sin(0.3f * f), 1.6f, 0}, {0, std::sin(a / 2), 0, std::cos(a / 2)}};
      for (int k = 0; k < 2; ++k) {
        for (size_t c = 0; c < ids[k].size(); ++c) {
          Transform root = pose;
          if (c == 3) root.rotation.y = nudge(root.rotation.y);
          if (c == 5) root.position.x = nudge(root.position.x);
          if ((c == 9 || c >= 12) && f % 5 == 0) root.position.z = 0.05f;  // ends elsewhere this frame
          EXPECT_TRUE(worlds[k]->setChainRoot(ids[k][c], root).ok());
        }
        worlds[k]->step(f % 3 == 0 ? 1.0 / 30.0 : 1.0 / 60.0);
        frames.push_back(bitsOf(*worlds[k], ids[k]));
      }
    }
    return frames;
  };
  const auto scalar = run(false), lanes = run(true);
  for (size_t f = 0; f < scalar.size(); ++f) ASSERT_EQ(lanes[f], scalar[f]) << "frame " << f / 2 << ", world " << f % 2;
}

// ---- the lane group's joint block (solver/chain_joint_block.h) ----

// The 4 x 4 transpose the block's gathers and scatters go through: rows become columns.
TEST(ChainLanes, WideTransposeSwapsRowsAndColumns) {
  float m[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) m[i][j] = static_cast<float>(10 * i + j);
  wide::F4 a = wide::load(m[0]), b = wide::load(m[1]), c = wide::load(m[2]), d = wide::load(m[3]);
  wide::transpose(a, b, c, d);
  const wide::F4 rows[4] = {a, b, c, d};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(wide::lane(rows[i], j), m[j][i]) << i << ", " << j;
}

// The carry's rotation matrix and its turn on the lanes have the bits of frame.h's (GLM's).
TEST(ChainLanes, WideTurnMatrixEqualsGlms) {
  std::mt19937 rng(5);
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (int trial = 0; trial < 1000; ++trial) {
    Quat q[4];
    Vec3 v[4];
    for (int l = 0; l < 4; ++l) {
      q[l] = normalize(Quat{n(rng), n(rng), n(rng), n(rng)});
      v[l] = Vec3{n(rng), n(rng), n(rng)} * 3.0f;
    }
    const wide::Q4 wq{wide::make(q[0].x, q[1].x, q[2].x, q[3].x), wide::make(q[0].y, q[1].y, q[2].y, q[3].y),
                      wide::make(q[0].z, q[1].z, q[2].z, q[3].z), wide::make(q[0].w, q[1].w, q[2].w, q[3].w)};
    const wide::V3 wv{wide::make(v[0].x, v[1].x, v[2].x, v[3].x), wide::make(v[0].y, v[1].y, v[2].y, v[3].y),
                      wide::make(v[0].z, v[1].z, v[2].z, v[3].z)};
    const wide::V3 got = wide::turn(wide::turnMatrix(wq), wv);
    for (int l = 0; l < 4; ++l) {
      const Vec3 want = turn(turnMatrix(q[l]), v[l]);
      const float g[3] = {wide::lane(got.x, l), wide::lane(got.y, l), wide::lane(got.z, l)};
      const float w[3] = {want.x, want.y, want.z};
      ASSERT_EQ(std::memcmp(g, w, sizeof g), 0) << "trial " << trial << ", lane " << l;
    }
  }
}

// The lanes' swingRotation (a joint's rotation) has the scalar one's bits whichever lanes' bones
// are flipped opposite their rest direction (the half turn in the bone's frame).
TEST(ChainLanes, WideSwingRotationEqualsTheScalarOneWhicheverLanesAreFlipped) {
  std::mt19937 rng(9);
  std::normal_distribution<float> n(0.0f, 1.0f);
  auto unit = [&] { const Vec3 v{n(rng), n(rng), n(rng)}; return v * (1.0f / length(v)); };
  for (int flipped = 0; flipped < 16; ++flipped) {
    Quat rest[4];
    Vec3 r[4], d[4], axis[4];
    for (int l = 0; l < 4; ++l) {
      rest[l] = normalize(Quat{n(rng), n(rng), n(rng), n(rng)});
      axis[l] = unit();
      r[l] = normalizeOr(rotate(rest[l], axis[l]), axis[l]);
      d[l] = flipped & (1 << l) ? r[l] * -1.0f : unit();
    }
    auto v3 = [](const Vec3 (&v)[4]) {
      return wide::V3{wide::make(v[0].x, v[1].x, v[2].x, v[3].x), wide::make(v[0].y, v[1].y, v[2].y, v[3].y),
                      wide::make(v[0].z, v[1].z, v[2].z, v[3].z)};
    };
    const wide::Q4 wq{wide::make(rest[0].x, rest[1].x, rest[2].x, rest[3].x), wide::make(rest[0].y, rest[1].y, rest[2].y, rest[3].y),
                      wide::make(rest[0].z, rest[1].z, rest[2].z, rest[3].z), wide::make(rest[0].w, rest[1].w, rest[2].w, rest[3].w)};
    const wide::Q4 q = wide::swingRotation(wq, v3(r), v3(d), v3(axis));
    for (int l = 0; l < 4; ++l) {
      const Quat expected = swingRotation(rest[l], r[l], d[l], axis[l]);
      const float got[4] = {wide::lane(q.x, l), wide::lane(q.y, l), wide::lane(q.z, l), wide::lane(q.w, l)};
      const float want[4] = {expected.x, expected.y, expected.z, expected.w};
      EXPECT_EQ(std::memcmp(got, want, sizeof got), 0) << "lanes flipped " << flipped << ", lane " << l;
    }
  }
}

// The lanes' from-to rotation computes the opposite-vectors branch only when some lane takes it:
// every lane still has the scalar function's bits, whether none, some or all lanes are opposite.
TEST(ChainLanes, WideFromUnitVectorsEqualsTheScalarOneWhicheverLanesAreOpposite) {
  auto normalize = [](Vec3 v) { return v * (1.0f / length(v)); };
  const Vec3 axes[4] = {normalize(Vec3{0.2f, -1, 0.1f}), normalize(Vec3{1, 0.3f, 0}), normalize(Vec3{0, 0.1f, -1}),
                        normalize(Vec3{-0.6f, 0.5f, 0.62f})};
  const Vec3 others[4] = {normalize(Vec3{0.3f, -1, 0}), normalize(Vec3{0.9f, 0.5f, 0.1f}), normalize(Vec3{0.1f, 0, -1}),
                          normalize(Vec3{-0.5f, 0.4f, 0.7f})};
  for (int opposite = 0; opposite < 16; ++opposite) {  // which lanes are (nearly) opposite: each subset
    Vec3 a[4], b[4];
    for (int l = 0; l < 4; ++l) {
      a[l] = axes[l];
      // exactly opposite on lanes 0 and 2, a hair from it (r < 1e-6 all the same) on 1 and 3
      b[l] = opposite & (1 << l) ? (l % 2 == 0 ? a[l] * -1.0f : normalize(a[l] * -1.0f + Vec3{1e-5f, 0, 0})) : others[l];
    }
    const wide::V3 wa{wide::make(a[0].x, a[1].x, a[2].x, a[3].x), wide::make(a[0].y, a[1].y, a[2].y, a[3].y),
                      wide::make(a[0].z, a[1].z, a[2].z, a[3].z)};
    const wide::V3 wb{wide::make(b[0].x, b[1].x, b[2].x, b[3].x), wide::make(b[0].y, b[1].y, b[2].y, b[3].y),
                      wide::make(b[0].z, b[1].z, b[2].z, b[3].z)};
    const wide::Q4 q = wide::fromUnitVectors(wa, wb);
    for (int l = 0; l < 4; ++l) {
      const Quat expected = fromUnitVectors(a[l], b[l]);
      const float got[4] = {wide::lane(q.x, l), wide::lane(q.y, l), wide::lane(q.z, l), wide::lane(q.w, l)};
      const float want[4] = {expected.x, expected.y, expected.z, expected.w};
      EXPECT_EQ(std::memcmp(got, want, sizeof got), 0) << "lanes opposite " << opposite << ", lane " << l;
      if (opposite & (1 << l)) {
        EXPECT_EQ(want[3], 0.0f) << "the half-turn branch";  // (the case is the one meant)
      }
    }
  }
}

// More colliders than the VRM kernel poses once per fixed step (16): the rest are posed per
// joint, after the first 16, in collider order. Spheres around the chains' path, the last ones
// in it, on a moving head; frames of one and two fixed steps.
TEST(ChainLanes, VrmChainsMeetingMoreThanSixteenCollidersEqualTheScalarSolver) {
  constexpr int kColliders = 20;
  auto make = [](int colliders) {
    Scene s;
    s.world = scenes::makeWorld();
    for (int k = 0; k < colliders; ++k) {
      ColliderDef d;
      d.radius = k >= 16 ? 0.04f : 0.02f;
      ColliderId id;
      EXPECT_TRUE(s.world->addCollider(d, &id).ok());
      s.colliders.push_back(id);
    }
    for (int k = 0; k < 8; ++k) {
      ChainId id;
      EXPECT_TRUE(s.world->addChain(variedChain(k % 7, ChainMode::Vrm), &id).ok());
      s.chains.push_back(id);
    }
    return s;
  };
  auto run = [&](bool lanes, int colliders) {
    Lanes on(lanes);
    Scene s = make(colliders);
    std::vector<std::vector<uint32_t>> bits;
    for (int f = 0; f < 90; ++f) {
      const float t = f / 60.0f, a = 0.9f * std::sin(2 * t);
      const Transform head{{0.1f * std::sin(3 * t), 1.6f, 0}, {0, std::sin(a / 2), 0, std::cos(a / 2)}};
      for (int k = 0; k < colliders; ++k) {
        // the first 16 off to the sides, the rest across the chains' path below the root
        const Vec3 o = k < 16 ? Vec3{0.04f * (k % 8) - 0.14f, -0.1f - 0.03f * (k / 8), k % 2 ? 0.02f : -0.3f}
                              : Vec3{0.05f * (k - 16) - 0.08f, -0.18f, -0.13f};
        EXPECT_TRUE(s.world->setColliderTransform(s.colliders[k], {head.position + rotate(head.rotation, o), head.rotation}).ok());
      }
      for (ChainId id : s.chains) EXPECT_TRUE(s.world->setChainRoot(id, head).ok());
      s.world->step(f % 7 == 3 ? 1.0 / 30.0 : 1.0 / 60.0);
    }
    for (ChainId id : s.chains) bits.push_back(bitsOf(*s.world, id));
    return bits;
  };
  const auto lanes = run(true, kColliders);
  EXPECT_EQ(lanes, run(false, kColliders));
  EXPECT_NE(lanes, run(true, 16)) << "the colliders past the 16th are met";
}

// VRM lane groups among colliders of every kind: barely damped chains whose roots wander, and every
// ninth frame jump by up to 1.5 m, between spheres, capsules and boxes scattered around them: the
// lanes must push exactly where the scalar rule does, frame by frame.
TEST(ChainLanes, VrmChainsJumpingAmongScatteredCollidersEqualTheScalarSolver) {
  auto run = [](bool lanes, bool colliders) {
    Lanes on(lanes);
    auto w = scenes::makeWorld();
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    if (colliders)
      for (int k = 0; k < 14; ++k) {
        ColliderDef d;
        d.type = k % 7 == 5 ? ColliderType::Capsule : k % 7 == 6 ? ColliderType::Box : ColliderType::Sphere;
        d.radius = 0.05f + 0.1f * (1 + u(rng));
        d.halfHeight = 0.15f;
        d.halfExtents = {0.1f, 0.2f, 0.05f};
        d.transform.position = {1.5f * u(rng), 1.0f + 0.8f * u(rng), 1.2f * u(rng)};
        d.transform.rotation = normalize(Quat{u(rng), u(rng), u(rng), 1.0f});
        ColliderId id;
        EXPECT_TRUE(w->addCollider(d, &id).ok());
      }
    std::vector<ChainId> ids;
    for (int c = 0; c < 12; ++c) {
      ChainDef d;
      d.joints.push_back({{0.05f * (c % 4), 0, 0}, {}});
      for (int j = 1; j < 6; ++j) d.joints.push_back({{0.02f * u(rng), -0.1f, 0.03f * u(rng)}, {}});
      d.params.mode = ChainMode::Vrm;
      d.params.stiffness = 0.2f + 0.2f * (c % 5);
      d.params.damping = 0.02f;
      d.params.gravityScale = 0.5f;
      d.params.radius = 0.01f + 0.02f * (c % 3);
      ChainId id;
      EXPECT_TRUE(w->addChain(d, &id).ok());
      ids.push_back(id);
    }
    std::vector<Vec3> at(ids.size(), Vec3{0, 1.3f, 0});
    std::vector<std::vector<uint32_t>> frames;
    for (int f = 0; f < 240; ++f) {
      for (size_t c = 0; c < ids.size(); ++c) {
        // mostly a small wander (3 cm per axis), every ninth frame a jump (0.9 m per axis)
        const bool jump = (f + 3 * static_cast<int>(c)) % 9 == 0;
        const Vec3 step{u(rng), u(rng), u(rng)};
        at[c] = at[c] + step * (jump ? 0.9f : 0.03f);
        at[c] = {std::clamp(at[c].x, -1.5f, 1.5f), std::clamp(at[c].y, 0.3f, 1.8f), std::clamp(at[c].z, -1.2f, 1.2f)};
        const Quat q = normalize(Quat{0.3f * u(rng), 0.3f * u(rng), 0.3f * u(rng), 1.0f});
        EXPECT_TRUE(w->setChainRoot(ids[c], {at[c], q}).ok());
      }
      w->step(f % 13 == 4 ? 1.0 / 30.0 : 1.0 / 60.0);
      frames.push_back(bitsOf(*w, ids));
    }
    return frames;
  };
  const auto scalar = run(false, true), lanes = run(true, true);
  for (size_t f = 0; f < scalar.size(); ++f) ASSERT_EQ(lanes[f], scalar[f]) << "frame " << f;
  EXPECT_NE(scalar.back(), run(false, false).back()) << "the colliders were met";
}

// VRM lane groups at three edges of a collider's reach, each against the scalar rule: short chains
// (2 bones of 2 cm) that meet a collider only through (0) its size, a 2 m sphere whose centre is
// 2.03 m below the root; (1) their hit radius, 0.3 m, with a 2 cm sphere 0.3 m beside them; (2)
// their joints' place before the step: the root jumps 1 m sideways and back, and the tails land
// near where they were (the bone length is the distance from the new parent to the old joint),
// pulled down by the stiffness onto a sphere the chain at rest clears by 5 mm.
TEST(ChainLanes, VrmChainsAtTheEdgesOfAColliderReachEqualTheScalarSolver) {
  auto run = [](int part, bool lanes, bool collider) {
    Lanes on(lanes);
    auto w = scenes::makeWorld();
    ColliderDef d;
    d.radius = part == 0 ? 2.0f : part == 1 ? 0.02f : 0.1f;
    d.transform.position = part == 0 ? Vec3{0, 1.0f - 2.03f, 0} : part == 1 ? Vec3{0.3f, 0.97f, 0} : Vec3{0, 0.85f, 0};
    ColliderId cid;
    if (collider) {
      EXPECT_TRUE(w->addCollider(d, &cid).ok());
    }
    std::vector<ChainId> ids;
    for (int c = 0; c < 4; ++c) {
      ChainDef def;
      def.root.position = {0, 1.0f, 0};
      def.joints.push_back({{0, 0, 0.001f * c}, {}});
      for (int j = 1; j < 3; ++j) def.joints.push_back({{0, -0.02f, 0}, {}});
      def.params.mode = ChainMode::Vrm;
      def.params.stiffness = part == 2 ? 4.0f : 0.5f;
      def.params.damping = 0.3f;
      def.params.radius = part == 1 ? 0.3f : 0.005f;
      ChainId id;
      EXPECT_TRUE(w->addChain(def, &id).ok());
      ids.push_back(id);
    }
    std::vector<std::vector<uint32_t>> frames;
    for (int f = 0; f < 60; ++f) {
      const float x = part == 2 && f % 20 == 10 ? 1.0f : 0.0f;
      for (ChainId id : ids) EXPECT_TRUE(w->setChainRoot(id, {{x, 1.0f, 0}, {}}).ok());
      w->step(1.0 / 60.0);
      frames.push_back(bitsOf(*w, ids));
    }
    return frames;
  };
  for (int part = 0; part < 3; ++part) {
    const auto scalar = run(part, false, true), lanes = run(part, true, true);
    for (size_t f = 0; f < scalar.size(); ++f) ASSERT_EQ(lanes[f], scalar[f]) << "part " << part << ", frame " << f;
    EXPECT_NE(scalar.back(), run(part, false, false).back()) << "part " << part << ": the collider was met";
  }
}

// The block holds chains up to kBlockJoints long; longer VRM chains run the scalar rule.
TEST(ChainLanes, ChainsLongerThanTheBlockRunTheScalarRule) {
  for (ChainMode mode : {ChainMode::Vrm, ChainMode::Wisp}) {
    ChainState c;
    c.params.mode = mode;
    c.resize(kBlockJoints);
    EXPECT_TRUE(solvesInLanes(c));
    c.resize(kBlockJoints + 1);
    EXPECT_TRUE(mode == ChainMode::Wisp || !solvesInLanes(c));  // Wisp: its kernel hands the group to the scalar rule
  }
}

// Chain i of the block test: variedChain(i % 7)'s parameters on kBlockCounts[i % 8] joints, so
// that joint counts fall on and between the block's four-joint transposes.
const int kBlockCounts[8] = {4, 6, 7, 12, 13, 16, 17, 64};
ChainDef blockChain(int i, ChainMode mode) {
  ChainDef d = variedChain(i % 7, mode);
  const int n = kBlockCounts[i % 8];
  d.joints.resize(1);
  for (int j = 1; j < n; ++j) d.joints.push_back({{0.003f * (i % 5), -0.4f / n, -0.002f * (i % 3)}, {0, 0.04f * (j % 3), 0, 1}});
  for (ChainJoint& j : d.joints) {
    const Quat q = j.rotation;
    const float len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    j.rotation = {q.x / len, q.y / len, q.z / len, q.w / len};
  }
  if (mode == ChainMode::Wisp && i % 4 == 1) d.params.inertia = 0.6f;  // the carry on the block
  return d;
}

// Lane groups of every joint count, full and partial, VRM and Wisp rule, with moving roots and
// colliders, an animated pose, several fixed steps and substeps per frame; between frames one
// chain is disabled and later re-enabled (the groups' lanes change hands) and one is teleported.
// Every chain's bits equal the scalar solver's every frame, on 2 threads.
TEST(ChainLanes, JointBlockAcrossJointCountsAndChangingGroupsEqualsTheScalarSolver) {
  constexpr int kChains = 8 * 16 + 3;  // 2,200+ particles: 2 threads; 3 chains in partial groups
  for (ChainMode mode : {ChainMode::Vrm, ChainMode::Wisp}) {
    WorldSettings ws;
    ws.threads = 2;
    ws.substeps = 3;
    std::vector<int> which;
    auto make = [&] {
      Scene s = makeScene({}, mode, ws);
      for (int i = 0; i < kChains; ++i) {
        ChainId id;
        EXPECT_TRUE(s.world->addChain(blockChain(i, mode), &id).ok());
        s.chains.push_back(id);
      }
      return s;
    };
    for (int i = 0; i < kChains; ++i) which.push_back(i % 7);
    Scene lanes = make(), scalar;
    {
      Lanes off(false);
      scalar = make();
    }
    EXPECT_EQ(lanes.world->stats().threads, 2);
    for (int f = 0; f < 60; ++f) {
      for (Scene* s : {&lanes, &scalar}) {
        if (f == 12) {
          EXPECT_TRUE(s->world->setEnabled(s->chains[9], false).ok());
        }
        if (f == 30) {
          EXPECT_TRUE(s->world->setEnabled(s->chains[9], true).ok());
        }
        if (f == 20) {
          EXPECT_TRUE(s->world->teleportChain(s->chains[17], {{0.3f, 1.5f, 0.1f}, {0, 0.38268343f, 0, 0.92387953f}}).ok());
        }
      }
      drive(lanes, which, f);
      {
        Lanes off(false);
        drive(scalar, which, f);
      }
      for (int i = 0; i < kChains; ++i)
        ASSERT_EQ(bitsOf(*lanes.world, lanes.chains[i]), bitsOf(*scalar.world, scalar.chains[i]))
            << (mode == ChainMode::Vrm ? "VRM" : "Wisp") << " chain " << i << ", frame " << f;
    }
    EXPECT_EQ(lanes.world->stateHash(), scalar.world->stateHash());
  }
}

// A lane group keeps its chains' parameters in lane order from frame to frame
// (solver/chain_lane_params.h). Between frames, everything that changes them: new parameters
// (with a curve) for a grouped chain, a root scale for all, a chain becoming animated, a chain
// removed and another one built in its slot, and a snapshot of older values loaded. Every
// chain's bits equal the scalar solver's every frame, so no group runs on stale values.
TEST(ChainLanes, LaneGroupParametersFollowEveryChangeBetweenFrames) {
  for (ChainMode mode : {ChainMode::Vrm, ChainMode::Wisp}) {
    std::vector<int> which{0, 1, 2, 3, 4, 5, 6, 0, 2, 4, 0, 2};  // eight of 8 joints: two full groups
    Scene lanes = makeScene(which, mode, 1), scalar;
    {
      Lanes off(false);
      scalar = makeScene(which, mode, 1);
    }
    std::vector<uint8_t> saved[2];
    std::vector<ChainId> savedIds[2];
    std::vector<int> savedWhich;
    for (int f = 0; f < 60; ++f) {
      int k = 0;
      for (Scene* s : {&lanes, &scalar}) {
        World& w = *s->world;
        if (f == 5) {
          EXPECT_TRUE(w.saveSnapshot(&saved[k]).ok());
          savedIds[k] = s->chains;
          savedWhich = which;
        }
        if (f == 10) {  // chain 2 (in the first group of 8 joints)
          ChainParams p = variedChain(2, mode).params;
          p.stiffness *= 3;
          p.damping *= 0.5f;
          p.gravityScale = -0.4f;
          p.radius = 0.04f;
          p.dampingCurve = Curve{{{0, 1}, {1, 0.3f}}};
          EXPECT_TRUE(w.setChainParams(s->chains[2], p).ok());
        }
        if (f == 25) {  // chain 0 (the same group) takes an animated pose
          std::vector<float> pose(4 * 8, 0.0f);
          for (int j = 0; j < 8; ++j) {
            pose[4 * j + 1] = std::sin(0.1f * j);
            pose[4 * j + 3] = std::cos(0.1f * j);
          }
          EXPECT_TRUE(w.setChainPose(s->chains[0], pose.data(), 8).ok());
        }
        if (f == 30) {  // chain 8's slot (the second group) gets a new chain of other parameters
          EXPECT_TRUE(w.removeChain(s->chains[8]).ok());
          ChainDef d = variedChain(4, mode);
          d.params.stiffness = 2.5f;
          d.params.radius = 0.03f;
          EXPECT_TRUE(w.addChain(d, &s->chains[8]).ok());
        }
        if (f == 45) {  // back to frame 5's values
          EXPECT_TRUE(w.loadSnapshot(saved[k].data(), saved[k].size()).ok());
          s->chains = savedIds[k];
        }
        ++k;
      }
      if (f == 30) which[8] = 4;
      if (f == 45) which = savedWhich;
      const float scale = f >= 20 && f < 40 ? 1.5f : 1.0f;
      drive(lanes, which, f, scale);
      {
        Lanes off(false);
        drive(scalar, which, f, scale);
      }
      for (size_t i = 0; i < which.size(); ++i)
        ASSERT_EQ(bitsOf(*lanes.world, lanes.chains[i]), bitsOf(*scalar.world, scalar.chains[i]))
            << (mode == ChainMode::Vrm ? "VRM" : "Wisp") << " chain " << i << ", frame " << f;
    }
    EXPECT_EQ(lanes.world->stateHash(), scalar.world->stateHash());
  }
}

// What a VRM lane group's frame end takes from its block instead of the chains' arrays
// (JointBlock::finish): the outputs (in bitsOf), the speed that sleep is judged by, and the
// finiteness check that resets a chain. Seven chains in and out of groups, a head that moves and
// then holds still so that they fall asleep one by one, and a NaN put into a grouped chain and
// into a chain of a group of its own: each frame's sleep states, resets and bits as the scalar
// solver gives them.
TEST(ChainLanes, VrmLaneGroupsSleepAndResetAsTheScalarSolverDoes) {
  struct Run {
    std::vector<std::vector<uint8_t>> sleeping;  // per frame, per chain
    std::vector<std::vector<uint32_t>> resets;   // per frame, the reset chains' slots
    std::vector<std::vector<uint32_t>> bits;     // per frame
  };
  auto run = [](bool lanes) {
    Lanes on(lanes);
    Scene s = makeScene(kAll, ChainMode::Vrm, 1);
    for (size_t i = 0; i < s.chains.size(); ++i) {
      ChainDef d = variedChain(kAll[i], ChainMode::Vrm);
      d.params.sleepSpeed = 0.02f + 0.01f * static_cast<float>(i);
      d.params.sleepTime = 0.25f;
      EXPECT_TRUE(s.world->setChainParams(s.chains[i], d.params).ok());
    }
    Run r;
    for (int f = 0; f < 300; ++f) {
      if (f < 40) drive(s, kAll, f);
      else s.world->step(1.0 / 60.0);  // the head holds still: the chains settle
      if (f == 20) {
        EXPECT_TRUE(s.world->injectFault(s.chains[0], 3).ok());  // in a group of three
      }
      if (f == 25) {
        EXPECT_TRUE(s.world->injectFault(s.chains[3], 2).ok());  // alone in its group
      }
      std::vector<uint8_t> sleeping;
      for (ChainId id : s.chains) {
        World::ObjectActivity a;
        EXPECT_TRUE(s.world->activity(id, &a).ok());
        sleeping.push_back(a.sleeping);
      }
      std::vector<uint32_t> resets;
      for (const WorldEvent& e : s.world->events())
        if (e.type == WorldEvent::Type::ObjectReset) resets.push_back(e.object.index);
      r.sleeping.push_back(sleeping);
      r.resets.push_back(resets);
      r.bits.push_back(bitsOf(*s.world, s.chains));
    }
    return r;
  };
  const Run grouped = run(true), alone = run(false);
  int slept = 0, reset = 0;
  for (size_t f = 0; f < grouped.sleeping.size(); ++f) {
    ASSERT_EQ(grouped.sleeping[f], alone.sleeping[f]) << "frame " << f;
    ASSERT_EQ(grouped.resets[f], alone.resets[f]) << "frame " << f;
    ASSERT_EQ(grouped.bits[f], alone.bits[f]) << "frame " << f;
    for (uint8_t z : grouped.sleeping[f]) slept += z;
    reset += static_cast<int>(grouped.resets[f].size());
  }
  // the test sees what it is about: chains fell asleep, and both faults were caught
  EXPECT_GT(slept, 0);
  EXPECT_EQ(reset, 2);
}

}  // namespace
}  // namespace wisp::test
