// Cloth under game conditions: a cape whipped by its top edge.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "helpers.h"

namespace wisp::test {
namespace {

constexpr int kQuads = 16;  // a 1 m x 1 m cape of 16 x 16 quads: edges of 6.25 cm
constexpr int kSide = kQuads + 1;

// Worst (length - rest) / rest over the row and column edges, rest from the grid spacing.
float worstEdgeStretch(const World& w, ClothId c) {
  const float rest = 1.0f / kQuads;
  auto at = [&](int i) {
    ParticleState p;
    w.particle(c, i, &p);
    return p.position;
  };
  float worst = 0;
  for (int r = 0; r < kSide; ++r)
    for (int k = 0; k < kSide; ++k) {
      const Vec3 p = at(r * kSide + k);
      if (k + 1 < kSide) worst = std::max(worst, (dist(p, at(r * kSide + k + 1)) - rest) / rest);
      if (r + 1 < kSide) worst = std::max(worst, (dist(p, at((r + 1) * kSide + k)) - rest) / rest);
    }
  return worst;
}

struct Whip {
  float worst = 0;        // worst edge stretch after any step
  int maxSubsteps = 0;    // most substeps a step ran
  int stillSubsteps = 0;  // substeps of the first step, before the anchors move
};

// The cape hangs in the XY plane from anchors on its top row, which move at `speed` m/s along
// `dir` (z: across its face, x: along its width), turning every 0.25 s, for 3 s at 60 Hz.
Whip whipCape(const WorldSettings& s, Vec3 dir, double speed = 20.0, const ClothParams& params = {}) {
  Whip out;
  std::unique_ptr<World> w;
  EXPECT_TRUE((World::create(s, &w)).ok());
  ClothDef d;
  d.grid.transform.position = {-0.5f, 2.0f, 0};
  d.params = params;
  ClothId c;
  EXPECT_TRUE((w->addCloth(d, &c)).ok());
  std::vector<AnchorId> anchors;
  for (int i = 0; i < kSide; ++i) {
    AnchorId a;
    EXPECT_TRUE((w->addAnchor({-0.5f + float(i) / kQuads, 2.0f, 0}, &a)).ok());
    EXPECT_TRUE((w->pin(c, i, a)).ok());
    anchors.push_back(a);
  }
  const double frame = 1.0 / 60.0, halfPeriod = 0.25;
  for (int f = 0; f <= 180; ++f) {
    const double u = std::fmod(f * frame, 2 * halfPeriod) / halfPeriod;  // 0..2
    const float x = static_cast<float>(speed * halfPeriod * (u < 1 ? u : 2 - u));
    for (int i = 0; i < kSide; ++i)
      EXPECT_TRUE((w->setAnchorPosition(anchors[i], Vec3{-0.5f + float(i) / kQuads, 2.0f, 0} + dir * x)).ok());
    EXPECT_TRUE((w->step(frame)).ok());
    ClothStats st;
    w->clothStats(c, &st);
    if (f == 0) out.stillSubsteps = st.substeps;
    out.maxSubsteps = std::max(out.maxSubsteps, st.substeps);
    out.worst = std::max(out.worst, worstEdgeStretch(*w, c));
  }
  return out;
}

// Whipped at 20 m/s, across the cape's face and along its width, with every setting at its
// default: no row or column edge is ever more than 10 % longer than its rest length at the end of
// a step. The anchors move 4.2 cm (two thirds of an edge) per default substep; the cloth runs
// 8 x that many substeps in those frames and its default 8 while it hangs still.
TEST(RobustCloth, WhippedAt20MetresPerSecondStretchesUnderTenPercent) {
  for (Vec3 dir : {Vec3{0, 0, 1}, Vec3{1, 0, 0}}) {
    const Whip r = whipCape({}, dir);
    std::printf("whipped cape along (%g, %g, %g): worst edge stretch %.4f, up to %d substeps\n", dir.x, dir.y, dir.z,
                r.worst, r.maxSubsteps);
    EXPECT_LT(r.worst, 0.10f) << "along (" << dir.x << ", " << dir.y << ", " << dir.z << ")";
    EXPECT_EQ(r.stillSubsteps, WorldSettings{}.substeps) << "a cape hanging still runs the default substeps";
    EXPECT_EQ(r.maxSubsteps, 64);
    // the peer: the same cape at the world's 8 substeps throughout (fast pins off) tears
    ClothParams off;
    off.maxSubsteps = WorldSettings{}.substeps;
    const Whip o = whipCape({}, dir, 20.0, off);
    std::printf("  at 8 substeps throughout: %.4f\n", o.worst);
    EXPECT_EQ(o.maxSubsteps, 8);
    EXPECT_GT(o.worst, 0.2f);
  }
}

// maxSubsteps out of range is an error naming it and changes nothing.
TEST(RobustCloth, MaxSubstepsIsValidated) {
  expectMaxSubstepsValidated(&World::addCloth, &World::clothParams, &World::setClothParams, "ClothParams.maxSubsteps");
}

}  // namespace
}  // namespace wisp::test
