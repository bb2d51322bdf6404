// Lane kernels of the chain rules (solver/chain_lanes.h). Each mirrors its scalar rule in
// chain_solver.cpp statement by statement; what differs is only where values live: joint state
// and per-joint parameters in the group's lane-ordered blocks (solver/chain_joint_block.h,
// solver/chain_lane_params.h), per-chain work (root, boost, joint 0) done per lane in scalar
// code, branches turned into selects. Keep the two in step: tests/native/test_chain_lanes.cpp
// compares every state bit of chains solved here with the same chains solved alone.
#include "solver/chain_lanes.h"

#include <algorithm>
#include <atomic>

#include "chain/boost.h"
#include "colliders/shapes.h"
#include "math/frame.h"
#include "math/wide_vec.h"
#include "solver/chain_frame.h"
#include "solver/chain_joint_block.h"
#include "solver/chain_lanes_wisp.h"

namespace wisp {

namespace {
std::atomic<bool> gLanesEnabled{true};
}  // namespace

void setChainLanesEnabled(bool on) { gLanesEnabled.store(on, std::memory_order_relaxed); }

bool solvesInLanes(const ChainState& c) {
  // the world's own frame (no origin of its own, every fixed step) so that one context serves
  // the whole group; the VRM rule only, for now, without VRMC_springBone_limit limits or wind
  // (constraints/vrm_limit.h; the scalar vrmFrame applies them), and not in a chain links set
  // (its set's work item runs it)
  // (the Wisp rule: chain_lanes_wisp.h lists what its kernel takes)
  if (c.params.mode == ChainMode::Wisp)
    return gLanesEnabled.load(std::memory_order_relaxed) && c.origin.zero() && c.params.updateEvery <= 1 &&
           c.joints() >= 2 && c.linkSet < 0 && wispSolvesInLanes(c);
  return gLanesEnabled.load(std::memory_order_relaxed) && c.params.mode == ChainMode::Vrm && c.origin.zero() &&
         c.params.updateEvery <= 1 && c.joints() >= 2 && c.joints() <= kBlockJoints && !c.vrmLimited && c.params.vrmWind == 0 && c.linkSet < 0;
}

namespace {

using wide::F4;
using wide::Q4;
using wide::V3;
constexpr int kLanes = wide::kWidth;

// The chains of a group, spare lanes repeating lane 0 (they compute lane 0's bits again and
// are never stored), and the group's blocks: its joints' state in lane order for the frame
// (solver/chain_joint_block.h) and its parameters (solver/chain_lane_params.h).
struct Lanes {
  ChainState* c[kLanes];
  int count;
  JointBlock* b;
  ParamBlock* p;

  void writeRotations(int k, Q4 world, Q4 local) const { writeLaneRotations(c, count, k, world, local); }
};

using wide::laneOf;
using wide::quats;

// swingJoint (chain_solver.cpp) for joint k of every lane; the world rotation is returned (the
// next bone's parent) and, on `output`, stored with the outputs (the local one under `parent`).
Q4 swingJoints(const Lanes& g, int k, Q4 parent, Q4 restRot, V3 r, V3 dir, V3 childAxis, bool output) {
  const Q4 world = wide::swingRotation(restRot, r, dir, childAxis);
  if (output) {
    g.writeRotations(k, world, wide::normalize(wide::mul(wide::conjugate(parent), world)));
  }
  return world;
}

// signedDistance of the point in each lane to one collider, in two parts so that the normal
// (a division and the selects) is only computed when some lane hits (nearer than its radius): the distance
// (lanes that do not meet the collider ignore it), then normal() for the lanes that hit. A
// sphere is done on the lanes, any other shape lane by lane with the scalar function (the same
// bits either way: the parts are distanceToPoint's two results, each computed as it computes it).
struct LaneDistance {
  const ColliderPose& pose;
  V3 d;         // sphere: the point minus the centre
  F4 len;       // sphere: |d|
  F4 centre;    // sphere: the lanes at the centre (distanceToPoint's +Y case)
  V3 other;     // any other shape: signedDistance's normal
  F4 distance;

  LaneDistance(const ColliderPose& p, V3 point) : pose(p) {
    if (pose.type == ColliderType::Sphere) {
      // distanceToPoint
      d = point - wide::splat3(pose.position);
      len = wide::length(d);
      const F4 radius = wide::splat(pose.radius);
      centre = wide::lessThan(len, wide::splat(1e-12f));
      distance = wide::select(centre, wide::neg(radius), len - radius);
      if (pose.inside) distance = wide::neg(distance);
      return;
    }
    float dl[kLanes], nx[kLanes], ny[kLanes], nz[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      const SurfacePoint s = signedDistance(pose, laneOf(point, l));
      dl[l] = s.distance;
      nx[l] = s.normal.x;
      ny[l] = s.normal.y;
      nz[l] = s.normal.z;
    }
    distance = wide::load(dl);
    other = {wide::load(nx), wide::load(ny), wide::load(nz)};
  }
  V3 normal() const {
    if (pose.type != ColliderType::Sphere) return other;
    const V3 n = wide::select(centre, wide::splat3(Vec3{0, 1, 0}), d * (wide::splat(1.0f) / len));
    return pose.inside ? wide::neg(n) : n;
  }
};

// vrmFrame (chain_solver.cpp) on the lanes.
void vrmLanes(const Lanes& g, const StepContext& ctx) {
  const int n = g.c[0]->joints();
  JointBlock& b = *g.b;
  const ParamBlock& pb = *g.p;
  bool animated = false;
  for (int l = 0; l < kLanes; ++l) animated |= g.c[l]->animated;
  const float delta = ctx.stepDt;
  const F4 invDelta = wide::splat(1.0f / delta);
  V3 gravity;
  uint32_t mask[kLanes];
  bool collide[kLanes];
  {
    Vec3 gl[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      gl[l] = gravityOf(*g.c[l], ctx);
      mask[l] = g.c[l]->params.colliderMask;
      collide[l] = collides(*g.c[l], ctx);
    }
    gravity = {wide::make(gl[0].x, gl[1].x, gl[2].x, gl[3].x), wide::make(gl[0].y, gl[1].y, gl[2].y, gl[3].y),
               wide::make(gl[0].z, gl[1].z, gl[2].z, gl[3].z)};
  }
  // the colliders each lane meets (the same every fixed step), posed once per fixed step for the
  // whole group, or taken from the world's poses of the frame (StepContext::posedCollider)
  constexpr int kCached = 16;  // more than this are posed per joint
  ColliderPose poses[kCached];
  F4 meets[kCached];
  // this fixed step's colliders met by some lane, in collider order: the lanes that meet each
  // one and its pose
  struct Met {
    F4 on;
    const ColliderPose* pose;
  } met[kCached];
  const F4 laneOn = wide::lessThan(wide::splat(0.0f), wide::splat(1.0f));  // all ones
  const F4 laneOff = wide::lessThan(wide::splat(1.0f), wide::splat(0.0f));
  const float setLane = wide::lane(laneOn, 0), clearLane = wide::lane(laneOff, 0);
  auto meetsOf = [&](const ColliderPath& path) {
    float m[kLanes];
    for (int l = 0; l < kLanes; ++l) m[l] = collide[l] && (path.groups & mask[l]) ? setLane : clearLane;
    return wide::load(m);
  };
  const F4 one = wide::splat(1.0f);
  const int cached = std::min(ctx.colliderCount, kCached);
  for (int ci = 0; ci < cached; ++ci) meets[ci] = meetsOf(ctx.colliders[ci]);
  for (int s = 0; s < ctx.fixedSteps; ++s) {
    const float tNow = static_cast<float>(s + 1) / static_cast<float>(ctx.fixedSteps);
    const bool output = s + 1 == ctx.fixedSteps;  // the rotations of the last step are the ones kept
    Quat rootRotation[kLanes];
    ChainBoost boost[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      ChainState& c = *g.c[l];
      const Transform root = interpolate(c.rootFrom, c.rootTo, tNow);
      animatedPoseAt(c, tNow);
      boost[l] = boostAt(c, delta * static_cast<float>(s));
      b.set3(JointBlock::Vx, 0, l, Vec3{0, 0, 0});
      b.set3(JointBlock::Px, 0, l, fromFrame(root, c.localPosition[0]));
      rootRotation[l] = root.rotation;
    }
    if (animated) g.p->gatherTargets(g.c, n);  // animatedPoseAt moved them
    // step s ends at substep (s + 1) * substeps of the frame's fixedSteps * substeps: the same
    // quotient of exact integers, so the same float as tNow, which posedCollider's pathScale 1
    // leaves as it is
    int metCount = 0;
    for (int ci = 0; ci < cached; ++ci) {
      if (!wide::any(meets[ci])) continue;
      const ColliderPose* pose = ctx.posedCollider((s + 1) * ctx.substeps, ci);
      if (pose == nullptr) {
        poses[ci] = poseAt(ctx.colliders[ci], tNow * ctx.pathScale);
        pose = &poses[ci];
      }
      met[metCount++] = {meets[ci], pose};
    }
    const F4 bDamping = wide::make(boost[0].damping, boost[1].damping, boost[2].damping, boost[3].damping);
    const F4 bStiffness = wide::make(boost[0].stiffness, boost[1].stiffness, boost[2].stiffness, boost[3].stiffness);
    const F4 bGravity = wide::make(boost[0].gravity, boost[1].gravity, boost[2].gravity, boost[3].gravity);
    const F4 deltaL = wide::splat(delta);
    Q4 parent = quats(rootRotation);
    V3 a = b.get3(JointBlock::Px, 0);
    for (int k = 0; k + 1 < n; ++k) {
      const int j = k + 1;
      const Q4 target = pb.target(k);
      const Q4 restRot = wide::mul(parent, target);
      const V3 childAxis = pb.childAxis(k);
      const V3 axis = wide::normalizeOr(wide::rotate(restRot, childAxis), childAxis);
      const V3 cur = b.get3(JointBlock::Qx, j);
      const V3 prev = b.get3(JointBlock::Ox, j);
      const F4 len = wide::length(b.get3(JointBlock::Px, j) - a);
      const F4 dragForce = wide::min(pb.get(ParamBlock::Damping, j) * bDamping, one);
      V3 next = cur + (cur - prev) * (one - dragForce) +
                axis * (pb.get(ParamBlock::Stiffness, j) * bStiffness * deltaL) +
                gravity * (pb.get(ParamBlock::Gravity, j) * bGravity * deltaL);
      next = a + wide::normalizeOr(next - a, axis) * len;
      const F4 jRadius = pb.get(ParamBlock::Radius, j);
      // out of each collider the lane meets, in collider order
      auto pushOut = [&](F4 on, const ColliderPose& pose) {
        const LaneDistance surface(pose, next);
        const F4 dist = surface.distance - jRadius;
        const F4 hit = wide::maskAnd(on, wide::lessThan(dist, wide::splat(0.0f)));
        if (!wide::any(hit)) return;
        V3 pushed = next + surface.normal() * wide::neg(dist);
        pushed = a + wide::normalizeOr(pushed - a, axis) * len;
        next = wide::select(hit, pushed, next);
      };
      for (int m = 0; m < metCount; ++m) pushOut(met[m].on, *met[m].pose);
      for (int ci = kCached; ci < ctx.colliderCount; ++ci) {
        const F4 on = meetsOf(ctx.colliders[ci]);
        if (wide::any(on)) pushOut(on, poseAt(ctx.colliders[ci], tNow * ctx.pathScale));
      }
      b.set3(JointBlock::Ox, j, cur);
      b.set3(JointBlock::Qx, j, next);
      b.set3(JointBlock::Vx, j, (next - cur) * invDelta);
      const V3 dir = wide::normalizeOr(next - a, axis);
      a = a + dir * pb.get(ParamBlock::BoneLength, k);
      b.set3(JointBlock::Px, j, a);
      parent = swingJoints(g, k, parent, restRot, axis, dir, childAxis, output);
    }
    if (output) {  // orientLast
      const int k = n - 1;
      const Q4 target = pb.target(k);
      g.writeRotations(k, wide::normalize(wide::mul(parent, target)), target);
    }
  }
}

}  // namespace

LaneBlocks& laneBlocks() {
  thread_local LaneBlocks blocks;
  return blocks;
}

void solveChainLanes(ChainState* const* chains, int count, const StepContext& ctx, ChainFrame* frames, LaneParams& params) {
  Lanes g;
  g.count = count;
  for (int l = 0; l < kLanes; ++l) g.c[l] = chains[l < count ? l : 0];
  LaneBlocks& blocks = laneBlocks();
  g.b = &blocks.joints[0];
  const int n = g.c[0]->joints();
  g.b->gather(g.c, n, JointBlock::Px, JointBlock::Vx);  // the rule sets every velocity before reading one
  ParamBlock p = params.of(g.c, n);
  g.p = &p;
  vrmLanes(g, ctx);
  g.b->scatter(g.c, count, n);
  g.b->finish(g.c, count, n, frames);
}

}  // namespace wisp
