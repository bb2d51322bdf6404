// The per-object scans after a step (checks/invariants.h's allFinite, particles/fastest.h's
// fastestSpeedSq) run four particles at a time on the lanes and the rest one by one: they must
// give the one-by-one scan's answer for any count and wherever the odd value sits.
#include <cstdint>
#include <cstring>
#include <limits>

#include "checks/invariants.h"
#include "helpers.h"
#include "particles/fastest.h"

namespace wisp::test {
namespace {

Particles movingParticles(int n) {
  Particles p;
  p.resizeParticles(n);
  for (int i = 0; i < n; ++i) {
    p.px[i] = 0.1f * i;
    p.py[i] = -1e30f;  // large but finite: x - x is still 0
    p.pz[i] = 3.0f;
    p.vx[i] = 0.5f * static_cast<float>((i * 7) % 5) - 1.0f;
    p.vy[i] = 0.25f * static_cast<float>((i * 3) % 4);
    p.vz[i] = -0.125f * i;
  }
  return p;
}

// The scans as they were, one particle at a time.
bool allFiniteOneByOne(const Particles& p) {
  for (int i = 0; i < p.count(); ++i) {
    const float d = (p.px[i] - p.px[i]) + (p.py[i] - p.py[i]) + (p.pz[i] - p.pz[i]) + (p.vx[i] - p.vx[i]) +
                    (p.vy[i] - p.vy[i]) + (p.vz[i] - p.vz[i]);
    if (!(d == 0.0f)) return false;
  }
  return true;
}
float fastestOneByOne(const Particles& p) {
  float fastest = 0;
  for (int i = 0; i < p.count(); ++i) fastest = std::max(fastest, lengthSq(Vec3{p.vx[i], p.vy[i], p.vz[i]}));
  return fastest;
}
uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

TEST(ParticleScans, AllFiniteFindsANonFiniteValueInAnyFieldAtAnyIndex) {
  const float bad[3] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                        -std::numeric_limits<float>::infinity()};
  for (int n = 0; n <= 13; ++n) {
    Particles p = movingParticles(n);
    EXPECT_TRUE(allFinite(p)) << n << " particles";
    for (int i = 0; i < n; ++i)
      for (std::vector<float>* field : {&p.px, &p.py, &p.pz, &p.vx, &p.vy, &p.vz})
        for (float b : bad) {
          const float keep = (*field)[i];
          (*field)[i] = b;
          EXPECT_FALSE(allFinite(p)) << n << " particles, index " << i << ", value " << b;
          EXPECT_EQ(allFinite(p), allFiniteOneByOne(p));
          (*field)[i] = keep;
        }
  }
}

TEST(ParticleScans, FastestSpeedIsTheOneByOneScansWhereverTheFastestAndANaNAre) {
  for (int n = 0; n <= 13; ++n) {
    for (int fast = 0; fast < std::max(n, 1); ++fast) {
      Particles p = movingParticles(n);
      if (n > 0) {
        p.vy[fast] = 40.0f + fast;
        EXPECT_EQ(fastestSpeedSq(p), lengthSq(Vec3{p.vx[fast], p.vy[fast], p.vz[fast]}));
      }
      EXPECT_EQ(bitsOf(fastestSpeedSq(p)), bitsOf(fastestOneByOne(p))) << n << " particles, fastest " << fast;
      for (int nan = 0; nan < n; ++nan) {  // passed over, as std::max passes it
        const float keep = p.vx[nan];
        p.vx[nan] = std::numeric_limits<float>::quiet_NaN();
        EXPECT_EQ(bitsOf(fastestSpeedSq(p)), bitsOf(fastestOneByOne(p))) << n << " particles, NaN at " << nan;
        p.vx[nan] = keep;
      }
    }
  }
  EXPECT_EQ(bitsOf(fastestSpeedSq(Particles{})), bitsOf(0.0f));
}

}  // namespace
}  // namespace wisp::test
