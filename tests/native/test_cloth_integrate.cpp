// The cloth's integration stage (integrateUniformAfter in forces/integrate.h): the previous
// substep's velocity update fused into one pass with this substep's integration gives exactly
// the bits of updateVelocities then integrateUniform, and a cloth that meets no collider, which
// writes the substep-start positions only in the last substep, ends every frame in the state of
// one whose collision stage runs (against a collider outside its mask), which writes them in
// every substep.
#include <cstring>

#include "forces/integrate.h"
#include "helpers.h"

namespace wisp::test {
namespace {

uint32_t nextRandom(uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}
float spread(uint32_t& s, float scale) { return scale * (static_cast<float>(nextRandom(s) & 0xFFFF) / 65535.0f - 0.5f); }

Particles randomParticles(int n, uint32_t seed) {
  Particles p;
  uint32_t s = seed;
  for (auto* a : {&p.px, &p.py, &p.pz, &p.vx, &p.vy, &p.vz, &p.ox, &p.oy, &p.oz, &p.qx, &p.qy, &p.qz}) {
    a->resize(n);
    for (float& x : *a) x = spread(s, a == &p.vx || a == &p.vy || a == &p.vz ? 4.0f : 2.0f);
  }
  return p;
}

bool sameBits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

void expectSameState(const Particles& a, const Particles& b, bool start) {
  EXPECT_TRUE(sameBits(a.px, b.px) && sameBits(a.py, b.py) && sameBits(a.pz, b.pz));
  EXPECT_TRUE(sameBits(a.vx, b.vx) && sameBits(a.vy, b.vy) && sameBits(a.vz, b.vz));
  EXPECT_TRUE(sameBits(a.qx, b.qx) && sameBits(a.qy, b.qy) && sameBits(a.qz, b.qz));
  EXPECT_EQ(sameBits(a.ox, b.ox) && sameBits(a.oy, b.oy) && sameBits(a.oz, b.oz), start);
}

TEST(ClothIntegrate, FusedPassMatchesUpdateThenIntegrateBitForBit) {
  const float h = 1.0f / 600.0f, invH = 600.0f, k = 1.0f / (1.0f + h * 0.1f);
  const Vec3 gh{0.0f, -9.81f * h, 0.01f};
  // ranges starting and ending off a multiple of 4 (a thread's part, the scalar tail)
  for (auto [b, e] : {std::pair{0, 64}, std::pair{3, 61}, std::pair{8, 9}}) {
    const Particles start = randomParticles(64, 7 + b);
    Particles ref = start, fused = start;
    updateVelocities(ref, b, e, invH);
    integrateUniform(ref, b, e, gh, k, h);
    integrateUniformAfter<true, true>(fused, b, e, invH, gh, k, h);
    expectSameState(fused, ref, true);
    // without keepStart: the same positions and velocities, o left as it was
    Particles lean = start;
    integrateUniformAfter<true, false>(lean, b, e, invH, gh, k, h);
    expectSameState(lean, ref, b == e);
    EXPECT_TRUE(sameBits(lean.ox, start.ox) && sameBits(lean.oy, start.oy) && sameBits(lean.oz, start.oz));
    // the first substep: no update before it
    Particles plain = start, first = start;
    integrateUniform(plain, b, e, gh, k, h);
    integrateUniformAfter<false, true>(first, b, e, invH, gh, k, h);
    expectSameState(first, plain, true);
  }
}

// Pinned to anchors that swing fast enough to double the substeps in some frames, with tethers,
// bending, and by variant: 0 nothing more, 1 aerodynamics in turbulent wind, 2 self-collision,
// 3 a ball with friction that the cloth hits (where Collide reads the substep-start positions).
uint64_t swungCloth(int threads, bool collide, int variant) {
  WorldSettings s;
  s.threads = threads;
  s.substeps = 4;
  if (variant == 1) s.wind = {{1, 0, 0.5f}, 5, 0.5f, 1, 3};
  auto w = scenes::makeWorld(s);
  ClothDef d;
  const int r = 32;  // 1089 particles: the parts of 2 threads
  d.grid = {1, 1, r, r, {{-0.5f, 2, 0}, {}}};
  d.params.collide = collide;
  d.params.colliderMask = 0x2;
  d.params.selfCollision = variant == 2;
  d.params.maxSubsteps = 16;
  if (variant != 1) {
    d.params.dragCoefficient = 0;
    d.params.liftCoefficient = 0;
  }
  ClothId c;
  if (!w->addCloth(d, &c).ok()) return 0;
  ColliderDef ball;  // outside the cloth's mask (Collide runs and moves nothing), or in it and hit
  ball.groups = variant == 3 ? 0x3 : 0x1;
  ball.radius = 0.3f;
  ball.friction = 0.5f;
  ball.transform.position = {0.1f, 1.5f, 0.05f};
  ColliderId b;
  w->addCollider(ball, &b);
  std::vector<AnchorId> anchors;
  for (int i = 0; i <= r; i += 4) {
    AnchorId a;
    w->addAnchor({-0.5f + float(i) / r, 2, 0}, &a);
    w->pin(c, i, a);
    anchors.push_back(a);
  }
  for (int f = 0; f < 20; ++f) {
    const float z = f % 10 < 5 ? 0.02f * float(f % 5) : 0.4f * float(f % 5);  // slow, then fast
    for (size_t i = 0; i < anchors.size(); ++i) w->setAnchorPosition(anchors[i], {-0.5f + 4.0f * i / r, 2, z});
    w->step(1.0 / 60.0);
  }
  ClothStats st;
  w->clothStats(c, &st);
  ClothParams p;
  w->clothParams(c, &p);
  p.collide = false;  // the same parameters in both runs, so their hashes compare the state
  w->setClothParams(c, p);
  // the state (with the normals) and the strain statistics, which the hash leaves out
  uint32_t strain[2];
  std::memcpy(&strain[0], &st.maxStrain, 4);
  std::memcpy(&strain[1], &st.meanStrain, 4);
  return w->stateHash() ^ (uint64_t{strain[0]} << 32 | strain[1]);
}

// What swungCloth gives with the solver of commit 0f4eecf (before the fused integration, the
// fresh-multiplier edge kernel and the four-wide strain and normal sums), on every build and
// thread count; a cloth outside its colliders' masks must end in the same state with its
// collision stage skipped (and the substep-start positions written only in the last substep).
constexpr uint64_t kBefore[4] = {0x6c330959ebcb38ddull, 0xabb9b84e8276fe7bull, 0xbb9982f9d104dfc4ull,
                                 0x6af0b4a0793d3b71ull};

TEST(ClothIntegrate, SubstepStartIsKeptWhereItIsRead) {
  for (int variant : {0, 1, 2, 3}) {
    const uint64_t reference = swungCloth(1, true, variant);
    EXPECT_EQ(reference, kBefore[variant]) << "variant " << variant;
    for (int threads : {1, 2}) {
      if (variant < 3) {
        EXPECT_EQ(swungCloth(threads, false, variant), reference) << "variant " << variant << ", " << threads << " threads";
      }
      EXPECT_EQ(swungCloth(threads, true, variant), reference) << "variant " << variant << ", " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace wisp::test
