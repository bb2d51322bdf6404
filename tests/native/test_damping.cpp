// Damping and drag only take energy out: "damping never increases kinetic energy in a step".
// Damping is integrated implicitly (v / (1 + h d), forces/integrate.h); an explicit v (1 - h d)
// would reverse and grow velocities once h d > 2 (a damping of 1e4 /s at one substep of 1/60 s
// multiplies them by -166), which this test catches. Two worlds differing only in damping take
// the same kicked state through one step: the damped one never ends with more kinetic energy
// than the undamped one, nor than it started with (gravity 0, no wind, no colliders: nothing
// else adds energy).
#include <memory>
#include <random>

#include "helpers.h"

namespace wisp::test {
namespace {

enum class Kind { Rope, Cloth, Chain };

struct Trial {
  Kind kind;
  int substeps;
  float damping;
  uint32_t seed;
};

// J: sum of m v^2 / 2 over the free particles of the object (pinned ones have invMass 0).
template <class Id>
double kinetic(const World& w, Id id, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    ParticleState p;
    w.particle(id, i, &p);
    if (p.invMass <= 0) continue;
    const Vec3 v = p.velocity;
    e += 0.5 / p.invMass * (double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
  }
  return e;
}

// Builds the trial's object with `damping`, kicks it (same kicks for the same seed), steps once;
// returns the kinetic energy before and after the step.
void run(const Trial& t, float damping, double* before, double* after) {
  WorldSettings s;
  s.substeps = t.substeps;
  s.gravity = Vec3{0, 0, 0};
  std::unique_ptr<World> w;
  ASSERT_OK(World::create(s, &w));
  std::mt19937 rng(t.seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  const float kick = 2.0f;  // m/s
  auto kickAll = [&](auto id, int n, int first) {
    for (int i = first; i < n; ++i) ASSERT_OK(w->setParticleVelocity(id, i, Vec3{unit(rng), unit(rng), unit(rng)} * kick));
  };
  if (t.kind == Kind::Rope) {
    RopeDef d;
    d.start = {0, 0, 0};
    d.end = {1, 0, 0};
    d.segments = 12;
    d.params.damping = damping;
    RopeId r;
    ASSERT_OK(w->addRope(d, &r));
    const int n = count(*w, r);
    kickAll(r, n, 0);
    *before = kinetic(*w, r, n);
    ASSERT_OK(w->step(1.0f / 60.0f));
    *after = kinetic(*w, r, n);
  } else if (t.kind == Kind::Cloth) {
    ClothDef d;
    d.grid.resolutionX = 6;
    d.grid.resolutionY = 6;
    d.params.damping = damping;
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    int n = 0;
    ASSERT_OK(w->clothParticleCount(c, &n));
    kickAll(c, n, 0);
    *before = kinetic(*w, c, n);
    ASSERT_OK(w->step(1.0f / 60.0f));
    *after = kinetic(*w, c, n);
  } else {
    ChainDef d;
    d.root = {{0, 0, 0}, {}};
    d.points.clear();
    for (int j = 0; j < 6; ++j) d.points.push_back({0.05f * j, 0, 0});
    d.params.stiffness = 0;
    d.params.drag = 0;
    d.params.damping = damping;
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    const int n = joints(*w, c);
    kickAll(c, n, 1);  // joint 0 rides the root
    *before = kinetic(*w, c, n);
    ASSERT_OK(w->step(1.0f / 60.0f));
    *after = kinetic(*w, c, n);
  }
}

TEST(Damping, NeverIncreasesKineticEnergyInAStep) {
  const float dampings[] = {0.1f, 1.0f, 10.0f, 100.0f, 1000.0f, 10000.0f};  // 1/s, up to the largest accepted
  std::mt19937 rng(31337);
  double worst = -1e9;
  for (int trial = 0; trial < 300; ++trial) {
    Trial t;
    t.kind = static_cast<Kind>(trial % 3);
    t.substeps = trial < 18 ? 1 : 1 + static_cast<int>(rng() % 128);
    t.damping = dampings[(trial / 3) % 6];  // every kind meets every damping
    t.seed = rng();
    double before = 0, damped = 0, undampedBefore = 0, undamped = 0;
    run(t, t.damping, &before, &damped);
    run(t, 0.0f, &undampedBefore, &undamped);
    ASSERT_EQ(before, undampedBefore);
    ASSERT_TRUE(std::isfinite(damped)) << "trial " << trial;
    // a little slack for the float rounding of the constraint solve
    EXPECT_LE(damped, undamped * 1.001 + 1e-9) << "trial " << trial << " kind " << int(t.kind) << " substeps " << t.substeps
                                               << " damping " << t.damping;
    EXPECT_LE(damped, before * 1.001 + 1e-9) << "trial " << trial << " kind " << int(t.kind) << " substeps " << t.substeps
                                             << " damping " << t.damping;
    worst = std::max(worst, damped / std::max(before, 1e-12));
  }
  RecordProperty("worst_energy_ratio", std::to_string(worst));
}

}  // namespace
}  // namespace wisp::test
