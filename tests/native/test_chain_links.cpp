// Links between chains (wisp/chain_links.h): a skirt of linked chains pushed by running legs,
// the links' XPBD behaviour against analytic results, topology, removal, threads, snapshots and
// bad input.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "helpers.h"
#include "math/quat.h"
#include "scenes/character.h"

namespace wisp::test {
namespace {

Vec3 joint(const World& w, ChainId c, int j) {
  const float* p = w.chainPositions(c);
  return {p[3 * j], p[3 * j + 1], p[3 * j + 2]};
}
int joints(const World& w, ChainId c) {
  int n = 0;
  w.chainJointCount(c, &n);
  return n;
}

// How deep (m) point p is inside the tapered capsule hip -> knee (radius rHip at the hip, rKnee at
// the knee), measured independently of the solver: distance to the axis segment against the
// radius interpolated at the closest point (a cone's exact surface is at most as deep).
float depthInThigh(Vec3 p, Vec3 hip, Vec3 knee, float rHip, float rKnee, float* radius) {
  const Vec3 ab = knee - hip;
  const float t = std::clamp(dot(p - hip, ab) / dot(ab, ab), 0.0f, 1.0f);
  const float r = rHip + (rKnee - rHip) * t;
  *radius = r;
  return r - length(p - (hip + ab * t));
}

struct SkirtRun {
  float worstDepthRatio = -1e9f;   // (depth / radius) of a hem joint or hem link midpoint
  float worstSpacingRatio = 0;     // neighbouring hem joints' distance / the link's rest length
  float worstDepthAt = 0, worstSpacingAt = 0;
  double meanSpacingError = 0;     // |spacing / rest - 1| averaged over every hem pair and step
};

// 10 s of the run cycle at 60 Hz, measured after every step.
SkirtRun runSkirt(bool linked) {
  constexpr int kFrames = 600;
  scenes::CharacterOptions o;
  o.linked = linked;
  o.dressed = false;
  scenes::Character c = scenes::makeCharacter(o);
  World& w = *c.world;
  const int m = static_cast<int>(c.skirt.size());
  const int hem = joints(w, c.skirt[0]) - 1;
  // rest distances between neighbouring hem joints, from the pose at creation
  std::vector<float> rest(m);
  for (int k = 0; k < m; ++k) rest[k] = dist(joint(w, c.skirt[k], hem), joint(w, c.skirt[(k + 1) % m], hem));
  if (linked) {
    std::vector<int32_t> pairs;
    std::vector<float> r;
    w.chainLinksPairs(c.skirtLinks, &pairs);
    w.chainLinksRestLengths(c.skirtLinks, &r);
    for (size_t i = 0; i < r.size(); ++i)
      if (pairs[4 * i + 1] == hem && pairs[4 * i + 3] == hem) {
        EXPECT_NEAR(r[i], rest[pairs[4 * i]], 1e-5f);
      }
  }
  SkirtRun out;
  for (int f = 0; f < kFrames; ++f) {
    const double t = (f + 1) / 60.0;
    scenes::poseCharacter(c, t, false);
    if (!w.step(1.0 / 60).ok()) ADD_FAILURE() << "step failed";
    Vec3 hip[2], knee[2];
    for (int leg = 0; leg < 2; ++leg) scenes::thighEnds(c, leg, t, &hip[leg], &knee[leg]);
    auto check = [&](Vec3 p) {
      for (int leg = 0; leg < 2; ++leg) {
        float r;
        const float d = depthInThigh(p, hip[leg], knee[leg], c.thighRadiusHip, c.thighRadiusKnee, &r);
        if (d / r > out.worstDepthRatio) { out.worstDepthRatio = d / r; out.worstDepthAt = static_cast<float>(t); }
      }
    };
    for (int k = 0; k < m; ++k) {
      const Vec3 a = joint(w, c.skirt[k], hem), b = joint(w, c.skirt[(k + 1) % m], hem);
      check(a);
      check((a + b) * 0.5f);
      const float s = dist(a, b) / rest[k];
      out.meanSpacingError += std::fabs(s - 1.0f) / (static_cast<double>(kFrames) * m);
      if (s > out.worstSpacingRatio) { out.worstSpacingRatio = s; out.worstSpacingAt = static_cast<float>(t); }
    }
  }
  return out;
}

TEST(ChainLinks, SkirtStaysOutOfTheRunningLegsAndClosed) {
  const SkirtRun linked = runSkirt(true);
  std::printf("skirt, 14 chains x 6 joints, loop, 10 s run cycle: worst hem depth in a thigh %.3f of its radius (t = %.2f s), "
              "worst hem spacing %.3f x rest (t = %.2f s), mean spacing error %.5f\n",
              linked.worstDepthRatio, linked.worstDepthAt, linked.worstSpacingRatio, linked.worstSpacingAt,
              linked.meanSpacingError);
  // The worst spacing over 10 s is one moment of a chaotic run: rounding-level changes to the
  // joints' rotations (the same rotation computed in another order, or normalised twice) moved it
  // between 1.087 and 1.146 x rest, and one or two rounds of links land in that range too (1.136,
  // 1.142), so that bound only catches a hem that opens (unlinked, 4x). The mean spacing error is
  // the steady measure of how well the links hold: 0.0070 with one round, 0.0041 with two, 0.0029
  // with the solver's three (kRounds), so its bound fails if a round goes missing.
  constexpr float kSpacingBound = 1.20f;
  constexpr double kMeanSpacingErrorBound = 0.0035;
  EXPECT_LE(linked.worstDepthRatio, 0.10f);
  EXPECT_LE(linked.worstSpacingRatio, kSpacingBound);
  EXPECT_LE(linked.meanSpacingError, kMeanSpacingErrorBound);
  // the same chains without links: the hem opens up between chains (so the bound above is the links')
  const SkirtRun alone = runSkirt(false);
  std::printf("the same chains unlinked: worst depth %.3f of the radius, worst spacing %.3f x rest, mean spacing error %.5f\n",
              alone.worstDepthRatio, alone.worstSpacingRatio, alone.meanSpacingError);
  EXPECT_GT(alone.worstSpacingRatio, kSpacingBound);
  EXPECT_GT(alone.meanSpacingError, kMeanSpacingErrorBound);
}

// Two chains hanging side by side, 0.2 m apart, joints 0.1 m apart.
ChainDef hangingAt(float x, int n) {
  ChainDef d;
  d.root = {{x, 2, 0}, {}};
  for (int j = 0; j < n; ++j) d.points.push_back({x, 2 - 0.1f * j, 0});
  d.params.collide = false;
  d.params.drag = 0;
  return d;
}

TEST(ChainLinks, RigidLinksHoldTheirRestLengthUnderLoad) {
  for (bool linkedRun : {true, false}) {
    auto w = scenes::makeWorld();
    ChainDef a = hangingAt(0, 5), b = hangingAt(0.2f, 5);
    a.params.stiffness = b.params.stiffness = 0;
    a.params.externalForce = {-6, 0, 0};  // pulled apart: 6 N on each unit-mass joint
    b.params.externalForce = {6, 0, 0};
    ChainId ca, cb;
    ASSERT_OK(w->addChain(a, &ca));
    ASSERT_OK(w->addChain(b, &cb));
    ChainLinksId l;
    if (linkedRun) {
      ChainLinksDef d;
      d.chains = {ca, cb};
      ASSERT_OK(w->addChainLinks(d, &l));
    }
    float worst = 0;
    for (int f = 0; f < 240; ++f) {
      ASSERT_OK(w->step(1.0 / 60));
      for (int j = 1; j < 5; ++j) worst = std::max(worst, std::fabs(dist(joint(*w, ca, j), joint(*w, cb, j)) / 0.2f - 1));
    }
    std::printf("%s: worst relative change of joint spacing %.5f\n", linkedRun ? "rigid links" : "no links", worst);
    if (linkedRun) EXPECT_LT(worst, 0.01f);
    else EXPECT_GT(worst, 0.5f);
  }
}

// A compliant link between two pendulums pulled apart: static equilibrium of each bob (unit mass,
// bone length L, gravity g, load F outward, link tension T = stretch / compliance):
//   tan(theta) = (F - T) / g,  stretch = 2 L sin(theta)
// solved here by bisection; the simulation settles to it.
TEST(ChainLinks, CompliantLinkStretchesAsXpbdPredictsForAStaticLoad) {
  const float L = 0.3f, g = 9.81f, F = 4.0f, alpha = 0.02f;
  double lo = 0, hi = 1.5;
  for (int i = 0; i < 200; ++i) {
    const double th = 0.5 * (lo + hi);
    const double T = 2 * L * std::sin(th) / alpha;
    (std::tan(th) - (F - T) / g > 0 ? hi : lo) = th;
  }
  const double expected = 2 * L * std::sin(lo);
  auto w = scenes::makeWorld();
  ChainDef a, b;
  for (auto [d, x] : {std::pair{&a, 0.0f}, std::pair{&b, 0.2f}}) {
    d->root = {{x, 2, 0}, {}};
    d->points = {{x, 2, 0}, {x, 2 - L, 0}};
    d->params.stiffness = 0;
    d->params.damping = 4;
    d->params.drag = 0;
    d->params.collide = false;
  }
  a.params.externalForce = {-F, 0, 0};
  b.params.externalForce = {F, 0, 0};
  ChainId ca, cb;
  ASSERT_OK(w->addChain(a, &ca));
  ASSERT_OK(w->addChain(b, &cb));
  ChainLinksDef d;
  d.chains = {ca, cb};
  d.params.compliance = alpha;
  d.params.stretch = 10;  // the cap out of the way
  ChainLinksId l;
  ASSERT_OK(w->addChainLinks(d, &l));
  for (int f = 0; f < 600; ++f) ASSERT_OK(w->step(1.0 / 60));
  const double stretch = dist(joint(*w, ca, 1), joint(*w, cb, 1)) - 0.2;
  std::printf("compliant link: stretch %.5f m, static equilibrium %.5f m\n", stretch, expected);
  EXPECT_NEAR(stretch, expected, 0.05 * expected);
  // the hard cap: at stretch 0.1 the link stops at rest * 1.1 instead
  ChainLinksParams p = d.params;
  p.stretch = 0.1f;
  ASSERT_OK(w->setChainLinksParams(l, p));
  for (int f = 0; f < 120; ++f) ASSERT_OK(w->step(1.0 / 60));
  EXPECT_LE(dist(joint(*w, ca, 1), joint(*w, cb, 1)), 0.2f * 1.1f + 1e-4f);
}

TEST(ChainLinks, LoopClosesTheRingAndDiagonalsAddShearLinks) {
  auto w = scenes::makeWorld();
  std::vector<ChainId> ids(4);
  for (int k = 0; k < 4; ++k) ASSERT_OK(w->addChain(hangingAt(0.2f * k, 5), &ids[k]));
  ChainLinksDef d;
  d.chains = ids;
  ChainLinksId l;
  ASSERT_OK(w->addChainLinks(d, &l));
  int n = 0;
  ASSERT_OK(w->chainLinksCount(l, &n));
  EXPECT_EQ(n, 3 * 4);  // 3 neighbour pairs x joints 1..4
  ChainLinksParams p = d.params;
  p.loop = true;
  ASSERT_OK(w->setChainLinksParams(l, p));
  ASSERT_OK(w->chainLinksCount(l, &n));
  EXPECT_EQ(n, 4 * 4);
  std::vector<int32_t> pairs;
  std::vector<float> rest;
  ASSERT_OK(w->chainLinksPairs(l, &pairs));
  ASSERT_OK(w->chainLinksRestLengths(l, &rest));
  bool closing = false;
  for (int i = 0; i < n; ++i)
    if (pairs[4 * i] == 3 && pairs[4 * i + 2] == 0) {
      closing = true;
      EXPECT_NEAR(rest[i], 0.6f, 1e-5f);  // chain 3 at x = 0.6 to chain 0 at x = 0
    }
  EXPECT_TRUE(closing);
  p.diagonals = true;
  ASSERT_OK(w->setChainLinksParams(l, p));
  ASSERT_OK(w->chainLinksCount(l, &n));
  EXPECT_EQ(n, 4 * (4 + 2 * 3));
  p.fromJoint = 3;
  ASSERT_OK(w->setChainLinksParams(l, p));
  ASSERT_OK(w->chainLinksCount(l, &n));
  EXPECT_EQ(n, 4 * (2 + 2 * 1));
}

// Two chains pushed sideways in their own plane: with straight links they swing together as a
// parallelogram; diagonals from joint 0 make each row a triangle and hold them.
TEST(ChainLinks, DiagonalsResistShear) {
  float swing[2];
  for (bool diagonals : {false, true}) {
    auto w = scenes::makeWorld();
    ChainDef a = hangingAt(0, 5), b = hangingAt(0.2f, 5);
    a.params.stiffness = b.params.stiffness = 0;
    a.params.externalForce = b.params.externalForce = {5, 0, 0};
    ChainId ca, cb;
    ASSERT_OK(w->addChain(a, &ca));
    ASSERT_OK(w->addChain(b, &cb));
    ChainLinksDef d;
    d.chains = {ca, cb};
    d.params.fromJoint = 0;
    d.params.diagonals = diagonals;
    ChainLinksId l;
    ASSERT_OK(w->addChainLinks(d, &l));
    for (int f = 0; f < 300; ++f) ASSERT_OK(w->step(1.0 / 60));
    swing[diagonals] = joint(*w, cb, 4).x - 0.2f;
  }
  std::printf("sideways tip displacement: straight links %.4f m, with diagonals %.4f m\n", swing[0], swing[1]);
  EXPECT_GT(swing[0], 0.1f);
  EXPECT_LT(std::fabs(swing[1]), 0.25f * swing[0]);
}

TEST(ChainLinks, RemovingTheLinksLeavesChainsThatRunAsIfNeverLinked) {
  auto run = [](bool linkThenRemove) {
    scenes::CharacterOptions o;
    o.linked = false;
    o.dressed = false;
    scenes::Character c = scenes::makeCharacter(o);
    if (linkThenRemove) {
      ChainLinksDef d;
      d.chains = c.skirt;
      ChainLinksId l;
      EXPECT_TRUE(c.world->addChainLinks(d, &l).ok());
      EXPECT_TRUE(c.world->removeChainLinks(l).ok());
      EXPECT_FALSE(c.world->removeChainLinks(l).ok());  // stale now
    }
    for (int f = 0; f < 120; ++f) {
      scenes::poseCharacter(c, (f + 1) / 60.0, false);
      c.world->step(1.0 / 60);
    }
    std::vector<float> out;
    for (ChainId id : c.skirt) {
      const float* p = c.world->chainPositions(id);
      out.insert(out.end(), p, p + 3 * joints(*c.world, id));
    }
    return out;
  };
  EXPECT_EQ(run(true), run(false));  // bit for bit
}

TEST(ChainLinks, RemovingALinkedChainDropsItsLinks) {
  auto w = scenes::makeWorld();
  std::vector<ChainId> ids(3);
  for (int k = 0; k < 3; ++k) ASSERT_OK(w->addChain(hangingAt(0.2f * k, 5), &ids[k]));
  ChainLinksDef d;
  d.chains = ids;
  d.params.loop = true;
  ChainLinksId l;
  ASSERT_OK(w->addChainLinks(d, &l));
  int n = 0;
  ASSERT_OK(w->chainLinksCount(l, &n));
  EXPECT_EQ(n, 3 * 4);
  ASSERT_OK(w->removeChain(ids[1]));
  ASSERT_OK(w->chainLinksCount(l, &n));
  EXPECT_EQ(n, 4);  // only 2 - 0 (the loop's pair) is left
  std::vector<int32_t> pairs;
  ASSERT_OK(w->chainLinksPairs(l, &pairs));
  for (int i = 0; i < n; ++i) EXPECT_TRUE(pairs[4 * i] != 1 && pairs[4 * i + 2] != 1);
  for (int f = 0; f < 30; ++f) ASSERT_OK(w->step(1.0 / 60));
  // the chain can be linked again in a new set after its old set is gone
  ASSERT_OK(w->removeChainLinks(l));
  d.chains = {ids[0], ids[2]};
  ASSERT_OK(w->addChainLinks(d, &l));
}

TEST(ChainLinks, BadInputIsAnErrorAndChangesNothing) {
  auto w = scenes::makeWorld();
  std::vector<ChainId> ids(3);
  for (int k = 0; k < 3; ++k) ASSERT_OK(w->addChain(hangingAt(0.2f * k, 5), &ids[k]));
  ChainDef vrm = hangingAt(1, 5);
  vrm.params.mode = ChainMode::Vrm;
  vrm.params.damping = 0.4f;  // VRM's dragForce, a fraction
  ChainId v;
  ASSERT_OK(w->addChain(vrm, &v));
  ChainId stale;
  ASSERT_OK(w->addChain(hangingAt(2, 3), &stale));
  ASSERT_OK(w->removeChain(stale));
  const uint64_t before = w->stateHash();
  auto expectError = [&](ChainLinksDef d, const char* needle) {
    ChainLinksId l;
    const Status s = w->addChainLinks(d, &l);
    EXPECT_FALSE(s.ok()) << needle;
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message;
    EXPECT_EQ(w->stateHash(), before);
  };
  ChainLinksDef d;
  d.chains = {ids[0]};
  expectError(d, "at least 2 chains (got 1)");
  d.chains = {ids[0], ids[1], ids[0]};
  expectError(d, "listed twice");
  d.chains = {ids[0], v};
  expectError(d, "Vrm mode");
  d.chains = {ids[0], stale};
  expectError(d, "chains[1]");
  d.chains = {ids[0], ids[1]};
  d.params.compliance = std::nanf("");
  expectError(d, "ChainLinksParams.compliance must be a finite number (got nan)");
  d.params.compliance = -1;
  expectError(d, "ChainLinksParams.compliance must be in [0, 1000000] (got -1)");
  d.params.compliance = 0;
  d.params.fromJoint = 5;
  expectError(d, "ChainLinksParams.fromJoint must be in [0, 4]");
  d.params.fromJoint = 1;
  ChainLinksId l;
  ASSERT_OK(w->addChainLinks(d, &l));
  d.chains = {ids[1], ids[2]};
  ChainLinksId again;
  EXPECT_NE(w->addChainLinks(d, &again).message.find("already in chain links set"), std::string::npos);
  ChainLinksParams p;
  p.stretch = -0.5f;
  EXPECT_NE(w->setChainLinksParams(l, p).message.find("ChainLinksParams.stretch"), std::string::npos);
  ChainLinksParams now;
  ASSERT_OK(w->chainLinksParams(l, &now));
  EXPECT_EQ(now.stretch, 0.1f);
}

// A character with a big cloth beside it, so that the step runs on 2 threads when asked.
uint64_t characterHash(int threads, int frames) {
  scenes::CharacterOptions o;
  o.threads = threads;
  scenes::Character c = scenes::makeCharacter(o);
  ClothDef cloth;
  cloth.grid = {2, 2, 43, 43, {{5, 3, 0}, {}}};  // 1,936 particles: with the character's, past 2,048
  cloth.pinned = {0, 43};
  ClothId id;
  c.world->addCloth(cloth, &id);
  for (int f = 0; f < frames; ++f) {
    scenes::poseCharacter(c, (f + 1) / 60.0, false);
    c.world->step(1.0 / 60);
  }
  EXPECT_EQ(c.world->stats().threads, threads);
  return c.world->stateHash();
}

TEST(ChainLinks, SameHashOnOneAndTwoThreads) { EXPECT_EQ(characterHash(1, 60), characterHash(2, 60)); }

TEST(ChainLinks, SnapshotRoundTripContinuesBitIdentically) {
  scenes::CharacterOptions o;
  scenes::Character c = scenes::makeCharacter(o);
  for (int f = 0; f < 60; ++f) {
    scenes::poseCharacter(c, (f + 1) / 60.0, false);
    ASSERT_OK(c.world->step(1.0 / 60));
  }
  std::vector<uint8_t> bytes;
  std::string json;
  ASSERT_OK(c.world->saveSnapshot(&bytes));
  ASSERT_OK(c.world->saveSnapshotJson(&json));
  auto run = [&] {
    for (int f = 60; f < 120; ++f) {
      scenes::poseCharacter(c, (f + 1) / 60.0, false);
      if (!c.world->step(1.0 / 60).ok()) ADD_FAILURE();
    }
    return c.world->stateHash();
  };
  const uint64_t expected = run();
  // back to frame 60 from each snapshot, in the same world (its ids stay valid), and on again
  ASSERT_OK(c.world->loadSnapshot(bytes.data(), bytes.size()));
  EXPECT_EQ(run(), expected);
  ASSERT_OK(c.world->loadSnapshotJson(json));
  EXPECT_EQ(run(), expected);
  int n = 0;
  ASSERT_OK(c.world->chainLinksCount(c.skirtLinks, &n));
  EXPECT_EQ(n, 14 * 5);
  // a world with links hashes its links: removing them (after a restore) changes the hash
  ASSERT_OK(c.world->loadSnapshot(bytes.data(), bytes.size()));
  const uint64_t withLinks = c.world->stateHash();
  ASSERT_OK(c.world->removeChainLinks(c.capeLinks));
  EXPECT_NE(c.world->stateHash(), withLinks);
}

}  // namespace
}  // namespace wisp::test
