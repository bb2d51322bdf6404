// VRM mode's VRMC_springBone_limit limits and wind: each limit type holds after every step under
// strong gravity and a root swinging sideways, measured with the test's own trig from the
// outputs (positions and world rotations); edge angles; bad input; wind off is three-vrm's update.
#include <cmath>
#include <cstring>
#include <string>

#include "helpers.h"

namespace wisp::test {
namespace {

constexpr float kPi = 3.14159265f;
constexpr double kTol = 1e-4;  // rad

Quat axisAngle(Vec3 axis, float angle) {
  const float s = std::sin(angle / 2);
  return {axis.x * s, axis.y * s, axis.z * s, std::cos(angle / 2)};
}
Quat qmul(Quat a, Quat b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
// v turned by q^-1 (the test's own: v' = v + 2w(v x u) + 2 u x (u x v) with u = -q.xyz)
Vec3 unturn(Quat q, Vec3 v) {
  const Vec3 u{-q.x, -q.y, -q.z};
  const Vec3 t = cross(u, v) * 2.0f;
  return v + t * q.w + cross(u, t);
}

// The draft's default limit frame in the joint's frame: +Y turned onto the bone axis by the
// smallest angle (axis-angle with std trig here), a half turn about X for -Y.
Quat defaultFrame(Vec3 boneAxis) {
  const Vec3 a = boneAxis * (1.0f / length(boneAxis));
  if (a.y <= -1.0f) return {1, 0, 0, 0};
  const Vec3 c = cross(Vec3{0, 1, 0}, a);
  const float s = length(c);
  if (s < 1e-9f) return {};
  return axisAngle(c * (1.0f / s), std::acos(std::max(-1.0f, std::min(1.0f, a.y))));
}

struct Rig {
  ChainDef def;
  Quat rootRotation;
};

// 6 joints with varied rest rotations and bone axes near -Y (not exactly), VRM mode, strong
// sideways gravity.
Rig limitedRig(const std::vector<VrmLimit>& limits, Vec3 bone = {0.01f, -0.08f, 0.015f}) {
  Rig r;
  r.rootRotation = axisAngle({0, 0, 1}, 0.3f);
  r.def.root = {{0, 1.5f, 0}, r.rootRotation};
  r.def.joints.push_back({{0, 0.05f, -0.1f}, axisAngle({1, 0, 0}, 0.2f)});
  for (int k = 1; k < 6; ++k) r.def.joints.push_back({bone, axisAngle({0, 1, 0}, 0.15f * k)});
  ChainParams& p = r.def.params;
  p.mode = ChainMode::Vrm;
  p.stiffness = 0.3f;
  p.damping = 0.1f;
  p.customGravity = true;
  p.gravity = {6, -4, 5};
  p.vrmLimits = limits;
  return r;
}

// The worst excess (rad) of any limited bone over its limit, from the outputs: bone k's head and
// tail positions, its parent's output world rotation (the root's for k = 0), its rest rotation.
double worstExcess(const World& w, ChainId c, const Rig& r) {
  const float* rot = w.chainRotations(c);
  double worst = -1e9;
  for (size_t k = 0; k < r.def.params.vrmLimits.size(); ++k) {
    const VrmLimit& l = r.def.params.vrmLimits[k];
    if (l.type == VrmLimitType::None) continue;
    const Quat parent = k == 0 ? r.rootRotation : Quat{rot[4 * (k - 1)], rot[4 * (k - 1) + 1], rot[4 * (k - 1) + 2], rot[4 * (k - 1) + 3]};
    const Quat frame = qmul(qmul(qmul(parent, r.def.joints[k].rotation), defaultFrame(r.def.joints[k + 1].position)), l.rotation);
    Vec3 d = joint(w, c, static_cast<int>(k) + 1) - joint(w, c, static_cast<int>(k));
    d = d * (1.0f / length(d));
    const Vec3 t = unturn(frame, d);
    double excess = 0;
    switch (l.type) {
      // atan2, not acos: acos of a float y near 1 is coarse (3.4e-4 rad per ulp)
      case VrmLimitType::Cone: excess = std::atan2(std::hypot(double(t.x), double(t.z)), double(t.y)) - l.angle; break;
      case VrmLimitType::Hinge:
        excess = std::max(std::asin(std::min(1.0, std::fabs(double(t.x)))),
                          std::atan2(std::fabs(double(t.z)), double(t.y)) - l.angle);
        break;
      case VrmLimitType::Spherical:
        excess = std::max(std::fabs(std::atan2(double(t.z), double(t.y))) - l.pitch,
                          std::asin(std::min(1.0, std::fabs(double(t.x)))) - l.yaw);
        break;
      default: break;
    }
    worst = std::max(worst, excess);
  }
  return worst;
}

bool finite(const World& w, ChainId c) {
  for (int j = 0; j < joints(w, c); ++j) {
    const Vec3 p = joint(w, c, j);
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
  }
  return true;
}

// Runs 240 frames with the root swinging sideways; the worst excess over all steps over the
// limits of `measure` (r's own by default).
double runLimited(const Rig& r, const Rig* measure = nullptr) {
  if (!measure) measure = &r;
  std::unique_ptr<World> w;
  EXPECT_TRUE(World::create({}, &w).ok());
  ChainId c;
  Status s = w->addChain(r.def, &c);
  EXPECT_TRUE(s.ok()) << s.message;
  double worst = -1e9;
  for (int f = 0; f < 240; ++f) {
    const float t = (f + 1) / 60.0f;
    EXPECT_TRUE(w->setChainRoot(c, {{0.6f * std::sin(5 * t), 1.5f, 0.4f * std::sin(3 * t)}, r.rootRotation}).ok());
    EXPECT_TRUE(w->step(1.0 / 60).ok());
    EXPECT_TRUE(finite(*w, c)) << "frame " << f;
    worst = std::max(worst, worstExcess(*w, c, *measure));
  }
  return worst;
}

VrmLimit cone(float angle, Quat rotation = {}) { return {VrmLimitType::Cone, angle, kPi, kPi / 2, rotation}; }
VrmLimit hinge(float angle, Quat rotation = {}) { return {VrmLimitType::Hinge, angle, kPi, kPi / 2, rotation}; }
VrmLimit spherical(float pitch, float yaw, Quat rotation = {}) { return {VrmLimitType::Spherical, kPi, pitch, yaw, rotation}; }

TEST(VrmLimits, ConeHoldsAfterEveryStep) {
  const Quat tilt = axisAngle({1, 0, 0}, 0.3f);
  const Rig r = limitedRig({cone(0.4f), cone(0.3f, tilt), cone(0.2f), cone(0.5f), cone(0.25f)});
  EXPECT_LT(runLimited(r), kTol);
  // the motion pushes against the limits: without them the bones swing far past
  Rig free = r;
  free.def.params.vrmLimits.clear();
  EXPECT_GT(runLimited(free, &r), 0.3) << "the test motion does not reach the limits";
}

TEST(VrmLimits, HingeHoldsAfterEveryStep) {
  const Quat turn = axisAngle({0, 1, 0}, 0.7f);
  const Rig r = limitedRig({hinge(0.5f), hinge(0.3f, turn), hinge(0.6f), hinge(0.2f), hinge(1.0f, turn)});
  EXPECT_LT(runLimited(r), kTol);
}

TEST(VrmLimits, SphericalHoldsAfterEveryStep) {
  const Quat turn = axisAngle({0, 0, 1}, 0.4f);
  const Rig r = limitedRig({spherical(0.5f, 0.2f), spherical(0.2f, 0.6f, turn), spherical(1.0f, 0.1f), spherical(0.3f, 0.3f),
                            spherical(0.1f, 1.2f)});
  EXPECT_LT(runLimited(r), kTol);
}

TEST(VrmLimits, MixedAndPartialListsHold) {
  const Rig r = limitedRig({cone(0.3f), VrmLimit{}, hinge(0.4f), spherical(0.3f, 0.2f)});  // bone 4 free
  EXPECT_LT(runLimited(r), kTol);
}

TEST(VrmLimits, ZeroAnglesLockTheBoneOnItsFrameAxis) {
  const Rig r = limitedRig({cone(0), hinge(0), spherical(0, 0), cone(0), hinge(0)});
  EXPECT_LT(runLimited(r), kTol);
}

TEST(VrmLimits, HalfTurnAnglesAreFree) {
  // angle pi: a cone that is the whole sphere, a hinge that is the whole disc; the chain moves as
  // the unlimited one (up to the frame round trip's rounding) except for the hinge's plane
  Rig limited = limitedRig({cone(kPi), cone(kPi), cone(kPi), cone(kPi), cone(kPi)});
  Rig unlimited = limitedRig({});
  std::unique_ptr<World> a, b;
  ASSERT_OK(World::create({}, &a));
  ASSERT_OK(World::create({}, &b));
  ChainId ca, cb;
  ASSERT_OK(a->addChain(limited.def, &ca));
  ASSERT_OK(b->addChain(unlimited.def, &cb));
  float worst = 0;
  for (int f = 0; f < 120; ++f) {
    const Transform root{{0.5f * std::sin(f * 0.1f), 1.5f, 0}, limited.rootRotation};
    ASSERT_OK(a->setChainRoot(ca, root));
    ASSERT_OK(b->setChainRoot(cb, root));
    ASSERT_OK(a->step(1.0 / 60));
    ASSERT_OK(b->step(1.0 / 60));
    for (int j = 0; j < joints(*a, ca); ++j) worst = std::max(worst, dist(joint(*a, ca, j), joint(*b, cb, j)));
  }
  EXPECT_LT(worst, 1e-5f);
  Rig hinged = limitedRig({hinge(kPi), hinge(kPi), hinge(kPi), hinge(kPi), hinge(kPi)});
  EXPECT_LT(runLimited(hinged), kTol);
}

TEST(VrmLimits, BoneAlongMinusYUsesAHalfTurnAboutX) {
  // bones exactly along -Y in unrotated joints: the draft's frame is a half turn about X, so a
  // hinge (rotation about the frame's X = world X) keeps every tail at the head's x, whatever
  // the sideways gravity does
  Rig r = limitedRig({hinge(1.2f), hinge(1.2f), hinge(1.2f), hinge(1.2f), hinge(1.2f)}, {0, -0.08f, 0});
  r.rootRotation = {};
  r.def.root.rotation = {};
  for (ChainJoint& j : r.def.joints) j.rotation = {};
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainId c;
  ASSERT_OK(w->addChain(r.def, &c));
  float worstX = 0, swing = 0;
  for (int f = 0; f < 120; ++f) {
    ASSERT_OK(w->setChainRoot(c, {{0.5f * std::sin(f * 0.1f), 1.5f, 0.3f * std::sin(f * 0.07f)}, {}}));
    ASSERT_OK(w->step(1.0 / 60));
    for (int j = 1; j < joints(*w, c); ++j) {
      worstX = std::max(worstX, std::fabs(joint(*w, c, j).x - joint(*w, c, 0).x));
      swing = std::max(swing, std::fabs(joint(*w, c, j).z - joint(*w, c, 0).z - (-0.1f)));
    }
  }
  EXPECT_LT(worstX, 1e-5f);
  EXPECT_GT(swing, 0.05f) << "the hinge did not swing";
  EXPECT_LT(runLimited(r), kTol);
}

TEST(VrmLimits, BadLimitsAreErrorsNamingTheValueAndChangeNothing) {
  const Rig r = limitedRig({cone(0.3f), cone(0.3f)});
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  ChainId c;
  ASSERT_OK(w->addChain(r.def, &c));
  ASSERT_OK(w->step(1.0 / 60));
  const uint64_t hash = w->stateHash();
  auto expectError = [&](ChainParams p, const std::string& name, const std::string& value) {
    Status s = w->setChainParams(c, p);
    ASSERT_FALSE(s.ok()) << name;
    EXPECT_EQ(s.code, StatusCode::InvalidArgument);
    EXPECT_NE(s.message.find(name), std::string::npos) << s.message;
    EXPECT_NE(s.message.find(value), std::string::npos) << s.message;
    ChainDef d = r.def;
    d.params = p;
    ChainId other;
    EXPECT_FALSE(w->addChain(d, &other).ok()) << name;
  };
  ChainParams p = r.def.params;
  p.vrmLimits[1].angle = -0.1f;
  expectError(p, "ChainParams.vrmLimits[1].angle", "-0.1");
  p = r.def.params;
  p.vrmLimits[0].angle = 4.0f;
  expectError(p, "ChainParams.vrmLimits[0].angle", "4");
  p = r.def.params;
  p.vrmLimits[1] = spherical(NAN, 0.1f);
  expectError(p, "ChainParams.vrmLimits[1].pitch", "nan");
  p = r.def.params;
  p.vrmLimits[1] = spherical(0.1f, 2.0f);
  expectError(p, "ChainParams.vrmLimits[1].yaw", "2");
  p = r.def.params;
  p.vrmLimits[0].type = static_cast<VrmLimitType>(7);
  expectError(p, "ChainParams.vrmLimits[0].type", "7");
  p = r.def.params;
  p.vrmLimits[1].rotation = {0, 0, 0, 0};
  expectError(p, "ChainParams.vrmLimits[1].rotation", "[0, 0, 0, 0]");
  p = r.def.params;
  p.vrmLimits.assign(6, cone(0.2f));  // 5 bones
  expectError(p, "ChainParams.vrmLimits", "6");
  p = r.def.params;
  p.vrmWind = -1;
  expectError(p, "ChainParams.vrmWind", "-1");
  EXPECT_EQ(w->stateHash(), hash) << "rejected calls changed the world";
}

TEST(VrmWind, OffIsBitIdenticalAndOnBlowsTheChainDownwind) {
  auto run = [](float vrmWind, float windSpeed, uint64_t* hash) {
    std::unique_ptr<World> w;
    EXPECT_TRUE(World::create({}, &w).ok());
    WindSettings wind;
    wind.direction = {1, 0, 0};
    wind.speed = windSpeed;
    EXPECT_TRUE(w->setWind(wind).ok());
    Rig r = limitedRig({});
    r.def.params.gravity = {0, -1, 0};
    r.def.params.vrmWind = vrmWind;
    ChainId c;
    EXPECT_TRUE(w->addChain(r.def, &c).ok());
    for (int f = 0; f < 120; ++f) EXPECT_TRUE(w->step(1.0 / 60).ok());
    *hash = 0;
    const int n = joints(*w, c);
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the positions' bits
    const float* p = w->chainPositions(c);
    for (int i = 0; i < 3 * n; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &p[i], 4);
      h = (h ^ bits) * 1099511628211ull;
    }
    *hash = h;
    return joint(*w, c, n - 1).x - joint(*w, c, 0).x;
  };
  uint64_t still, windOff, windOn;
  const float x0 = run(0, 0, &still);
  const float xOff = run(0, 8, &windOff);
  EXPECT_EQ(xOff, x0);
  const float xOn = run(1, 8, &windOn);
  EXPECT_EQ(still, windOff) << "vrmWind 0 must leave the update as it was";
  EXPECT_GT(xOn - x0, 0.05f) << "the tip did not move downwind (+x)";
}

}  // namespace
}  // namespace wisp::test
