// Collision: no particle ends a step inside a collider by more than 10% of its radius; friction.
#include "colliders/shapes.h"
#include "helpers.h"
#include "solver/step_context.h"

namespace wisp::test {
namespace {

// Deepest penetration (m) of any particle into `def` (at its current pose).
float deepest(const World& w, RopeId r, const ColliderDef& def, float radius) {
  ColliderPose pose = poseAt(pathOf(def, def.transform), 1.0f);
  float worst = -1e9f;
  for (int i = 0; i < count(w, r); ++i) worst = std::max(worst, radius - signedDistance(pose, pos(w, r, i)).distance);
  return worst;
}

struct Case {
  const char* name;
  ColliderDef def;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  ColliderDef plane;
  plane.type = ColliderType::Plane;
  plane.transform = {{0, -0.5f, 0}, {0, 0, 0.1305262f, 0.9914449f}};  // tilted 15 degrees
  out.push_back({"plane", plane});
  ColliderDef sphere;
  sphere.radius = 0.25f;
  sphere.transform.position = {0.4f, -0.3f, 0};
  out.push_back({"sphere", sphere});
  ColliderDef capsule;
  capsule.type = ColliderType::Capsule;
  capsule.radius = 0.08f;
  capsule.halfHeight = 0.6f;
  capsule.transform = {{0.4f, -0.3f, 0}, {0.7071068f, 0, 0, 0.7071068f}};  // lying along Z
  out.push_back({"capsule", capsule});
  ColliderDef box;
  box.type = ColliderType::Box;
  box.halfExtents = {0.3f, 0.1f, 0.5f};
  box.transform = {{0.4f, -0.4f, 0}, {0, 0.3826834f, 0, 0.9238795f}};  // turned 45 degrees about Y
  out.push_back({"box", box});
  return out;
}

TEST(Colliders, RopeFallingOnEachShapeNeverEndsAStepInside) {
  for (const Case& c : cases()) {
    auto w = scenes::makeWorld();
    ColliderId id;
    ASSERT_OK(w->addCollider(c.def, &id));
    // a floor under everything, so the rope comes to rest on or around the shape
    ColliderDef floor;
    floor.type = ColliderType::Plane;
    floor.transform.position = {0, -1.5f, 0};
    ColliderId fid;
    ASSERT_OK(w->addCollider(floor, &fid));
    RopeDef d = scenes::straightRope({-0.4f, 0.3f, 0.05f}, 40, 0.04f);
    d.params.radius = 0.02f;
    RopeId r;
    ASSERT_OK(w->addRope(d, &r));
    float worst = -1;
    for (int f = 0; f < 180; ++f) {
      ASSERT_OK(w->step(1.0 / 60.0));
      worst = std::max(worst, deepest(*w, r, c.def, d.params.radius));
    }
    EXPECT_LE(worst, 0.1f * d.params.radius) << c.name << ": deepest penetration " << worst << " m";
    // the rope did reach the shape (the test can fail)
    EXPECT_GT(worst, -0.01f) << c.name << " was never touched";
  }
}

TEST(Colliders, FrictionHoldsOnAGentleSlopeAndNotOnASlipperyOne) {
  // 20 degree slope: holds when mu > tan(20) = 0.36, slides when mu < 0.36
  for (float mu : {0.6f, 0.05f}) {
    auto w = scenes::makeWorld();
    ColliderDef plane;
    plane.type = ColliderType::Plane;
    plane.transform.rotation = {0, 0, 0.1736482f, 0.9848078f};  // 20 degrees about Z
    plane.friction = mu;
    ColliderId id;
    ASSERT_OK(w->addCollider(plane, &id));
    // a short rope resting along the slope's fall line... placed on the surface
    Vec3 down{-0.9396926f, -0.3420201f, 0};   // along the slope, downhill is -x
    Vec3 n{-0.3420201f, 0.9396926f, 0};
    RopeDef d;
    d.params.radius = 0.01f;
    d.params.damping = 0;
    d.params.drag = 0;
    for (int i = 0; i < 5; ++i) d.points.push_back(n * 0.01f + down * (0.05f * i));
    RopeId r;
    ASSERT_OK(w->addRope(d, &r));
    Vec3 start = pos(*w, r, 0);
    for (int f = 0; f < 120; ++f) ASSERT_OK(w->step(1.0 / 60.0));
    float moved = dist(pos(*w, r, 0), start);
    if (mu > 0.36f) EXPECT_LT(moved, 0.01f) << "mu " << mu;
    else EXPECT_GT(moved, 0.5f) << "mu " << mu;
  }
}

TEST(Colliders, DisabledCollidersAndTheMasterSwitchAreIgnored) {
  for (int mode = 0; mode < 3; ++mode) {
    WorldSettings s;
    s.collisions = mode != 2;
    auto w = scenes::makeWorld(s);
    ColliderDef plane;
    plane.type = ColliderType::Plane;
    ColliderId id;
    ASSERT_OK(w->addCollider(plane, &id));
    if (mode == 1) ASSERT_OK(w->setColliderEnabled(id, false));
    RopeDef d = scenes::straightRope({0, 0.5f, 0}, 4, 0.1f);
    RopeId r;
    ASSERT_OK(w->addRope(d, &r));
    for (int f = 0; f < 60; ++f) ASSERT_OK(w->step(1.0 / 60.0));
    if (mode == 0) EXPECT_GE(pos(*w, r, 2).y, 0.009f);
    else EXPECT_LT(pos(*w, r, 2).y, -1.0f) << "mode " << mode;
  }
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// 0.6 m in one frame (36 m/s), 3 diameters of the sphere. Moved with setColliderTransform the
// sphere sweeps across the 8 substeps, meets the particle and pushes it ahead (no tunnelling);
// teleported, it jumps over and leaves the particle where it was.
TEST(Colliders, MovingColliderSweepsAndTeleportedColliderJumps) {
  for (bool teleport : {false, true}) {
    auto w = scenes::makeWorld();
    ColliderDef s;
    s.radius = 0.2f;
    s.transform.position = {-0.3f, -0.5f, 0};
    ColliderId id;
    ASSERT_OK(w->addCollider(s, &id));
    RopeDef d;
    d.points = {{0, 0.5f, 0}, {0, -0.5f, 0}};
    d.pinned = {0};
    RopeId r;
    ASSERT_OK(w->addRope(d, &r));
    Transform to{{0.3f, -0.5f, 0}, {}};
    ASSERT_OK(teleport ? w->teleportCollider(id, to) : w->setColliderTransform(id, to));
    ASSERT_OK(w->step(1.0 / 60.0));
    if (teleport) EXPECT_NEAR(pos(*w, r, 1).x, 0.0f, 1e-6f);
    else EXPECT_GT(pos(*w, r, 1).x, 0.3f);
  }
}

}  // namespace
}  // namespace wisp::test
