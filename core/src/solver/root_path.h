// The root's pose at each substep of a frame, for chains whose roots move alike (a wig's strands,
// a head's chains): every such chain's root at substep s is interpolate(start, end, (s + 1) /
// total) of the same start and end, the same bits, so it is computed once for all of them and not
// once per chain. Kept per thread (in LaneBlocks) from one lane group to the next: chains that
// share a root are usually neighbours in the world's list. A different start, end or substep
// count recomputes the table, so the results never depend on what was solved before.
#pragma once
#include <cstring>

#include "solver/chain_frame.h"

namespace wisp {

struct RootPath {
  static constexpr int kMaxSubsteps = 64;  // frames with more substeps interpolate per chain
  Transform start, end;
  int total = 0;  // 0: empty
  Transform at[kMaxSubsteps];

  static bool sameBits(const Transform& a, const Transform& b) { return std::memcmp(&a, &b, sizeof(Transform)) == 0; }

  // The roots of the frame's substeps from `from` to `to` (planWispSubstep's interpolation, the
  // same operations), or nullptr when `total` is past kMaxSubsteps.
  const Transform* of(const Transform& from, const Transform& to, int substeps) {
    if (substeps > kMaxSubsteps || substeps <= 0) return nullptr;
    if (substeps != total || !sameBits(from, start) || !sameBits(to, end)) {
      start = from;
      end = to;
      total = substeps;
      for (int sub = 0; sub < substeps; ++sub)
        at[sub] = interpolate(from, to, static_cast<float>(sub + 1) / static_cast<float>(substeps));
    }
    return at;
  }
};

}  // namespace wisp
