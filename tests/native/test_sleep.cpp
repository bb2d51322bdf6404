// Many characters: objects switched off (setEnabled), asleep when settled (sleepSpeed /
// sleepTime), and simulated at a fraction of the step rate (updateEvery).
#include <algorithm>
#include <cstring>

#include "helpers.h"

namespace wisp::test {
namespace {

constexpr double kDt = 1.0 / 60.0;

Quat aroundY(float angle) { return {0, std::sin(angle / 2), 0, std::cos(angle / 2)}; }

template <class Id>
std::vector<ParticleState> particles(const World& w, Id id, int n) {
  std::vector<ParticleState> out(n);
  for (int i = 0; i < n; ++i) w.particle(id, i, &out[i]);
  return out;
}
bool sameBits(const std::vector<ParticleState>& a, const std::vector<ParticleState>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const float x[6] = {a[i].position.x, a[i].position.y, a[i].position.z, a[i].velocity.x, a[i].velocity.y, a[i].velocity.z};
    const float y[6] = {b[i].position.x, b[i].position.y, b[i].position.z, b[i].velocity.x, b[i].velocity.y, b[i].velocity.z};
    if (std::memcmp(x, y, sizeof x) != 0) return false;
  }
  return true;
}
float fastest(const std::vector<ParticleState>& ps) {
  float v = 0;
  for (const ParticleState& p : ps) v = std::max(v, length(p.velocity));
  return v;
}
template <class Id>
World::ObjectActivity activityOf(const World& w, Id id) {
  World::ObjectActivity a;
  w.activity(id, &a);
  return a;
}
bool hasEvent(const World& w, WorldEvent::Type type) {
  for (const WorldEvent& e : w.events())
    if (e.type == type) return true;
  return false;
}

// A 1 m rope of 20 segments hanging from anchor `a` at (0, 2, 0).
RopeId hang(World& w, AnchorId* a, RopeParams params = {}, Vec3 top = {0, 2, 0}) {
  w.addAnchor(top, a);
  RopeDef d;
  d.start = top;
  d.end = top + Vec3{0, -1, 0};
  d.segments = 20;
  d.params = params;
  RopeId r;
  w.addRope(d, &r);
  w.pin(r, 0, *a);
  return r;
}

ChainDef ponytail(Vec3 head) {
  ChainDef d;
  d.root = {head, {}};
  d.joints.push_back({{0, 0, -0.13f}, {}});
  for (int j = 1; j < 8; ++j) d.joints.push_back({{0, -0.06f, -0.01f}, {}});
  return d;
}

// A 0.6 x 1 m cape of 12 x 20 quads pinned by its top corners to two anchors.
ClothId cape(World& w, AnchorId* left, AnchorId* right, Vec3 at = {0, 1.5f, 0}) {
  ClothDef d;
  d.grid = {0.6f, 1.0f, 12, 20, {at + Vec3{-0.3f, 0, 0}, {}}};
  ClothId c;
  w.addCloth(d, &c);
  w.addAnchor(at + Vec3{-0.3f, 0, 0}, left);
  w.addAnchor(at + Vec3{0.3f, 0, 0}, right);
  w.pin(c, 0, *left);
  w.pin(c, 12, *right);
  return c;
}

// ---- enable / disable --------------------------------------------------------------------------

TEST(Activity, DisabledObjectsKeepTheirStateBitForBitAndAreNotSimulated) {
  auto w = scenes::makeWorld();
  AnchorId a, b, l, r;
  RopeId rope = hang(*w, &a);
  RopeId other = hang(*w, &b, {}, {1, 2, 0});
  ClothId cloth = cape(*w, &l, &r, {3, 1.5f, 0});
  ChainId chain;
  ASSERT_OK(w->addChain(ponytail({5, 1.6f, 0}), &chain));
  for (int f = 0; f < 30; ++f) w->step(kDt);  // still swinging: velocities are not zero
  int nc = 0, nj = 0;
  w->clothParticleCount(cloth, &nc);
  w->chainJointCount(chain, &nj);
  ASSERT_OK(w->setEnabled(rope, false));
  ASSERT_OK(w->setEnabled(cloth, false));
  ASSERT_OK(w->setEnabled(chain, false));
  const auto rope0 = particles(*w, rope, 21), cloth0 = particles(*w, cloth, nc), chain0 = particles(*w, chain, nj);
  const uint64_t ropeUpdates = activityOf(*w, rope).updates, otherUpdates = activityOf(*w, other).updates;
  const uint64_t clothUpdates = activityOf(*w, cloth).updates, chainUpdates = activityOf(*w, chain).updates;
  EXPECT_EQ(ropeUpdates, 30u);
  for (int f = 0; f < 60; ++f) {
    w->setAnchorPosition(a, {0.05f * f, 2, 0});
    w->setChainRoot(chain, {{5 + 0.05f * f, 1.6f, 0}, {}});
    w->step(kDt);
  }
  EXPECT_TRUE(sameBits(particles(*w, rope, 21), rope0));
  EXPECT_TRUE(sameBits(particles(*w, cloth, nc), cloth0));
  EXPECT_TRUE(sameBits(particles(*w, chain, nj), chain0));
  // the solver never ran them: their update counters did not move, the enabled rope's did
  EXPECT_EQ(activityOf(*w, rope).updates, ropeUpdates);
  EXPECT_EQ(activityOf(*w, cloth).updates, clothUpdates);
  EXPECT_EQ(activityOf(*w, chain).updates, chainUpdates);
  EXPECT_EQ(activityOf(*w, other).updates, otherUpdates + 60);
  EXPECT_FALSE(activityOf(*w, rope).enabled);
}

TEST(Activity, ReenablingAfterAnchorsMovedFiveMetresStartsAtRestOnThem) {
  auto w = scenes::makeWorld();
  AnchorId a, l, r;
  RopeId rope = hang(*w, &a);
  ClothId cloth = cape(*w, &l, &r, {3, 1.5f, 0});
  ChainId chain;
  ASSERT_OK(w->addChain(ponytail({6, 1.6f, 0}), &chain));
  for (int f = 0; f < 30; ++f) w->step(kDt);
  ASSERT_OK(w->setEnabled(rope, false));
  ASSERT_OK(w->setEnabled(cloth, false));
  ASSERT_OK(w->setEnabled(chain, false));
  // the character walks 5 m away (and turns the chain's root) while they are off
  for (int f = 1; f <= 100; ++f) {
    const float s = 0.05f * f;
    w->setAnchorPosition(a, {s, 2, 0});
    w->setAnchorPosition(l, {2.7f, 1.5f, s});
    w->setAnchorPosition(r, {3.3f, 1.5f, s});
    w->setChainRoot(chain, {{6, 1.6f, s}, aroundY(0.3f * s)});
    w->step(kDt);
  }
  ASSERT_OK(w->setEnabled(rope, true));
  ASSERT_OK(w->setEnabled(cloth, true));
  ASSERT_OK(w->setEnabled(chain, true));
  int nc = 0, nj = 0;
  w->clothParticleCount(cloth, &nc);
  w->chainJointCount(chain, &nj);
  w->step(kDt);
  const float vRope = fastest(particles(*w, rope, 21));
  const float vCloth = fastest(particles(*w, cloth, nc));
  const float vChain = fastest(particles(*w, chain, nj));
  EXPECT_LT(vRope, 0.1f);
  EXPECT_LT(vCloth, 0.1f);
  EXPECT_LT(vChain, 0.1f);
  EXPECT_LT(dist(pos(*w, rope, 0), {5, 2, 0}), 1e-5f);
  EXPECT_LT(dist(pos(*w, rope, 20), {5, 1, 0}), 0.05f);  // still hanging below it
  ParticleState p;
  w->particle(chain, 0, &p);
  EXPECT_LT(dist(p.position, Vec3{6, 1.6f, 5} + rotate(aroundY(1.5f), Vec3{0, 0, -0.13f})), 1e-4f);
  std::printf("first-frame speed after re-enabling 5 m away: rope %.4f, cloth %.4f, chain %.4f m/s\n", vRope, vCloth, vChain);
}

// ---- sleep -------------------------------------------------------------------------------------

RopeParams sleepy() {
  RopeParams p;
  p.sleepSpeed = 0.001f;
  p.sleepTime = 1.0f;
  return p;
}

// Steps until the rope sleeps (at most `limit` s); returns the time it took.
double settle(World& w, RopeId r, double limit = 20) {
  for (int f = 0; f < limit / kDt; ++f) {
    w.step(kDt);
    if (activityOf(w, r).sleeping) {
      EXPECT_TRUE(hasEvent(w, WorldEvent::Type::Slept));
      return (f + 1) * kDt;
    }
  }
  return -1;
}

TEST(Sleep, AHangingRopeFallsAsleepAndStaysExactlyStill) {
  auto w = scenes::makeWorld();
  AnchorId a;
  RopeId r = hang(*w, &a, sleepy());
  w->setParticleVelocity(r, 20, {1, 0, 0});  // swinging
  const double t = settle(*w, r);
  std::printf("a swinging 1 m rope fell asleep after %.2f s\n", t);
  ASSERT_GT(t, 1.0);
  ASSERT_LT(t, 20.0);
  const auto before = particles(*w, r, 21);
  const uint64_t updates = activityOf(*w, r).updates;
  const uint64_t hash = w->stateHash();
  for (int f = 0; f < 60; ++f) w->step(kDt);
  EXPECT_TRUE(activityOf(*w, r).sleeping);
  EXPECT_TRUE(sameBits(particles(*w, r, 21), before));
  EXPECT_EQ(activityOf(*w, r).updates, updates);
  EXPECT_NE(w->stateHash(), hash);  // the step count moved, nothing else
  // the one that never sleeps (the default) runs on
  AnchorId b;
  RopeId plain = hang(*w, &b, {}, {2, 2, 0});
  for (int f = 0; f < 1200; ++f) w->step(kDt);
  EXPECT_FALSE(activityOf(*w, plain).sleeping);
  EXPECT_EQ(activityOf(*w, plain).updates, 1200u);
}

// Turbulence varies in time: a rope that feels the air never sleeps in it, however still.
TEST(Sleep, NoSleepInTurbulentWindForObjectsThatFeelTheAir) {
  for (int threads : {1, 2}) {
    WorldSettings s;
    s.threads = threads;
    s.wind.direction = {0, 0, 1};
    s.wind.speed = 3;
    s.wind.turbulence = 0.5f;
    auto w = scenes::makeWorld(s);
    AnchorId a, b;
    RopeParams p;
    p.sleepSpeed = 10;  // every particle is slower than this
    p.drag = 0.7f;
    RopeId windy = hang(*w, &a, p);
    p.drag = 0;
    RopeId still = hang(*w, &b, p, {1, 2, 0});
    for (int f = 0; f < 120; ++f) w->step(kDt);
    EXPECT_FALSE(activityOf(*w, windy).sleeping) << threads << " threads";
    EXPECT_TRUE(activityOf(*w, still).sleeping) << threads << " threads";
  }
}

// One disturbance per scene: each must wake the sleeping rope within the step that follows it.
struct Disturbance {
  const char* name;
  void (*apply)(World& w, AnchorId a, RopeId r, ColliderId far);
};

TEST(Sleep, ASleepingRopeWakesWithinOneStepOfADisturbance) {
  const Disturbance cases[] = {
      {"anchor moved", [](World& w, AnchorId a, RopeId, ColliderId) { w.setAnchorPosition(a, {0.01f, 2, 0}); }},
      {"anchor teleported", [](World& w, AnchorId a, RopeId, ColliderId) { w.teleportAnchor(a, {3, 2, 0}); }},
      {"collider moved into it",
       [](World& w, AnchorId, RopeId, ColliderId c) { w.setColliderTransform(c, {{0.1f, 1.5f, 0}, {}}); }},
      {"collider added on it",
       [](World& w, AnchorId, RopeId, ColliderId) {
         ColliderDef d;
         d.type = ColliderType::Sphere;
         d.radius = 0.1f;
         d.transform.position = {0.05f, 1.3f, 0};
         ColliderId id;
         w.addCollider(d, &id);
       }},
      {"collider removed", [](World&, AnchorId, RopeId, ColliderId) {}},  // (set below)
      {"wind changed",
       [](World& w, AnchorId, RopeId, ColliderId) {
         WindSettings s;
         s.direction = {1, 0, 0};
         s.speed = 3;
         w.setWind(s);
       }},
      {"parameters set",
       [](World& w, AnchorId, RopeId r, ColliderId) {
         RopeParams p = sleepy();
         p.gravityScale = 0.5f;
         w.setRopeParams(r, p);
       }},
      {"particle unpinned", [](World& w, AnchorId, RopeId r, ColliderId) { w.unpin(r, 0); }},
      {"teleported", [](World& w, AnchorId, RopeId r, ColliderId) { w.teleportRope(r, {{0, 0, 1}, {}}, {}); }},
      {"wake()", [](World& w, AnchorId, RopeId r, ColliderId) { w.wake(r); }},
  };
  for (const Disturbance& d : cases) {
    SCOPED_TRACE(d.name);
    auto w = scenes::makeWorld();
    AnchorId a;
    RopeId r = hang(*w, &a, sleepy());
    ColliderDef cd;
    cd.type = ColliderType::Sphere;
    cd.radius = 0.1f;
    cd.transform.position = std::strcmp(d.name, "collider removed") == 0 ? Vec3{0.12f, 1.5f, 0} : Vec3{5, 1.5f, 0};
    ColliderId far;
    ASSERT_OK(w->addCollider(cd, &far));
    ASSERT_GT(settle(*w, r), 0.0);
    // nothing that cannot reach it wakes it: a collider moving 5 m away, a call that changes nothing
    if (std::strcmp(d.name, "collider removed") != 0) w->setColliderTransform(far, {{5, 1.6f, 0}, {}});
    w->setAnchorPosition(a, {0, 2, 0});
    w->step(kDt);
    ASSERT_TRUE(activityOf(*w, r).sleeping);
    const uint64_t updates = activityOf(*w, r).updates;
    if (std::strcmp(d.name, "collider removed") == 0) ASSERT_OK(w->removeCollider(far));
    else d.apply(*w, a, r, far);
    w->step(kDt);
    EXPECT_FALSE(activityOf(*w, r).sleeping);
    EXPECT_EQ(activityOf(*w, r).updates, updates + 1);
    EXPECT_TRUE(hasEvent(*w, WorldEvent::Type::Woke));
  }
}

// 10 km out the rope simulates relative to an origin of its own while colliders are in world
// coordinates: a collider moving into the sleeping rope wakes it, one moving 5 m away does not.
TEST(Sleep, FarOutAColliderMovingIntoASleepingRopeWakesIt) {
  const Vec3 far{10000, 0, 10000};
  auto w = scenes::makeWorld();
  AnchorId a;
  RopeId r = hang(*w, &a, sleepy(), far + Vec3{0, 2, 0});
  ColliderDef cd;
  cd.type = ColliderType::Sphere;
  cd.radius = 0.1f;
  cd.transform.position = far + Vec3{5, 1.5f, 0};
  ColliderId ball;
  ASSERT_OK(w->addCollider(cd, &ball));
  ASSERT_GT(settle(*w, r), 0.0);
  ASSERT_OK(w->setColliderTransform(ball, {far + Vec3{5, 1.6f, 0}, {}}));
  w->step(kDt);
  ASSERT_TRUE(activityOf(*w, r).sleeping) << "a collider 5 m away";
  ASSERT_OK(w->setColliderTransform(ball, {far + Vec3{0.1f, 1.5f, 0}, {}}));
  w->step(kDt);
  EXPECT_FALSE(activityOf(*w, r).sleeping);
  EXPECT_TRUE(hasEvent(*w, WorldEvent::Type::Woke));
}

TEST(Sleep, ActivityIsPartOfSnapshotsAndTheStateHash) {
  auto w = scenes::makeWorld();
  AnchorId a, b;
  RopeId r = hang(*w, &a, sleepy());
  RopeId off = hang(*w, &b, {}, {1, 2, 0});
  ASSERT_GT(settle(*w, r), 0.0);
  const uint64_t asleep = w->stateHash();
  ASSERT_OK(w->setEnabled(off, false));
  EXPECT_NE(w->stateHash(), asleep);
  std::vector<uint8_t> bytes;
  ASSERT_OK(w->saveSnapshot(&bytes));
  auto copy = scenes::makeWorld();
  ASSERT_OK(copy->loadSnapshot(bytes.data(), bytes.size()));
  EXPECT_EQ(copy->stateHash(), w->stateHash());
  WorldObjects restored;
  copy->objects(&restored);  // the copy's ids carry its own tag
  ASSERT_EQ(restored.ropes.size(), 2u);
  EXPECT_TRUE(activityOf(*copy, restored.ropes[0]).sleeping);
  EXPECT_FALSE(activityOf(*copy, restored.ropes[1]).enabled);
  for (int f = 0; f < 30; ++f) {
    w->setAnchorPosition(a, {0.01f * f, 2, 0});
    copy->setAnchorPosition(restored.anchors[0], {0.01f * f, 2, 0});
    w->step(kDt);
    copy->step(kDt);
  }
  EXPECT_EQ(copy->stateHash(), w->stateHash());
}

// A crowd: ropes and chains at update rates 1, 2 and 3, some asleep, some switched off, the
// anchors walking: bit-identical on 1 and 2 threads (2,600 particles: the parallel path).
uint64_t crowdHash(int threads) {
  WorldSettings s;
  s.threads = threads;
  auto w = scenes::makeWorld(s);
  std::vector<AnchorId> anchors(40);
  std::vector<RopeId> ropes(40);
  for (int i = 0; i < 40; ++i) {
    RopeParams p;
    p.updateEvery = 1 + i % 3;
    if (i % 4 == 0) p.sleepSpeed = 0.001f;
    w->addAnchor({0.5f * i, 3, 0}, &anchors[i]);
    RopeDef d;
    d.start = {0.5f * i, 3, 0};
    d.end = {0.5f * i + 1, 3, 0};
    d.segments = 64;
    d.params = p;
    w->addRope(d, &ropes[i]);
    w->pin(ropes[i], 0, anchors[i]);
  }
  for (int i = 0; i < 10; ++i) {
    ChainDef d = ponytail({0.5f * i, 1, 2});
    d.params.updateEvery = 1 + i % 2;
    ChainId c;
    w->addChain(d, &c);
  }
  for (int f = 0; f < 240; ++f) {
    if (f == 60) for (int i = 1; i < 40; i += 5) w->setEnabled(ropes[i], false);
    if (f == 120) for (int i = 1; i < 40; i += 5) w->setEnabled(ropes[i], true);
    for (int i = 2; i < 40; i += 4) w->setAnchorPosition(anchors[i], {0.5f * i + 0.002f * f, 3, 0});
    w->step(f % 3 == 0 ? 2 * kDt : kDt);
  }
  return w->stateHash();
}

TEST(Activity, ACrowdWithSleepSwitchesAndUpdateRatesIsTheSameOnAnyThreadCount) {
  EXPECT_EQ(crowdHash(1), crowdHash(2));
}

// ---- updateEvery -------------------------------------------------------------------------------

TEST(UpdateEvery, ARopeUpdatedEverySecondStepHangsAsOneUpdatedEveryStep) {
  auto w = scenes::makeWorld();
  AnchorId a, b;
  RopeId every = hang(*w, &a);
  RopeParams p;
  p.updateEvery = 2;
  RopeId half = hang(*w, &b, p, {1, 2, 0});
  // swing both the same way, then let them settle
  w->setParticleVelocity(every, 20, {1, 0, 0});
  w->setParticleVelocity(half, 20, {1, 0, 0});
  for (int f = 0; f < 600; ++f) w->step(kDt);
  float worst = 0;
  for (int i = 0; i < 21; ++i) worst = std::max(worst, dist(pos(*w, half, i) - Vec3{1, 0, 0}, pos(*w, every, i)));
  std::printf("settled shape, updateEvery 2 vs 1: largest difference %.2e m\n", worst);
  EXPECT_LT(worst, 1e-3f);
  EXPECT_EQ(activityOf(*w, every).updates, 600u);
  EXPECT_EQ(activityOf(*w, half).updates, 300u);
  // a moving anchor: at every step the rope runs, its pin is where the anchor is at that time
  int checked = 0;
  for (int f = 0; f < 60; ++f) {
    const Vec3 target{1 + 0.3f * std::sin(0.2f * f), 2, 0.01f * f};
    w->setAnchorPosition(b, target);
    const uint64_t before = activityOf(*w, half).updates;
    w->step(kDt);
    if (activityOf(*w, half).updates == before) continue;
    ++checked;
    EXPECT_LT(dist(pos(*w, half, 0), target), 1e-5f) << "frame " << f;
  }
  EXPECT_EQ(checked, 30);
  // frames of two fixed steps: the rope runs once per frame, its pin on the frame's target
  for (int f = 0; f < 20; ++f) {
    const Vec3 target{1, 2 + 0.01f * f, 0};
    w->setAnchorPosition(b, target);
    w->step(2 * kDt);
    EXPECT_LT(dist(pos(*w, half, 0), target), 1e-5f);
  }
}

TEST(UpdateEvery, BadValuesAreRejectedAndChangeNothing) {
  auto w = scenes::makeWorld();
  AnchorId a;
  RopeId r = hang(*w, &a);
  RopeParams p;
  p.updateEvery = 0;
  Status s = w->setRopeParams(r, p);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("RopeParams.updateEvery"), std::string::npos) << s.message;
  p.updateEvery = 1;
  p.sleepSpeed = -1;
  s = w->setRopeParams(r, p);
  EXPECT_NE(s.message.find("RopeParams.sleepSpeed"), std::string::npos) << s.message;
  RopeParams now;
  w->ropeParams(r, &now);
  EXPECT_EQ(now.updateEvery, 1);
  EXPECT_EQ(now.sleepSpeed, 0.0f);
  EXPECT_FALSE(w->setEnabled(RopeId{}, false).ok());
}

}  // namespace
}  // namespace wisp::test
