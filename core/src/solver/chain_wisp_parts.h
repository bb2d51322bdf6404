// The parts of the Wisp rule's substep (chain_solver.cpp) that its lane kernel
// (solver/chain_lanes_wisp.cpp) calls per chain rather than re-doing on lanes: the carry stage,
// and the rare work of a bone that may touch a collider. Calling the scalar code keeps the
// kernel's bits the scalar rule's by construction.
#pragma once
#include "colliders/shapes.h"
#include "solver/chain_frame.h"
#include "solver/chain_joint_block.h"

namespace wisp {

// Follow-the-leader: the share of a bone's correction its parent takes back (see solveBones).
constexpr float kFtlDamping = 0.9f;

// The contacts one joint met in a substep: each contact's normal and the velocity of the
// collider's surface there, for the velocity update (contactVelocity).
struct JointContacts {
  static constexpr int kMax = 4;  // further contacts of the same joint share the last slot
  Vec3 normal[kMax];
  Vec3 surface[kMax];
  int count = 0;
  void add(Vec3 n, Vec3 v) {
    const int i = count < kMax ? count++ : kMax - 1;
    normal[i] = n;
    surface[i] = v;
  }
};

// The colliders a Wisp-rule chain meets in one substep are posed once for it; more than this
// many and the rest are posed per bone (the lane kernel leaves such frames to the scalar rule).
constexpr int kSubstepCollidersCached = 32;

// Stage Carry of substep `sub` (and, at a fixed step's start, the air and boost samples) on the
// chain's joint arrays `joints` (its own, or its lane of a lane group's block); returns the root
// at the substep's end. It is the three parts below in a row.
Transform beginWispSubstep(ChainState& c, const JointArrays& joints, const StepContext& ctx, ChainFrame& f, int sub);

// The rigid motions Stage Carry moves a chain's joints by in one substep: the space's (when
// `space`; every joint by spaceShare), then the root's (joint j by its jInertia).
struct CarryPlan {
  bool space = false;
  Transform spaceFrom, spaceTo;
  float spaceShare = 0;
  Transform rootFrom, rootTo;
};
// The substep's root (returned), animated pose and carry motions; the frame's poses move on.
// `root`, when given, is the substep's root already interpolated (RootPath, solver/root_path.h:
// the same operations on the same frame poses).
Transform planWispSubstep(ChainState& c, const StepContext& ctx, ChainFrame& f, int sub, CarryPlan* plan,
                          const Transform* root = nullptr);
// One carry motion, a -> b, of joints [begin, end): joint j by share[j] (or `uniform` without
// share) of it; joint 0 adds to the carry velocity instead (when invH > 0).
void carryJoints(ChainState& c, const JointArrays& s, const Transform& a, const Transform& b, const float* share,
                 float uniform, float invH, int begin, int end);
// At a fixed step's start: the air (where it varies) at the carried joints, and the boost.
void sampleWispStep(ChainState& c, const JointArrays& joints, const StepContext& ctx, const ChainFrame& f, int sub);
// Pushes the bone's tail x out of one collider (bound: boundingRadius(pose)) and records the
// contact; true if it moved.
bool collideBone(const ColliderPose& pose, const ColliderPose& before, float bound, Vec3 a, Vec3& x, Vec3& d,
                 float len, float radius, float invH, JointContacts& contacts);
// m/s: the velocity of the collider's material point at x over the substep (before -> now).
// colliders/bone_contact_lanes.h's surfaceVelocityLanes is the same for four points: keep the two in step.
Vec3 surfaceVelocity(const ColliderPose& before, const ColliderPose& now, Vec3 x, float invH);
// The velocity of a joint that met colliders (contacts stop motion, never start it).
Vec3 contactVelocity(Vec3 v, Vec3 vBefore, const JointContacts& contacts);

}  // namespace wisp
