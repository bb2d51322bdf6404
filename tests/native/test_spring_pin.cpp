// Spring pins (pin with a compliance): an XPBD attachment that pulls a particle toward its anchor
// without holding it exactly, as a mouse grab or a soft attachment wants.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "helpers.h"

namespace wisp::test {
namespace {

// A one-segment rope (two particles of 0.05 kg each) hanging from a spring pin on particle 0:
// at rest the spring carries the whole weight, so it is stretched C = α M g (XPBD: the compliance
// is a material property, not a per-iteration fraction). Within 2% from 4 substeps on (measured:
// -1.6% at 4, -0.8% at 8, -0.3% at 32); at 1 substep one Gauss-Seidel pass over the spring and the
// segment leaves it 6% short.
TEST(SpringPin, HangsComplianceTimesTheWeightAtAnySubstepCount) {
  for (int substeps : {4, 8, 32}) {
    WorldSettings s;
    s.substeps = substeps;
    std::unique_ptr<World> w;
    ASSERT_OK(World::create(s, &w));
    RopeDef d;
    d.points = {{0, 2, 0}, {0, 1.9f, 0}};
    d.massPerLength = 1.0f;  // 0.1 kg in all
    d.params.damping = 4;
    d.params.drag = 0;
    RopeId r;
    ASSERT_OK(w->addRope(d, &r));
    AnchorId a;
    ASSERT_OK(w->addAnchor({0, 2, 0}, &a));
    const float alpha = 0.02f;  // m/N
    ASSERT_OK(w->pin(r, 0, a, 0, alpha));
    for (int f = 0; f < 600; ++f) ASSERT_OK(w->step(1.0 / 60));
    ParticleState p;
    ASSERT_OK(w->particle(r, 0, &p));
    const float expected = alpha * 0.1f * 9.81f;  // 19.6 mm
    EXPECT_NEAR(2.0f - p.position.y, expected, 0.02f * expected) << substeps << " substeps";
    EXPECT_FALSE(p.pinned && p.invMass == 0) << "a spring pin keeps the particle's mass";
  }
}

// A flag (pinned along its left edge) grabbed at its free corner and dragged 1 m further out at
// 3 m/s: a hard pin takes the corner wherever the mouse goes and stretches its edges 20-fold; a
// spring pin soft against the cloth (it moves the particle 1/21 of the way per substep) pulls
// instead (measured: worst strain 1932% hard, 94% spring).
TEST(SpringPin, AGrabbedClothIsPulledNotTorn) {
  float worst[2] = {0, 0};
  for (int spring = 0; spring < 2; ++spring) {
    std::unique_ptr<World> w;
    ASSERT_OK(World::create(WorldSettings{}, &w));
    ClothDef d;
    d.grid.width = 1.5f; d.grid.height = 1; d.grid.resolutionX = 30; d.grid.resolutionY = 20;
    d.grid.transform.position = {0, 2.7f, 0};
    for (int j = 0; j <= 20; ++j) d.pinned.push_back(j * 31);
    ClothId c;
    ASSERT_OK(w->addCloth(d, &c));
    for (int f = 0; f < 60; ++f) ASSERT_OK(w->step(1.0 / 60));  // hanging
    const int grabbed = 20 * 31 + 30;  // the free bottom corner
    ParticleState p;
    ASSERT_OK(w->particle(c, grabbed, &p));
    AnchorId a;
    ASSERT_OK(w->addAnchor(p.position, &a));
    // soft against the cloth: the spring moves the particle 1/21 of the way per substep
    const float h = 1.0f / (60 * 8), alpha = 20 * p.invMass * h * h;
    ASSERT_OK(w->pin(c, grabbed, a, 0, spring ? alpha : 0));
    for (int f = 0; f < 60; ++f) {
      Vec3 to = p.position + Vec3{std::min(1.0f, 0.05f * (f + 1)), 0, 0};
      ASSERT_OK(w->setAnchorPosition(a, to));
      ASSERT_OK(w->step(1.0 / 60));
      ClothStats st;
      ASSERT_OK(w->clothStats(c, &st));
      worst[spring] = std::max(worst[spring], st.maxStrain);
    }
  }
  std::printf("worst strain: hard pin %.3f, spring pin %.3f\n", worst[0], worst[1]);
  EXPECT_GT(worst[0], 0.3f) << "a hard pin dragged 1 m past the cloth stretches it";
  EXPECT_LT(worst[1], 0.3f * worst[0]) << "the spring pulls it along (hard pin: " << worst[0] << ")";
}

TEST(SpringPin, BadSpringsAreRejectedAndChangeNothing) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create(WorldSettings{}, &w));
  RopeDef d;
  RopeId r;
  ASSERT_OK(w->addRope(d, &r));
  AnchorId a;
  ASSERT_OK(w->addAnchor({0, 0, 0}, &a));
  const uint64_t before = w->stateHash();
  EXPECT_FALSE(w->pin(r, 0, a, 0, -1).ok());
  EXPECT_FALSE(w->pin(r, 0, a, 0, std::nanf("")).ok());
  Status both = w->pin(r, 0, a, 0.1f, 0.01f);
  EXPECT_FALSE(both.ok());
  EXPECT_NE(both.message.find("not both"), std::string::npos) << both.message;
  EXPECT_EQ(w->stateHash(), before);
}

}  // namespace
}  // namespace wisp::test
