// The cloth's edge kernel (solveEdgeList in constraints/distance.h: whole loads along the
// regular runs found by edgeRuns, gathers elsewhere, multipliers started at 0 without a pass of
// their own) gives exactly the bits of solveDistance applied edge after edge, on a grid (mostly
// runs) and on a mesh whose particles are shuffled (mostly gathers), cut into parts anywhere
// inside a colour, with pinned pairs and coincident ends among the edges.
#include <cstring>
#include <utility>

#include "builders/cloth_builder.h"
#include "constraints/distance.h"
#include "helpers.h"

namespace wisp::test {
namespace {

uint32_t nextRandom(uint32_t& s) {
  s = s * 1664525u + 1013904223u;
  return s >> 8;
}
float unit(uint32_t& s) { return static_cast<float>(nextRandom(s) & 0xFFFF) / 65535.0f; }

// Moves every particle off its rest place, pins a few (some edges then have both ends pinned),
// and puts a few pairs of particles on the same point (edges of zero length are skipped).
void disturb(ClothState& c, uint32_t seed) {
  uint32_t s = seed;
  const int n = c.count();
  for (int i = 0; i < n; ++i) {
    c.px[i] += 0.05f * (unit(s) - 0.5f);
    c.py[i] += 0.05f * (unit(s) - 0.5f);
    c.pz[i] += 0.05f * (unit(s) - 0.5f);
    if (nextRandom(s) % 7 == 0) c.invMass[i] = 0.0f;
  }
  for (const EdgeSet* set : {&c.stretch, &c.shear})
    for (int e = 5; e < set->size(); e += 37) {
      const int a = set->a[e], b = set->b[e];
      c.px[b] = c.px[a]; c.py[b] = c.py[a]; c.pz[b] = c.pz[a];
    }
}

// Multipliers of earlier iterations, for the runs that read them.
void fillLambda(EdgeSet& set, uint32_t seed) {
  uint32_t s = seed;
  for (float& l : set.lambda) l = 0.01f * (unit(s) - 0.5f);
}

bool sameBits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

// Each colour of `set` by the kernel in parts cut at `cut` (a fraction of the colour, as a
// thread's part) against edge after edge by solveDistance, once with fresh multipliers and once
// reading them; positions and multipliers must match bit for bit.
void expectKernelMatchesScalar(const ClothState& built, bool stretch, float cut, uint32_t seed) {
  ClothState kernel = built;
  disturb(kernel, seed);
  EdgeSet& ks = stretch ? kernel.stretch : kernel.shear;
  ASSERT_EQ(ks.runs.size(), ks.a.size());
  // fresh multipliers with a compliance too: the fresh kernel leaves out alpha * lambda
  for (auto [fresh, alpha] : {std::pair{true, 0.0f}, std::pair{true, 3e-4f}, std::pair{false, 3e-4f}}) {
    fillLambda(ks, seed + 1);
    ClothState scalar = kernel;
    EdgeSet& ss = stretch ? scalar.stretch : scalar.shear;
    for (int col = 0; col < ks.colours(); ++col) {
      const int b = ks.colourStart[col], e = ks.colourStart[col + 1];
      const int mid = b + static_cast<int>(static_cast<float>(e - b) * cut);
      solveEdgeList(kernel, ks.a.data(), ks.b.data(), ks.runs.data(), ks.rest.data(), ks.lambda.data(), b, mid, alpha, fresh);
      solveEdgeList(kernel, ks.a.data(), ks.b.data(), ks.runs.data(), ks.rest.data(), ks.lambda.data(), mid, e, alpha, fresh);
      for (int k = b; k < e; ++k) {
        if (fresh) ss.lambda[k] = 0.0f;
        solveDistance(scalar, ss.a[k], ss.b[k], ss.rest[k], alpha, ss.lambda[k]);
      }
    }
    EXPECT_TRUE(sameBits(kernel.px, scalar.px)) << "x, fresh " << fresh << ", cut " << cut;
    EXPECT_TRUE(sameBits(kernel.py, scalar.py)) << "y, fresh " << fresh << ", cut " << cut;
    EXPECT_TRUE(sameBits(kernel.pz, scalar.pz)) << "z, fresh " << fresh << ", cut " << cut;
    EXPECT_TRUE(sameBits(ks.lambda, ss.lambda)) << "multipliers, fresh " << fresh << ", cut " << cut;
  }
}

// Edges of `set` inside regular runs (r > 0 or r < 0 at the start of a quad).
int edgesInRuns(const EdgeSet& set) {
  int inRuns = 0;
  for (int k = 0; k + 4 <= set.size();) {
    const int r = set.runs[k];
    const int quads = r > 0 ? r : -r;
    inRuns += 4 * quads;
    k += quads > 0 ? 4 * quads : 1;
  }
  return inRuns;
}

TEST(ClothKernel, GridEdgesMatchTheScalarSolverBitForBit) {
  ClothDef d;
  d.grid = {1.3f, 0.9f, 13, 9, {{0, 2, 0}, {}}};
  ClothState c;
  ASSERT_TRUE(buildCloth(d, &c).ok());
  // the grid's layout is what makes runs: nearly every edge is in one
  EXPECT_GT(edgesInRuns(c.stretch), c.stretch.size() * 8 / 10);
  EXPECT_GT(edgesInRuns(c.shear), c.shear.size() * 8 / 10);
  for (float cut : {0.0f, 0.3f, 0.5f, 0.77f})
    for (bool stretch : {true, false}) expectKernelMatchesScalar(c, stretch, cut, 17u + static_cast<uint32_t>(100 * cut));
}

TEST(ClothKernel, ShuffledMeshEdgesMatchTheScalarSolverBitForBit) {
  // a 12 x 10 grid as a triangle mesh whose vertices are numbered in a scrambled order, so its
  // edges join irregular particles (gathers) except where the numbering happens to line up
  const int rx = 12, ry = 10, w = rx + 1, n = w * (ry + 1);
  std::vector<uint32_t> perm(n);
  for (int i = 0; i < n; ++i) perm[i] = static_cast<uint32_t>(i);
  uint32_t s = 5;
  for (int i = n - 1; i > n / 3; --i) std::swap(perm[i], perm[nextRandom(s) % (i + 1)]);
  ClothDef d;
  d.positions.resize(n);
  for (int j = 0; j <= ry; ++j)
    for (int i = 0; i <= rx; ++i) d.positions[perm[j * w + i]] = Vec3{0.1f * i, 2.0f - 0.1f * j, 0.01f * ((i * j) % 3)};
  for (int j = 0; j < ry; ++j)
    for (int i = 0; i < rx; ++i) {
      const uint32_t a = perm[j * w + i], b = perm[j * w + i + 1], c = perm[(j + 1) * w + i], e = perm[(j + 1) * w + i + 1];
      d.indices.insert(d.indices.end(), {a, c, e, a, e, b});
    }
  ClothState c;
  ASSERT_TRUE(buildCloth(d, &c).ok());
  ASSERT_GT(c.stretch.colours(), 2);
  EXPECT_LT(edgesInRuns(c.stretch), c.stretch.size() / 2) << "the mesh should mostly be gathered";
  for (float cut : {0.0f, 0.41f, 0.5f}) expectKernelMatchesScalar(c, true, cut, 29u + static_cast<uint32_t>(100 * cut));
}

// The runs say exactly what the indices hold: every quad a run starts at is regular, and no
// run reaches past the list.
TEST(ClothKernel, RunsDescribeTheIndices) {
  const int32_t a[] = {0,   1,   2,   3,   4,   5,   6,   7,   20,  22,  24,  26,  28,  30,  32,  34,  9,   3,  5,
                       1,   50,  51,  100, 101, 102, 103, 110, 111, 112, 113, 300, 301, 302, 303, 304, 305, 306, 307};
  const int32_t b[] = {8,   9,   10,  11,  12,  13,  14,  15,  21,  23,  25,  27,  29,  31,  33,  35,  0,   8,   6,
                       2,   60,  61,  200, 201, 202, 203, 204, 205, 206, 207, 400, 401, 402, 403, 500, 501, 502, 503};
  const int n = static_cast<int>(sizeof(a) / sizeof(a[0]));
  int32_t runs[n];
  edgeRuns(a, b, n, runs);
  EXPECT_EQ(runs[0], 2);   // 8 consecutive edges, b = a + 8
  EXPECT_EQ(runs[1], 1);   // from 1: edges 1..4 (then 5..8 breaks at edge 8)
  EXPECT_EQ(runs[4], 1);
  EXPECT_EQ(runs[5], 0);   // edges 5..8: edge 8 is not a + 1
  EXPECT_EQ(runs[8], -2);  // 8 alternating edges, (20, 21), (22, 23), ...
  EXPECT_EQ(runs[12], -1);
  EXPECT_EQ(runs[16], 0);
  EXPECT_EQ(runs[22], 1);  // the b ends go on, the a ends jump: two runs
  EXPECT_EQ(runs[26], 1);
  EXPECT_EQ(runs[30], 1);  // the a ends go on, the b ends jump
  EXPECT_EQ(runs[34], 1);
  for (int k = n - 3; k < n; ++k) EXPECT_EQ(runs[k], 0) << "fewer than four edges left at " << k;
}

}  // namespace
}  // namespace wisp::test
