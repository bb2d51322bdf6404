// Spring-bone chains: invariants (exact bone lengths, limits, collisions), settling, frame-rate
// independence, teleports, inertia, bad input.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "colliders/shapes.h"
#include "helpers.h"
#include "math/quat.h"
#include "solver/step_context.h"

namespace wisp::test {
namespace {

Quat aroundY(float angle) {
  // half-angle form via a few Taylor terms would do; std:: trig is fine in a test
  return {0, std::sin(angle / 2), 0, std::cos(angle / 2)};
}
Quat aroundX(float angle) { return {std::sin(angle / 2), 0, 0, std::cos(angle / 2)}; }


// A ponytail: 8 joints 6 cm apart hanging from the back of a head whose centre is the root.
ChainDef ponytail(Vec3 head, float startAngle = 0) {
  ChainDef d;
  d.root = {head, aroundY(startAngle)};
  d.joints.push_back({{0, 0, -0.13f}, {}});
  for (int j = 1; j < 8; ++j) d.joints.push_back({{0, -0.06f, -0.01f}, {}});
  d.params.radius = 0.02f;
  return d;
}

float restLen(const ChainDef& d, int bone) { return length(d.joints[bone + 1].position); }

// Deepest penetration (m) of any bone capsule into a collider, by sampling each segment.
float deepestBone(const World& w, ChainId c, const ColliderDef& def, float radius) {
  ColliderPose pose = poseAt(pathOf(def, def.transform), 1.0f);
  float worst = -1e9f;
  for (int k = 0; k + 1 < joints(w, c); ++k)
    for (int s = 1; s <= 20; ++s) {
      Vec3 p = lerp(joint(w, c, k), joint(w, c, k + 1), s / 20.0f);
      worst = std::max(worst, radius - signedDistance(pose, p).distance);
    }
  return worst;
}

TEST(Chain, BoneLengthsExactWhileTheRootWhips) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d = ponytail({0, 1.6f, 0});
  d.params.stiffness = 2;
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  float worst = 0;
  for (int f = 0; f < 240; ++f) {
    float t = f / 60.0f;
    Transform root{{std::sin(t * 9) * 0.4f, 1.6f + std::sin(t * 13) * 0.2f, 0}, aroundY(std::sin(t * 7) * 2)};
    ASSERT_OK(w->setChainRoot(c, root));
    ASSERT_OK(w->step(1.0 / 60));
    for (int k = 0; k + 1 < joints(*w, c); ++k)
      worst = std::max(worst, std::fabs(dist(joint(*w, c, k), joint(*w, c, k + 1)) - restLen(d, k)));
  }
  ChainStats s;
  ASSERT_OK(w->chainStats(c, &s));
  EXPECT_LT(worst, 2e-6f) << "bone length error (m)";
  EXPECT_LT(s.maxLengthError, 2e-6f);
  EXPECT_GT(s.maxSpeed, 0.5f) << "the chain should be moving";
}

TEST(Chain, ConeAndHingeLimitsHold) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d;
  d.root = {{0, 1, 0}, {}};
  d.points = {{0, 1, 0}, {0.1f, 1, 0}, {0.2f, 1, 0}, {0.3f, 1, 0}, {0.4f, 1, 0}};  // horizontal
  d.params.stiffness = 0;
  d.params.limitAngle = 0.3f;
  d.params.hinge = true;
  d.params.hingeAxis = {0, 1, 0};  // swings in the horizontal plane only: gravity cannot bend it
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  float worstCone = 0, worstHinge = 0;
  for (int f = 0; f < 180; ++f) {
    float t = f / 60.0f;
    ASSERT_OK(w->setChainRoot(c, {{0, 1, std::sin(t * 10) * 0.3f}, aroundY(std::sin(t * 6))}));
    ASSERT_OK(w->step(1.0 / 60));
    const float* rot = w->chainRotations(c);
    Quat parent = aroundY(std::sin(t * 6));
    for (int k = 0; k + 1 < joints(*w, c); ++k) {
      Vec3 dir = joint(*w, c, k + 1) - joint(*w, c, k);
      dir = dir * (1.0f / length(dir));
      Vec3 rest = rotate(parent, Vec3{1, 0, 0});  // rest direction under the simulated parent
      worstCone = std::max(worstCone, std::acos(std::clamp(dot(dir, rest), -1.0f, 1.0f)) - 0.3f);
      worstHinge = std::max(worstHinge, std::fabs(dir.y));
      parent = {rot[4 * k], rot[4 * k + 1], rot[4 * k + 2], rot[4 * k + 3]};
    }
  }
  EXPECT_LT(worstCone, 1e-3f) << "rad past the cone";
  EXPECT_LT(worstHinge, 1e-4f) << "out of the hinge plane";
}

// A head turning fast with a ponytail around it, and shoulders: no bone capsule ends a step
// inside a collider by more than 10% of its radius.
TEST(Chain, NoBoneInsideCollidersWhileTheHeadTurnsAt20RadPerSecond) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  const Vec3 centre{0, 1.6f, 0};
  ChainDef d = ponytail(centre);
  d.params.stiffness = 1;
  d.params.damping = 1;
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ColliderDef head;
  head.radius = 0.1f;
  head.transform = {centre, {}};
  ColliderDef shoulders;
  shoulders.type = ColliderType::Capsule;
  shoulders.radius = 0.06f;
  shoulders.radiusTop = 0.05f;  // tapered
  shoulders.halfHeight = 0.18f;
  shoulders.transform = {{0, 1.38f, 0}, {0, 0, 0.70710678f, 0.70710678f}};  // across the body
  ColliderId hc, sc;
  ASSERT_OK(w->addCollider(head, &hc));
  ASSERT_OK(w->addCollider(shoulders, &sc));
  ASSERT_OK(w->step(1.0));  // settle
  float worst = -1;
  for (int f = 0; f < 120; ++f) {
    float angle = 20.0f * (f + 1) / 60.0f;  // 20 rad/s about the neck
    Transform pose{centre, aroundY(angle)};
    ASSERT_OK(w->setChainRoot(c, pose));
    head.transform = pose;
    ASSERT_OK(w->setColliderTransform(hc, pose));
    ASSERT_OK(w->step(1.0 / 60));
    worst = std::max({worst, deepestBone(*w, c, head, 0.02f), deepestBone(*w, c, shoulders, 0.02f)});
  }
  EXPECT_LT(worst, 0.1f * 0.02f) << "deepest penetration (m)";
}

TEST(Chain, StillRootSettlesWithoutTwitching) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d = ponytail({0, 1.6f, 0});
  d.root.rotation = aroundX(1.2f);  // the rest pose points up and back: gravity bends it
  d.params.stiffness = 3;
  d.params.elasticity = 0.5f;
  d.params.damping = 4;  // from a 70 degree swing: e^-12 of it is left after 3 s
  ColliderDef head;
  head.radius = 0.1f;
  head.transform = {{0, 1.6f, 0}, {}};
  ColliderId hc;
  ASSERT_OK(w->addCollider(head, &hc));
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ASSERT_OK(w->step(0.2));
  for (int f = 0; f < 170; ++f) ASSERT_OK(w->step(1.0 / 60));  // 3 s in all
  const int n = joints(*w, c);
  EXPECT_LT(largestChainMotion(*w, c), 0.05e-3f) << "largest per-step motion (m) after 3 s";
  EXPECT_GT(dist(joint(*w, c, n - 1), {0, 1.6f, 0}), 0.2f);
}

// The root moves for 1 s then holds still; after 3 s more the pose is the same whatever the
// frame rate.
TEST(Chain, SettledPoseIndependentOfFrameRate) {
  std::vector<std::vector<Vec3>> poses;
  for (double fps : {30.0, 60.0, 144.0}) {
    std::unique_ptr<World> w;
    ASSERT_OK(World::create({}, &w));
    ChainDef d = ponytail({0, 1.6f, 0});
    d.root.rotation = aroundX(1.0f);
    d.params.stiffness = 3;
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    const int frames = static_cast<int>(std::lround(4.0 * fps));
    for (int f = 0; f < frames; ++f) {
      float t = std::min(1.0f, static_cast<float>((f + 1) / fps));
      ASSERT_OK(w->setChainRoot(c, {{t * 0.5f, 1.6f, std::sin(t * 6) * 0.2f}, aroundX(1.0f)}));
      ASSERT_OK(w->step(1.0 / fps));
    }
    std::vector<Vec3> pose;
    for (int j = 0; j < joints(*w, c); ++j) pose.push_back(joint(*w, c, j));
    poses.push_back(pose);
  }
  for (size_t k = 1; k < poses.size(); ++k)
    for (size_t j = 0; j < poses[0].size(); ++j) EXPECT_LT(dist(poses[0][j], poses[k][j]), 1e-3f) << "joint " << j;
}

TEST(Chain, TeleportKeepsShapeAndVelocity) {
  for (bool explicitCall : {false, true}) {
    std::unique_ptr<World> w;
    ASSERT_OK(World::create({}, &w));
    ChainDef d = ponytail({0, 1.6f, 0});
    d.params.damping = 0.5f;
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    for (int f = 0; f < 30; ++f) {  // swinging
      ASSERT_OK(w->setChainRoot(c, {{std::sin(f * 0.3f) * 0.3f, 1.6f, 0}, {}}));
      ASSERT_OK(w->step(1.0 / 60));
    }
    // The same world without the jump, for reference.
    std::vector<uint8_t> snap;
    ASSERT_OK(w->saveSnapshot(&snap));
    std::unique_ptr<World> ref;
    ASSERT_OK(World::create({}, &ref));
    ChainId refChain;  // the same slot in the reference world
    ASSERT_OK(ref->addChain(d, &refChain));
    ASSERT_OK(ref->loadSnapshot(snap.data(), snap.size()));
    const Transform here{{std::sin(29 * 0.3f) * 0.3f, 1.6f, 0}, {}};  // where the root is
    const Vec3 jump{100, 0, 0};
    const Transform there{here.position + jump, {}};
    if (explicitCall) ASSERT_OK(w->teleportChain(c, there));
    else ASSERT_OK(w->setChainRoot(c, there));
    ASSERT_OK(ref->setChainRoot(refChain, here));
    ASSERT_OK(w->step(1.0 / 60));
    ASSERT_OK(ref->step(1.0 / 60));
    for (int j = 0; j < joints(*w, c); ++j) {
      EXPECT_LT(dist(joint(*w, c, j) - jump, joint(*ref, refChain, j)), 1e-3f) << "joint " << j;
      ParticleState a, b;
      ASSERT_OK(w->particle(c, j, &a));
      ASSERT_OK(ref->particle(refChain, j, &b));
      // 100 m away a float position resolves 8 um: 4 mm/s per substep of rounding
      EXPECT_LT(dist(a.velocity, b.velocity), 0.03f) << "joint " << j << " velocity";
    }
    ChainStats s;
    ASSERT_OK(w->chainStats(c, &s));
    EXPECT_EQ(s.teleports, explicitCall ? 0 : 1);
  }
}

TEST(Chain, InertiaOneCarriesTheChainRigidly) {
  for (float inertia : {0.0f, 1.0f}) {
    std::unique_ptr<World> w;
    ASSERT_OK(World::create({}, &w));
    ChainDef d = ponytail({0, 1.6f, 0});
    d.params.inertia = inertia;
    d.params.gravityScale = 0;  // the rest pose is then an equilibrium
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    float worst = 0;
    for (int f = 0; f < 60; ++f) {
      Vec3 p{std::sin(f * 0.2f) * 0.5f, 1.6f, 0};
      ASSERT_OK(w->setChainRoot(c, {p, {}}));
      ASSERT_OK(w->step(1.0 / 60));
      Vec3 tip = joint(*w, c, joints(*w, c) - 1) - p;
      worst = std::max(worst, dist(tip, Vec3{0, -0.42f, -0.2f}));
    }
    if (inertia == 1.0f) EXPECT_LT(worst, 1e-4f) << "rigid: the tip keeps its place relative to the root";
    else EXPECT_GT(worst, 0.05f) << "no inertia share: the tip lags";
  }
}

// Relative space: the space transform's motion is carried by (1 - spaceInertia); with 0, a
// chain whose root rides on the moving space keeps its shape exactly as a rigid attachment would.
TEST(Chain, RelativeSpaceCarriesTheSpaceMotion) {
  float worst[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    std::unique_ptr<World> w;
    ASSERT_OK(World::create({}, &w));
    ChainDef d = ponytail({0, 1.6f, 0});
    d.params.gravityScale = 0;
    d.params.space = ChainSpace::Relative;
    d.params.spaceInertia = k == 0 ? 0.0f : 1.0f;
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    for (int f = 0; f < 60; ++f) {
      Vec3 hips{std::sin(f * 0.2f) * 0.5f, 1.0f, 0.02f * f};
      ASSERT_OK(w->setChainSpace(c, {hips, aroundY(f * 0.03f)}));
      Transform root{hips + rotate(aroundY(f * 0.03f), Vec3{0, 0.6f, 0}), aroundY(f * 0.03f)};
      ASSERT_OK(w->setChainRoot(c, root));
      ASSERT_OK(w->step(1.0 / 60));
      Vec3 tip = rotate(conjugate(root.rotation), joint(*w, c, 7) - root.position);
      worst[k] = std::max(worst[k], dist(tip, Vec3{0, -0.42f, -0.2f}));
    }
  }
  EXPECT_LT(worst[0], 1e-4f) << "spaceInertia 0: carried with the space";
  EXPECT_GT(worst[1], 0.02f) << "spaceInertia 1: the space's motion is felt";
}

TEST(Chain, TeleportDetectionByAngle) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d = ponytail({0, 1.6f, 0});
  d.params.teleportAngle = 1.0f;  // rad
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ASSERT_OK(w->step(1.0 / 60));
  ASSERT_OK(w->setChainRoot(c, {{0, 1.6f, 0}, aroundY(0.5f)}));  // a quick turn: simulated
  ASSERT_OK(w->step(1.0 / 60));
  ChainStats s;
  ASSERT_OK(w->chainStats(c, &s));
  EXPECT_EQ(s.teleports, 0);
  ASSERT_OK(w->setChainRoot(c, {{0, 1.6f, 0}, aroundY(2.0f)}));  // 1.5 rad in a frame: a teleport
  ASSERT_OK(w->step(1.0 / 60));
  ASSERT_OK(w->chainStats(c, &s));
  EXPECT_EQ(s.teleports, 1);
}

TEST(Chain, AntiGravityWigRises) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d;
  d.root = {{0, 1.7f, 0}, {}};
  for (int j = 0; j < 9; ++j) d.points.push_back({0.05f * j, 1.7f, 0});  // sideways out of the scalp
  d.params.gravityScale = -1;
  d.params.stiffness = 0.5f;
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ASSERT_OK(w->step(0.5));
  for (int f = 0; f < 150; ++f) ASSERT_OK(w->step(1.0 / 60));
  EXPECT_GT(joint(*w, c, 8).y, 1.7f + 0.2f) << "the strand stands up";
}

TEST(Chain, WindPushesTheTipDownwind) {
  std::unique_ptr<World> w;
  WorldSettings s;
  s.wind.direction = {1, 0, 0};
  s.wind.speed = 8;
  ASSERT_OK(World::create(s, &w));
  ChainDef d = ponytail({0, 1.6f, 0});
  d.params.stiffness = 0.5f;
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ASSERT_OK(w->step(0.5));
  for (int f = 0; f < 60; ++f) ASSERT_OK(w->step(1.0 / 60));
  EXPECT_GT(joint(*w, c, 7).x, 0.1f);
}

TEST(Chain, ColliderGroupsFilterContacts) {
  for (uint32_t mask : {0x1u, 0x2u}) {
    std::unique_ptr<World> w;
    ASSERT_OK(World::create({}, &w));
    ChainDef d;
    d.root = {{0, 1, 0}, {}};
    d.points = {{0, 1, 0}, {0, 0.9f, 0}, {0, 0.8f, 0}, {0, 0.7f, 0}};
    d.params.stiffness = 0;
    d.params.colliderMask = mask;
    ColliderDef ball;
    ball.radius = 0.1f;
    ball.groups = 0x1u;
    ball.transform = {{0.03f, 0.75f, 0}, {}};
    ColliderId b;
    ASSERT_OK(w->addCollider(ball, &b));
    ChainId c;
    ASSERT_OK(w->addChain(d, &c));
    ASSERT_OK(w->step(0.5));
    float depth = deepestBone(*w, c, ball, d.params.radius);
    if (mask == 0x1u) EXPECT_LT(depth, 0.1f * d.params.radius);
    else EXPECT_GT(depth, 0.05f) << "a chain outside the collider's groups passes through it";
  }
}

TEST(Chain, InsideSphereKeepsJointsIn) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d;
  d.root = {{0, 1, 0}, {}};
  for (int j = 0; j < 6; ++j) d.points.push_back({0, 1 - 0.1f * j, 0});
  d.params.stiffness = 0;
  ColliderDef volume;
  volume.radius = 0.35f;
  volume.inside = true;
  volume.transform = {{0.2f, 1, 0}, {}};
  ColliderId v;
  ASSERT_OK(w->addCollider(volume, &v));
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  for (int f = 0; f < 90; ++f) ASSERT_OK(w->step(1.0 / 60));
  for (int j = 1; j < 6; ++j)
    EXPECT_LT(dist(joint(*w, c, j), volume.transform.position), 0.35f - d.params.radius + 0.1f * d.params.radius);
}

TEST(Chain, TaperedCapsuleDistance) {
  ColliderDef def;
  def.type = ColliderType::Capsule;
  def.radius = 0.3f;     // at y = -0.5
  def.radiusTop = 0.1f;  // at y = +0.5
  def.halfHeight = 0.5f;
  ColliderPose c = poseAt(pathOf(def, def.transform), 1.0f);
  // beyond the ends: the end spheres
  EXPECT_NEAR(signedDistance(c, {0, -1.5f, 0}).distance, 1.0f - 0.3f, 1e-6f);
  EXPECT_NEAR(signedDistance(c, {0, 1.5f, 0}).distance, 1.0f - 0.1f, 1e-6f);
  // the cone: sin a = 0.2; its surface line touches both spheres. A point on it at distance 0.
  const float sinA = 0.2f, cosA = std::sqrt(1 - sinA * sinA);
  Vec3 onA{0.3f * cosA, -0.5f + 0.3f * sinA, 0}, onB{0.1f * cosA, 0.5f + 0.1f * sinA, 0};
  Vec3 mid = lerp(onA, onB, 0.5f);
  EXPECT_NEAR(signedDistance(c, mid).distance, 0.0f, 1e-6f);
  SurfacePoint s = signedDistance(c, mid + Vec3{cosA, sinA, 0} * 0.25f);
  EXPECT_NEAR(s.distance, 0.25f, 1e-5f);
  EXPECT_NEAR(s.normal.x, cosA, 1e-5f);
  EXPECT_NEAR(s.normal.y, sinA, 1e-5f);
  // brute force: the hull's distance is the minimum over spheres swept along the axis
  for (Vec3 p : {Vec3{0.5f, 0.1f, 0.2f}, Vec3{-0.2f, -0.3f, 0.4f}, Vec3{0.05f, 0.2f, 0}}) {
    float best = 1e9f;
    for (int i = 0; i <= 4000; ++i) {
      // hull of two spheres = union of spheres centred on the axis with linearly varying radius
      float u = i / 4000.0f;
      float y = -0.5f + u;
      float r = 0.3f + (0.1f - 0.3f) * u;
      best = std::min(best, length(p - Vec3{0, y, 0}) - r);
    }
    EXPECT_NEAR(signedDistance(c, p).distance, best, 2e-4f) << p.x << "," << p.y << "," << p.z;
  }
}

TEST(Chain, BadInputIsRejectedAndChangesNothing) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainId good;
  ASSERT_OK(w->addChain(ponytail({0, 1.6f, 0}), &good));
  ASSERT_OK(w->step(0.1));
  const uint64_t hash = w->stateHash();
  auto expectError = [&](ChainDef d, const char* needle) {
    ChainId id;
    Status s = w->addChain(d, &id);
    EXPECT_FALSE(s.ok()) << needle;
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message;
  };
  ChainDef d = ponytail({0, 1.6f, 0});
  ChainDef empty;
  expectError(empty, "at least 2 joints");
  ChainDef one;
  one.points = {{0, 0, 0}};
  expectError(one, "at least 2 joints");
  ChainDef zero = d;
  zero.joints[3].position = {0, 0, 0};
  expectError(zero, "zero length");
  ChainDef nan = d;
  nan.params.damping = std::nanf("");
  expectError(nan, "ChainParams.damping");
  nan = d;
  nan.params.stiffness = -1;
  expectError(nan, "ChainParams.stiffness");
  nan = d;
  nan.joints[2].position.x = INFINITY;
  expectError(nan, "ChainDef.joints[2].position");
  nan = d;
  nan.root.rotation = {0, 0, 0, 0};
  expectError(nan, "ChainDef.root.rotation");
  ChainDef curve = d;
  curve.params.radiusCurve = {{0, 1}, {0, 2}};
  expectError(curve, "radiusCurve[1].t must be greater");
  curve.params.radiusCurve = {{0, 1}, {1.5f, 2}};
  expectError(curve, "radiusCurve[1].t");
  curve.params.radiusCurve = {{0, 1}, {1, std::nanf("")}};
  expectError(curve, "radiusCurve[1].value");
  curve.params.radiusCurve = {};
  curve.params.inertiaCurve = {{0, 0}, {1, 3}};  // inertia 0 * 3 is fine; 0.5 * 3 is not
  curve.params.inertia = 0.5f;
  expectError(curve, "inertia times its curve at joint");
  // setters and handles
  ChainParams p;
  ASSERT_OK(w->chainParams(good, &p));
  p.limitAngle = 4;
  EXPECT_FALSE(w->setChainParams(good, p).ok());
  EXPECT_FALSE(w->setChainRoot(good, {{NAN, 0, 0}, {}}).ok());
  EXPECT_FALSE(w->setChainRoot(good, {{0, 0, 0}, {0, 0, 0, 0}}).ok());
  EXPECT_FALSE(w->teleportChain(good, {{0, INFINITY, 0}, {}}).ok());
  EXPECT_FALSE(w->setChainRoot(ChainId{}, {}).ok());
  EXPECT_EQ(w->chainPositions(ChainId{}), nullptr);
  EXPECT_EQ(w->stateHash(), hash) << "rejected calls changed the world";
  ASSERT_OK(w->removeChain(good));
  Status stale = w->setChainRoot(good, {});
  EXPECT_EQ(stale.code, StatusCode::InvalidHandle);
}

TEST(Chain, VrmModeKeepsLengthsAndFallsUnderGravityPower) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainDef d;
  d.root = {{0, 1, 0}, {}};
  d.points = {{0, 1, 0}, {0.1f, 1, 0}, {0.2f, 1, 0}, {0.3f, 1, 0}};
  d.params.mode = ChainMode::Vrm;
  d.params.stiffness = 0.2f;  // VRM units
  d.params.damping = 0.4f;    // dragForce
  d.params.customGravity = true;
  d.params.gravity = {0, -1, 0};  // gravityDir * gravityPower
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  for (int f = 0; f < 120; ++f) ASSERT_OK(w->step(1.0 / 60));
  ChainStats s;
  ASSERT_OK(w->chainStats(c, &s));
  EXPECT_LT(s.maxLengthError, 2e-6f);
  EXPECT_LT(joint(*w, c, 3).y, 0.85f);
  ChainParams p = d.params;
  p.damping = 1.5f;  // a fraction per update in VRM mode
  EXPECT_FALSE(w->setChainParams(c, p).ok());
}

TEST(Chain, SnapshotRestoreContinuesBitExact) {
  auto build = [](World& w, ChainId* c) {
    ChainDef d = ponytail({0, 1.6f, 0});
    d.params.inertiaCurve = {{0, 0.5f}, {1, 0}};
    d.params.inertia = 1;
    d.endLength = 0.04f;
    ASSERT_OK(w.addChain(d, c));
  };
  std::unique_ptr<World> a, b;
  ASSERT_OK(World::create({}, &a));
  ChainId ca, cb;
  build(*a, &ca);
  auto drive = [&](World& w, ChainId c, int f) {
    ASSERT_OK(w.setChainRoot(c, {{std::sin(f * 0.1f) * 0.3f, 1.6f, 0}, aroundY(f * 0.05f)}));
    ASSERT_OK(w.step(1.0 / 60));
  };
  for (int f = 0; f < 40; ++f) drive(*a, ca, f);
  std::string json;
  ASSERT_OK(a->saveSnapshotJson(&json));
  ASSERT_OK(World::create({}, &b));
  build(*b, &cb);  // b's own id for the same slot
  ASSERT_OK(b->loadSnapshotJson(json));
  EXPECT_EQ(a->stateHash(), b->stateHash());
  for (int f = 40; f < 80; ++f) {
    drive(*a, ca, f);
    drive(*b, cb, f);
  }
  EXPECT_EQ(a->stateHash(), b->stateHash());
}

// The solvers take a chain's bone axes and rotations as unit (solveBones does not normalise a
// bone's rest direction again), so a snapshot whose axis or rotation is not unit is rejected,
// naming what, and the world is left as it was.
TEST(Chain, SnapshotWithANonUnitAxisOrRotationIsRejected) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainId c;
  ASSERT_OK(w->addChain(ponytail({0, 1.6f, 0}), &c));
  for (int f = 0; f < 10; ++f) ASSERT_OK(w->step(1.0 / 60));
  std::string json;
  ASSERT_OK(w->saveSnapshotJson(&json));
  const uint64_t before = w->stateHash();
  // the first number of the named array doubled (0 made 0.5): the array's first element
  // (rootTo: its rotation's)
  auto doubled = [&](const std::string& field) {
    std::string j = json;
    size_t at = j.find("\"" + field + "\":");
    EXPECT_NE(at, std::string::npos) << field;
    if (field == "rootTo") at = j.find("\"rotation\":[", at);
    at = j.find_first_of("-0123456789", j.find('[', at));
    const size_t end = j.find_first_of(",]", at);
    const float v = std::stof(j.substr(at, end - at));
    j.replace(at, end - at, std::to_string(v == 0.0f ? 0.5f : 2.0f * v));
    return j;
  };
  for (const auto& [field, needle] : {std::pair<std::string, std::string>{"childAxis", "bone 0: its axis (childAxis) is not a unit vector"},
                                      {"localRotation", "chain joint 0: a rest or animated rotation is not a unit quaternion"},
                                      {"animTo", "chain joint 0: a rest or animated rotation is not a unit quaternion"},
                                      {"rootTo", "chain root pose: its rotation is not a unit quaternion"}}) {
    const Status s = w->loadSnapshotJson(doubled(field));
    EXPECT_EQ(s.code, StatusCode::InvalidArgument) << field;
    EXPECT_NE(s.message.find(needle), std::string::npos) << field << ": " << s.message;
    EXPECT_EQ(w->stateHash(), before) << field;
  }
  ASSERT_OK(w->loadSnapshotJson(json));  // the snapshot as written loads
  EXPECT_EQ(w->stateHash(), before);
}

// Six chains on one head, half VRM and half the Wisp rule: the head's pose set with
// setChainRoots in one world and with setChainRoot per chain in the other, a scale change on the way.
struct SharedRootWorlds {
  std::unique_ptr<World> each, all;
  std::vector<ChainId> eachIds, allIds;
  SharedRootWorlds() {
    EXPECT_TRUE(World::create({}, &each).ok());
    EXPECT_TRUE(World::create({}, &all).ok());
    for (int c = 0; c < 6; ++c) {
      ChainDef d = ponytail({0, 1.6f, 0}, 0.3f * c);
      if (c % 2) {
        d.params.mode = ChainMode::Vrm;
        d.params.stiffness = 1;
        d.params.damping = 0.4f;
      }
      ChainId a, b;
      EXPECT_TRUE(each->addChain(d, &a).ok());
      EXPECT_TRUE(all->addChain(d, &b).ok());
      eachIds.push_back(a);
      allIds.push_back(b);
    }
  }
  static Transform head(int f) {
    const float t = f / 60.0f;
    return {{0.2f * std::sin(3 * t), 1.6f, 0.1f * t}, {0, std::sin(0.4f * std::sin(2 * t)), 0, std::cos(0.4f * std::sin(2 * t)) * 1.5f}};
  }
};

TEST(Chain, SetChainRootsIsSetChainRootOnEachChain) {
  SharedRootWorlds w;
  for (int f = 0; f < 90; ++f) {
    const Transform h = SharedRootWorlds::head(f);  // a rotation of length 1.5 or so: both normalize it
    const float scale = f < 45 ? 1.0f : 1.25f;
    for (ChainId id : w.eachIds) ASSERT_OK(w.each->setChainRoot(id, h, scale));
    ASSERT_OK(w.all->setChainRoots(w.allIds.data(), static_cast<int>(w.allIds.size()), h, scale));
    ASSERT_OK(w.each->step(1.0 / 60));
    ASSERT_OK(w.all->step(1.0 / 60));
    ASSERT_EQ(w.each->stateHash(), w.all->stateHash()) << "frame " << f;
    for (size_t c = 0; c < w.eachIds.size(); ++c) {
      int n = 0;
      ASSERT_OK(w.each->chainJointCount(w.eachIds[c], &n));
      ASSERT_EQ(std::memcmp(w.each->chainPositions(w.eachIds[c]), w.all->chainPositions(w.allIds[c]), sizeof(float) * 3 * n), 0)
          << "frame " << f << ", chain " << c;
    }
  }
}

TEST(Chain, SetChainRootsWithABadPoseScaleOrChainChangesNothing) {
  SharedRootWorlds w;
  ASSERT_OK(w.all->removeChain(w.allIds[3]));  // a stale id among live ones
  ASSERT_OK(w.each->removeChain(w.eachIds[3]));
  const uint64_t hash = w.all->stateHash();
  const Transform h = SharedRootWorlds::head(30);
  auto expectError = [&](const ChainId* ids, int count, const Transform& t, float scale, StatusCode code, const char* needle) {
    const Status s = w.all->setChainRoots(ids, count, t, scale);
    EXPECT_EQ(s.code, code) << needle;
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message;
  };
  const ChainId* ids = w.allIds.data();
  expectError(ids, 6, h, 1, StatusCode::InvalidHandle, "chain");
  expectError(ids, 3, {{NAN, 0, 0}, {}}, 1, StatusCode::InvalidArgument, "setChainRoots: root.position");
  expectError(ids, 3, {{0, INFINITY, 0}, {}}, 1, StatusCode::InvalidArgument, "setChainRoots: root.position");
  expectError(ids, 3, {{}, {0, 0, 0, 0}}, 1, StatusCode::InvalidArgument, "setChainRoots: root.rotation");
  expectError(ids, 3, {{}, {0, NAN, 0, 1}}, 1, StatusCode::InvalidArgument, "setChainRoots: root.rotation");
  expectError(ids, 3, h, 0, StatusCode::InvalidArgument, "setChainRoots: scale");
  expectError(ids, 3, h, std::nanf(""), StatusCode::InvalidArgument, "setChainRoots: scale");
  expectError(ids, -1, h, 1, StatusCode::InvalidArgument, "setChainRoots: count");
  expectError(nullptr, 2, h, 1, StatusCode::InvalidArgument, "setChainRoots: count");
  EXPECT_EQ(w.all->stateHash(), hash) << "rejected calls changed the world";
  ASSERT_OK(w.all->setChainRoots(ids, 0, h, 1));  // no chains: nothing to do
  // stepped, the world that had the rejected calls is the world that never had them
  for (int f = 0; f < 30; ++f) {
    ASSERT_OK(w.each->step(1.0 / 60));
    ASSERT_OK(w.all->step(1.0 / 60));
  }
  EXPECT_EQ(w.each->stateHash(), w.all->stateHash());
}

TEST(Chain, ManyChainsSameHashOnAnyThreadCount) {
  uint64_t first = 0;
  for (int threads : {1, 2, 4}) {
    WorldSettings s;
    s.threads = threads;
    std::unique_ptr<World> w;
    ASSERT_OK(World::create(s, &w));
    std::vector<ChainId> ids;
    for (int i = 0; i < 300; ++i) {
      ChainId c;
      ASSERT_OK(w->addChain(ponytail({0.01f * i, 1.6f, 0}, 0.02f * i), &c));
      ids.push_back(c);
    }
    for (int f = 0; f < 30; ++f) {
      for (size_t i = 0; i < ids.size(); ++i)
        ASSERT_OK(w->setChainRoot(ids[i], {{0.01f * i + std::sin(f * 0.2f) * 0.2f, 1.6f, 0}, aroundY(0.02f * i + f * 0.1f)}));
      ASSERT_OK(w->step(1.0 / 60));
    }
    if (threads == 1) first = w->stateHash();
    else EXPECT_EQ(w->stateHash(), first) << threads << " threads";
  }
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// Containment: a particle made non-finite resets its object (rest pose on its anchors) with an
// event; every other object continues bit for bit as if nothing happened.
TEST(Containment, ANonFiniteObjectIsResetAndOthersAreUntouched) {
  auto build = [](World& w, RopeId* bad, RopeId* good, ClothId* cloth, ChainId* chain) {
    RopeDef d = scenes::straightRope({0, 2, 0}, 12, 0.1f);
    d.pinned = {0};
    ASSERT_OK(w.addRope(d, bad));
    d = scenes::straightRope({0, 2, 1}, 12, 0.1f);
    d.pinned = {0};
    ASSERT_OK(w.addRope(d, good));
    ClothDef c;
    c.grid = {0.5f, 0.5f, 8, 8, {{1, 2, 0}, {}}};
    c.pinned = {0, 8};
    ASSERT_OK(w.addCloth(c, cloth));
    ASSERT_OK(w.addChain(ponytail({2, 1.6f, 0}), chain));
  };
  for (int target = 0; target < 3; ++target) {
    std::unique_ptr<World> a, b;
    ASSERT_OK(World::create({}, &a));
    ASSERT_OK(World::create({}, &b));
    RopeId ra, ga, rb, gb;
    ClothId ca, cb;
    ChainId ha, hb;
    build(*a, &ra, &ga, &ca, &ha);
    build(*b, &rb, &gb, &cb, &hb);
    for (int f = 0; f < 30; ++f) {
      ASSERT_OK(a->step(1.0 / 60));
      ASSERT_OK(b->step(1.0 / 60));
    }
    if (target == 0) ASSERT_OK(a->injectFault(ra, 7));
    if (target == 1) ASSERT_OK(a->injectFault(ca, 40));
    if (target == 2) ASSERT_OK(a->injectFault(ha, 5));
    ASSERT_OK(a->step(1.0 / 60));
    ASSERT_OK(b->step(1.0 / 60));
    ASSERT_EQ(a->events().size(), 1u);
    const WorldEvent& e = a->events()[0];
    EXPECT_EQ(e.type, WorldEvent::Type::ObjectReset);
    EXPECT_EQ(static_cast<int>(e.kind), target);
    EXPECT_NE(e.message.find("non-finite"), std::string::npos) << e.message;
    EXPECT_TRUE(b->events().empty());
    // the reset object is finite, at rest, pinned particles on their anchors
    if (target == 0) {
      for (int i = 0; i < count(*a, ra); ++i) EXPECT_TRUE(isFinite(pos(*a, ra, i)));
      EXPECT_EQ(dist(pos(*a, ra, 0), Vec3{0, 2, 0}), 0.0f);
    }
    // the others: bit for bit what the untouched world has
    auto same = [](const float* x, const float* y, int n) { return std::memcmp(x, y, sizeof(float) * 3 * n) == 0; };
    int nr = count(*a, ga), nc = 0, nh = 0;
    ASSERT_OK(a->clothParticleCount(ca, &nc));
    ASSERT_OK(a->chainJointCount(ha, &nh));
    EXPECT_TRUE(same(a->ropePositions(ga), b->ropePositions(gb), nr));
    if (target != 0) {
      EXPECT_TRUE(same(a->ropePositions(ra), b->ropePositions(rb), nr));
    }
    if (target != 1) {
      EXPECT_TRUE(same(a->clothPositions(ca), b->clothPositions(cb), nc));
    }
    if (target != 2) {
      EXPECT_TRUE(same(a->chainPositions(ha), b->chainPositions(hb), nh));
    }
    // and it keeps stepping
    ASSERT_OK(a->step(0.5));
    EXPECT_TRUE(a->events().empty());
  }
}

TEST(DebugChecks, AViolationIsReportedWithItsValues) {
  WorldSettings s;
  s.debugChecks = true;
  s.gravity = {0, -9000, 0};  // a particle soon falls faster than the 500 m/s cap
  std::unique_ptr<World> w;
  ASSERT_OK(World::create(s, &w));
  RopeId r;
  RopeDef d = scenes::straightRope({0, 0, 0}, 4, 0.1f);
  d.params.maxSpeed = 0;  // no cap: let it pass 500 m/s
  ASSERT_OK(w->addRope(d, &r));
  bool seen = false;
  for (int f = 0; f < 10 && !seen; ++f) {
    ASSERT_OK(w->step(1.0 / 60));
    for (const WorldEvent& e : w->events()) {
      EXPECT_EQ(e.type, WorldEvent::Type::InvariantViolated);
      EXPECT_NE(e.message.find("faster than 500 m/s"), std::string::npos) << e.message;
      seen = true;
    }
  }
  EXPECT_TRUE(seen);
  // the same world with the checks off says nothing
  s.debugChecks = false;
  ASSERT_OK(w->setSettings(s));
  ASSERT_OK(w->step(1.0 / 60));
  EXPECT_TRUE(w->events().empty());
}

}  // namespace
}  // namespace wisp::test
