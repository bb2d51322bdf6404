// Chains on top of animation: the animated pose as the spring's target, interpolated at each
// fixed step's time.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "helpers.h"
#include "math/quat.h"

namespace wisp::test {
namespace {

Quat aroundZ(double angle) { return {0, 0, static_cast<float>(std::sin(angle / 2)), static_cast<float>(std::cos(angle / 2))}; }

// 5 joints 10 cm apart straight down from the root, no gravity: only the pose spring moves it.
ChainDef hanging(float stiffness) {
  ChainDef d;
  d.root = {{0, 1, 0}, {}};
  d.joints.push_back({{0, 0, 0}, {}});
  for (int j = 1; j < 5; ++j) d.joints.push_back({{0, -0.1f, 0}, {}});
  d.params.stiffness = stiffness;
  d.params.gravityScale = 0;
  d.params.drag = 0;
  d.params.collide = false;
  return d;
}

// Joint positions of the animated pose, by forward kinematics in double precision (independent
// of the solver's float path): root, then each joint's offset in its parent's animated frame.
std::vector<Vec3> forwardKinematics(const ChainDef& d, const Transform& root, const std::vector<Quat>& local) {
  std::vector<Vec3> out;
  Vec3 p = root.position;
  Quat q = root.rotation;
  for (size_t j = 0; j < d.joints.size(); ++j) {
    p = p + rotate(q, d.joints[j].position);
    q = normalize(mul(q, local[j]));
    out.push_back(p);
  }
  return out;
}

std::vector<float> flat(const std::vector<Quat>& q) {
  std::vector<float> f;
  for (const Quat& r : q) f.insert(f.end(), {r.x, r.y, r.z, r.w});
  return f;
}

TEST(ChainAnimation, TheSpringPullsTowardTheAnimatedPoseNotTheRestPose) {
  auto w = scenes::makeWorld();
  const ChainDef d = hanging(20);
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  // a curl: every joint turned 0.3 rad about z relative to its parent
  std::vector<Quat> pose(5, aroundZ(0.3));
  const std::vector<float> q = flat(pose);
  float worst = 0, worstRot = 0;
  for (int f = 0; f < 180; ++f) {
    ASSERT_OK(w->setChainPose(c, q.data(), 5));
    ASSERT_OK(w->step(1.0 / 60));
  }
  const std::vector<Vec3> target = forwardKinematics(d, d.root, pose);
  const float* local = w->chainLocalRotations(c);
  for (int j = 0; j < 5; ++j) {
    worst = std::max(worst, dist(joint(*w, c, j), target[j]));
    if (j < 4) worstRot = std::max(worstRot, 1.0f - halfAngleCos(pose[j], {local[4 * j], local[4 * j + 1], local[4 * j + 2], local[4 * j + 3]}));
  }
  EXPECT_LT(worst, 1e-4f);     // before: the chain stayed straight, the tip 0.18 m away
  EXPECT_LT(worstRot, 1e-6f);  // output local rotations are the animated ones
}

TEST(ChainAnimation, BadPosesAreRejectedAndChangeNothing) {
  auto w = scenes::makeWorld();
  ChainId c;
  ASSERT_OK(w->addChain(hanging(4), &c));
  const uint64_t h = w->stateHash();
  std::vector<float> q(4 * 5, 0.0f);
  for (int j = 0; j < 5; ++j) q[4 * j + 3] = 1;
  EXPECT_EQ(w->setChainPose(c, q.data(), 0).code, StatusCode::InvalidArgument);
  EXPECT_EQ(w->setChainPose(c, q.data(), 6).code, StatusCode::InvalidArgument);
  q[4 * 2 + 3] = 0;  // joint 2: a zero quaternion
  Status st = w->setChainPose(c, q.data(), 5);
  EXPECT_EQ(st.code, StatusCode::InvalidArgument);
  EXPECT_NE(st.message.find("joint 2"), std::string::npos) << st.message;
  q[4 * 2 + 3] = std::nanf("");
  EXPECT_EQ(w->setChainPose(c, q.data(), 5).code, StatusCode::InvalidArgument);
  EXPECT_EQ(w->stateHash(), h);
}

// The animated curl scripted at a constant 1 rad/s and sampled at the end of every frame; a
// chain stiff enough to follow it closely. At 144 Hz and 75 Hz the fixed steps inside a frame see
// the pose at their own time, so at the same simulated time the chain is where the 60 Hz run is.
TEST(ChainAnimation, ThePoseIsInterpolatedAtEachFixedStepsTime) {
  auto run = [](double fps, std::vector<std::vector<Vec3>>* byStep) {
    auto w = scenes::makeWorld();
    ChainId c;
    EXPECT_TRUE(w->addChain(hanging(400), &c).ok());
    const std::vector<float> start = flat(std::vector<Quat>(5, Quat{}));
    EXPECT_TRUE(w->setChainPose(c, start.data(), 5).ok());  // placed at the script's start
    for (int f = 1; f <= static_cast<int>(fps); ++f) {
      const std::vector<float> q = flat(std::vector<Quat>(5, aroundZ(0.5 * f / fps)));
      EXPECT_TRUE(w->setChainPose(c, q.data(), 5).ok());
      EXPECT_TRUE(w->step(1.0 / fps).ok());
      const size_t step = static_cast<size_t>(w->stepCount());
      if (byStep->size() < step + 1) byStep->resize(step + 1);
      (*byStep)[step] = {joint(*w, c, 4)};
    }
  };
  std::vector<std::vector<Vec3>> ref, other;
  run(60, &ref);
  for (double fps : {144.0, 75.0}) {
    other.clear();
    run(fps, &other);
    float worst = 0;
    for (size_t s = 1; s < std::min(ref.size(), other.size()); ++s)
      if (!ref[s].empty() && !other[s].empty()) worst = std::max(worst, dist(ref[s][0], other[s][0]));
    std::printf("%g Hz: tip within %.2e m of the 60 Hz run\n", fps, worst);
    EXPECT_LT(worst, 2e-5f) << fps << " Hz";  // before (the frame's pose at every step): 0.6 mm at 144 Hz
  }
}

// A swinging ponytail-like chain under gravity on a root that moves, with a curl as animated pose.
struct Swing {
  std::unique_ptr<World> w;
  ChainDef d;
  ChainId c;
  std::vector<Quat> pose = std::vector<Quat>(5, aroundZ(0.3));
  Vec3 at;  // where the scene is (far from the origin the chain gets an origin of its own)
  explicit Swing(Vec3 offset = {0, 0, 0}) : at(offset) {
    w = scenes::makeWorld();
    d = hanging(3);
    d.params.gravityScale = 1;
    d.root.position = d.root.position + at;
    EXPECT_TRUE(w->addChain(d, &c).ok());
  }
  // the root's path relative to `at`, and in the world
  Transform rootNear(int f) const { return {{0.1f * static_cast<float>(std::sin(f * 0.15)), 1, 0}, aroundZ(0.15 * std::sin(f * 0.1))}; }
  Transform root(int f) const { Transform t = rootNear(f); t.position = t.position + at; return t; }
  void frame(int f) {
    const std::vector<float> q = flat(pose);
    EXPECT_TRUE(w->setChainRoot(c, root(f)).ok());
    EXPECT_TRUE(w->setChainPose(c, q.data(), 5).ok());
    EXPECT_TRUE(w->step(1.0 / 60).ok());
  }
  Vec3 output(int j) const { return joint(*w, c, j); }
  Vec3 simulated(int j) const {
    ParticleState s;
    EXPECT_TRUE(w->particle(c, j, &s).ok());
    return s.position;
  }
};

TEST(ChainAnimation, PhysicsWeightZeroGivesTheAnimatedPose) {
  Swing s;
  ASSERT_OK(s.w->setChainPhysicsWeight(s.c, 0));
  float worst = 0, apart = 0;
  for (int f = 1; f <= 120; ++f) {
    s.frame(f);
    const std::vector<Vec3> animated = forwardKinematics(s.d, s.root(f), s.pose);
    for (int j = 0; j < 5; ++j) {
      worst = std::max(worst, dist(s.output(j), animated[j]));
      apart = std::max(apart, dist(s.simulated(j), animated[j]));
    }
  }
  EXPECT_LT(worst, 1e-6f);  // before: the simulated chain, up to `apart` away
  EXPECT_GT(apart, 0.05f);  // the simulation did run underneath, far from the animation
  ChainStats st;
  ASSERT_OK(s.w->chainStats(s.c, &st));
  EXPECT_EQ(st.physicsWeight, 0.0f);
}

// The same 10 km out, where the chain simulates relative to an origin of its own: the outputs
// blended onto the animation are world positions too (within the float spacing there, ~1 mm).
TEST(ChainAnimation, PhysicsWeightZeroFarOutGivesTheAnimatedPoseInWorldCoordinates) {
  const Vec3 far{10000, 0, 10000};
  Swing s(far);
  ASSERT_OK(s.w->setChainPhysicsWeight(s.c, 0));
  double worst = 0;
  for (int f = 1; f <= 60; ++f) {
    s.frame(f);
    ChainDef near = s.d;
    const std::vector<Vec3> animated = forwardKinematics(near, s.rootNear(f), s.pose);
    for (int j = 0; j < 5; ++j) {
      const Vec3 o = s.output(j);
      const double dx = double(o.x) - far.x - animated[j].x, dy = double(o.y) - far.y - animated[j].y,
                   dz = double(o.z) - far.z - animated[j].z;
      worst = std::max(worst, std::sqrt(dx * dx + dy * dy + dz * dz));
    }
  }
  EXPECT_LT(worst, 2e-3);
}

// Fading from simulated to animated over 0.5 s, beside a twin that stays simulated (weight 1):
// the simulation underneath is the same bit for bit, and no output joint turns in a frame by more
// than its own turn (simulated or animated) plus the fade's share of the angle between the two
// (with 10% for nlerp's uneven pace); an instant switch turns by the whole angle in one frame.
TEST(ChainAnimation, APhysicsWeightFadeHasNoJump) {
  auto angle = [](const float* a, const float* b) {
    const float c = std::min(1.0f, std::fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]));
    return 2.0f * std::acos(c);
  };
  auto run = [&](float seconds, float* worstExcess, float* gap) {
    Swing simulated, faded;
    std::vector<float> prevOut(20), prevSim(20);
    *worstExcess = 0;
    *gap = 0;
    const std::vector<float> animated = flat(faded.pose);
    for (int f = 1; f <= 150; ++f) {
      if (f == 60) {
        EXPECT_TRUE(faded.w->setChainPhysicsWeight(faded.c, 0, seconds).ok());
      }
      simulated.frame(f);
      faded.frame(f);
      const float* out = faded.w->chainLocalRotations(faded.c);
      const float* sim = simulated.w->chainLocalRotations(simulated.c);
      for (int j = 0; j < 5; ++j) {
        const Vec3 a = simulated.simulated(j), b = faded.simulated(j);
        EXPECT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "the weight changed the simulation, joint " << j;
        const float apart = angle(&sim[4 * j], &animated[4 * j]);
        if (f >= 60) {
          const float turn = angle(&out[4 * j], &prevOut[4 * j]);
          const float motion = angle(&sim[4 * j], &prevSim[4 * j]);  // the animated pose holds still
          const float share = seconds > 0 ? 1.1f * apart * (1.0f / 60) / seconds : 0.0f;
          *worstExcess = std::max(*worstExcess, turn - motion - share);
        }
        if (f == 59) *gap = std::max(*gap, apart);
      }
      std::copy(out, out + 20, prevOut.begin());
      std::copy(sim, sim + 20, prevSim.begin());
    }
    ChainStats st;
    EXPECT_TRUE(faded.w->chainStats(faded.c, &st).ok());
    EXPECT_EQ(st.physicsWeight, 0.0f);
  };
  float excess = 0, gap = 0, instant = 0, instantGap = 0;
  run(0.5f, &excess, &gap);
  run(0.0f, &instant, &instantGap);
  std::printf("fade: worst excess turn %.2e rad (gap %.3f rad); instant switch: %.3f rad\n", excess, gap, instant);
  EXPECT_GT(gap, 0.2f);
  EXPECT_LT(excess, 1e-3f) << "a fade over 0.5 s added a jump; the gap is " << gap << " rad";
  EXPECT_GT(instant, 0.5f * instantGap) << "an instant switch jumps (the test can see jumps)";
}

TEST(ChainAnimation, BadPhysicsWeightsAreRejectedAndChangeNothing) {
  Swing s;
  const uint64_t h = s.w->stateHash();
  for (float v : {-0.1f, 1.5f, std::nanf("")}) {
    Status st = s.w->setChainPhysicsWeight(s.c, v, 0);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument);
    EXPECT_NE(st.message.find("weight"), std::string::npos) << st.message;
  }
  EXPECT_EQ(s.w->setChainPhysicsWeight(s.c, 0.5f, -1).code, StatusCode::InvalidArgument);
  EXPECT_EQ(s.w->stateHash(), h);
}

// Hair whose bind pose sticks out sideways (a horizontal chain, 0.4 m) on a still head at 1.6 m.
ChainDef sideways(int warmupSteps) {
  ChainDef d;
  d.root = {{0, 1.6f, 0}, {}};
  d.points = {{0, 1.6f, 0}, {0.1f, 1.6f, 0}, {0.2f, 1.6f, 0}, {0.3f, 1.6f, 0}, {0.4f, 1.6f, 0}};
  d.params.stiffness = 0;
  d.params.warmupSteps = warmupSteps;
  return d;
}

// Without warm-up such hair falls from its bind pose when it appears; with warm-up it appears
// hanging, at rest.
float firstFrameTipSpeed(int warmupSteps, bool viaReset) {
  auto w = scenes::makeWorld();
  const ChainDef d = sideways(warmupSteps);
  ChainId c;
  EXPECT_TRUE(w->addChain(d, &c).ok());
  if (viaReset) {
    for (int f = 0; f < 90; ++f) EXPECT_TRUE(w->step(1.0 / 60).ok());  // swinging now
    EXPECT_TRUE(w->resetChain(c).ok());
  }
  EXPECT_TRUE(w->step(1.0 / 60).ok());
  ParticleState tip;
  EXPECT_TRUE(w->particle(c, 4, &tip).ok());
  if (warmupSteps > 0) {
    EXPECT_LT(joint(*w, c, 4).y, 1.6f - 0.35f);  // hanging (bind pose: level with the root)
  }
  return length(tip.velocity);
}

TEST(ChainAnimation, WarmUpStartsTheChainSettledInsteadOfFallingFromTheBindPose) {
  for (bool viaReset : {false, true}) {
    const float with = firstFrameTipSpeed(240, viaReset);
    EXPECT_LT(with, 0.1f) << (viaReset ? "after reset" : "at creation");
  }
  auto w = scenes::makeWorld();
  ChainDef d;
  d.points = {{0, 0, 0}, {0.1f, 0, 0}};
  d.params.warmupSteps = -1;
  ChainId c;
  Status st = w->addChain(d, &c);
  EXPECT_EQ(st.code, StatusCode::InvalidArgument);
  EXPECT_NE(st.message.find("warmupSteps"), std::string::npos) << st.message;
}

TEST(ChainAnimation, WithoutWarmUpTheChainFallsFromTheBindPose) {
  // the measurement above, without warm-up: the tip is still falling, far from hanging
  EXPECT_GT(firstFrameTipSpeed(0, false), 0.1f);
}

// After a teleport (a respawn) the chain warms up at the new place too.
TEST(ChainAnimation, WarmUpAlsoRunsAfterATeleport) {
  auto w = scenes::makeWorld();
  const ChainDef d = sideways(240);
  ChainId c;
  ASSERT_OK(w->addChain(d, &c));
  ASSERT_OK(w->step(1.0 / 60));
  // kick it, then teleport it (carried rigidly, swinging): the warm-up settles it again
  for (int j = 1; j < 5; ++j) ASSERT_OK(w->setParticleVelocity(c, j, {3, 0, 0}));
  ASSERT_OK(w->teleportChain(c, {{5, 1.6f, 0}, {}}));
  ASSERT_OK(w->step(1.0 / 60));
  ParticleState tip;
  ASSERT_OK(w->particle(c, 4, &tip));
  EXPECT_LT(length(tip.velocity), 0.1f);
  EXPECT_NEAR(joint(*w, c, 0).x, 5.0f, 1e-5f);
}

// `hanging` under gravity, for a root shaken so hard that the teleport checks must be off.
ChainDef whipped(float stiffness) {
  ChainDef d = hanging(stiffness);
  d.params.gravityScale = 1;
  d.params.teleportDistance = 0;
  d.params.teleportAngle = 0;
  return d;
}

// A root shaken violently (up to 40 m/s, 3,000 m/s^2) with the chain allowed at most 2 cm, ramping
// to 5 cm at the tip (a curve), from its animated pose: after every fixed step every joint is
// within its distance of the animated pose on the root where that step ended.
TEST(ChainAnimation, MaxDistanceFromTheAnimatedPoseHoldsAfterEveryStep) {
  auto run = [](float maxDistance, float* worstExcess, float* worstApart) {
    auto w = scenes::makeWorld();
    ChainDef d = whipped(2);
    d.params.maxDistance = maxDistance;
    d.params.maxDistanceCurve = {{0, 0.4f}, {1, 1}};
    ChainId c;
    EXPECT_TRUE(w->addChain(d, &c).ok());
    const std::vector<Quat> pose(5, aroundZ(0.2));
    const std::vector<float> q = flat(pose);
    *worstExcess = -1;
    *worstApart = 0;
    for (int f = 1; f <= 120; ++f) {
      const Transform root{{0.3f * static_cast<float>(std::sin(f * 2.1)), 1 + 0.2f * static_cast<float>(std::cos(f * 1.3)), 0},
                           aroundZ(1.2 * std::sin(f * 0.9))};
      EXPECT_TRUE(w->setChainRoot(c, root).ok());
      EXPECT_TRUE(w->setChainPose(c, q.data(), 5).ok());
      EXPECT_TRUE(w->step(1.0 / 60).ok());  // one fixed step per frame: the step ends on `root`
      const std::vector<Vec3> animated = forwardKinematics(d, root, pose);
      for (int j = 0; j < 5; ++j) {
        const float t = j / 4.0f, allowed = maxDistance * (0.4f + 0.6f * t);
        const float apart = dist(joint(*w, c, j), animated[j]);
        *worstApart = std::max(*worstApart, apart);
        *worstExcess = std::max(*worstExcess, apart - allowed);
      }
    }
  };
  float excess = 0, apart = 0, freeExcess = 0, freeApart = 0;
  run(0.05f, &excess, &apart);
  EXPECT_LT(excess, 1e-5f) << "a joint " << apart << " m from the animated pose";
  run(0.0f, &freeExcess, &freeApart);  // 0 = off: the same motion takes the chain far away
  EXPECT_GT(freeApart, 0.1f);
}

TEST(ChainAnimation, BadMaxDistancesAreRejected) {
  auto w = scenes::makeWorld();
  ChainDef d = hanging(2);
  for (float v : {-0.1f, std::nanf("")}) {
    d.params.maxDistance = v;
    ChainId c;
    Status st = w->addChain(d, &c);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument);
    EXPECT_NE(st.message.find("maxDistance"), std::string::npos) << st.message;
  }
}

// A backstop behind an animated pose that holds the chain out sideways (+X) from a root that
// whips (up to 1 m/s^2-scale jerks each frame, 0.8 rad turns): the backstop's front direction is
// world up in each joint's animated parent frame, so gravity and the whipping push the joints
// through it. After every step every joint j >= 1 satisfies C(x) >= -1e-5 m (chain/backstop.h),
// with A and N from forward kinematics here (double precision, independent of the solver), for a
// plane (R = 0) and a sphere (R = 0.3 m), at 1 and 32 substeps. Without it the same motion takes
// the joints far through.
float worstBackstop(bool on, int substeps, float radius) {
  WorldSettings settings;
  settings.substeps = substeps;
  auto w = scenes::makeWorld(settings);
  ChainDef d = whipped(0.5f);
  d.params.backstop = on;
  d.params.backstopNormal = {2, 0, 0};  // normalised; world up under the pose below
  d.params.backstopDistance = 0.02f;
  d.params.backstopRadius = radius;
  d.params.backstopCurve = {{0, 0.5f}, {1, 1}};
  ChainId c;
  EXPECT_TRUE(w->addChain(d, &c).ok());
  std::vector<Quat> pose(5, Quat{});
  pose[0] = aroundZ(1.5707963267948966);  // the bones point along +X
  const std::vector<float> q = flat(pose);
  float worst = 1;
  for (int f = 1; f <= 120; ++f) {
    const Transform root{{0.3f * static_cast<float>(std::sin(f * 2.1)), 1 + 0.2f * static_cast<float>(std::cos(f * 1.3)), 0},
                         aroundZ(0.8 * std::sin(f * 0.9))};
    EXPECT_TRUE(w->setChainRoot(c, root).ok());
    EXPECT_TRUE(w->setChainPose(c, q.data(), 5).ok());
    EXPECT_TRUE(w->step(1.0 / 60).ok());
    const std::vector<Vec3> animated = forwardKinematics(d, root, pose);
    Quat parent = root.rotation;
    for (int j = 0; j < 5; ++j) {
      if (j > 0) {
        const Vec3 n = rotate(parent, Vec3{1, 0, 0});
        const float behind = 0.02f * (0.5f + 0.5f * (j / 4.0f));
        const Vec3 x = joint(*w, c, j);
        const float C = radius == 0 ? dot(x - animated[j], n) + behind
                                    : dist(x, animated[j] - n * (behind + radius)) - radius;
        worst = std::min(worst, C);
      }
      parent = normalize(mul(parent, pose[j]));
    }
  }
  return worst;
}

TEST(ChainAnimation, TheBackstopHoldsAfterEveryStep) {
  for (int substeps : {1, 32}) {
    for (float radius : {0.0f, 0.3f}) {
      const float worst = worstBackstop(true, substeps, radius);
      std::printf("substeps %d, radius %g: worst C = %.2e m\n", substeps, radius, worst);
      EXPECT_GT(worst, -1e-5f) << "substeps " << substeps << ", radius " << radius;
    }
    const float free = worstBackstop(false, substeps, 0);
    std::printf("substeps %d without a backstop: worst C = %.3f m\n", substeps, free);
    EXPECT_LT(free, -0.05f) << "the motion must push through for the test to mean anything";
  }
}

TEST(ChainAnimation, BadBackstopsAreRejectedAndChangeNothing) {
  auto w = scenes::makeWorld();
  ChainId c;
  ASSERT_OK(w->addChain(hanging(2), &c));
  const uint64_t h = w->stateHash();
  auto rejected = [&](ChainParams p, const char* name) {
    ChainParams now;
    ASSERT_OK(w->chainParams(c, &now));
    Status st = w->setChainParams(c, p);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument) << name;
    EXPECT_NE(st.message.find(name), std::string::npos) << st.message;
  };
  ChainParams p;
  ASSERT_OK(w->chainParams(c, &p));
  p.backstop = true;
  for (float v : {-0.1f, std::nanf(""), 2e3f}) {
    ChainParams q = p;
    q.backstopDistance = v;
    rejected(q, "backstopDistance");
    q = p;
    q.backstopRadius = v;
    rejected(q, "backstopRadius");
  }
  ChainParams q = p;
  q.backstopNormal = {0, 0, 0};
  rejected(q, "backstopNormal");
  q.backstopNormal = {std::nanf(""), 0, 1};
  rejected(q, "backstopNormal");
  q = p;
  q.backstopDistance = 1;
  q.backstopCurve = {{0, 1}, {1, -1}};
  rejected(q, "backstopDistance");
  EXPECT_EQ(w->stateHash(), h);
}

// Boosts (World::boostChain): the multipliers in force follow 1 + (m - 1)(1 - t / T) per fixed
// step and are exactly 1 once the time is up.
TEST(ChainBoost, MultipliersFadeOnSchedule) {
  auto w = scenes::makeWorld();
  ChainId c;
  ASSERT_OK(w->addChain(hanging(4), &c));
  ASSERT_OK(w->boostChain(c, {3, 2, 0.5f, 0}, 0.3f));
  ChainBoost now;
  float left = 0;
  ASSERT_OK(w->chainBoost(c, &now, &left));
  EXPECT_EQ(now.stiffness, 3);
  EXPECT_EQ(now.damping, 2);
  EXPECT_EQ(now.drag, 0.5f);
  EXPECT_EQ(now.gravity, 0);
  for (int f = 0; f < 9; ++f) ASSERT_OK(w->step(1.0 / 60));  // 0.15 s: half way
  ASSERT_OK(w->chainBoost(c, &now, &left));
  EXPECT_NEAR(now.stiffness, 2, 1e-5);
  EXPECT_NEAR(now.damping, 1.5, 1e-5);
  EXPECT_NEAR(now.drag, 0.75, 1e-5);
  EXPECT_NEAR(now.gravity, 0.5, 1e-5);
  EXPECT_NEAR(left, 0.15, 1e-5);
  for (int f = 0; f < 10; ++f) ASSERT_OK(w->step(1.0 / 60));  // 0.317 s
  ASSERT_OK(w->chainBoost(c, &now, &left));
  EXPECT_EQ(now.stiffness, 1);
  EXPECT_EQ(now.damping, 1);
  EXPECT_EQ(now.drag, 1);
  EXPECT_EQ(now.gravity, 1);
  EXPECT_EQ(left, 0);
}

// The tip's distance from where the animated curl puts it, 0.25 s after the curl is given, for a
// chain of `stiffness` boosted by `boost` for `seconds`.
float curlError(float stiffness, float boost, float seconds) {
  auto w = scenes::makeWorld();
  ChainDef d = hanging(stiffness);
  ChainId c;
  EXPECT_TRUE(w->addChain(d, &c).ok());
  const std::vector<Quat> pose(5, aroundZ(0.4));
  const std::vector<float> q = flat(pose);
  EXPECT_TRUE(w->boostChain(c, {boost, 1, 1, 1}, seconds).ok());
  for (int f = 0; f < 15; ++f) {
    EXPECT_TRUE(w->setChainPose(c, q.data(), 5).ok());
    EXPECT_TRUE(w->step(1.0 / 60).ok());
  }
  return dist(joint(*w, c, 4), forwardKinematics(d, d.root, pose)[4]);
}

TEST(ChainBoost, AStiffnessBoostSpringsBackFasterDuringItsWindow) {
  const float plain = curlError(10, 1, 0), boosted = curlError(10, 3, 0.5f);
  // a boost fading slowly (1000 s) against its peer: the unboosted chain of 3x the stiffness
  const float steady = curlError(10, 3, 1000), triple = curlError(30, 1, 0);
  std::printf("tip off the curl after 0.25 s: plain %.4f m, boosted x3 for 0.5 s %.4f m, x3 for 1000 s %.4f m, stiffness 30 %.4f m\n",
              plain, boosted, steady, triple);
  EXPECT_LT(boosted, 0.7f * plain);
  EXPECT_NEAR(steady, triple, 1e-3f);
}

// After the boost is over the chain is the unboosted chain: a gravity boost on a chain without
// gravity changes nothing while it runs (0 x 3 = 0); gravity switched on after it has faded
// gives both worlds the same bits, state hash included. Switched on while it runs, it shows.
TEST(ChainBoost, OnceFadedTheChainIsTheUnboostedChain) {
  auto run = [](int gravityOnAt, std::vector<Vec3>* tip) {
    uint64_t hashes[2] = {0, 0};
    for (int boosted = 0; boosted < 2; ++boosted) {
      auto w = scenes::makeWorld();
      ChainDef d = hanging(4);
      d.params.gravityScale = 0;
      d.params.customGravity = true;  // across the chain: straight down it would not move it
      d.params.gravity = {6, -8, 0};
      ChainId c;
      EXPECT_TRUE(w->addChain(d, &c).ok());
      if (boosted) {
        EXPECT_TRUE(w->boostChain(c, {1, 1, 1, 3}, 0.3f).ok());
      }
      for (int f = 0; f < 90; ++f) {
        if (f == gravityOnAt) {
          ChainParams p;
          EXPECT_TRUE(w->chainParams(c, &p).ok());
          p.gravityScale = 1;
          EXPECT_TRUE(w->setChainParams(c, p).ok());
        }
        EXPECT_TRUE(w->step(1.0 / 60).ok());
      }
      tip[boosted].clear();
      for (int j = 0; j < 5; ++j) tip[boosted].push_back(joint(*w, c, j));
      hashes[boosted] = w->stateHash();
    }
    return hashes[0] == hashes[1];
  };
  std::vector<Vec3> after[2], during[2];
  EXPECT_TRUE(run(30, after)) << "state hashes differ after the boost faded";
  for (int j = 0; j < 5; ++j) {
    EXPECT_EQ(after[0][j].x, after[1][j].x);
    EXPECT_EQ(after[0][j].y, after[1][j].y);
  }
  EXPECT_FALSE(run(6, during));
  EXPECT_GT(dist(during[0][4], during[1][4]), 1e-3f) << "gravity x3 while the boost ran must show";
}

TEST(ChainBoost, BadBoostsAreRejectedAndChangeNothing) {
  auto w = scenes::makeWorld();
  ChainId c;
  ASSERT_OK(w->addChain(hanging(4), &c));
  ASSERT_OK(w->boostChain(c, {2, 1, 1, 1}, 1));
  const uint64_t h = w->stateHash();
  for (float v : {-1.0f, std::nanf(""), 101.0f}) {
    for (int k = 0; k < 4; ++k) {
      ChainBoost m;
      float* f[] = {&m.stiffness, &m.damping, &m.drag, &m.gravity};
      const char* names[] = {"stiffness", "damping", "drag", "gravity"};
      *f[k] = v;
      Status st = w->boostChain(c, m, 0.5f);
      EXPECT_EQ(st.code, StatusCode::InvalidArgument);
      EXPECT_NE(st.message.find(std::string("boostChain: ") + names[k]), std::string::npos) << st.message;
    }
    Status st = w->boostChain(c, {}, v * 100);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument);
    EXPECT_NE(st.message.find("boostChain: seconds"), std::string::npos) << st.message;
  }
  EXPECT_EQ(w->stateHash(), h);
  ChainBoost now;
  float left;
  ASSERT_OK(w->chainBoost(c, &now, &left));
  EXPECT_EQ(now.stiffness, 2);
  EXPECT_EQ(left, 1);
  EXPECT_EQ(w->boostChain(ChainId{}, {}, 1).code, StatusCode::InvalidHandle);
}

// A chain root scripted at a constant 1 m/s, sampled at the end of every frame: after each frame
// joint 0 (on the root) is where the script is at the simulated time, as pinned particles are
// (Time.PinnedParticlesFollowTheScriptedPathAtAnyFrameRate).
TEST(ChainAnimation, ChainRootsFollowTheScriptedPathAtEachFixedStepsTime) {
  for (double fps : {144.0, 75.0}) {
    auto w = scenes::makeWorld();
    ChainId c;
    ASSERT_OK(w->addChain(hanging(4), &c));
    double worst = 0;
    for (int f = 1; f <= static_cast<int>(2 * fps); ++f) {
      ASSERT_OK(w->setChainRoot(c, {{static_cast<float>(f / fps), 1, 0}, {}}));
      ASSERT_OK(w->step(1.0 / fps));
      if (w->stepCount() == 0) continue;
      worst = std::max(worst, std::fabs(static_cast<double>(joint(*w, c, 0).x) - w->time()));
    }
    std::printf("%g Hz: chain root within %.2e m of the script at the simulated time\n", fps, worst);
    EXPECT_LT(worst, 5e-6) << fps << " Hz";  // before: up to one frame ahead
  }
}

}  // namespace
}  // namespace wisp::test

namespace wisp::test {
namespace {

// A keyed tail with its root held still: every joint's animated local rotation swings about z as
// A sin(2 pi f t). Returns, over the last `measure` seconds of `seconds`, the largest distance of
// the simulated tip from the animated tip (forward kinematics in double precision) and the phase
// by which the tip's x lags the animated tip's x (rad, from the correlation with the animated
// signal and its quarter-period shift: independent of amplitude).
struct TailRun {
  float worst = 0;
  double lag = 0, gain = 0;
};
TailRun runKeyedTail(float stiffness, double seconds = 8, double measure = 4) {
  constexpr double kA = 0.25, kF = 0.5;  // rad, Hz
  auto w = scenes::makeWorld();
  const ChainDef d = hanging(stiffness);
  ChainId c;
  EXPECT_TRUE(w->addChain(d, &c).ok());
  const int frames = static_cast<int>(seconds * 60), from = static_cast<int>((seconds - measure) * 60);
  TailRun r;
  double sIn = 0, sQuad = 0, sRef = 0;
  for (int f = 1; f <= frames; ++f) {
    const double t = f / 60.0, angle = kA * std::sin(2 * M_PI * kF * t);
    std::vector<Quat> pose(5, aroundZ(angle));
    const std::vector<float> q = flat(pose);
    EXPECT_TRUE(w->setChainPose(c, q.data(), 5).ok());
    EXPECT_TRUE(w->step(1.0 / 60).ok());
    if (f <= from) continue;
    const Vec3 animated = forwardKinematics(d, d.root, pose)[4];
    const Vec3 tip = joint(*w, c, 4);
    r.worst = std::max(r.worst, dist(tip, animated));
    // the animated tip's x is a fixed odd function of sin(2 pi f t); project the simulated tip's
    // x on the in-phase and quadrature parts of the fundamental
    const double ph = 2 * M_PI * kF * t;
    sIn += tip.x * std::sin(ph);
    sQuad += tip.x * std::cos(ph);
    sRef += animated.x * std::sin(ph);
  }
  r.lag = std::atan2(-sQuad, sIn);
  r.gain = std::hypot(sIn, sQuad) / std::fabs(sRef);
  return r;
}

TEST(ChainAnimation, AKeyedTailFollowsItsClipWhenStiffAndLagsWhenSoft) {
  const TailRun stiff = runKeyedTail(200), mid = runKeyedTail(60), soft = runKeyedTail(2);
  std::printf("keyed tail, 5 joints, 0.25 rad per joint at 0.5 Hz, root still: stiffness 200/s tip within %.4f m of "
              "the clip (lag %.3f rad, gain %.3f); 60/s within %.4f m (lag %.3f rad, gain %.3f); 2/s lag %.3f rad, "
              "gain %.3f\n",
              stiff.worst, stiff.lag, stiff.gain, mid.worst, mid.lag, mid.gain, soft.lag, soft.gain);
  // Each bone is pulled toward its animated direction, relative to its simulated parent, at rate
  // w (over-damped): to a first order it lags its target by atan(W / w), W = 2 pi f, and the four
  // moving bones compound: 4 atan(pi / w) = 0.063 rad at w = 200/s, 0.209 rad at 60/s.
  const auto predicted = [](double w) { return 4 * std::atan(M_PI / w); };
  EXPECT_LT(stiff.worst, 0.025f);  // of a tip swinging about 0.5 m
  EXPECT_NEAR(stiff.lag, predicted(200), 0.5 * predicted(200));
  EXPECT_NEAR(mid.lag, predicted(60), 0.5 * predicted(60));
  EXPECT_NEAR(stiff.gain, 1.0, 0.05);
  // Soft: far behind and mostly filtered out (the first-order gain per bone is 0.54 at w = 2/s).
  EXPECT_GT(soft.lag, 1.0);
  EXPECT_LT(soft.gain, 0.3);
}

}  // namespace
}  // namespace wisp::test
