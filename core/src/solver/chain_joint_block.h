// A chain lane group's joints in one lane-ordered block for the whole frame: joint-major, the
// wide::kWidth lanes of a value contiguous, so the lane kernels (chain_lanes.cpp,
// chain_lanes_wisp.cpp) load and store a joint of four chains as one vector. Filled from the
// chains' own arrays when the group's frame starts and written back when it ends: every substep
// and fixed step between works on the block, instead of gathering four chains' separate arrays
// per field per joint per substep. Gathering and scattering go four joints at a time through a
// 4 x 4 transpose (wide::transpose). Only values move here, so no bit changes.
//
// The block is per thread (a lane group's frame runs on one thread from begin to end) rather
// than on the stack: about 12 KB, much of a WebAssembly thread's stack. The parameters stay in
// lane order from frame to frame, in the group's LaneParams.
#pragma once
#include <cstddef>

#include "chain/chain_state.h"
#include "checks/invariants.h"
#include "math/wide_vec.h"
#include "particles/fastest.h"
#include "solver/chain_frame.h"
#include "solver/chain_lane_params.h"
#include "solver/lane_transpose.h"
#include "solver/root_path.h"

namespace wisp {

// One chain's joint state arrays, joint j at index j * stride: a ChainState's own (stride 1) or
// one lane of a JointBlock (stride wide::kWidth). Per-chain scalar code (the carry) runs on either.
struct JointArrays {
  float *px, *py, *pz, *ox, *oy, *oz, *qx, *qy, *qz, *vx, *vy, *vz;
  int stride;
  static JointArrays of(Particles& c) {
    return {c.px.data(), c.py.data(), c.pz.data(), c.ox.data(), c.oy.data(), c.oz.data(), c.qx.data(),
            c.qy.data(), c.qz.data(), c.vx.data(), c.vy.data(), c.vz.data(), 1};
  }
};

// Chains longer than this run the scalar rules (solvesInLanes).
constexpr int kBlockJoints = 64;

// The joint state (positions, substep-start positions, carried reactions / VRM tails, velocities).
struct JointBlock {
  enum Field { Px, Py, Pz, Qx, Qy, Qz, Ox, Oy, Oz, Vx, Vy, Vz, kFields };
  alignas(16) float f[kFields][kBlockJoints * wide::kWidth];

  wide::F4 get(Field k, int j) const { return wide::load(&f[k][wide::kWidth * j]); }
  wide::V3 get3(Field x, int j) const { return {get(x, j), get(Field(x + 1), j), get(Field(x + 2), j)}; }
  void set3(Field x, int j, wide::V3 v) {
    wide::store(&f[x][wide::kWidth * j], v.x);
    wide::store(&f[x + 1][wide::kWidth * j], v.y);
    wide::store(&f[x + 2][wide::kWidth * j], v.z);
  }
  float& at(Field k, int j, int l) { return f[k][wide::kWidth * j + l]; }
  Vec3 at3(Field x, int j, int l) const {
    return {f[x][wide::kWidth * j + l], f[x + 1][wide::kWidth * j + l], f[x + 2][wide::kWidth * j + l]};
  }
  void set3(Field x, int j, int l, Vec3 v) { at(x, j, l) = v.x; at(Field(x + 1), j, l) = v.y; at(Field(x + 2), j, l) = v.z; }
  JointArrays lane(int l) {
    return {&f[Px][l], &f[Py][l], &f[Pz][l], &f[Ox][l], &f[Oy][l], &f[Oz][l], &f[Qx][l],
            &f[Qy][l], &f[Qz][l], &f[Vx][l], &f[Vy][l], &f[Vz][l], wide::kWidth};
  }
  // Fields [first, last) of chains[l] for every lane (spare lanes repeat a chain), n joints
  // each: a kernel gathers only what it reads before writing (the VRM rule writes every
  // velocity before reading it).
  void gather(ChainState* const (&chains)[wide::kWidth], int n, Field first = Px, Field last = kFields) {
    for (int k = first; k < last; ++k) {
      const float* src[wide::kWidth];
      for (int l = 0; l < wide::kWidth; ++l) src[l] = (chains[l]->*kArrays[k]).data();
      block::gather(src, n, f[k]);
    }
  }
  void scatter(ChainState* const (&chains)[wide::kWidth], int count, int n) const {
    for (int k = 0; k < kFields; ++k) {
      float* dst[wide::kWidth];
      for (int l = 0; l < wide::kWidth; ++l) dst[l] = (chains[l]->*kArrays[k]).data();
      block::scatter(f[k], n, dst, count);
    }
  }
  // What a frame's end reads from the chains' arrays, taken from the block instead (lanes at a
  // time) for the first `count` lanes of n joints each, once the block holds the frame's result,
  // into each lane's frame (ChainFrame::scanned): its largest squared joint speed (the scan of
  // particles/fastest.h's fastestSpeedSq) and whether its positions and velocities are all finite
  // (checks/invariants.h's allFinite), with its outputs written (Particles::writeOutput at origin
  // 0). The same results as those scans: a maximum and an all-finite test do not depend on the
  // order the values are visited in.
  void finish(ChainState* const (&chains)[wide::kWidth], int count, int n, ChainFrame* frames) const {
    wide::F4 fastest = wide::splat(0.0f), diff = wide::splat(0.0f);
    for (int j = 0; j < n; ++j) {
      wide::F4 x = get(Px, j), y = get(Py, j), z = get(Pz, j), w = x;
      const wide::F4 vx = get(Vx, j), vy = get(Vy, j), vz = get(Vz, j);
      fastest = fasterOf(fastest, vx * vx + vy * vy + vz * vz);  // lengthSq
      diff = diff + nonFiniteTerms(x, y, z, vx, vy, vz);
      // joint j's position of lane l as x y z (and one more float) in row l
      wide::transpose(x, y, z, w);
      const wide::F4 rows[wide::kWidth] = {x, y, z, w};
      const size_t at = 3 * static_cast<size_t>(j);
      for (int l = 0; l < count; ++l) {
        float* out = chains[l]->out.data() + at;
        if (j + 1 < n) {
          wide::store(out, rows[l]);  // its fourth float is the next joint's x, stored next
        } else {
          float t[wide::kWidth];
          wide::store(t, rows[l]);
          out[0] = t[0], out[1] = t[1], out[2] = t[2];
        }
      }
    }
    for (int l = 0; l < count; ++l) {
      frames[l].scanned = true;
      frames[l].fastestSq = wide::lane(fastest, l);
      frames[l].finite = wide::lane(diff, l) == 0.0f;
    }
  }
  static constexpr std::vector<float> Particles::*kArrays[kFields] = {
      &Particles::px, &Particles::py, &Particles::pz, &Particles::qx, &Particles::qy, &Particles::qz,
      &Particles::ox, &Particles::oy, &Particles::oz, &Particles::vx, &Particles::vy, &Particles::vz};
};

// Joint k's output rotations of the first `count` lanes (simRotation and the outputs): world,
// and local (relative to the parent joint). The transposed lanes go straight into the output
// arrays (x y z w per joint, as writeJointRotations lays them out), one vector store each.
inline void writeLaneRotations(ChainState* const (&c)[wide::kWidth], int count, int k, wide::Q4 world, wide::Q4 local) {
  wide::F4 w[wide::kWidth] = {world.x, world.y, world.z, world.w}, o[wide::kWidth] = {local.x, local.y, local.z, local.w};
  wide::transpose(w[0], w[1], w[2], w[3]);
  wide::transpose(o[0], o[1], o[2], o[3]);
  const size_t at = 4 * static_cast<size_t>(k);
  static_assert(sizeof(Quat) == 4 * sizeof(float) && offsetof(Quat, x) == 0 && offsetof(Quat, w) == 3 * sizeof(float),
                "a Quat is x y z w, as a vector stores them");
  for (int l = 0; l < count; ++l) {
    wide::store(&c[l]->worldRotations[at], w[l]);
    wide::store(&c[l]->localRotations[at], o[l]);
    wide::store(&c[l]->simRotation[k].x, w[l]);
  }
}

// The joint blocks of the lane groups being solved on this thread (one, or two side by side), and
// the roots' substep poses last interpolated on each (kept from group to group).
struct LaneBlocks {
  JointBlock joints[2];
  RootPath rootPath[2];
};
LaneBlocks& laneBlocks();

}  // namespace wisp
