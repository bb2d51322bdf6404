// Chains under game conditions: contact with colliders never adds energy at any substep count,
// a chain at rest against a collider stays at rest, and a chain that does not move reports zero
// velocity.
#include <algorithm>
#include <cmath>
#include <random>

#include "helpers.h"

namespace wisp::test {
namespace {

// Root-mean-square speed of the simulated joints (1..): the chain's kinetic energy as a speed
// (every joint has the same mass).
double rmsSpeed(const World& w, ChainId c) {
  const int n = joints(w, c);
  double sum = 0;
  for (int j = 1; j < n; ++j) {
    Vec3 v = velocityOf(w, c, j);
    sum += double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z;
  }
  return std::sqrt(sum / (n - 1));
}

// A sphere of radius 10 cm at head height (1.6 m).
void addHead(World& w) {
  ColliderDef head;
  head.radius = 0.1f;
  head.transform = {{0, 1.6f, 0}, {}};
  ColliderId id;
  ASSERT_OK(w.addCollider(head, &id));
}

// A head-like sphere with a ponytail whose rest pose grazes it by `graze` m (bone radius 2 cm).
ChainDef ponytailOnHead(float graze) {
  ChainDef d;
  d.root = {{0, 1.6f, 0}, {}};
  const float back = 0.1f + 0.02f - graze;
  d.joints.push_back({{0, 0, -back}, {}});
  for (int j = 1; j < 8; ++j) d.joints.push_back({{0, -0.06f, 0.0f}, {}});
  d.params.radius = 0.02f;
  return d;
}

// Energy: with the root still and no wind, the joints' kinetic energy (as an RMS speed) at the
// end of a step is at most what it was at the start plus what gravity can add in the step
// (|g| dt); contacts, limits and the bone lengths only take energy away. Randomized: collider
// kind, substeps 1..128, gravity 0 / down / up, damping on or off, and the kick.
TEST(RobustChain, ContactNeverAddsEnergy) {
  std::mt19937 rng(20261203);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const float dt = 1.0f / 60.0f;
  int trials = 0;
  double worstGain = -1e9;
  for (int trial = 0; trial < 1000; ++trial) {
    WorldSettings s;
    s.substeps = 1 + static_cast<int>(rng() % 128);
    const int gravityKind = static_cast<int>(rng() % 3);
    s.gravity = Vec3{0, gravityKind == 0 ? 0.0f : gravityKind == 1 ? -9.81f : 9.81f, 0};
    std::unique_ptr<World> w;
    ASSERT_OK(World::create(s, &w));

    // a straight chain of 6 joints 5 cm apart along +x, its capsules (2 cm) grazing the
    // collider below it by 0..5 mm
    ChainDef d;
    d.root = {{0, 0, 0}, {}};
    d.points.clear();
    for (int j = 0; j < 6; ++j) d.points.push_back({0.05f * j, 0, 0});
    d.params.stiffness = 0;
    d.params.elasticity = 0;
    d.params.drag = 0;
    d.params.damping = (rng() % 2) ? 2.0f : 0.0f;
    d.params.radius = 0.02f;
    const float graze = 0.005f * (0.5f + 0.5f * unit(rng));
    const float top = -0.02f + graze;  // the collider's highest point
    ColliderDef col;
    const int kind = static_cast<int>(rng() % 4);
    switch (kind) {
      case 0:
        col.type = ColliderType::Sphere;
        col.radius = 0.1f;
        col.transform = {{0.15f, top - 0.1f, 0}, {}};
        break;
      case 1:  // lying across the chain, along z
        col.type = ColliderType::Capsule;
        col.radius = 0.03f;
        col.halfHeight = 0.1f;
        col.transform = {{0.12f, top - 0.03f, 0}, {0.70710678f, 0, 0, 0.70710678f}};
        break;
      case 2:
        col.type = ColliderType::Plane;
        col.transform = {{0, top, 0}, {}};
        break;
      default:
        col.type = ColliderType::Box;
        col.halfExtents = {0.05f, 0.05f, 0.05f};
        col.transform = {{0.2f, top - 0.05f, 0}, {}};
        break;
    }
    col.friction = 0.3f * (0.5f + 0.5f * unit(rng));
    ColliderId cid;
    ASSERT_OK(w->addCollider(col, &cid));
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    ASSERT_OK(w->step(dt));  // the first step resolves the initial graze (energy may not be defined yet)
    const float kick = 1.5f;
    for (int j = 1; j < joints(*w, c); ++j)
      ASSERT_OK(w->setParticleVelocity(c, j, Vec3{unit(rng), unit(rng), unit(rng)} * kick));
    const float gravityAdds = std::fabs(s.gravity.y) * dt;
    for (int f = 0; f < 12; ++f) {
      const double before = rmsSpeed(*w, c);
      ASSERT_OK(w->step(dt));
      const double after = rmsSpeed(*w, c);
      const double gain = after - (before + gravityAdds);
      worstGain = std::max(worstGain, gain);
      ASSERT_LE(gain, 1e-3 + 1e-3 * before)
          << "trial " << trial << ": substeps " << s.substeps << ", gravity " << s.gravity.y << ", damping "
          << d.params.damping << ", collider " << kind << ", frame " << f << ": rms speed " << before << " -> "
          << after << " m/s";
    }
    ++trials;
  }
  EXPECT_EQ(trials, 1000);
  RecordProperty("worstGain", std::to_string(worstGain));
}

// At rest against a collider (the rest pose grazing it by 3 mm), default settings: the chain
// comes to rest at every substep count, and stays in place.
TEST(RobustChain, ChainRestingOnAColliderComesToRestAtEverySubstepCount) {
  for (int substeps : {1, 2, 4, 8, 16, 32, 64, 128}) {
    WorldSettings s;
    s.substeps = substeps;
    std::unique_ptr<World> w;
    ASSERT_OK(World::create(s, &w));
    addHead(*w);
    ChainId c;
    ASSERT_OK(w->addChain(ponytailOnHead(0.003f), &c));
    for (int f = 0; f < 180; ++f) ASSERT_OK(w->step(1.0 / 60));
    const int n = joints(*w, c);
    const float worst = largestChainMotion(*w, c);
    ChainStats st;
    ASSERT_OK(w->chainStats(c, &st));
    EXPECT_LT(worst, 0.05e-3f) << "largest per-step motion (m) after 3 s at " << substeps << " substeps";
    EXPECT_LT(st.maxSpeed, 0.01f) << "m/s at " << substeps << " substeps";
    // the tail hangs behind the head, not in front of the face
    EXPECT_LT(joint(*w, c, n - 1).z, 0.0f) << substeps << " substeps";
  }
}

// Floating hair: no gravity, damping, stiffness or drag, kicked at 1 m/s beside a sphere. Its
// speed never grows (today it reaches 20 m/s and more).
TEST(RobustChain, FloatingChainKickedNearASphereNeverSpeedsUp) {
  WorldSettings s;
  s.gravity = {0, 0, 0};
  std::unique_ptr<World> w;
  ASSERT_OK(World::create(s, &w));
  addHead(*w);
  ChainDef d = ponytailOnHead(0.003f);
  d.params.damping = 0;
  d.params.stiffness = 0;
  d.params.drag = 0;
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ASSERT_OK(w->step(1.0 / 60));
  for (int j = 1; j < joints(*w, c); ++j) ASSERT_OK(w->setParticleVelocity(c, j, {0, 0, 1.0f}));
  const double start = rmsSpeed(*w, c);
  float fastest = 0;
  for (int f = 0; f < 300; ++f) {
    ASSERT_OK(w->step(1.0 / 60));
    ChainStats st;
    ASSERT_OK(w->chainStats(c, &st));
    fastest = std::max(fastest, st.maxSpeed);
    ASSERT_LE(rmsSpeed(*w, c), start * 1.001) << "frame " << f;
  }
  EXPECT_LT(fastest, 3.0f) << "m/s, fastest joint (kicked at 1 m/s)";
}

// A chain whose positions do not change reports zero velocity: hanging still under gravity, its
// velocity is what its joints move per second, not a leftover of the length correction.
TEST(RobustChain, StillChainReportsZeroVelocity) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d = ponytailOnHead(-0.05f);  // well clear of anything
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  for (int f = 0; f < 600; ++f) ASSERT_OK(w->step(1.0 / 60));
  const int n = joints(*w, c);
  std::vector<Vec3> before(n);
  for (int j = 0; j < n; ++j) before[j] = joint(*w, c, j);
  ASSERT_OK(w->step(1.0 / 60));
  float moved = 0, reported = 0;
  for (int j = 0; j < n; ++j) {
    moved = std::max(moved, dist(before[j], joint(*w, c, j)) * 60.0f);
    reported = std::max(reported, length(velocityOf(*w, c, j)));
  }
  ChainStats st;
  ASSERT_OK(w->chainStats(c, &st));
  EXPECT_LT(moved, 1e-4f) << "m/s the joints actually move";
  EXPECT_LT(reported, 1e-3f) << "m/s reported by particle(i).velocity";
  EXPECT_LT(st.maxSpeed, 1e-3f) << "m/s reported by chainStats";
}

}  // namespace
}  // namespace wisp::test
