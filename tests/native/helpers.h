// Small helpers for the GoogleTest suite.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "math/vec3.h"
#include "scenes/scenes.h"
#include "wisp/world.h"

namespace wisp::test {

#define ASSERT_OK(expr)                                   \
  do {                                                    \
    ::wisp::Status s_ = (expr);                           \
    ASSERT_TRUE(s_.ok()) << #expr << ": " << s_.message;  \
  } while (0)

inline Vec3 pos(const World& w, RopeId r, int i) {
  ParticleState p;
  w.particle(r, i, &p);
  return p.position;
}
inline Vec3 vel(const World& w, RopeId r, int i) {
  ParticleState p;
  w.particle(r, i, &p);
  return p.velocity;
}
inline int count(const World& w, RopeId r) {
  int n = 0;
  w.ropeParticleCount(r, &n);
  return n;
}
inline float dist(Vec3 a, Vec3 b) {
  float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}
// Sum of segment lengths.
inline float ropeLength(const World& w, RopeId r) {
  float L = 0;
  for (int i = 0; i + 1 < count(w, r); ++i) L += dist(pos(w, r, i), pos(w, r, i + 1));
  return L;
}
inline float restLength(const World& w, RopeId r) {
  float L = 0;
  for (int i = 0; i + 1 < count(w, r); ++i) {
    float s = 0;
    w.segmentRestLength(r, i, &s);
    L += s;
  }
  return L;
}
// Kinetic energy, J, from the builder's lumped masses (half of each adjacent segment).
inline double kineticEnergy(const World& w, RopeId r, double massPerLength) {
  int n = count(w, r);
  double e = 0;
  for (int i = 0; i < n; ++i) {
    double m = 0;
    if (i > 0) m += 0.5 * dist(pos(w, r, i - 1), pos(w, r, i)) * massPerLength;
    if (i + 1 < n) m += 0.5 * dist(pos(w, r, i), pos(w, r, i + 1)) * massPerLength;
    Vec3 v = vel(w, r, i);
    e += 0.5 * m * (double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
  }
  return e;
}
// Chains: joint j's position, the joint count (with the end tip), joint j's velocity.
inline Vec3 joint(const World& w, ChainId c, int j) {
  const float* p = w.chainPositions(c);
  return {p[3 * j], p[3 * j + 1], p[3 * j + 2]};
}
inline int joints(const World& w, ChainId c) {
  int n = 0;
  w.chainJointCount(c, &n);
  return n;
}
// m: the largest distance any joint of chain c moves in one step of 1/60 s, over `steps` steps.
inline float largestChainMotion(World& w, ChainId c, int steps = 30) {
  const int n = joints(w, c);
  std::vector<Vec3> before(n);
  float worst = 0;
  for (int f = 0; f < steps; ++f) {
    for (int j = 0; j < n; ++j) before[j] = joint(w, c, j);
    if (!w.step(1.0 / 60).ok()) return 1e30f;
    for (int j = 0; j < n; ++j) worst = std::max(worst, dist(before[j], joint(w, c, j)));
  }
  return worst;
}
template <class Id>
Vec3 velocityOf(const World& w, Id id, int i) {
  ParticleState s;
  w.particle(id, i, &s);
  return s.velocity;
}
// Params.maxSubsteps out of range (0, -1, 1025) is an error naming `field` and changes nothing,
// in set<Kind>Params and in add<Kind> alike: ropes and cloth (their fast substeps) share the rule.
template <class Def, class Id, class Params>
void expectMaxSubstepsValidated(Status (World::*add)(const Def&, Id*), Status (World::*get)(Id, Params*) const,
                                Status (World::*set)(Id, const Params&), const std::string& field) {
  std::unique_ptr<World> w;
  ASSERT_OK(World::create({}, &w));
  Def d;
  Id id;
  ASSERT_OK(((*w).*add)(d, &id));
  for (int bad : {0, -1, 1025}) {
    Params p;
    p.maxSubsteps = bad;
    const Status st = ((*w).*set)(id, p);
    EXPECT_EQ(st.code, StatusCode::InvalidArgument);
    EXPECT_NE(st.message.find(field), std::string::npos) << st.message;
    Params now;
    ASSERT_OK(((*w).*get)(id, &now));
    EXPECT_EQ(now.maxSubsteps, 64);
    d.params.maxSubsteps = bad;
    Id refused;
    EXPECT_EQ(((*w).*add)(d, &refused).code, StatusCode::InvalidArgument);
  }
  EXPECT_EQ(w->stats().ropes + w->stats().cloths, 1);
}
// Sag (m) of a hanging chain of length L between supports D apart at the same height:
// L = 2 a sinh(D / 2a), sag = a (cosh(D / 2a) - 1), a found by bisection.
inline double catenarySag(double L, double D) {
  double lo = 1e-3, hi = 1e3;
  for (int i = 0; i < 200; ++i) {
    double a = 0.5 * (lo + hi);
    if (2 * a * std::sinh(D / (2 * a)) > L) lo = a; else hi = a;
  }
  double a = 0.5 * (lo + hi);
  return a * (std::cosh(D / (2 * a)) - 1);
}
// Settings with no damping sources, for analytic comparisons.
inline RopeParams frictionless() {
  RopeParams p;
  p.damping = 0;
  p.drag = 0;
  return p;
}

}  // namespace wisp::test
