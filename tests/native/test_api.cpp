// Bad input is a clear error and changes nothing; handles are generational; cut/teleport/reset.
#include <limits>

#include "helpers.h"
#include "jobs/job_pool.h"

namespace wisp::test {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

struct Fixture : ::testing::Test {
  std::unique_ptr<World> w = scenes::makeWorld();
  RopeId rope;
  AnchorId anchor;
  ColliderId sphere;
  void SetUp() override {
    RopeDef d = scenes::straightRope({0, 1, 0}, 10, 0.1f);
    d.pinned = {0};
    ASSERT_OK(w->addRope(d, &rope));
    ASSERT_OK(w->addAnchor({0, 2, 0}, &anchor));
    ColliderDef c;
    ASSERT_OK(w->addCollider(c, &sphere));
    ASSERT_OK(w->step(1.0 / 60.0));
  }
  // Runs `call`, expects `code` with `needle` in the message, and an unchanged world.
  template <class F>
  void expectRejected(F call, StatusCode code, const std::string& needle) {
    uint64_t before = w->stateHash();
    uint64_t layout = w->layoutVersion();
    WorldStats stats = w->stats();
    Status s = call();
    EXPECT_EQ(s.code, code) << s.message;
    EXPECT_NE(s.message.find(needle), std::string::npos) << "message: " << s.message << "\nexpected to mention: " << needle;
    EXPECT_EQ(w->stateHash(), before) << s.message;
    EXPECT_EQ(w->layoutVersion(), layout);
    EXPECT_EQ(w->stats().particles, stats.particles);
  }
};

TEST_F(Fixture, EveryRopeParameterRejectsNonFiniteValues) {
  using Field = float RopeParams::*;
  const std::pair<Field, const char*> fields[] = {
      {&RopeParams::radius, "radius"},       {&RopeParams::stretchCompliance, "stretchCompliance"},
      {&RopeParams::bendCompliance, "bendCompliance"}, {&RopeParams::damping, "damping"},
      {&RopeParams::drag, "drag"},           {&RopeParams::gravityScale, "gravityScale"},
      {&RopeParams::yieldRatio, "yieldRatio"}, {&RopeParams::plasticity, "plasticity"}};
  for (auto [field, name] : fields) {
    for (float bad : {kNaN, kInf, -kInf}) {
      RopeParams p;
      p.*field = bad;
      expectRejected([&] { return w->setRopeParams(rope, p); }, StatusCode::InvalidArgument, name);
      RopeDef d = scenes::straightRope({0, 0, 0}, 4, 0.1f);
      d.params = p;
      RopeId id;
      expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, name);
    }
  }
  RopeParams neg;
  neg.damping = -1;
  expectRejected([&] { return w->setRopeParams(rope, neg); }, StatusCode::InvalidArgument, "damping");
  RopeParams yield;
  yield.yieldRatio = 0.5f;
  expectRejected([&] { return w->setRopeParams(rope, yield); }, StatusCode::InvalidArgument, "yieldRatio");
}

TEST_F(Fixture, RopeGeometryIsValidated) {
  RopeId id;
  for (int segs : {0, -1, -100, 1 << 21}) {
    RopeDef d = scenes::straightRope({0, 0, 0}, 1, 0.1f);
    d.segments = segs;
    expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "segments");
  }
  RopeDef d = scenes::straightRope({0, 0, 0}, 4, 0.1f);
  d.start.y = kNaN;
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "start");
  d = scenes::straightRope({0, 0, 0}, 4, 0.1f);
  d.end.z = kInf;
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "end");
  d = {};
  d.points = {{0, 0, 0}};
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "at least 2");
  d.points = {{0, 0, 0}, {0, 1, 0}, {0, 1, 0}};
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "zero length");
  d.points = {{0, 0, 0}, {0, kNaN, 0}};
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "points[1]");
  d = scenes::straightRope({0, 0, 0}, 4, 0.1f);
  d.start = d.end;
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "zero length");
  d = scenes::straightRope({0, 0, 0}, 4, 0.1f);
  d.pinned = {5};
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::OutOfRange, "pinned[0]");
  d.pinned = {};
  d.massPerLength = 0;
  expectRejected([&] { return w->addRope(d, &id); }, StatusCode::InvalidArgument, "massPerLength");
}

TEST_F(Fixture, WorldSettingsAreValidated) {
  auto bad = [&](auto mutate, const char* name) {
    WorldSettings s;
    mutate(s);
    expectRejected([&] { return w->setSettings(s); }, StatusCode::InvalidArgument, name);
    std::unique_ptr<World> other;
    EXPECT_FALSE(World::create(s, &other).ok());
    EXPECT_EQ(other, nullptr);
  };
  bad([](WorldSettings& s) { s.gravity.y = kNaN; }, "gravity");
  bad([](WorldSettings& s) { s.gravity.x = kInf; }, "gravity");
  bad([](WorldSettings& s) { s.fixedDt = 0; }, "fixedDt");
  bad([](WorldSettings& s) { s.fixedDt = std::nan(""); }, "fixedDt");
  bad([](WorldSettings& s) { s.substeps = 0; }, "substeps");
  bad([](WorldSettings& s) { s.substeps = -3; }, "substeps");
  bad([](WorldSettings& s) { s.iterations = 0; }, "iterations");
  bad([](WorldSettings& s) { s.maxFrameDt = -1; }, "maxFrameDt");
  bad([](WorldSettings& s) { s.threads = -1; }, "threads");
  bad([](WorldSettings& s) { s.wind.speed = kNaN; }, "speed");
  bad([](WorldSettings& s) { s.wind.speed = -2; }, "speed");
  bad([](WorldSettings& s) { s.wind.turbulence = kInf; }, "turbulence");
  bad([](WorldSettings& s) { s.wind.direction = {0, 0, 0}; s.wind.speed = 1; }, "direction");
  bad([](WorldSettings& s) { s.wind.direction.x = kNaN; }, "direction");
}

TEST_F(Fixture, CollidersAndAnchorsAreValidated) {
  ColliderId c;
  ColliderDef d;
  d.radius = kNaN;
  expectRejected([&] { return w->addCollider(d, &c); }, StatusCode::InvalidArgument, "radius");
  d = {};
  d.radius = -1;
  expectRejected([&] { return w->addCollider(d, &c); }, StatusCode::InvalidArgument, "radius");
  d = {};
  d.type = static_cast<ColliderType>(9);
  expectRejected([&] { return w->addCollider(d, &c); }, StatusCode::InvalidArgument, "type");
  d = {};
  d.transform.rotation = {0, 0, 0, 0};
  expectRejected([&] { return w->addCollider(d, &c); }, StatusCode::InvalidArgument, "rotation");
  d = {};
  d.halfExtents.y = -1;
  expectRejected([&] { return w->addCollider(d, &c); }, StatusCode::InvalidArgument, "halfExtents");
  expectRejected([&] { return w->setColliderTransform(sphere, {{kNaN, 0, 0}, {}}); }, StatusCode::InvalidArgument, "position");
  expectRejected([&] { return w->setColliderFriction(sphere, -0.1f); }, StatusCode::InvalidArgument, "friction");
  expectRejected([&] { return w->setColliderFriction(sphere, kNaN); }, StatusCode::InvalidArgument, "friction");
  expectRejected([&] { return w->setAnchorPosition(anchor, {0, kInf, 0}); }, StatusCode::InvalidArgument, "anchor position");
  expectRejected([&] { return w->teleportAnchor(anchor, {kNaN, 0, 0}); }, StatusCode::InvalidArgument, "anchor position");
  AnchorId a;
  expectRejected([&] { return w->addAnchor({0, kNaN, 0}, &a); }, StatusCode::InvalidArgument, "anchor position");
  expectRejected([&] { return w->setParticleVelocity(rope, 1, {kNaN, 0, 0}); }, StatusCode::InvalidArgument, "velocity");
  expectRejected([&] { return w->teleportRope(rope, {{0, kNaN, 0}, {}}, {0, 0, 0}); }, StatusCode::InvalidArgument, "translation");
}

TEST_F(Fixture, BadIndicesAreOutOfRange) {
  RopeId tail;
  for (int bad : {-1, 10, 1000}) {
    expectRejected([&] { return w->cutRope(rope, bad, &tail); }, StatusCode::OutOfRange, "segment");
  }
  for (int bad : {-1, 11}) {
    expectRejected([&] { return w->pin(rope, bad, anchor); }, StatusCode::OutOfRange, "particle");
    expectRejected([&] { return w->unpin(rope, bad); }, StatusCode::OutOfRange, "particle");
    expectRejected([&] { return w->setParticleVelocity(rope, bad, {}); }, StatusCode::OutOfRange, "particle");
    ParticleState p;
    EXPECT_EQ(w->particle(rope, bad, &p).code, StatusCode::OutOfRange);
  }
}

TEST_F(Fixture, StaleDefaultAndForeignIdsAreRejected) {
  RopeId stale;
  RopeDef d = scenes::straightRope({0, 0, 0}, 3, 0.1f);
  ASSERT_OK(w->addRope(d, &stale));
  ASSERT_OK(w->removeRope(stale));
  RopeId reused;
  ASSERT_OK(w->addRope(d, &reused));  // takes the same slot
  EXPECT_EQ(reused.index, stale.index);
  EXPECT_NE(reused.generation, stale.generation);
  expectRejected([&] { return w->removeRope(stale); }, StatusCode::InvalidHandle, "rope id");
  expectRejected([&] { return w->setRopeParams(stale, {}); }, StatusCode::InvalidHandle, "rope id");
  expectRejected([&] { return w->pin(stale, 0, anchor); }, StatusCode::InvalidHandle, "rope id");
  EXPECT_EQ(w->ropePositions(stale), nullptr);
  expectRejected([&] { return w->removeRope(RopeId{}); }, StatusCode::InvalidHandle, "rope id");
  ASSERT_OK(w->removeRope(reused));

  AnchorId staleAnchor;
  ASSERT_OK(w->addAnchor({}, &staleAnchor));
  ASSERT_OK(w->removeAnchor(staleAnchor));
  expectRejected([&] { return w->removeAnchor(staleAnchor); }, StatusCode::InvalidHandle, "anchor id");
  expectRejected([&] { return w->setAnchorPosition(staleAnchor, {}); }, StatusCode::InvalidHandle, "anchor id");
  expectRejected([&] { return w->pin(rope, 3, staleAnchor); }, StatusCode::InvalidHandle, "anchor id");

  ColliderId staleCollider;
  ASSERT_OK(w->addCollider({}, &staleCollider));
  ASSERT_OK(w->removeCollider(staleCollider));
  expectRejected([&] { return w->setColliderEnabled(staleCollider, false); }, StatusCode::InvalidHandle, "collider id");
  expectRejected([&] { return w->removeCollider(staleCollider); }, StatusCode::InvalidHandle, "collider id");

  // the same slot numbers in another world
  auto other = scenes::makeWorld();
  RopeId foreignRope;
  ASSERT_OK(other->addRope(d, &foreignRope));
  AnchorId foreignAnchor;
  ASSERT_OK(other->addAnchor({}, &foreignAnchor));
  ColliderId foreignCollider;
  ASSERT_OK(other->addCollider({}, &foreignCollider));
  expectRejected([&] { return w->removeRope(foreignRope); }, StatusCode::InvalidHandle, "another world");
  expectRejected([&] { return w->pin(rope, 2, foreignAnchor); }, StatusCode::InvalidHandle, "anchor id");
  expectRejected([&] { return w->removeCollider(foreignCollider); }, StatusCode::InvalidHandle, "collider id");
  // the world keeps working
  ASSERT_OK(w->step(1.0 / 60.0));
}

TEST_F(Fixture, CutKeepsEveryParticleAndItsState) {
  ASSERT_OK(w->step(0.1));
  const int n = count(*w, rope);
  std::vector<ParticleState> before(n);
  for (int i = 0; i < n; ++i) ASSERT_OK(w->particle(rope, i, &before[i]));
  RopeId tail;
  ASSERT_OK(w->cutRope(rope, 4, &tail));
  EXPECT_EQ(count(*w, rope), 5);
  EXPECT_EQ(count(*w, tail), n - 5);
  for (int i = 0; i < n; ++i) {
    ParticleState p;
    ASSERT_OK(i < 5 ? w->particle(rope, i, &p) : w->particle(tail, i - 5, &p));
    EXPECT_EQ(p.position.x, before[i].position.x);
    EXPECT_EQ(p.position.y, before[i].position.y);
    EXPECT_EQ(p.velocity.y, before[i].velocity.y);
    EXPECT_EQ(p.pinned, before[i].pinned);
  }
  EXPECT_EQ(w->stats().ropes, 2);
  EXPECT_EQ(w->stats().particles, n);
  // the tail falls freely while the head still hangs from its pin
  Vec3 head0 = pos(*w, rope, 0);
  for (int f = 0; f < 30; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_EQ(pos(*w, rope, 0).y, head0.y);
  EXPECT_LT(pos(*w, tail, 0).y, before[5].position.y - 0.5f);
  // cutting the first and the last segment works too, down to one-particle ropes
  RopeId t2, t3;
  ASSERT_OK(w->cutRope(tail, count(*w, tail) - 2, &t2));
  EXPECT_EQ(count(*w, t2), 1);
  ASSERT_OK(w->cutRope(tail, 0, &t3));
  EXPECT_EQ(count(*w, tail), 1);
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_EQ(w->stats().particles, n);
}

TEST_F(Fixture, CutWithBendingKeepsBendConstraintsOnEachSide) {
  RopeDef d = scenes::straightRope({0, 0, 2}, 12, 0.1f);
  d.params.bending = true;
  RopeId r, tail;
  ASSERT_OK(w->addRope(d, &r));
  ASSERT_OK(w->cutRope(r, 5, &tail));
  EXPECT_EQ(w->stats().constraints, 10 /*first rope*/ + 5 + 4 /*head*/ + 6 + 5 /*tail*/);
  for (int f = 0; f < 60; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  for (RopeId id : {r, tail})
    for (int i = 0; i < count(*w, id); ++i) EXPECT_TRUE(std::isfinite(pos(*w, id, i).y));
}

TEST_F(Fixture, ResetRestoresCreationPoseAtRest) {
  for (int f = 0; f < 30; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  ASSERT_OK(w->resetRope(rope));
  const float* out = w->ropePositions(rope);
  // created by straightRope({0, 1, 0}, 10, 0.1): x = lerp(0, 1, i / 10)
  for (int i = 0; i <= 10; ++i) {
    EXPECT_EQ(out[3 * i], float(i) / 10.0f * 1.0f);
    EXPECT_EQ(out[3 * i + 1], 1.0f);
    EXPECT_EQ(out[3 * i + 2], 0.0f);
  }
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(length(vel(*w, rope, i)), 0.0f);
}

TEST_F(Fixture, ResetPutsPinnedParticlesOnTheirAnchors) {
  ASSERT_OK(w->pin(rope, 10, anchor));  // the anchor is at (0, 2, 0)
  for (int f = 0; f < 30; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  ASSERT_OK(w->setAnchorPosition(anchor, {0.5f, 2, 0}));
  ASSERT_OK(w->step(1.0 / 60.0));
  ASSERT_OK(w->resetRope(rope));
  const float* out = w->ropePositions(rope);
  EXPECT_EQ(out[30], 0.5f);  // the pinned tip is on its (moved) anchor, not where it was created
  EXPECT_EQ(out[31], 2.0f);
  EXPECT_EQ(out[15], 0.5f);  // the free particles are where they were created
  EXPECT_EQ(out[16], 1.0f);
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(length(vel(*w, rope, i)), 0.0f);
  ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_EQ(pos(*w, rope, 10).x, 0.5f);  // and stays there: the anchor does not move
  EXPECT_EQ(pos(*w, rope, 10).y, 2.0f);
}

TEST_F(Fixture, TeleportMovesRigidlyWithoutAddingVelocity) {
  for (int f = 0; f < 20; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  ParticleState before;
  ASSERT_OK(w->particle(rope, 7, &before));
  // 90 degrees about Y around the origin, then 100 m along X
  Transform t{{100, 0, 0}, {0, 0.70710678f, 0, 0.70710678f}};
  ASSERT_OK(w->teleportRope(rope, t, {0, 0, 0}));
  ParticleState after;
  ASSERT_OK(w->particle(rope, 7, &after));
  EXPECT_NEAR(after.position.x, 100 + before.position.z, 1e-4);
  EXPECT_NEAR(after.position.z, -before.position.x, 1e-4);
  EXPECT_NEAR(length(after.velocity), length(before.velocity), 1e-4);
  EXPECT_NEAR(after.velocity.y, before.velocity.y, 1e-5);
}

TEST(Stats, ThreadsAreTheOnesTheStepUses) {
  WorldSettings s;
  s.threads = 2;
  auto w = scenes::makeWorld(s);
  RopeId id;
  ASSERT_OK(w->addRope(scenes::straightRope({0, 1, 0}, 99, 0.01f), &id));
  EXPECT_EQ(w->stats().threads, 1) << "100 particles run serially whatever the setting";
  for (int k = 0; k < 20; ++k) ASSERT_OK(w->addRope(scenes::straightRope({0, 1, 0.1f * k}, 99, 0.01f), &id));
  EXPECT_EQ(w->stats().particles, 2100);
  EXPECT_EQ(w->stats().threads, jobs::regionSize(2)) << "2, or fewer where the machine has fewer";
}

}  // namespace
}  // namespace wisp::test
