// A spring-bone chain: joints as particles (particles/particles.h; joint 0 kinematic on the
// root), the rest hierarchy, per-joint parameters resolved from the curves, and the output
// rotations. Allocated when the chain is created, never resized by a step.
#pragma once
#include <cstdint>
#include <vector>

#include "constraints/vrm_limit.h"
#include "particles/particles.h"
#include "wisp/chain.h"

namespace wisp {

struct ChainState : Particles {
  uint32_t generation = 0;
  bool alive = false;
  ChainParams params;

  // rest hierarchy, per joint j (the end tip, if any, is the last joint)
  std::vector<Vec3> localPosition;   // m, in the parent joint's frame (joint 0: the root's)
  std::vector<Quat> localRotation;   // rest rotation relative to the parent joint
  std::vector<Vec3> childAxis;       // unit direction of bone j in joint j's frame (last joint: unused)
  std::vector<float> boneLength;     // m, bone j: joint j to j+1 (last joint: 0)
  std::vector<float> along;          // t in [0, 1] along the chain by rest length (for the curves)
  // The root's uniform scale (setChainRoot): localPosition, boneLength, the joint radii, gravity,
  // external force and the teleport distance are the unscaled values (rest*) times it, so a scaled
  // chain moves as the unscaled one scaled (geometric similarity: lengths and accelerations scale).
  float scale = 1;
  std::vector<Vec3> restLocalPosition;
  std::vector<float> restBoneLength;

  // per-joint values: base * curve(along)
  std::vector<float> jDamping, jStiffness, jElasticity, jInertia, jGravity, jExternal, jRadius, jCosLimit, jSinLimit;
  std::vector<float> jMaxDistance;   // m; 0 everywhere when ChainParams::maxDistance is 0 (off)
  std::vector<float> jBackstop;      // m: backstopDistance x curve x scale (chain/backstop.h)
  float cosHalfTeleport = 0;         // cos(teleportAngle / 2)
  // ChainParams::vrmLimits resolved, per bone k (none past the given ones); vrmLimited: any is set
  std::vector<VrmLimitFrame> vrmLimit;
  bool vrmLimited = false;

  // root (and optional space) pose at the end of the last frame and for the next one
  Transform rootFrom, rootTo;
  Transform spaceFrom, spaceTo;
  // the previous frame's targets: like an anchor, the frame's fixed steps sample the line from
  // them to rootTo / spaceTo at their own time (rootFrom: where the last fixed step ended)
  Transform rootPrev, spacePrev;
  bool ownSpace = false;             // setChainSpace was called; otherwise the space is the root

  // The animated pose (World::setChainPose): per joint, the local rotation the pose spring, the
  // limits and the output pull toward, in place of the rest rotation. Like anchors, it moves from
  // animFrom (where the last fixed step ended) to animEnd, the point on the line from the previous
  // frame's target (animPrev) to this frame's (animTo) at the frame's last fixed step's time.
  // Unused (the rest rotations instead) until `animated`.
  bool animated = false;
  std::vector<Quat> animFrom, animPrev, animTo, animEnd;
  std::vector<Quat> animNow;         // scratch: the pose at the current substep

  // Physics weight (chain/physics_weight.h): 0 = outputs are the animated pose, 1 = simulated;
  // it moves toward weightTarget at weightRate per second of simulated time.
  float weight = 1, weightTarget = 1, weightRate = 0;
  // Timed multipliers (chain/boost.h): as given, the boost's length and the simulated seconds
  // left (0: none runs); boostNow is scratch, the multipliers of the fixed step being run.
  ChainBoost boost;
  float boostSeconds = 0, boostLeft = 0;
  ChainBoost boostNow;

  // ChainParams::warmupSteps are due before the next frame (set on creation, reset, teleport)
  bool warmupPending = false;

  // outputs, per joint: world and local (relative to the parent joint) rotations, xyzw
  std::vector<float> worldRotations, localRotations;
  std::vector<Quat> simRotation;     // world rotation of each joint during the pass
  // m/s: how fast Carry would have moved joint 0 this substep. Carried joints' stored velocities
  // leave the carry out (carrying injects no velocity); joint 0 rides the root, so the pose
  // spring's damping subtracts this from its motion to compare velocities in the carried frame.
  float wx = 0, wy = 0, wz = 0;

  std::vector<uint32_t> ownedAnchors;  // none: the root is a transform, not an anchor

  int teleports = 0;
  float maxSpeed = 0;
  // Which resolution of the per-joint values (j*), the rest rotations, child axes and bone
  // lengths these are: a fresh number, unique in the process, each time resolveChainParams runs
  // (it runs whenever any of them is set). A lane group keeps its chains' values in lane order
  // from frame to frame while their stamps stay the same (LaneParams, solver/chain_lane_params.h).
  // A cache key, not state: neither saved nor hashed.
  uint64_t paramsStamp = 0;
  // The slot of the chain links set it is in (-1: none): derived from the sets, not saved.
  int32_t linkSet = -1;

  int joints() const { return count(); }
  int bones() const { return count() - 1; }

  void resize(int n) {
    resizeParticles(n);
    localPosition.assign(n, Vec3{});
    localRotation.assign(n, Quat{});
    childAxis.assign(n, Vec3{0, 1, 0});
    boneLength.assign(n, 0.0f);
    along.assign(n, 0.0f);
    for (auto* a : {&jDamping, &jStiffness, &jElasticity, &jInertia, &jGravity, &jExternal, &jRadius, &jCosLimit,
                    &jSinLimit, &jMaxDistance, &jBackstop})
      a->assign(n, 0.0f);
    worldRotations.assign(4 * static_cast<size_t>(n), 0.0f);
    localRotations.assign(4 * static_cast<size_t>(n), 0.0f);
    simRotation.assign(n, Quat{});
    vrmLimit.assign(n, VrmLimitFrame{});
    for (auto* a : {&animFrom, &animPrev, &animTo, &animEnd, &animNow}) a->assign(n, Quat{});
  }
  // Joint j's output rotations (the views JS reads): in the world, and relative to its parent
  // joint (the root for joint 0). Every writer of the rotation outputs goes through here.
  void writeJointRotations(int j, Quat world, Quat local) {
    float* w = &worldRotations[4 * static_cast<size_t>(j)];
    float* l = &localRotations[4 * static_cast<size_t>(j)];
    w[0] = world.x; w[1] = world.y; w[2] = world.z; w[3] = world.w;
    l[0] = local.x; l[1] = local.y; l[2] = local.z; l[3] = local.w;
  }
  Quat worldRotationOut(int j) const {
    const float* w = &worldRotations[4 * static_cast<size_t>(j)];
    return {w[0], w[1], w[2], w[3]};
  }
  Quat localRotationOut(int j) const {
    const float* l = &localRotations[4 * static_cast<size_t>(j)];
    return {l[0], l[1], l[2], l[3]};
  }
  // The local rotation joint j is pulled toward at the current substep.
  const Quat& target(int j) const { return animated ? animNow[j] : localRotation[j]; }
  void updatePins() { collectPins(); }
};

}  // namespace wisp
