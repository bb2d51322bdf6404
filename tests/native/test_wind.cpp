// Wind acts through air drag; turbulence is smooth and seeded.
#include "forces/wind_field.h"
#include "helpers.h"
#include "math/vec3.h"

namespace wisp::test {
namespace {

TEST(Wind, ParticleApproachesWindSpeedExponentially) {
  WorldSettings s;
  s.gravity = {0, 0, 0};
  s.wind.direction = {0, 0, 2};  // normalised internally
  s.wind.speed = 5;
  auto w = scenes::makeWorld(s);
  RopeDef d = scenes::straightRope({0, 0, 0}, 1, 0.1f);
  d.params.damping = 0;
  d.params.drag = 1.0f;  // 1/s
  RopeId r;
  ASSERT_OK(w->addRope(d, &r));
  for (int f = 0; f < 60; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  // dv/dt = c (W - v): v(1 s) = W (1 - e^-1)
  double expected = 5.0 * (1.0 - std::exp(-1.0));
  EXPECT_NEAR(vel(*w, r, 0).z, expected, 0.005 * expected);
  EXPECT_NEAR(vel(*w, r, 0).x, 0.0, 1e-6);
  for (int f = 0; f < 600; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_NEAR(vel(*w, r, 1).z, 5.0, 1e-3);  // terminal velocity = air velocity
}

TEST(Wind, DragWithGravityGivesTerminalVelocity) {
  auto w = scenes::makeWorld();
  RopeDef d = scenes::straightRope({0, 0, 0}, 1, 0.1f);
  d.params.damping = 0;
  d.params.drag = 2.0f;
  RopeId r;
  ASSERT_OK(w->addRope(d, &r));
  for (int f = 0; f < 600; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  EXPECT_NEAR(vel(*w, r, 0).y, -9.81 / 2.0, 1e-3);  // v = g / c
}

uint64_t windRun(uint32_t seed, float turbulence) {
  WorldSettings s;
  s.wind = {{1, 0, 0}, 6, turbulence, 1.0f, seed};
  auto w = scenes::makeWorld(s);
  RopeDef d = scenes::straightRope({0, 1, 0}, 20, 0.05f);
  d.pinned = {0};
  RopeId r;
  w->addRope(d, &r);
  for (int f = 0; f < 120; ++f) w->step(1.0 / 60.0);
  return w->stateHash();
}

TEST(Wind, TurbulenceIsDeterministicPerSeed) {
  EXPECT_EQ(windRun(3, 0.5f), windRun(3, 0.5f));
  EXPECT_NE(windRun(3, 0.5f), windRun(4, 0.5f));
  EXPECT_NE(windRun(3, 0.5f), windRun(3, 0.0f));
  EXPECT_EQ(windRun(3, 0.0f), windRun(4, 0.0f));  // the seed only matters for turbulence
}

TEST(Wind, TurbulenceIsBoundedAndVaries) {
  WindField f = makeWindField({{1, 0, 0}, 4, 0.5f, 1.0f, 9});
  double sum = 0, sumSq = 0;
  float maxDev = 0;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    Vec3 air = airVelocity(f, {0.173f * i, 0.05f * (i % 13), 0.11f * (i % 7)}, 0.01f * i);
    float dev = length(air - Vec3{4, 0, 0});
    maxDev = std::max(maxDev, dev);
    sum += air.x;
    sumSq += (air.x - 4.0) * (air.x - 4.0);
  }
  EXPECT_LE(maxDev, 2.0f * std::sqrt(3.0f) + 1e-4f);  // gust amplitude = speed * turbulence per axis
  EXPECT_GT(std::sqrt(sumSq / n), 0.1) << "turbulence should vary";
  EXPECT_NEAR(sum / n, 4.0, 0.3);  // zero-mean gusts
}

}  // namespace
}  // namespace wisp::test
