// Cloth: builders, invariants, collisions, wind, determinism and bad input.
#include <cstdio>
#include <limits>

#include <map>

#include "helpers.h"

namespace wisp::test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

// A w x h metre grid hanging in the XY plane from its top edge at y = top, resolution r x r.
ClothDef hangingGrid(float w, float h, int r, float top = 2.0f, bool pinTop = true) {
  ClothDef d;
  d.grid.width = w;
  d.grid.height = h;
  d.grid.resolutionX = r;
  d.grid.resolutionY = r;
  d.grid.transform.position = {-w / 2, top, 0};
  if (pinTop)
    for (int i = 0; i <= r; ++i) d.pinned.push_back(i);
  return d;
}

Vec3 cpos(const World& w, ClothId c, int i) {
  ParticleState p;
  w.particle(c, i, &p);
  return p.position;
}

ClothStats stats(const World& w, ClothId c) {
  ClothStats s;
  w.clothStats(c, &s);
  return s;
}

TEST(Cloth, GridBuilderCounts) {
  auto w = scenes::makeWorld();
  ClothDef d = hangingGrid(1, 0.75f, 4);
  d.grid.resolutionY = 3;
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  ClothStats s = stats(*w, c);
  EXPECT_EQ(s.particles, 20);
  EXPECT_EQ(s.triangles, 24);
  EXPECT_EQ(s.stretchConstraints, 4 * 4 + 5 * 3);
  EXPECT_EQ(s.shearConstraints, 2 * 12);
  EXPECT_EQ(s.bendConstraints, 12 + 3 * 3 + 4 * 2);  // quad diagonals + interior grid edges
  EXPECT_EQ(s.tethers, 20 - 5);
  EXPECT_GT(s.colours, 0);
  // flat in XY: unit normals along Z
  const float* n = w->clothNormals(c);
  for (int i = 0; i < 20; ++i) {
    EXPECT_NEAR(std::fabs(n[3 * i + 2]), 1.0f, 1e-6f);
    EXPECT_NEAR(n[3 * i], 0.0f, 1e-6f);
  }
}

TEST(Cloth, MeshVerticesAreWelded) {
  auto w = scenes::makeWorld();
  // two triangles given with their own copies of the shared edge's vertices
  ClothDef d;
  d.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  d.indices = {0, 1, 2, 3, 4, 5};
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  int n = 0;
  ASSERT_OK(w->clothParticleCount(c, &n));
  EXPECT_EQ(n, 4);
  const int32_t* map = nullptr;
  int vc = 0;
  ASSERT_OK(w->clothVertexMap(c, &map, &vc));
  ASSERT_EQ(vc, 6);
  EXPECT_EQ(map[1], map[3]);
  EXPECT_EQ(map[2], map[5]);
  EXPECT_EQ(stats(*w, c).bendConstraints, 1);
  // within a weld distance, near-duplicates join too
  d.positions[3] = {1.0005f, 0, 0};
  d.weldDistance = 0.001f;
  ClothId c2;
  ASSERT_OK(w->addCloth(d, &c2));
  ASSERT_OK(w->clothParticleCount(c2, &n));
  EXPECT_EQ(n, 4);
}

TEST(Cloth, PinnedVerticesAreExactAndStretchStaysUnderOnePercent) {
  WorldSettings s;
  s.substeps = 16;
  auto w = scenes::makeWorld(s);
  ClothDef d = hangingGrid(1, 1, 16);
  d.params.dragCoefficient = 0;
  d.params.liftCoefficient = 0;
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  std::vector<Vec3> top;
  for (int i = 0; i <= 16; ++i) top.push_back(cpos(*w, c, i));
  for (int f = 0; f < 180; ++f) {
    ASSERT_OK(w->step(1.0 / 60.0));
    for (int i = 0; i <= 16; ++i) {
      Vec3 p = cpos(*w, c, i);
      ASSERT_EQ(p.x, top[i].x);
      ASSERT_EQ(p.y, top[i].y);
      ASSERT_EQ(p.z, top[i].z);
    }
  }
  ClothStats st = stats(*w, c);
  EXPECT_LT(st.maxStrain, 0.01f) << "max strain " << st.maxStrain << ", mean " << st.meanStrain;
  EXPECT_EQ(st.substeps, 16);
}

// Top row on anchors whipped sideways at 10 m/s, reversing every 0.2 s (1200 m/s^2 at the
// turns): tethers keep every vertex within its rest path length of the pins, and halve the
// worst edge strain. Measured worst edge strain with / without tethers: 8 substeps 0.62 / 0.74,
// 16: 0.41 / 0.75, 32: 0.16 / 0.15, 64: 0.03 / 0.04 (the spike is at the turns, next to the bar).
TEST(Cloth, TethersBoundStretchUnderAFastWhip) {
  float worstWith = 0, worstWithout = 0;
  for (bool tethers : {true, false}) {
    WorldSettings ws;
    ws.substeps = 16;
    auto w = scenes::makeWorld(ws);
    ClothDef d = hangingGrid(1, 1.5f, 12, 2.0f, false);
    d.params.tethers = tethers;
    d.params.dragCoefficient = 0;
    d.params.liftCoefficient = 0;
    d.params.maxSubsteps = ws.substeps;  // the tethers' effect at a fixed 16 substeps (no fast pins)
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    AnchorId bar;
    ASSERT_OK(w->addAnchor({0, 0, 0}, &bar));
    std::vector<AnchorId> anchors;
    for (int i = 0; i <= 12; ++i) {
      AnchorId a;
      ASSERT_OK(w->addAnchor(cpos(*w, c, i), &a));
      ASSERT_OK(w->pin(c, i, a));
      anchors.push_back(a);
    }
    float worst = 0;
    for (int f = 0; f < 120; ++f) {
      // 10 m/s: 1/6 m per frame, back and forth every 0.4 s
      float u = float(f % 24) / 12.0f, tri = u < 1 ? u : 2 - u;
      for (int i = 0; i <= 12; ++i) {
        Vec3 home{-0.5f + float(i) / 12.0f, 2.0f, 0};
        ASSERT_OK(w->setAnchorPosition(anchors[i], home + Vec3{0, 0, 2.0f * tri - 1.0f}));
      }
      ASSERT_OK(w->step(1.0 / 60.0));
      worst = std::max(worst, stats(*w, c).maxStrain);
      // every vertex of the bottom row stays within the cloth's height of the bar
      for (int i = 0; i <= 12 && tethers; ++i) {
        Vec3 p = cpos(*w, c, 12 * 13 + i), q = cpos(*w, c, i);
        ASSERT_LE(dist(p, q), 1.5f * 1.0001f + 1e-4f);
      }
    }
    (tethers ? worstWith : worstWithout) = worst;
  }
  std::printf("whip: worst edge strain %.3f with tethers, %.3f without\n", worstWith, worstWithout);
  EXPECT_LT(worstWith, 0.5f);
  EXPECT_GT(worstWithout, 1.5f * worstWith) << "tethers should reduce stretch";
}

TEST(Cloth, DrapesOverASphereWithoutPassingThrough) {
  auto w = scenes::makeWorld();
  ColliderDef sphere;
  sphere.radius = 0.4f;
  sphere.transform.position = {0, 0.5f, 0};
  ColliderId sid;
  ASSERT_OK(w->addCollider(sphere, &sid));
  ColliderDef floor;
  floor.type = ColliderType::Plane;
  ColliderId fid;
  ASSERT_OK(w->addCollider(floor, &fid));
  // 32 x 32 cloth lying flat above the sphere
  ClothDef d;
  d.grid = {1.6f, 1.6f, 32, 32, {{-0.8f, 1.2f, -0.8f}, {-0.7071068f, 0, 0, 0.7071068f}}};
  d.params.radius = 0.01f;
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  int n = 0;
  ASSERT_OK(w->clothParticleCount(c, &n));
  ASSERT_EQ(n, 33 * 33);
  float deepest = -1;
  for (int f = 0; f < 240; ++f) {
    ASSERT_OK(w->step(1.0 / 60.0));
    for (int i = 0; i < n; ++i) {
      Vec3 p = cpos(*w, c, i);
      ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
      deepest = std::max(deepest, 0.4f + 0.01f - dist(p, {0, 0.5f, 0}));
      ASSERT_GE(p.y, 0.01f * 0.9f) << "below the floor";
    }
  }
  EXPECT_LE(deepest, 0.1f * 0.01f) << "deepest penetration into the sphere " << deepest;
  // it draped: the centre rests on top of the sphere, the corners hang lower
  EXPECT_NEAR(cpos(*w, c, 16 * 33 + 16).y, 0.91f, 0.02f);
  EXPECT_LT(cpos(*w, c, 0).y, 0.6f);
}

TEST(Cloth, EnergyDoesNotGrowWithoutInput) {
  WorldSettings s;
  s.gravity = {0, 0, 0};
  auto w = scenes::makeWorld(s);
  ClothDef d = hangingGrid(1, 1, 10, 0, false);
  d.params.damping = 0;
  d.params.dragCoefficient = 0;
  d.params.liftCoefficient = 0;
  d.areaDensity = 1.0f;
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  auto kinetic = [&] {
    double e = 0;
    for (int i = 0; i < 121; ++i) {
      ParticleState p;
      w->particle(c, i, &p);
      e += 0.5 / p.invMass * lengthSq(p.velocity);
    }
    return e;
  };
  for (int i = 0; i < 121; ++i)
    ASSERT_OK(w->setParticleVelocity(c, i, {0.2f * float((i * 7) % 5) - 0.4f, 0.5f * float((i * 3) % 4) - 0.75f, float(i % 3) - 1.0f}));
  double e0 = kinetic(), worst = 0;
  for (int f = 0; f < 300; ++f) {
    ASSERT_OK(w->step(1.0 / 60.0));
    worst = std::max(worst, kinetic());
  }
  EXPECT_LE(worst, 1.01 * e0);
}

// A flag on a pole in steady wind: it trails downwind and flaps, with the same amplitude at
// 30 and 144 frames per second.
TEST(Cloth, FlagFlapsTheSameAtAnyFrameRate) {
  std::vector<double> amplitude;
  for (int fps : {30, 144}) {
    WorldSettings s;
    s.wind = {{1, 0, 0}, 8, 0.2f, 2, 1};  // a little turbulence breaks the symmetry of a flag edge-on to the wind
    auto w = scenes::makeWorld(s);
    ClothDef d;
    d.grid = {1.2f, 0.8f, 18, 12, {{0, 2, 0}, {}}};
    for (int j = 0; j <= 12; ++j) d.pinned.push_back(j * 19);  // the pole edge
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    std::vector<float> z;
    double sumX = 0;
    for (int f = 0; f < 6 * fps; ++f) {
      ASSERT_OK(w->step(1.0 / fps));
      if (f >= 3 * fps) {
        Vec3 tip = cpos(*w, c, 6 * 19 + 18);
        z.push_back(tip.z);
        sumX += tip.x;
      }
    }
    double mean = 0, var = 0;
    for (float v : z) mean += v;
    mean /= z.size();
    for (float v : z) var += (v - mean) * (v - mean);
    amplitude.push_back(std::sqrt(var / z.size()));
    EXPECT_GT(sumX / z.size(), 0.8) << "trails downwind";
  }
  EXPECT_GT(amplitude[0], 0.005) << "flaps";
  EXPECT_NEAR(amplitude[1], amplitude[0], 0.05 * amplitude[0]);
}

TEST(Cloth, SettledShapeIsTheSameAtAnyFrameRate) {
  std::vector<uint64_t> hashes;
  for (int fps : {30, 60, 144}) {
    auto w = scenes::makeWorld();
    ClothId c;
    ASSERT_OK(w->addCloth(hangingGrid(1, 1, 12), &c));
    for (int f = 0; f < 2 * fps; ++f) ASSERT_OK(w->step(1.0 / fps));
    hashes.push_back(w->stateHash());
  }
  EXPECT_EQ(hashes[0], hashes[1]);
  EXPECT_EQ(hashes[1], hashes[2]);
}

TEST(Cloth, ThreadCountDoesNotChangeTheResult) {
  auto run = [](int threads) {
    WorldSettings s;
    s.threads = threads;
    s.wind = {{1, 0, 0.5f}, 5, 0.5f, 1, 3};
    auto w = scenes::makeWorld(s);
    ClothId c;
    w->addCloth(hangingGrid(2, 2, 80), &c);  // 6561 particles: the chunked parallel path
    for (int k = 0; k < 6; ++k) w->addCloth(hangingGrid(0.5f, 0.5f, 8, 1.0f + 0.1f * k), &c);
    ColliderDef ball;
    ball.radius = 0.3f;
    ball.transform.position = {0.2f, 1.0f, 0.2f};
    ColliderId b;
    w->addCollider(ball, &b);
    for (int f = 0; f < 30; ++f) w->step(1.0 / 60.0);
    return w->stateHash();
  };
  uint64_t serial = run(1);
  for (int t : {2, 4}) EXPECT_EQ(run(t), serial) << t << " threads";
}

TEST(Cloth, BadInputIsRejected) {
  auto w = scenes::makeWorld();
  auto reject = [&](const ClothDef& d, StatusCode code, const std::string& needle) {
    uint64_t before = w->stateHash();
    ClothId c;
    Status s = w->addCloth(d, &c);
    EXPECT_EQ(s.code, code) << s.message;
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message << " (expected " << needle << ")";
    EXPECT_EQ(w->stateHash(), before);
  };
  ClothDef mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.indices = {0, 1, 2};
  ClothDef d = mesh;
  d.indices = {0, 1, 3};
  reject(d, StatusCode::OutOfRange, "indices[2]");
  d = mesh;
  d.indices = {0, 1};
  reject(d, StatusCode::InvalidArgument, "3 indices per triangle");
  d = mesh;
  d.indices = {0, 1, 1};
  reject(d, StatusCode::InvalidArgument, "degenerate");
  d = mesh;
  d.positions[2] = {2, 0, 0};  // collinear
  reject(d, StatusCode::InvalidArgument, "zero area");
  d = mesh;
  d.positions[1].y = kNaN;
  reject(d, StatusCode::InvalidArgument, "positions[1]");
  d = mesh;
  d.positions.push_back({5, 5, 5});  // used by no triangle
  reject(d, StatusCode::InvalidArgument, "belongs to no triangle");
  d = mesh;
  d.pinned = {3};
  reject(d, StatusCode::OutOfRange, "pinned[0]");
  d = mesh;
  d.params.bendCompliance = kNaN;
  reject(d, StatusCode::InvalidArgument, "bendCompliance");
  d = mesh;
  d.params.damping = -1;
  reject(d, StatusCode::InvalidArgument, "damping");
  d = {};
  d.grid.resolutionX = 0;
  reject(d, StatusCode::InvalidArgument, "resolutionX");
  d = {};
  d.grid.width = kNaN;
  reject(d, StatusCode::InvalidArgument, "width");
  d = {};
  d.areaDensity = 0;
  reject(d, StatusCode::InvalidArgument, "areaDensity");

  // a non-manifold edge (three triangles on it) is accepted; that edge just gets no bending
  ClothDef fan;
  fan.positions = {{0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}, {0.5f, -1, 0}, {0.5f, 0, 1}};
  fan.indices = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  ClothId c;
  ASSERT_OK(w->addCloth(fan, &c));
  EXPECT_EQ(stats(*w, c).bendConstraints, 0);
  for (int f = 0; f < 30; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(std::isfinite(cpos(*w, c, i).y));
  // params
  ClothParams p;
  p.stretchCompliance = -1;
  EXPECT_EQ(w->setClothParams(c, p).code, StatusCode::InvalidArgument);
  ASSERT_OK(w->removeCloth(c));
  EXPECT_EQ(w->removeCloth(c).code, StatusCode::InvalidHandle);
  EXPECT_EQ(w->clothPositions(c), nullptr);
}

TEST(Cloth, AdaptiveIterationsStopEarlyWhenConverged) {
  WorldSettings s;
  s.iterations = 20;
  auto w = scenes::makeWorld(s);
  ClothDef d = hangingGrid(1, 1, 8);
  d.params.residualTolerance = 0.01f;
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  for (int f = 0; f < 120; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  ClothStats st = stats(*w, c);
  EXPECT_LT(st.iterations, 20 * st.substeps) << "no early exit";
  EXPECT_LT(st.maxStrain, 0.02f);
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// A cape corner "skinned" to a moving bone with 5 cm of slack: never farther than that from the
// bone's point, but free inside it (it lags and swings, unlike an exact pin).
TEST(Cloth, LeashedVerticesStayWithinTheirMaxDistance) {
  auto w = scenes::makeWorld();
  ClothDef d = hangingGrid(0.6f, 0.8f, 8, 2.0f, false);
  ClothId c;
  ASSERT_OK(w->addCloth(d, &c));
  std::vector<AnchorId> bones;
  for (int i = 0; i <= 8; ++i) {
    AnchorId a;
    ASSERT_OK(w->addAnchor(cpos(*w, c, i), &a));
    ASSERT_OK(w->pin(c, i, a, i % 4 == 0 ? 0.0f : 0.05f));
    bones.push_back(a);
  }
  float maxGap = 0, minGap = 1;
  for (int f = 0; f < 180; ++f) {
    float dx = 0.6f * std::sin(0.1f * f);  // the shoulder line sways
    for (int i = 0; i <= 8; ++i) ASSERT_OK(w->setAnchorPosition(bones[i], {-0.3f + 0.075f * i + dx, 2.0f, 0}));
    ASSERT_OK(w->step(1.0 / 60.0));
    for (int i = 0; i <= 8; ++i) {
      Vec3 a;
      ASSERT_OK(w->anchorPosition(bones[i], &a));
      float gap = dist(cpos(*w, c, i), a);
      if (i % 4 == 0) {
        ASSERT_EQ(gap, 0.0f) << "exact pin " << i;
      } else {
        ASSERT_LE(gap, 0.05f * 1.0001f) << "leashed vertex " << i << " frame " << f;
        maxGap = std::max(maxGap, gap);
        minGap = std::min(minGap, gap);
      }
    }
  }
  EXPECT_GT(maxGap, 0.01f) << "leashed vertices do move inside their slack";
  ParticleState p;
  ASSERT_OK(w->particle(c, 1, &p));
  EXPECT_TRUE(p.pinned);
  EXPECT_GT(p.invMass, 0.0f) << "a leashed vertex keeps its mass";
  EXPECT_EQ(w->pin(c, 1, bones[1], -1.0f).code, StatusCode::InvalidArgument);
  EXPECT_EQ(w->pin(c, 1, bones[1], std::nanf("")).code, StatusCode::InvalidArgument);
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// One cloth made of two separate 0.5 m squares, one lying on the floor and one dropped onto it
// from 30 cm. With self-collision the top square comes to rest 2 * radius above the bottom one;
// without, it falls through it to the floor. Self-collision is particle against particle, so the
// thickness (2 * radius) must cover the vertex spacing (5 cm here): with 2 cm the top square's
// vertices slip between the bottom square's within a second (measured).
TEST(Cloth, SelfCollisionKeepsTheThickness) {
  float gapWith = 0, gapWithout = 0;
  for (bool self : {true, false}) {
    auto w = scenes::makeWorld();
    ColliderDef floor;
    floor.type = ColliderType::Plane;
    ColliderId f;
    ASSERT_OK(w->addCollider(floor, &f));
    ClothDef d;
    const int r = 10;
    for (float y : {0.01f, 0.3f}) {
      uint32_t base = static_cast<uint32_t>(d.positions.size());
      for (int j = 0; j <= r; ++j)
        for (int i = 0; i <= r; ++i) d.positions.push_back({0.05f * i - 0.25f, y, 0.05f * j - 0.25f});
      for (int j = 0; j < r; ++j)
        for (int i = 0; i < r; ++i) {
          uint32_t a = base + j * (r + 1) + i;
          d.indices.insert(d.indices.end(), {a, a + r + 1, a + 1, a + 1, a + r + 1, a + r + 2});
        }
    }
    d.params.radius = 0.025f;
    d.params.selfCollision = self;
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    for (int k = 0; k < 120; ++k) ASSERT_OK(w->step(1.0 / 60.0));
    // closest particles of the two squares, and how high the top one lies
    float closest = 1e9f;
    for (int i = 0; i < 121; ++i)
      for (int j = 121; j < 242; ++j) closest = std::min(closest, dist(cpos(*w, c, i), cpos(*w, c, j)));
    float lift = cpos(*w, c, 121 + 60).y - cpos(*w, c, 60).y;
    (self ? gapWith : gapWithout) = closest;
    if (self) {
      EXPECT_GT(lift, 0.025f) << "the top square lies on the bottom one";
    }
  }
  EXPECT_GE(gapWith, 0.05f * 0.95f) << "no two particles of the layers closer than 2 * radius";
  EXPECT_LT(gapWithout, 0.01f) << "without self-collision it falls through";
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// An icosphere of radius r (2 subdivisions: 162 vertices, 320 triangles, outward winding).
ClothDef icosphere(Vec3 centre, float r) {
  const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
  std::vector<Vec3> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<uint32_t> f = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6,
                             7, 1, 8, 3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
  for (int s = 0; s < 2; ++s) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> mid;
    auto midpoint = [&](uint32_t a, uint32_t b) {
      auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      v.push_back((v[a] + v[b]) * 0.5f);
      return mid[key] = static_cast<uint32_t>(v.size() - 1);
    };
    std::vector<uint32_t> g;
    for (size_t i = 0; i < f.size(); i += 3) {
      uint32_t a = f[i], b = f[i + 1], c = f[i + 2], ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      g.insert(g.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    f = g;
  }
  ClothDef d;
  for (Vec3 p : v) d.positions.push_back(centre + p * (r / length(p)));
  d.indices = f;
  d.params.radius = 0.01f;
  return d;
}

float volumeOf(const World& w, ClothId c, const std::vector<uint32_t>& tris) {
  const float* p = w.clothPositions(c);
  double v = 0;
  for (size_t t = 0; t < tris.size(); t += 3) {
    Vec3 a{p[3 * tris[t]], p[3 * tris[t] + 1], p[3 * tris[t] + 2]};
    Vec3 b{p[3 * tris[t + 1]], p[3 * tris[t + 1] + 1], p[3 * tris[t + 1] + 2]};
    Vec3 c2{p[3 * tris[t + 2]], p[3 * tris[t + 2] + 1], p[3 * tris[t + 2] + 2]};
    v += dot(cross(a, b), c2);
  }
  return static_cast<float>(v / 6.0);
}

// A closed balloon on the floor squeezed by a descending board to about half its height: with
// pressure 1 it keeps its volume (bulging sideways), without pressure it is flattened; with
// pressure 1.3 and no board it inflates.
TEST(Cloth, PressureKeepsAClosedMeshsVolume) {
  float result[3];
  const float pressures[3] = {1.0f, 0.0f, 1.3f};
  for (int k = 0; k < 3; ++k) {
    auto w = scenes::makeWorld();
    ColliderDef floor;
    floor.type = ColliderType::Plane;
    ColliderId fid, bid;
    ASSERT_OK(w->addCollider(floor, &fid));
    ColliderDef board;
    board.type = ColliderType::Box;
    board.halfExtents = {1, 0.05f, 1};
    board.transform.position = {0, k == 2 ? 5.0f : 0.68f, 0};
    ASSERT_OK(w->addCollider(board, &bid));
    ClothDef d = icosphere({0, 0.31f, 0}, 0.3f);
    d.params.pressure = pressures[k];
    d.params.stretchCompliance = 1e-3f;  // a stretchy skin
    d.params.bendCompliance = 1.0f;      // soft: the shape comes from the pressure
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    const uint32_t* tris = nullptr;
    int nt = 0;
    ASSERT_OK(w->clothTriangles(c, &tris, &nt));
    std::vector<uint32_t> t(tris, tris + 3 * nt);
    const float v0 = volumeOf(*w, c, t);
    for (int f = 0; f < 180; ++f) {
      if (k != 2) {  // down by 0.28 m over 1.5 s, then hold
        float y = 0.68f - 0.28f * std::min(1.0f, f / 90.0f);
        ASSERT_OK(w->setColliderTransform(bid, {{0, y, 0}, {}}));
      }
      ASSERT_OK(w->step(1.0 / 60));
    }
    result[k] = volumeOf(*w, c, t) / v0;
  }
  std::printf("volume / rest volume after 3 s: squeezed with pressure 1 %.3f, squeezed without %.3f, pressure 1.3 %.3f\n",
              result[0], result[1], result[2]);
  EXPECT_NEAR(result[0], 1.0f, 0.03f);
  EXPECT_LT(result[1], 0.85f);
  EXPECT_GT(result[2], 1.15f);
}

TEST(Cloth, PressureNeedsAClosedMesh) {
  auto w = scenes::makeWorld();
  ClothDef d;
  d.grid = {1, 1, 4, 4, {}};
  d.params.pressure = 1;
  ClothId c;
  Status s = w->addCloth(d, &c);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("closed mesh"), std::string::npos) << s.message;
  d.params.pressure = 0;
  ASSERT_OK(w->addCloth(d, &c));
  ClothParams p;
  ASSERT_OK(w->clothParams(c, &p));
  p.pressure = 1;
  EXPECT_FALSE(w->setClothParams(c, p).ok());
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// A stretchy strip hanging from its top row: hard tethers cap its length at the rest length;
// compliant tethers let it stretch further the more compliant they are.
TEST(Cloth, TetherComplianceLetsTethersGive) {
  float drop[3];
  const float compliance[3] = {0.0f, 1e-2f, 1e-1f};  // m/N; each tether carries its particle's ~0.6 N
  for (int k = 0; k < 3; ++k) {
    WorldSettings s;
    s.substeps = 4;
    auto w = scenes::makeWorld(s);
    ClothDef d;
    d.grid = {0.2f, 1.0f, 2, 20, {{0, 2, 0}, {}}};
    d.pinned = {0, 1, 2};
    d.areaDensity = 20;                  // kg/m^2, heavy: ~60 g per particle
    d.params.stretchCompliance = 0.05f;  // very stretchy: the tethers carry the load
    d.params.shearCompliance = 0.05f;
    d.params.tetherCompliance = compliance[k];
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    for (int f = 0; f < 180; ++f) ASSERT_OK(w->step(1.0 / 60));
    int n = 0;
    ASSERT_OK(w->clothParticleCount(c, &n));
    const float* p = w->clothPositions(c);
    float lowest = 1e9f;
    for (int i = 0; i < n; ++i) lowest = std::min(lowest, p[3 * i + 1]);
    drop[k] = 2.0f - lowest;
  }
  std::printf("strip length under its weight: hard tethers %.4f m, 0.01 m/N %.4f m, 0.1 m/N %.4f m (rest 1 m)\n", drop[0],
              drop[1], drop[2]);
  EXPECT_LE(drop[0], 1.0f + 1e-4f) << "hard tethers: never past the rest length";
  EXPECT_GT(drop[1], drop[0] + 1e-3f);
  EXPECT_GT(drop[2], drop[1] + 1e-3f);
}

}  // namespace
}  // namespace wisp::test
