// Arrays of four objects (lanes) to and from one lane-ordered array: value i of lane l at
// kLanes i + l, four values at a time through a 4 x 4 transpose (wide::transpose). The chain
// joint block (chain_joint_block.h) and the rope lane groups (rope_lanes.cpp) fill and empty
// their per-frame blocks with these. Only values move, so no bit changes.
#pragma once
#include "math/wide.h"

namespace wisp {

namespace block {

constexpr int kLanes = wide::kWidth;

// src[l][0..n) for each lane l, into dst[kLanes j + l].
inline void gather(const float* const (&src)[kLanes], int n, float* dst) {
  int j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    wide::F4 a = wide::load(src[0] + j), b = wide::load(src[1] + j), c = wide::load(src[2] + j),
             d = wide::load(src[3] + j);
    wide::transpose(a, b, c, d);
    wide::store(dst + kLanes * j, a);
    wide::store(dst + kLanes * (j + 1), b);
    wide::store(dst + kLanes * (j + 2), c);
    wide::store(dst + kLanes * (j + 3), d);
  }
  for (; j < n; ++j) wide::store(dst + kLanes * j, wide::make(src[0][j], src[1][j], src[2][j], src[3][j]));
}

// The reverse, for the first `count` lanes only (spare lanes are never stored).
inline void scatter(const float* src, int n, float* const (&dst)[kLanes], int count) {
  int j = 0;
  for (; j + kLanes <= n; j += kLanes) {
    wide::F4 r[kLanes] = {wide::load(src + kLanes * j), wide::load(src + kLanes * (j + 1)),
                          wide::load(src + kLanes * (j + 2)), wide::load(src + kLanes * (j + 3))};
    wide::transpose(r[0], r[1], r[2], r[3]);
    for (int l = 0; l < count; ++l) wide::store(dst[l] + j, r[l]);
  }
  for (; j < n; ++j)
    for (int l = 0; l < count; ++l) dst[l][j] = src[kLanes * j + l];
}

}  // namespace block

}  // namespace wisp
