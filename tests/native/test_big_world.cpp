// Open worlds: a scene 10 km from the origin, and World::shiftOrigin.
#include <algorithm>
#include <cstdio>

#include "helpers.h"

namespace wisp::test {
namespace {

// A rope hanging from a moving anchor, a cape on two anchors over a sphere, a chain on a moving
// root: every position offset by `o`. The driver moves anchors and root in coordinates offset by
// `drive` (what the caller's own objects use).
struct BigScene {
  std::unique_ptr<World> world;
  AnchorId hand, left, right;
  RopeId rope;
  ClothId cape;
  ChainId chain;
  ColliderId ball;
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
  return s;
}

void drive(BigScene& s, Vec3 o, int f) {
  // dyadic: the same floats near and far
  const float sway = 0.25f * static_cast<float>((f % 32) < 16 ? f % 16 : 16 - f % 16) / 16.0f;
  s.world->setAnchorPosition(s.hand, {o.x + sway, o.y + 2, o.z});
  s.world->setAnchorPosition(s.left, {o.x + 2, o.y + 1.5f, o.z + sway});
  s.world->setAnchorPosition(s.right, {o.x + 2.5f, o.y + 1.5f, o.z + sway});
  s.world->setChainRoot(s.chain, {{o.x - 2, o.y + 2 + 0.5f * sway, o.z}, {}});
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
  int n = 0;
  a.world->ropeParticleCount(a.rope, &n);
  cmp(a.world->ropePositions(a.rope), b.world->ropePositions(b.rope), n);
  a.world->clothParticleCount(a.cape, &n);
  cmp(a.world->clothPositions(a.cape), b.world->clothPositions(b.cape), n);
  a.world->chainJointCount(a.chain, &n);
  cmp(a.world->chainPositions(a.chain), b.world->chainPositions(b.chain), n);
  return worst;
}

TEST(BigWorld, ASceneTenKilometresOutBehavesAsAtTheOriginOnceTheOriginIsShifted) {
  const Vec3 far{10000, 0, 10000};
  BigScene home = makeScene({0, 0, 0});
  BigScene away = makeScene(far);         // simulated in place, 10 km out
  BigScene shifted = makeScene(far);      // the same, with the origin moved next to it
  ASSERT_OK(shifted.world->shiftOrigin(far.x, far.y, far.z));
  for (int f = 0; f < 180; ++f) {
    drive(home, {0, 0, 0}, f);
    drive(away, far, f);
    drive(shifted, {0, 0, 0}, f);  // the caller's objects moved by the same offset
    ASSERT_OK(home.world->step(1.0 / 60.0));
    ASSERT_OK(away.world->step(1.0 / 60.0));
    ASSERT_OK(shifted.world->step(1.0 / 60.0));
  }
  const float inPlace = worstDifference(home, away, far);
  const float afterShift = worstDifference(home, shifted, {0, 0, 0});
  std::printf("10 km out: %.1f mm off in place, %.4f mm after shiftOrigin\n", 1e3 * inPlace, 1e3 * afterShift);
  EXPECT_LT(afterShift, 1e-3f);
  EXPECT_EQ(home.world->stateHash(), shifted.world->stateHash()) << "the shifted scene holds the very same floats";
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

// A chain of 6 bones of 0.1 m hanging from a root that circles and nods, brushing a sphere, with
// everything scaled by s (root path, sphere) and the root's scale s: the joints, seen from the
// root and divided by s, move as the unscaled chain's (within 1% of its length).
float scaledChainDeviation(float s, float* length) {
  auto run = [](float scale, std::vector<Vec3>* out) {
    auto w = scenes::makeWorld();
    ChainDef d;
    for (int j = 0; j <= 6; ++j) d.points.push_back({0, -0.1f * j, 0});
    d.params.radius = 0.02f;
    d.params.stiffness = 2;
    ChainId c;
    w->addChain(d, &c);
    ColliderDef ball;
    ball.type = ColliderType::Sphere;
    ball.radius = 0.1f * scale;
    ball.transform.position = Vec3{0.2f, -0.45f, 0.05f} * scale;
    ColliderId b;
    w->addCollider(ball, &b);
    for (int f = 0; f < 180; ++f) {
      const float t = f / 60.0f;
      const Vec3 root = Vec3{0.1f * std::sin(3 * t), 0.05f * std::sin(5 * t), 0.1f * std::cos(3 * t) - 0.1f} * scale;
      w->setChainRoot(c, {root, Quat{}}, scale);
      w->step(1.0 / 60.0);
    }
    int n = 0;
    w->chainJointCount(c, &n);
    const float* p = w->chainPositions(c);
    out->clear();
    for (int j = 0; j < n; ++j) out->push_back(Vec3{p[3 * j], p[3 * j + 1], p[3 * j + 2]} * (1.0f / scale));
  };
  std::vector<Vec3> unit, scaled;
  run(1, &unit);
  run(s, &scaled);
  *length = 0.6f;
  float worst = 0;
  for (size_t j = 0; j < unit.size(); ++j) worst = std::max(worst, dist(unit[j], scaled[j]));
  return worst;
}

TEST(Scale, AChainOnAUniformlyScaledRootIsTheUnscaledChainScaled) {
  for (float s : {0.01f, 100.0f}) {
    float L = 0;
    const float worst = scaledChainDeviation(s, &L);
    std::printf("scale %g: worst joint %.4f%% of the chain's length off\n", s, 100 * worst / L);
    EXPECT_LT(worst, 0.01f * L) << "scale " << s;  // before: the root's scale was dropped
  }
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
