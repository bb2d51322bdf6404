// A chain lane group's per-joint parameters in lane order (ParamBlock), and the group slot's
// copy of them kept from frame to frame (LaneParams): the lane kernels (chain_lanes.cpp,
// chain_lanes_wisp.cpp) read them beside the joint block (chain_joint_block.h).
#pragma once
#include <cstdint>
#include <vector>

#include "chain/chain_state.h"
#include "math/wide_vec.h"
#include "solver/lane_transpose.h"

namespace wisp {

// Per-joint parameters the kernels read every step (constant during a frame), and the targets
// (the local rotations pulled toward: constant unless a chain is animated, then re-gathered
// after each animatedPoseAt), lane-ordered as the joint block is: field k of joint j, lane l at
// f[k * stride + wide::kWidth * j + l], stride = wide::kWidth * joints. The storage is the lane
// group's LaneParams, kept from frame to frame.
struct ParamBlock {
  enum Field { Damping, Stiffness, Elasticity, Gravity, External, Radius, BoneLength, Inertia, Ax, Ay, Az, Tx, Ty, Tz, Tw, kFields };
  float* f = nullptr;
  int stride = 0;

  float* at(int k, int j) const { return f + static_cast<size_t>(k) * stride + wide::kWidth * j; }
  wide::F4 get(Field k, int j) const { return wide::load(at(k, j)); }
  wide::V3 childAxis(int j) const { return {get(Ax, j), get(Ay, j), get(Az, j)}; }
  wide::Q4 target(int j) const { return {get(Tx, j), get(Ty, j), get(Tz, j), get(Tw, j)}; }

  // Every field of the first n joints of chains c (spare lanes repeat a chain).
  void gather(ChainState* const (&c)[wide::kWidth], int n) {
    for (int k = Damping; k <= Inertia; ++k) {
      const float* src[wide::kWidth];
      for (int l = 0; l < wide::kWidth; ++l) src[l] = (c[l]->*kArrays[k]).data();
      block::gather(src, n, at(k, 0));
    }
    for (int j = 0; j < n; ++j) {
      const Vec3 &a = c[0]->childAxis[j], &b = c[1]->childAxis[j], &d = c[2]->childAxis[j], &e = c[3]->childAxis[j];
      wide::store(at(Ax, j), wide::make(a.x, b.x, d.x, e.x));
      wide::store(at(Ay, j), wide::make(a.y, b.y, d.y, e.y));
      wide::store(at(Az, j), wide::make(a.z, b.z, d.z, e.z));
    }
    gatherTargets(c, n);
  }
  void gatherTargets(ChainState* const (&c)[wide::kWidth], int n) {
    const Quat* t[wide::kWidth];  // ChainState::target's arrays
    for (int l = 0; l < wide::kWidth; ++l) t[l] = c[l]->animated ? c[l]->animNow.data() : c[l]->localRotation.data();
    for (int j = 0; j < n; ++j) {
      wide::F4 q[wide::kWidth];
      for (int l = 0; l < wide::kWidth; ++l) q[l] = wide::make(t[l][j].x, t[l][j].y, t[l][j].z, t[l][j].w);
      wide::transpose(q[0], q[1], q[2], q[3]);
      for (int k = 0; k < 4; ++k) wide::store(at(Tx + k, j), q[k]);
    }
  }

  static constexpr std::vector<float> ChainState::*kArrays[Inertia + 1] = {
      &ChainState::jDamping,  &ChainState::jStiffness, &ChainState::jElasticity, &ChainState::jGravity,
      &ChainState::jExternal, &ChainState::jRadius,    &ChainState::boneLength,  &ChainState::jInertia};
};

// A lane group's ParamBlock, kept from frame to frame (one per group slot, World::Impl): with one
// update per frame (the VRM rule) gathering four chains' parameters every frame was about a
// third of the gather and scatter around the kernel. It is gathered again only when the group's
// lanes hold other chains or a chain's values were resolved again (ChainState::paramsStamp), and
// its targets when some lane is animated or was last frame. Only values move, so no bit changes.
struct LaneParams {
  std::vector<float> storage;
  uint64_t stamp[wide::kWidth] = {};  // each lane's chain's paramsStamp when gathered (0: nothing)
  int joints = 0;
  bool restTargets = false;  // the targets are every lane's rest rotations

  // Serially, before the frame: room for n joints (allocates only when this group slot first
  // takes a group of more joints than it has held).
  void reserve(int n) {
    const size_t need = static_cast<size_t>(ParamBlock::kFields) * wide::kWidth * n;
    if (storage.size() < need) storage.resize(need);
  }
  // The block of the first n joints of chains c (reserve(n) done), up to date.
  ParamBlock of(ChainState* const (&c)[wide::kWidth], int n) {
    ParamBlock p{storage.data(), wide::kWidth * n};
    bool same = n == joints, animated = false;
    for (int l = 0; l < wide::kWidth; ++l) {
      same &= c[l]->paramsStamp == stamp[l];
      animated |= c[l]->animated;
    }
    if (!same) {
      p.gather(c, n);
      for (int l = 0; l < wide::kWidth; ++l) stamp[l] = c[l]->paramsStamp;
      joints = n;
    } else if (animated || !restTargets) {
      p.gatherTargets(c, n);
    }
    restTargets = !animated;
    return p;
  }
};

}  // namespace wisp
