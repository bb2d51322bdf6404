// Discontinuities for ropes and cloth: anchor jumps detected as teleports, explicit teleports in
// either order, the speed cap, background-tab frames, and anchors and colliders seen at the time
// of each fixed step.
#include <algorithm>

#include "helpers.h"

namespace wisp::test {
namespace {

template <class Id>
float fastest(const World& w, Id id, int n) {
  float v = 0;
  for (int i = 0; i < n; ++i) {
    ParticleState p;
    w.particle(id, i, &p);
    v = std::max(v, length(p.velocity));
  }
  return v;
}
int clothCount(const World& w, ClothId c) {
  int n = 0;
  w.clothParticleCount(c, &n);
  return n;
}
Vec3 clothPos(const World& w, ClothId c, int i) {
  ParticleState p;
  w.particle(c, i, &p);
  return p.position;
}
bool hasEvent(const World& w, WorldEvent::Type type) {
  for (const WorldEvent& e : w.events())
    if (e.type == type) return true;
  return false;
}

// A 1 m rope of 20 segments hanging straight down from anchor `a` at (0, 2, 0), for 2 s.
std::unique_ptr<World> hangingRope(AnchorId* a, RopeId* r, RopeParams params = {}) {
  auto w = scenes::makeWorld();
  w->addAnchor({0, 2, 0}, a);
  RopeDef d;
  d.start = {0, 2, 0};
  d.end = {0, 1, 0};
  d.segments = 20;
  d.params = params;
  w->addRope(d, r);
  w->pin(*r, 0, *a);
  for (int f = 0; f < 120; ++f) w->step(1.0 / 60.0);
  return w;
}

// A 0.6 x 1 m cape of 12 x 20 quads, its top corners pinned to two anchors (shoulders), settled.
std::unique_ptr<World> cape(AnchorId* left, AnchorId* right, ClothId* c) {
  auto w = scenes::makeWorld();
  ClothDef d;
  d.grid = {0.6f, 1.0f, 12, 20, {{-0.3f, 1.5f, 0}, {}}};
  w->addCloth(d, c);
  w->addAnchor({-0.3f, 1.5f, 0}, left);
  w->addAnchor({0.3f, 1.5f, 0}, right);
  w->pin(*c, 0, *left);
  w->pin(*c, 12, *right);
  for (int f = 0; f < 120; ++f) w->step(1.0 / 60.0);
  return w;
}

TEST(Teleport, AnAnchorJumpOf100mCarriesTheRopeInsteadOfFlingingIt) {
  AnchorId a;
  RopeId r;
  auto w = hangingRope(&a, &r);
  const Vec3 tipBefore = pos(*w, r, 20) - pos(*w, r, 0);
  ASSERT_OK(w->setAnchorPosition(a, {100, 2, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_TRUE(hasEvent(*w, WorldEvent::Type::Teleported));
  EXPECT_FALSE(hasEvent(*w, WorldEvent::Type::SpeedClamped));
  // the rope arrives hanging as it was, at rest (before: 6,000 m/s)
  EXPECT_LT(fastest(*w, r, 21), 0.05f);
  EXPECT_EQ(pos(*w, r, 0).x, 100.0f);
  EXPECT_LT(dist(pos(*w, r, 20) - pos(*w, r, 0), tipBefore), 1e-3f);
  for (int f = 0; f < 60; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_LT(fastest(*w, r, 21), 0.05f);
}

TEST(Teleport, AClothAnchorJumpAndATurnAreTeleports) {
  AnchorId l, rt;
  ClothId c;
  auto w = cape(&l, &rt, &c);
  const int n = clothCount(*w, c);
  // a jump of 50 m
  ASSERT_OK(w->setAnchorPosition(l, {49.7f, 1.5f, 0}));
  ASSERT_OK(w->setAnchorPosition(rt, {50.3f, 1.5f, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_TRUE(hasEvent(*w, WorldEvent::Type::Teleported));
  EXPECT_LT(fastest(*w, c, n), 0.05f);
  ClothStats s;
  ASSERT_OK(w->clothStats(c, &s));
  EXPECT_LT(s.maxStrain, 0.01f);
  // a half turn about the vertical in one frame, shoulders swapping sides (under 1 m each)
  const Vec3 bottomBefore = clothPos(*w, c, n - 1);
  ASSERT_OK(w->setAnchorPosition(l, {50.3f, 1.5f, 0}));
  ASSERT_OK(w->setAnchorPosition(rt, {49.7f, 1.5f, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_TRUE(hasEvent(*w, WorldEvent::Type::Teleported));
  EXPECT_LT(fastest(*w, c, n), 0.05f);
  ASSERT_OK(w->clothStats(c, &s));
  EXPECT_LT(s.maxStrain, 0.01f);
  // the bottom-right corner is now where the bottom-left was, mirrored through the vertical axis
  const Vec3 bottom = clothPos(*w, c, n - 1);
  EXPECT_NEAR(bottom.x - 50.0f, -(bottomBefore.x - 50.0f), 2e-3f);
  EXPECT_NEAR(bottom.y, bottomBefore.y, 2e-3f);
}

TEST(Teleport, AnchorAndClothTeleportGiveTheSameResultInEitherOrder) {
  uint64_t hashes[2];
  for (int order = 0; order < 2; ++order) {
    AnchorId l, rt;
    ClothId c;
    auto w = cape(&l, &rt, &c);
    const Transform delta{{20, 0, 5}, {}};
    auto anchors = [&] {
      ASSERT_OK(w->teleportAnchor(l, {19.7f, 1.5f, 5}));
      ASSERT_OK(w->teleportAnchor(rt, {20.3f, 1.5f, 5}));
    };
    if (order == 0) {
      anchors();
      ASSERT_OK(w->teleportCloth(c, delta, {0, 0, 0}));
    } else {
      ASSERT_OK(w->teleportCloth(c, delta, {0, 0, 0}));
      anchors();
    }
    ASSERT_OK(w->step(1.0 / 60.0));
    const int n = clothCount(*w, c);
    EXPECT_LT(fastest(*w, c, n), 0.05f) << "order " << order;  // before: 59 m/s anchor first
    ClothStats s;
    ASSERT_OK(w->clothStats(c, &s));
    EXPECT_LT(s.maxStrain, 0.01f) << "order " << order;  // before: 385% anchor first
    hashes[order] = w->stateHash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

TEST(Teleport, AnAnchorTeleportAloneCarriesTheRope) {
  AnchorId a;
  RopeId r;
  auto w = hangingRope(&a, &r);
  const Vec3 tip = pos(*w, r, 20);
  ASSERT_OK(w->teleportAnchor(a, {0.2f, 2, 0}));  // under teleportDistance: still a teleport
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_LT(fastest(*w, r, 21), 0.05f);
  EXPECT_NEAR(pos(*w, r, 20).x, tip.x + 0.2f, 1e-3f);
}

TEST(Teleport, MaxSpeedCapsAndReports) {
  RopeParams p;
  p.teleportDistance = 0;  // detection off: the cap is what is left
  p.teleportAngle = 0;
  AnchorId a;
  RopeId r;
  auto w = hangingRope(&a, &r, p);
  ASSERT_OK(w->setAnchorPosition(a, {100, 2, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_TRUE(hasEvent(*w, WorldEvent::Type::SpeedClamped));
  EXPECT_LE(fastest(*w, r, 21), 100.0f * (1 + 1e-6f));  // the default cap (before: 6,000 m/s)
  p.maxSpeed = 3;
  ASSERT_OK(w->setRopeParams(r, p));
  ASSERT_OK(w->setAnchorPosition(a, {102, 2, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_LE(fastest(*w, r, 21), 3.0f * (1 + 1e-6f));
  bool named = false;
  for (const WorldEvent& e : w->events())
    named = named || (e.type == WorldEvent::Type::SpeedClamped && e.kind == ObjectKind::Rope &&
                      e.object.index == r.index && e.message.find("maxSpeed") != std::string::npos);
  EXPECT_TRUE(named);
  // under the cap nothing is touched and nothing reported
  for (int f = 0; f < 600 && !w->events().empty(); ++f) ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_TRUE(w->events().empty());
}

TEST(Time, ATenSecondFrameIsClampedAndReportedNotThrown) {
  AnchorId a;
  RopeId r;
  auto w = hangingRope(&a, &r);
  AnchorId l, rt;
  ClothId c;
  auto w2 = cape(&l, &rt, &c);
  for (int f = 0; f < 180; ++f) {
    ASSERT_OK(w->step(1.0 / 60.0));
    ASSERT_OK(w2->step(1.0 / 60.0));
  }
  const float restSpeed = fastest(*w, r, 21), clothRest = fastest(*w2, c, clothCount(*w2, c));
  const Vec3 tip = pos(*w, r, 20);
  StepReport rep;
  ASSERT_OK(w->step(10.0, &rep));  // a tab back from the background (before: an error)
  EXPECT_NEAR(rep.droppedTime, 9.9, 1e-9);
  EXPECT_EQ(rep.fixedSteps, 6);
  ASSERT_OK(w2->step(10.0));
  // a scene at rest is still at rest
  EXPECT_LE(fastest(*w, r, 21), std::max(restSpeed, 1e-3f));
  EXPECT_LE(fastest(*w2, c, clothCount(*w2, c)), std::max(clothRest, 1e-3f));
  EXPECT_LT(dist(pos(*w, r, 20), tip), 1e-4f);
  // while the tab was hidden the character walked 30 m: a teleport, speeds under maxSpeed
  ASSERT_OK(w->setAnchorPosition(a, {30, 2, 0}));
  ASSERT_OK(w->step(10.0));
  EXPECT_LT(fastest(*w, r, 21), 100.0f);
  EXPECT_LT(fastest(*w, r, 21), 0.05f);
}

// An anchor scripted at a constant 1 m/s, sampled at the end of every frame: after each frame
// the pinned particle is where the script is at the simulated time, at any frame rate.
TEST(Time, PinnedParticlesFollowTheScriptedPathAtAnyFrameRate) {
  for (double fps : {144.0, 50.0, 75.0, 33.0}) {
    auto w = scenes::makeWorld();
    AnchorId a;
    ASSERT_OK(w->addAnchor({0, 2, 0}, &a));
    RopeId r;
    ASSERT_OK(w->addRope(scenes::straightRope({0, 2, 0}, 10, 0.05f), &r));
    ASSERT_OK(w->pin(r, 0, a));
    double worst = 0;
    for (int f = 1; f <= static_cast<int>(2 * fps); ++f) {
      ASSERT_OK(w->setAnchorPosition(a, {static_cast<float>(f / fps), 2, 0}));
      StepReport rep;
      ASSERT_OK(w->step(1.0 / fps, &rep));
      if (w->stepCount() == 0) continue;
      worst = std::max(worst, std::fabs(static_cast<double>(pos(*w, r, 0).x) - w->time()));
    }
    EXPECT_LT(worst, 2e-6) << fps << " Hz";  // before: up to one frame ahead (6.9 mm at 144 Hz)
  }
}

// A sphere rising at a constant 1 m/s, sampled at the end of every 144 Hz frame, lifts a short
// rope lying on top of it: the rope rides at the sphere's position at the simulated time.
TEST(Time, CollidersAreSeenAtTheTimeOfEachFixedStep) {
  WorldSettings s;
  s.gravity = {0, -1, 0};
  auto w = scenes::makeWorld(s);
  ColliderDef d;
  d.type = ColliderType::Sphere;
  d.radius = 0.5f;
  d.friction = 0;
  ColliderId sphere;
  ASSERT_OK(w->addCollider(d, &sphere));
  RopeDef rd = scenes::straightRope({-0.001f, 0.51f, 0}, 1, 0.002f);
  rd.params.radius = 0.01f;
  RopeId r;
  ASSERT_OK(w->addRope(rd, &r));
  double worst = 0;
  const double fps = 144;
  for (int f = 1; f <= 288; ++f) {
    ASSERT_OK(w->setColliderTransform(sphere, {{0, static_cast<float>(f / fps), 0}, {}}));
    ASSERT_OK(w->step(1.0 / fps));
    if (f < 30 || w->stepCount() == 0) continue;  // settled onto it first
    const double top = w->time() + 0.51;
    worst = std::max(worst, std::fabs(static_cast<double>(pos(*w, r, 0).y) - top));
  }
  EXPECT_LT(worst, 1e-4) << "before: the sphere was up to one frame (6.9 mm) ahead";
}

}  // namespace
}  // namespace wisp::test
