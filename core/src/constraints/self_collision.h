// Cloth self-collision, particle against particle (after Mueller, "Ten Minute Physics: self
// collision", 2022). Once per step a spatial hash (counting sort into a fixed table) finds the
// pairs closer than the thickness plus how far particles can travel in the step; each substep
// then pushes every such pair apart to at least
//   d_min = min(2 * radius, |X_i - X_j|)       X = rest positions
//   C(x) = |x_i - x_j| - d_min >= 0   (m)
// so neighbours that are closer than the thickness at rest are not pushed apart. The pair list
// is built in particle order and solved serially: deterministic.
#pragma once
#include <cmath>

#include "cloth/cloth_state.h"
#include "math/vec3.h"

namespace wisp {

inline uint32_t cellHash(int32_t x, int32_t y, int32_t z, uint32_t tableSize) {
  uint32_t h = static_cast<uint32_t>(x) * 92837111u ^ static_cast<uint32_t>(y) * 689287499u ^ static_cast<uint32_t>(z) * 283923481u;
  return h % tableSize;
}

// Room for this many candidate pairs per particle is made on first use; the lists only grow
// (never shrink), so steps allocate nothing unless a step finds more pairs than ever before.
constexpr size_t kPairsPerParticle = 64;

// Candidate pairs within `reach` (m).
inline void findSelfPairs(ClothState& c, float thickness, float reach) {
  const int n = c.count();
  const uint32_t table = static_cast<uint32_t>(2 * n);
  if (c.pairA.capacity() < kPairsPerParticle * n) {
    for (auto* v : {&c.pairA, &c.pairB}) v->reserve(kPairsPerParticle * n);
    c.pairMin.reserve(kPairsPerParticle * n);
  }
  c.cellStart.assign(table + 1, 0);
  c.cellEntries.resize(n);
  const float inv = 1.0f / reach;
  auto cellOf = [&](int i, int32_t* x, int32_t* y, int32_t* z) {
    *x = floorToCell(c.px[i] * inv);
    *y = floorToCell(c.py[i] * inv);
    *z = floorToCell(c.pz[i] * inv);
  };
  for (int i = 0; i < n; ++i) {
    int32_t x, y, z;
    cellOf(i, &x, &y, &z);
    c.cellStart[cellHash(x, y, z, table) + 1]++;
  }
  for (uint32_t k = 0; k < table; ++k) c.cellStart[k + 1] += c.cellStart[k];
  // fill back to front so entries of a cell end up in increasing particle order
  for (int i = n - 1; i >= 0; --i) {
    int32_t x, y, z;
    cellOf(i, &x, &y, &z);
    c.cellEntries[--c.cellStart[cellHash(x, y, z, table) + 1]] = i;
  }
  // cellStart[k + 1] now holds the start of cell k; shift into place
  for (uint32_t k = 0; k < table; ++k) c.cellStart[k] = c.cellStart[k + 1];
  c.cellStart[table] = n;
  c.pairA.clear();
  c.pairB.clear();
  c.pairMin.clear();
  const float reach2 = reach * reach;
  for (int i = 0; i < n; ++i) {
    int32_t x, y, z;
    cellOf(i, &x, &y, &z);
    for (int32_t dz = -1; dz <= 1; ++dz)
      for (int32_t dy = -1; dy <= 1; ++dy)
        for (int32_t dx = -1; dx <= 1; ++dx) {
          uint32_t h = cellHash(x + dx, y + dy, z + dz, table);
          for (int32_t e = c.cellStart[h]; e < c.cellStart[h + 1]; ++e) {
            int j = c.cellEntries[e];
            if (j <= i) continue;  // each pair once
            float ex = c.px[i] - c.px[j], ey = c.py[i] - c.py[j], ez = c.pz[i] - c.pz[j];
            if (ex * ex + ey * ey + ez * ez > reach2) continue;
            const float* r = c.initialPositions.data();
            float rx = r[3 * i] - r[3 * j], ry = r[3 * i + 1] - r[3 * j + 1], rz = r[3 * i + 2] - r[3 * j + 2];
            float restDist = std::sqrt(rx * rx + ry * ry + rz * rz);
            c.pairA.push_back(i);
            c.pairB.push_back(j);
            c.pairMin.push_back(std::fmin(thickness, restDist));
          }
        }
  }
}

inline void solveSelfCollisions(ClothState& c) {
  const int m = static_cast<int>(c.pairA.size());
  for (int k = 0; k < m; ++k) {
    int i = c.pairA[k], j = c.pairB[k];
    float wi = c.invMass[i], wj = c.invMass[j], w = wi + wj;
    if (w == 0.0f) continue;
    float dx = c.px[i] - c.px[j], dy = c.py[i] - c.py[j], dz = c.pz[i] - c.pz[j];
    float d2 = dx * dx + dy * dy + dz * dz, dmin = c.pairMin[k];
    if (d2 >= dmin * dmin || d2 == 0.0f) continue;
    float d = std::sqrt(d2);
    float s = (dmin - d) / (d * w);
    c.px[i] += dx * s * wi; c.py[i] += dy * s * wi; c.pz[i] += dz * s * wi;
    c.px[j] -= dx * s * wj; c.py[j] -= dy * s * wj; c.pz[j] -= dz * s * wj;
  }
}

}  // namespace wisp
