// Wind acts through air drag; turbulence is smooth and seeded.
#include "forces/wind_field.h"
#include "hash.h"
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
  // the motion, not the state hash: the settings (the seed among them) are state too
  StateHasher h;
  for (int i = 0; i < count(*w, r); ++i) {
    h.value(pos(*w, r, i));
    h.value(vel(*w, r, i));
  }
  return h.result();
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

namespace wisp::test {
namespace {

TEST(WindZones, SphereAndBoxZonesAddWindWithFalloff) {
  auto w = scenes::makeWorld();
  WindZoneDef fan;
  fan.transform.position = {0, 1, 0};
  fan.radius = 2;
  fan.falloff = 0.25f;
  fan.wind.direction = {0, 0, 1};
  fan.wind.speed = 4;
  WindZoneId id;
  ASSERT_OK(w->addWindZone(fan, &id));
  EXPECT_NEAR(w->airVelocityAt({0, 1, 0}).z, 4.0f, 1e-6f);          // core
  EXPECT_NEAR(w->airVelocityAt({1.8f, 1, 0}).z, 4.0f * 0.4f, 1e-5f);  // (1 - 0.9) / 0.25 of it
  EXPECT_EQ(w->airVelocityAt({2.1f, 1, 0}).z, 0.0f);                  // outside
  WindZoneDef vent;
  vent.shape = WindZoneShape::Box;
  vent.transform = {{5, 0, 0}, {0, 0.7071068f, 0, 0.7071068f}};  // turned 90 degrees about Y
  vent.halfExtents = {1, 1, 0.5f};
  vent.falloff = 0;
  vent.wind.direction = {0, 1, 0};
  vent.wind.speed = 2;
  WindZoneId v;
  ASSERT_OK(w->addWindZone(vent, &v));
  EXPECT_EQ(w->airVelocityAt({5, 0, 0.9f}).y, 2.0f);   // local x is world -z: inside
  EXPECT_EQ(w->airVelocityAt({5.9f, 0, 0}).y, 0.0f);   // local z is world x: outside (0.9 > 0.5)
  // zones add to the global wind
  WindSettings global;
  global.direction = {1, 0, 0};
  global.speed = 3;
  ASSERT_OK(w->setWind(global));
  Vec3 a = w->airVelocityAt({0, 1, 0});
  EXPECT_NEAR(a.x, 3.0f, 1e-6f);
  EXPECT_NEAR(a.z, 4.0f, 1e-6f);
  ASSERT_OK(w->removeWindZone(id));
  EXPECT_EQ(w->airVelocityAt({0, 1, 0}).z, 0.0f);
  EXPECT_EQ(w->removeWindZone(id).code, StatusCode::InvalidHandle);
}

TEST(WindZones, OnlyWhatIsInsideIsBlown) {
  auto w = scenes::makeWorld();
  ClothDef d;
  d.grid = {0.5f, 0.5f, 6, 6, {{-3, 2, 0}, {}}};
  for (int i = 0; i <= 6; ++i) d.pinned.push_back(i);
  ClothId inside, outside;
  ASSERT_OK(w->addCloth(d, &inside));
  d.grid.transform.position = {3, 2, 0};
  ASSERT_OK(w->addCloth(d, &outside));
  RopeDef r = scenes::straightRope({-3, 3, 0.5f}, 8, 0.05f);
  r.pinned = {0};
  RopeId rope;
  ASSERT_OK(w->addRope(r, &rope));
  WindZoneDef zone;
  zone.transform.position = {-3, 2, 0};
  zone.radius = 1.5f;
  zone.wind.direction = {0, 0, 1};
  zone.wind.speed = 6;
  zone.wind.turbulence = 0.3f;
  WindZoneId id;
  ASSERT_OK(w->addWindZone(zone, &id));
  for (int f = 0; f < 90; ++f) ASSERT_OK(w->step(1.0 / 60.0));
  ParticleState in, out;
  ASSERT_OK(w->particle(inside, 6 * 7 + 3, &in));
  ASSERT_OK(w->particle(outside, 6 * 7 + 3, &out));
  EXPECT_GT(in.position.z, 0.1f) << "blown downwind";
  EXPECT_NEAR(out.position.z, 0.0f, 1e-6f) << "untouched outside the zone";
  EXPECT_GT(pos(*w, rope, 8).z, 0.6f) << "ropes feel zones through drag";
}

TEST(WindZones, BadZonesAreRejected) {
  auto w = scenes::makeWorld();
  WindZoneId id;
  auto bad = [&](auto mutate, const char* needle) {
    WindZoneDef d;
    mutate(d);
    Status s = w->addWindZone(d, &id);
    EXPECT_EQ(s.code, StatusCode::InvalidArgument);
    EXPECT_NE(s.message.find(needle), std::string::npos) << s.message;
  };
  bad([](WindZoneDef& d) { d.radius = std::nanf(""); }, "radius");
  bad([](WindZoneDef& d) { d.radius = 0; }, "radius");
  bad([](WindZoneDef& d) { d.falloff = 2; }, "falloff");
  bad([](WindZoneDef& d) { d.shape = static_cast<WindZoneShape>(7); }, "shape");
  bad([](WindZoneDef& d) { d.halfExtents.y = -1; }, "halfExtents");
  bad([](WindZoneDef& d) { d.wind.speed = 1; d.wind.direction = {0, 0, 0}; }, "direction");
  bad([](WindZoneDef& d) { d.transform.position.x = INFINITY; }, "position");
  EXPECT_EQ(w->stats().particles, 0);
}

}  // namespace
}  // namespace wisp::test
