// Render interpolation (wisp/interpolate.h): the outputs shown between the last two fixed steps.
#include <cstring>

#include "helpers.h"
#include "wisp/interpolate.h"

namespace wisp::test {
namespace {

constexpr double kFixed = 1.0 / 60.0;
constexpr double kDisplay = 1.0 / 144.0;

// A rope pinned at one end, starting horizontal: it swings down, so its tip moves every step.
struct Swing {
  std::unique_ptr<World> world;
  RopeId rope;
  ClothId cloth;
  ChainId chain;
};

Swing makeSwing() {
  Swing s;
  s.world = scenes::makeWorld();
  RopeDef r;
  r.start = {0, 2, 0};
  r.end = {1, 2, 0};
  r.segments = 8;
  r.pinned = {0};
  EXPECT_TRUE(s.world->addRope(r, &s.rope).ok());
  ClothDef c;
  c.grid = {0.5f, 0.5f, 4, 4, {{0, 2, 1}, {}}};
  c.pinned = {0};
  EXPECT_TRUE(s.world->addCloth(c, &s.cloth).ok());
  ChainDef ch;
  ch.points = {{0, 2, 2}, {0.2f, 2, 2}, {0.4f, 2, 2}};
  EXPECT_TRUE(s.world->addChain(ch, &s.chain).ok());
  return s;
}

// One object's output as the caller keeps it: the outputs after the previous and the current
// fixed step, shifted when a step call ran fixed steps.
struct Kept {
  std::vector<float> prev, cur, shown;
  void start(const float* p, size_t n) {
    cur.assign(p, p + n);
    prev = cur;
    shown = cur;
  }
  void shift(const float* p) {
    prev = cur;
    std::memcpy(cur.data(), p, cur.size() * sizeof(float));
  }
  bool shownIs(const std::vector<float>& v) const { return std::memcmp(shown.data(), v.data(), v.size() * 4) == 0; }
};

TEST(Interpolate, AlphaZeroAndOneAreTheFixedStepOutputsBitForBit) {
  Swing s = makeSwing();
  World& w = *s.world;
  const int nr = count(w, s.rope), nj = joints(w, s.chain);
  int nc = 0;
  ASSERT_OK(w.clothParticleCount(s.cloth, &nc));
  Kept rope, clothP, clothN, chainP, chainR;
  rope.start(w.ropePositions(s.rope), 3 * nr);
  clothP.start(w.clothPositions(s.cloth), 3 * nc);
  clothN.start(w.clothNormals(s.cloth), 3 * nc);
  chainP.start(w.chainPositions(s.chain), 3 * nj);
  chainR.start(w.chainRotations(s.chain), 4 * nj);
  int checked = 0;
  for (int f = 0; f < 144; ++f) {
    ASSERT_OK(w.setChainRoot(s.chain, {{0.3f * std::sin(0.05f * f), 2, 2}, {}}));
    StepReport rep;
    ASSERT_OK(w.step(kDisplay, &rep));
    if (rep.fixedSteps == 0) continue;
    rope.shift(w.ropePositions(s.rope));
    clothP.shift(w.clothPositions(s.cloth));
    clothN.shift(w.clothNormals(s.cloth));
    chainP.shift(w.chainPositions(s.chain));
    chainR.shift(w.chainRotations(s.chain));
    for (float a : {0.0f, 1.0f}) {
      interpolatePositions(rope.prev.data(), rope.cur.data(), nr, a, rope.shown.data());
      interpolatePositions(clothP.prev.data(), clothP.cur.data(), nc, a, clothP.shown.data());
      interpolateNormals(clothN.prev.data(), clothN.cur.data(), nc, a, clothN.shown.data());
      interpolatePositions(chainP.prev.data(), chainP.cur.data(), nj, a, chainP.shown.data());
      interpolateRotations(chainR.prev.data(), chainR.cur.data(), nj, a, chainR.shown.data());
      for (const Kept* k : {&rope, &clothP, &clothN, &chainP, &chainR})
        EXPECT_TRUE(k->shownIs(a == 0 ? k->prev : k->cur)) << "frame " << f << " alpha " << a;
    }
    // and the two differ: the check above tells prev from cur
    EXPECT_NE(std::memcmp(rope.prev.data(), rope.cur.data(), rope.cur.size() * 4), 0);
    ++checked;
  }
  EXPECT_EQ(checked, 60);  // 144 display frames of 1/144 s are 60 fixed steps
}

TEST(Interpolate, InBetweenNormalsAndRotationsStayUnit) {
  Swing s = makeSwing();
  World& w = *s.world;
  int nc = 0;
  ASSERT_OK(w.clothParticleCount(s.cloth, &nc));
  const int nj = joints(w, s.chain);
  Kept n, q;
  n.start(w.clothNormals(s.cloth), 3 * nc);
  q.start(w.chainRotations(s.chain), 4 * nj);
  for (int f = 0; f < 40; ++f) {
    ASSERT_OK(w.setChainRoot(s.chain, {{0.5f * std::sin(0.2f * f), 2, 2}, {}}));
    ASSERT_OK(w.step(kFixed));
    n.shift(w.clothNormals(s.cloth));
    q.shift(w.chainRotations(s.chain));
    // q and -q are one rotation: nlerp takes the short way, so a sign flip of cur does not
    // swing the shown rotation through a half turn
    std::vector<float> flipped = q.cur;
    for (float& v : flipped) v = -v;
    for (float a : {0.25f, 0.5f, 0.75f}) {
      interpolateNormals(n.prev.data(), n.cur.data(), nc, a, n.shown.data());
      for (int i = 0; i < nc; ++i)
        EXPECT_NEAR(length(Vec3{n.shown[3 * i], n.shown[3 * i + 1], n.shown[3 * i + 2]}), 1.0f, 1e-6f);
      interpolateRotations(q.prev.data(), q.cur.data(), nj, a, q.shown.data());
      std::vector<float> viaFlip(q.shown.size());
      interpolateRotations(q.prev.data(), flipped.data(), nj, a, viaFlip.data());
      for (int j = 0; j < nj; ++j) {
        const float* r = &q.shown[4 * j];
        EXPECT_NEAR(std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]), 1.0f, 1e-6f);
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(viaFlip[4 * j + k], r[k], 1e-6f);
      }
    }
  }
}

TEST(Interpolate, RenderAlphaIsTheLeftoverFractionOfTheSpan) {
  EXPECT_EQ(renderAlpha(0.0, kFixed, 1), 0.0f);
  EXPECT_FLOAT_EQ(renderAlpha(kFixed / 4, kFixed, 1), 0.25f);
  // two fixed steps in one call: prev is two steps back, the display one step back
  EXPECT_FLOAT_EQ(renderAlpha(0.0, kFixed, 2), 0.5f);
  EXPECT_FLOAT_EQ(renderAlpha(kFixed / 2, kFixed, 2), 0.75f);
}

// A 144 Hz display over a 60 Hz step: without interpolation the tip shows the same place in more
// than half the frames; with it, it moves every frame, and it is where the straight line between
// the fixed-step outputs puts it one fixed step before the frame's time (an independent record
// of every fixed step's tip).
TEST(Interpolate, DisplayAt144HzMovesEveryFrameOverA60HzStep) {
  Swing s = makeSwing();
  World& w = *s.world;
  const int nr = count(w, s.rope), tip = nr - 1;
  Kept rope;
  rope.start(w.ropePositions(s.rope), 3 * nr);
  std::vector<Vec3> stepTips{pos(w, s.rope, tip)};  // the tip after fixed step k (k = 0: start)
  Vec3 lastShown = stepTips[0], lastRaw = stepTips[0];
  int span = 1, repeatedRaw = 0, frames = 0;
  double frameEnd = 0;
  for (int f = 0; f < 144; ++f) {
    StepReport rep;
    ASSERT_OK(w.step(kDisplay, &rep));
    frameEnd += kDisplay;
    for (int k = 0; k < rep.fixedSteps; ++k) stepTips.push_back(pos(w, s.rope, tip));  // one step a call here
    if (rep.fixedSteps > 0) {
      rope.shift(w.ropePositions(s.rope));
      span = rep.fixedSteps;
    }
    const float alpha = renderAlpha(rep.leftover, kFixed, span);
    interpolatePositions(rope.prev.data(), rope.cur.data(), nr, alpha, rope.shown.data());
    const Vec3 shown{rope.shown[3 * tip], rope.shown[3 * tip + 1], rope.shown[3 * tip + 2]};
    const Vec3 raw = pos(w, s.rope, tip);
    if (stepTips.size() < 3) continue;  // the display starts one fixed step behind
    ++frames;
    if (dist(raw, lastRaw) == 0.0f) ++repeatedRaw;
    EXPECT_GT(dist(shown, lastShown), 1e-5f) << "frame " << f << ": the shown tip stayed put";
    // the independent oracle: display time = frame end - one fixed step
    const double t = (frameEnd - kFixed) / kFixed;
    const size_t k = static_cast<size_t>(std::floor(t + 1e-9));
    ASSERT_LT(k + 1, stepTips.size() + 1);
    const float frac = static_cast<float>(t - static_cast<double>(k));
    const Vec3 expected = k + 1 < stepTips.size() ? lerp(stepTips[k], stepTips[k + 1], frac) : stepTips[k];
    EXPECT_LT(dist(shown, expected), 1e-5f) << "frame " << f;
    lastShown = shown;
    lastRaw = raw;
  }
  EXPECT_GT(repeatedRaw, frames / 2);  // what the display shows without interpolation
}

}  // namespace
}  // namespace wisp::test
