// Open worlds: scenes 10 and 100 km from the origin (every object simulates relative to an origin
// of its own), and World::shiftOrigin.
#include <algorithm>
#include <cstdio>

#include "helpers.h"

namespace wisp::test {
namespace {

// A rope between a moving and a still anchor, a cape on two anchors over a sphere, a chain on a
// moving root falling onto a capsule: every position offset by `o`. The driver moves anchors and
// root in coordinates offset by `drive` (what the caller's own objects use).
struct BigScene {
  std::unique_ptr<World> world;
  AnchorId hand, hold, left, right;
  RopeId rope;
  ClothId cape;
  ChainId chain;
  ColliderId ball, bar;
};

BigScene makeScene(Vec3 o) {
  BigScene s;
  s.world = scenes::makeWorld();
  World& w = *s.world;
  w.addAnchor({o.x, o.y + 2, o.z}, &s.hand);
  RopeDef r;
  r.start = {o.x, o.y + 2, o.z};
  r.end = {o.x + 1, o.y + 2, o.z};
  r.segments = 16;
  w.addRope(r, &s.rope);
  w.pin(s.rope, 0, s.hand);
  w.addAnchor({o.x + 0.75f, o.y + 2, o.z}, &s.hold);
  w.pin(s.rope, 16, s.hold);
  ClothDef c;
  c.grid = {0.5f, 0.75f, 8, 12, {{o.x + 2, o.y + 1.5f, o.z}, {}}};
  w.addCloth(c, &s.cape);
  w.addAnchor({o.x + 2, o.y + 1.5f, o.z}, &s.left);
  w.addAnchor({o.x + 2.5f, o.y + 1.5f, o.z}, &s.right);
  w.pin(s.cape, 0, s.left);
  w.pin(s.cape, 8, s.right);
  ColliderDef ball;
  ball.type = ColliderType::Sphere;
  ball.radius = 0.25f;
  ball.transform.position = {o.x + 2.25f, o.y + 1, o.z + 0.25f};
  w.addCollider(ball, &s.ball);
  ChainDef ch;
  ch.root.position = {o.x - 2, o.y + 2, o.z};
  ch.points = {{o.x - 2, o.y + 2, o.z}, {o.x - 1.75f, o.y + 2, o.z}, {o.x - 1.5f, o.y + 2, o.z}, {o.x - 1.25f, o.y + 2, o.z}};
  w.addChain(ch, &s.chain);
  ColliderDef bar;  // across the chain's fall
  bar.type = ColliderType::Capsule;
  bar.radius = 0.05f;
  bar.halfHeight = 0.25f;
  bar.transform.position = {o.x - 1.5f, o.y + 1.75f, o.z};
  bar.transform.rotation = {0.70710678f, 0, 0, 0.70710678f};  // along Z
  w.addCollider(bar, &s.bar);
  return s;
}

void drive(BigScene& s, Vec3 o, int f) {
  // dyadic: the same floats near and far
  const float sway = 0.25f * static_cast<float>((f % 32) < 16 ? f % 16 : 16 - f % 16) / 16.0f;
  s.world->setAnchorPosition(s.hand, {o.x + sway, o.y + 2, o.z});
  s.world->setAnchorPosition(s.hold, {o.x + 0.75f, o.y + 2, o.z});
  s.world->setAnchorPosition(s.left, {o.x + 2, o.y + 1.5f, o.z + sway});
  s.world->setAnchorPosition(s.right, {o.x + 2.5f, o.y + 1.5f, o.z + sway});
  s.world->setChainRoot(s.chain, {{o.x - 2, o.y + 2 + 0.5f * sway, o.z}, {}});
}

// fn(p, q, n) over the rope's, the cape's and the chain's output positions in scenes a and b.
template <class F>
void eachOutput(const BigScene& a, const BigScene& b, F&& fn) {
  int n = 0;
  a.world->ropeParticleCount(a.rope, &n);
  fn(a.world->ropePositions(a.rope), b.world->ropePositions(b.rope), n);
  a.world->clothParticleCount(a.cape, &n);
  fn(a.world->clothPositions(a.cape), b.world->clothPositions(b.cape), n);
  a.world->chainJointCount(a.chain, &n);
  fn(a.world->chainPositions(a.chain), b.world->chainPositions(b.chain), n);
}

// Largest distance between the two scenes' particles, the far one moved back by `o`.
float worstDifference(const BigScene& a, const BigScene& b, Vec3 o) {
  float worst = 0;
  auto cmp = [&](const float* p, const float* q, int n) {
    for (int i = 0; i < n; ++i) {
      const double dx = double(q[3 * i]) - o.x - p[3 * i], dy = double(q[3 * i + 1]) - o.y - p[3 * i + 1],
                   dz = double(q[3 * i + 2]) - o.z - p[3 * i + 2];
      worst = std::max(worst, static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz)));
    }
  };
  eachOutput(a, b, cmp);
  return worst;
}

// Every output float of `b` (a scene offset by `o`) against `a`'s moved by `o` in double and rounded
// once: 0 when `b` holds, relative to its objects' origins, the very floats `a` holds. Also the
// largest difference of a coordinate in metres (from the rounded outputs).
struct Comparison {
  int mismatches = 0;
  double worst = 0;
};
Comparison compareOutputs(const BigScene& a, const BigScene& b, Vec3 o) {
  Comparison c;
  auto cmp = [&](const float* p, const float* q, int n) {
    for (int i = 0; i < 3 * n; ++i) {
      const double off = i % 3 == 0 ? o.x : i % 3 == 1 ? o.y : o.z;
      if (q[i] != static_cast<float>(double(p[i]) + off)) ++c.mismatches;
      c.worst = std::max(c.worst, std::fabs(double(q[i]) - off - p[i]));
    }
  };
  eachOutput(a, b, cmp);
  return c;
}

void stepBoth(BigScene& home, BigScene& away, Vec3 far, int f) {
  drive(home, {0, 0, 0}, f);
  drive(away, far, f);
  ASSERT_OK(home.world->step(1.0 / 60.0));
  ASSERT_OK(away.world->step(1.0 / 60.0));
}

// A rope between two pins, a cape on anchors over a sphere, a chain on a moving root over a
// capsule, built 10 km, 100 km (along X and up) and 45 km out (offsets on the 16 m grid of object origins): at
// every step of 3 s each output is the origin scene's output moved out and rounded once, so the
// objects hold, relative to their origins, the floats of the scene at the origin (before: the
// scene 10 km out ended 180 mm off).
TEST(BigWorld, ScenesFarOutSimulateAsAtTheOrigin) {
  for (Vec3 far : {Vec3{10000, 0, 10000}, Vec3{1e5f, 0, 0}, Vec3{-20000, 16, 40000}, Vec3{0, 1e5f, 0}}) {
    BigScene home = makeScene({0, 0, 0});
    BigScene away = makeScene(far);
    Comparison worst;
    for (int f = 0; f < 180; ++f) {
      stepBoth(home, away, far, f);
      const Comparison c = compareOutputs(home, away, far);
      worst.mismatches += c.mismatches;
      worst.worst = std::max(worst.worst, c.worst);
    }
    const float big = std::max({std::fabs(far.x), std::fabs(far.y), std::fabs(far.z)});
    std::printf("(%g, %g, %g): %d output floats differ from the origin scene's moved out; worst %.3f mm (float spacing there %.3f mm)\n",
                far.x, far.y, far.z, worst.mismatches, 1e3 * worst.worst, 1e3 * (std::nextafter(big, 1e30f) - big));
    EXPECT_EQ(worst.mismatches, 0) << "at (" << far.x << ", " << far.y << ", " << far.z << ")";
    // moved back to the origin, the far world is the origin world, bit for bit
    ASSERT_OK(away.world->shiftOrigin(far.x, far.y, far.z));
    EXPECT_EQ(away.world->stateHash(), home.world->stateHash());
  }
}

// Off the 16 m grid the objects' origins are not the scene's offset: the scene 10 km out then
// simulates as the same scene built at its offset from those origins near the world's origin (bit
// for bit). How much that differs from the scene at the origin is the scene's own sensitivity to
// float rounding (cloth sliding over a sphere, a chain on a capsule), the same near the origin.
TEST(BigWorld, ASceneOffTheOriginGridSimulatesAsTheSameSceneNearTheOrigin) {
  const Vec3 far{10003.25f, 0.5f, -20000.75f};
  const Vec3 near{3.25f, 0.5f, -0.75f};  // far minus the objects' origin (10000, 0, -20000)
  const Vec3 grid{10000, 0, -20000};
  BigScene home = makeScene({0, 0, 0});
  BigScene close = makeScene(near);
  BigScene away = makeScene(far);
  int mismatches = 0;
  double worst = 0, sensitivity = 0;
  for (int f = 0; f < 180; ++f) {
    drive(home, {0, 0, 0}, f);
    ASSERT_OK(home.world->step(1.0 / 60.0));
    drive(close, near, f);
    drive(away, far, f);
    ASSERT_OK(close.world->step(1.0 / 60.0));
    ASSERT_OK(away.world->step(1.0 / 60.0));
    const Comparison c = compareOutputs(close, away, grid);
    mismatches += c.mismatches;
    worst = std::max(worst, c.worst);
    sensitivity = std::max(sensitivity, compareOutputs(home, close, near).worst);
  }
  std::printf("(%g, %g, %g): %d output floats differ from the scene at (%g, %g, %g) moved out (worst %.3f mm); "
              "that scene vs the one at the origin: %.3f mm\n",
              far.x, far.y, far.z, mismatches, near.x, near.y, near.z, 1e3 * worst, 1e3 * sensitivity);
  EXPECT_EQ(mismatches, 0);
  ASSERT_OK(away.world->shiftOrigin(grid.x, grid.y, grid.z));
  EXPECT_EQ(away.world->stateHash(), close.world->stateHash());
}

// A rope hanging straight down from a pin, at rest from the start, stays at rest 10 and 100 km
// out as at the origin (before: float rounding of positions that far out kept it moving
// centimetres per step). Movement per step from the particles' velocities (kept relative to the
// object, exact) and from the world positions the API returns (rounded to the floats there).
TEST(BigWorld, ARopeAtRestFarOutStaysAtRest) {
  for (Vec3 far : {Vec3{0, 0, 0}, Vec3{10000, 0, 10000}, Vec3{10000, 10000, 10000}, Vec3{0, 1e5f, 0}}) {
    auto w = scenes::makeWorld();
    RopeDef r;
    r.start = {far.x, far.y + 2, far.z};
    r.end = {far.x, far.y + 1, far.z};
    r.segments = 20;
    r.pinned = {0};
    RopeId rope;
    ASSERT_OK(w->addRope(r, &rope));
    for (int f = 0; f < 120; ++f) ASSERT_OK(w->step(1.0 / 60.0));
    float fastest = 0;
    double moved = 0;
    std::vector<float> before(w->ropePositions(rope), w->ropePositions(rope) + 63);
    for (int f = 0; f < 60; ++f) {
      ASSERT_OK(w->step(1.0 / 60.0));
      const float* now = w->ropePositions(rope);
      for (int i = 0; i <= 20; ++i) {
        ParticleState p;
        ASSERT_OK(w->particle(rope, i, &p));
        fastest = std::max(fastest, length(p.velocity));
        const double dx = double(now[3 * i]) - before[3 * i], dy = double(now[3 * i + 1]) - before[3 * i + 1],
                     dz = double(now[3 * i + 2]) - before[3 * i + 2];
        moved = std::max(moved, std::sqrt(dx * dx + dy * dy + dz * dz));
      }
      before.assign(now, now + 63);
    }
    std::printf("rope at rest at (%g, %g, %g): moves up to %.5f mm per step (velocity), %.3f mm (world positions)\n",
                far.x, far.y, far.z, 1e3 * fastest / 60, 1e3 * moved);
    EXPECT_LT(fastest / 60, 1e-5f) << "at (" << far.x << ", " << far.y << ", " << far.z << ")";
    EXPECT_LT(moved, 1e-5) << "at (" << far.x << ", " << far.y << ", " << far.z << ")";
  }
}

// A rope dragged 225 m by its anchor (3.75 m/s for 60 s, then held still for 10 s), from the
// origin, from 10 km up and from (10, 10, 10) km: the far ones are rebased onto new origins as they
// travel (exact shifts by multiples of 16 m), and each ends as still as the one dragged from the
// origin (< 0.01 mm per step; in world coordinates 10 km up a rope at rest kept moving 3.8 mm per
// step). The swing on the way is sensitive to rounding (dragged from 16 m instead of 0 the rope
// differs by ~80 mm), so only the stillness is compared.
TEST(BigWorld, ARopeDraggedFarEndsAtRest) {
  for (Vec3 far : {Vec3{0, 0, 0}, Vec3{0, 10000, 0}, Vec3{10000, 10000, 10000}}) {
    auto w = scenes::makeWorld();
    AnchorId hand;
    ASSERT_OK(w->addAnchor({far.x, far.y + 2, far.z}, &hand));
    RopeDef r;
    r.start = {far.x, far.y + 2, far.z};
    r.end = {far.x, far.y + 1, far.z};
    r.segments = 10;
    r.params.damping = 4;  // it comes to rest in the 10 s
    RopeId rope;
    ASSERT_OK(w->addRope(r, &rope));
    ASSERT_OK(w->pin(rope, 0, hand));
    for (int f = 0; f < 3600 + 600; ++f) {
      const float x = static_cast<float>(std::min(f, 3600)) / 16.0f;  // dyadic: the same floats near and far
      ASSERT_OK(w->setAnchorPosition(hand, {far.x + x, far.y + 2, far.z}));
      ASSERT_OK(w->step(1.0 / 60.0));
    }
    float fastest = 0;
    for (int i = 0; i <= 10; ++i) {
      ParticleState p;
      ASSERT_OK(w->particle(rope, i, &p));
      fastest = std::max(fastest, length(p.velocity));
    }
    std::printf("rope dragged 225 m from (%g, %g, %g): moves %.5f mm per step at the end\n", far.x, far.y, far.z,
                1e3 * fastest / 60);
    EXPECT_LT(fastest / 60, 1e-5f) << far.x;
  }
}

TEST(BigWorld, ShiftingTheOriginMidRunOnlyChangesTheCoordinates) {
  const Vec3 d{3.5f, -0.25f, -2.0f};
  BigScene a = makeScene({0, 0, 0});
  BigScene b = makeScene({0, 0, 0});
  for (int f = 0; f < 60; ++f) {
    drive(a, {0, 0, 0}, f);
    drive(b, {0, 0, 0}, f);
    ASSERT_OK(a.world->step(1.0 / 60.0));
    ASSERT_OK(b.world->step(1.0 / 60.0));
  }
  ASSERT_OK(b.world->step(0.004));  // mid-frame: time left in the accumulator
  ASSERT_OK(a.world->step(0.004));
  ASSERT_OK(b.world->shiftOrigin(d.x, d.y, d.z));
  Vec3 p;
  ASSERT_OK(b.world->anchorPosition(b.hand, &p));
  Vec3 q;
  ASSERT_OK(a.world->anchorPosition(a.hand, &q));
  EXPECT_EQ(p.x, q.x - d.x);
  ColliderDef c;
  ASSERT_OK(b.world->collider(b.ball, &c));
  EXPECT_EQ(c.transform.position.z, 0.25f - d.z);
  for (int f = 60; f < 120; ++f) {
    drive(a, {0, 0, 0}, f);
    drive(b, {-d.x, -d.y, -d.z}, f);
    ASSERT_OK(a.world->step(1.0 / 60.0));
    ASSERT_OK(b.world->step(1.0 / 60.0));
  }
  // the same motion up to the rounding of the shifted floats (measured 0.27 mm on the cape after 1 s)
  EXPECT_LT(worstDifference(a, b, {-d.x, -d.y, -d.z}), 1e-3f);
  // a bad offset is an error that changes nothing
  const uint64_t h = b.world->stateHash();
  Status s = b.world->shiftOrigin(std::nan(""), 0, 0);
  EXPECT_EQ(s.code, StatusCode::InvalidArgument);
  EXPECT_NE(s.message.find("shiftOrigin"), std::string::npos);
  EXPECT_EQ(b.world->stateHash(), h);
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// A chain of 6 bones of 0.1 m hanging from a root that circles and nods, brushing a sphere, a
// turned capsule and a turned box, with everything scaled by s: the root path and its scale s,
// and each collider's pose, made at its unscaled size and given the scale s with its pose (as a
// scaled three.js rig gives matrixWorld). The joints, divided by s, move as the unscaled
// chain's (within 1% of its length).
float scaledChainDeviation(float s, float* length, float* collidersMatter) {
  auto run = [](float scale, bool colliders, std::vector<Vec3>* out) {
    auto w = scenes::makeWorld();
    ChainDef d;
    for (int j = 0; j <= 6; ++j) d.points.push_back({0, -0.1f * j, 0});
    d.params.radius = 0.02f;
    d.params.stiffness = 2;
    ChainId c;
    w->addChain(d, &c);
    struct Placed {
      ColliderId id;
      Transform pose;  // unscaled
    };
    std::vector<Placed> placed;
    auto add = [&](ColliderDef def, Vec3 at, float turn) {
      Placed p;
      p.pose = {at, Quat{0, 0, std::sin(0.5f * turn), std::cos(0.5f * turn)}};
      w->addCollider(def, &p.id);
      placed.push_back(p);
    };
    if (colliders) {
      ColliderDef ball;
      ball.type = ColliderType::Sphere;
      ball.radius = 0.1f;
      add(ball, {0.2f, -0.45f, 0.05f}, 0);
      ColliderDef rod;
      rod.type = ColliderType::Capsule;
      rod.radius = 0.03f;
      rod.radiusTop = 0.05f;
      rod.halfHeight = 0.12f;
      add(rod, {-0.08f, -0.4f, -0.1f}, 1.2f);
      ColliderDef block;
      block.type = ColliderType::Box;
      block.halfExtents = {0.06f, 0.05f, 0.07f};
      add(block, {0.05f, -0.58f, -0.15f}, 0.3f);
    }
    for (int f = 0; f < 180; ++f) {
      const float t = f / 60.0f;
      const Vec3 root = Vec3{0.1f * std::sin(3 * t), 0.05f * std::sin(5 * t), 0.1f * std::cos(3 * t) - 0.1f} * scale;
      w->setChainRoot(c, {root, Quat{}}, scale);
      for (const Placed& p : placed)
        EXPECT_EQ(w->setColliderTransform(p.id, {p.pose.position * scale, p.pose.rotation}, scale).code, StatusCode::Ok);
      w->step(1.0 / 60.0);
    }
    int n = 0;
    w->chainJointCount(c, &n);
    const float* p = w->chainPositions(c);
    out->clear();
    for (int j = 0; j < n; ++j) out->push_back(Vec3{p[3 * j], p[3 * j + 1], p[3 * j + 2]} * (1.0f / scale));
  };
  std::vector<Vec3> unit, scaled, free;
  run(1, true, &unit);
  run(s, true, &scaled);
  run(1, false, &free);
  *length = 0.6f;
  float worst = 0, matter = 0;
  for (size_t j = 0; j < unit.size(); ++j) {
    worst = std::max(worst, dist(unit[j], scaled[j]));
    matter = std::max(matter, dist(unit[j], free[j]));
  }
  *collidersMatter = matter;
  return worst;
}

TEST(Scale, AChainOnAUniformlyScaledRootIsTheUnscaledChainScaled) {
  for (float s : {0.01f, 100.0f}) {
    float L = 0, matter = 0;
    const float worst = scaledChainDeviation(s, &L, &matter);
    std::printf("scale %g: worst joint %.4f%% of the chain's length off (the colliders move it %.1f%%)\n", s,
                100 * worst / L, 100 * matter / L);
    // before: the root's scale was dropped; then the colliders' scale was (they kept their size)
    EXPECT_LT(worst, 0.01f * L) << "scale " << s;
    EXPECT_GT(matter, 0.1f * L) << "the colliders must shape the motion for the test to mean anything";
  }
}

TEST(Scale, AColliderTakesTheUniformScaleOfItsPose) {
  // a sphere of radius 0.1 posed with scale 3 keeps a particle 0.3 m from its centre; a plane
  // has no size; a bad scale is an error naming it that changes nothing
  auto w = scenes::makeWorld();
  ColliderDef ball;
  ball.type = ColliderType::Sphere;
  ball.radius = 0.1f;
  ColliderId b;
  ASSERT_OK(w->addCollider(ball, &b));
  ASSERT_OK(w->teleportCollider(b, {{0.03f, 0, 0}, Quat{}}, 3));
  ChainDef d;
  d.points = {{0, 0.5f, 0}, {0, 0.4f, 0}, {0, 0.3f, 0}};
  d.params.radius = 0.01f;
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  for (int f = 0; f < 60; ++f) {
    ASSERT_OK(w->setColliderTransform(b, {{0.03f, 0, 0}, Quat{}}, 3));
    ASSERT_OK(w->step(1.0 / 60.0));
  }
  const float* p = w->chainPositions(c);
  const float r = dist(Vec3{p[6], p[7], p[8]}, Vec3{0.03f, 0, 0});
  EXPECT_GT(r, 0.3f + 0.01f - 2e-3f) << "the scaled sphere holds the tip out (before: 0.1 + 0.01)";
  ColliderDef seen;
  ASSERT_OK(w->collider(b, &seen));
  EXPECT_EQ(seen.radius, 0.1f);  // the size as given
  const uint64_t h = w->stateHash();
  for (float s : {0.0f, -2.0f, std::nanf(""), 1e5f}) {
    Status st = w->setColliderTransform(b, {{0, 0, 0}, Quat{}}, s);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument) << s;
    EXPECT_NE(st.message.find("collider scale"), std::string::npos) << st.message;
  }
  EXPECT_EQ(w->stateHash(), h);
}

TEST(Scale, BadScalesAreRejectedAndChangeNothing) {
  auto w = scenes::makeWorld();
  ChainDef d;
  d.points = {{0, 0, 0}, {0, -0.1f, 0}, {0, -0.2f, 0}};
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  const uint64_t h = w->stateHash();
  for (float s : {0.0f, -1.0f, std::nanf(""), 1e9f}) {
    Status st = w->setChainRoot(c, {}, s);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument) << s;
    EXPECT_NE(st.message.find("scale"), std::string::npos) << st.message;
  }
  EXPECT_EQ(w->stateHash(), h);
}

}  // namespace
}  // namespace wisp::test
