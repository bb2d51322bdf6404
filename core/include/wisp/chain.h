// Spring-bone chains: a kinematic root (set from animation every frame) and a line of joints
// that follow it under inertia, gravity, wind and a pull toward the animated pose. The output
// is, per joint, a world position and a rotation, ready for skinning (ponytails, tails, hair).
//
// Joint 0 sits on the root (rigidly, at its rest offset); joints 1.. are simulated. Bone k joins
// joint k to joint k+1. Every rate is per second, so results do not depend on the frame rate.
#pragma once
#include <cstdint>
#include <vector>

#include "wisp/types.h"

namespace wisp {

// A multiplier over the chain's length: t = 0 at joint 0, t = 1 at the last joint (by rest
// length along the chain). Piecewise linear between keys, constant past the ends. An empty
// curve is 1 everywhere. Keys must have t in [0, 1], strictly increasing, finite values.
struct CurveKey {
  float t = 0;
  float value = 1;
};
using Curve = std::vector<CurveKey>;

enum class ChainMode : int {
  // Substepped XPBD-style update with per-second parameters (the default).
  Wisp = 0,
  // three-vrm's per-frame VRMC_springBone update, run once per fixed step with delta = fixedDt,
  // with VRM's parameter meanings (see ChainParams). For parity with VRM content.
  Vrm = 1,
};

enum class ChainSpace : int {
  World = 0,     // the root's motion is carried by `inertia` only
  Relative = 1,  // also carry (1 - spaceInertia) of the motion of the chain's space transform
                 // (World::setChainSpace; the root itself until set), e.g. the character's
                 // hips: running does not sway the hair, a head nod still does
};

// A VRMC_springBone_limit (draft 1.0) limit on one VRM spring-bone joint, ChainMode::Vrm only:
// the direction from the joint (head) to its child (tail) is kept inside a shape given in the
// limit's frame, whose +Y is the bone's animated direction (see docs/physics.md):
//   L = R_parent * R_joint * shortestArc(+Y -> bone axis) * rotation
// R_parent the parent's simulated world rotation, R_joint the joint's animated local rotation,
// the bone axis the child's rest offset in the joint's frame (-Y exactly: 180 deg about X).
// With t = L^-1 * tail direction (unit):
//   Cone:      angle between t and +Y at most `angle`
//   Hinge:     t in the YZ plane (t.x = 0, rotation about the limit's X axis), and its angle to
//              +Y at most `angle`
//   Spherical: pitch = atan2(t.z, t.y) in [-pitch, pitch], yaw = asin(t.x) in [-yaw, yaw]
enum class VrmLimitType : int { None = 0, Cone = 1, Hinge = 2, Spherical = 3 };

struct VrmLimit {
  VrmLimitType type = VrmLimitType::None;
  float angle = 3.14159265f;  // rad in [0, pi]: cone and hinge
  float pitch = 3.14159265f;  // rad in [0, pi]: spherical, about the limit's X axis
  float yaw = 1.5707963f;     // rad in [0, pi/2]: spherical, toward the limit's X axis
  Quat rotation{};            // the limit's rotation from its default frame (x, y, z, w; not zero)
};

// Parameters that can change while the chain lives. Each per-joint value is base * curve(t).
struct ChainParams {
  ChainMode mode = ChainMode::Wisp;

  float damping = 2.0f;        // 1/s: velocity decays as dv/dt = -damping v
  float stiffness = 4.0f;      // 1/s: rate of the pull of each bone toward its animated direction
                               //   (relative to its simulated parent): over-damped, never overshoots
  float elasticity = 0.0f;     // 1/s^2: a spring toward the animated pose (oscillates; 0 = off)
  float inertia = 0.0f;        // 0..1: share of the root's motion carried rigidly (1 = no lag)
  float gravityScale = 1.0f;   // multiplies the gravity (negative = anti-gravity)
  bool customGravity = false;  // use `gravity` instead of the world's
  Vec3 gravity{0, -9.81f, 0};  // m/s^2, when customGravity
  Vec3 externalForce{0, 0, 0}; // m/s^2 (an acceleration), scaled by the curve
  float drag = 0.5f;           // 1/s: coupling to the air velocity (wind)
  float radius = 0.02f;        // m: collision radius of each bone (a capsule around the segment)
  float limitAngle = 3.14159265f;  // rad in [0, pi]: cone around the animated direction; pi = free
  bool hinge = false;          // also keep each bone in the plane normal to hingeAxis
  Vec3 hingeAxis{1, 0, 0};     // in each joint's local (rest) frame
  bool collide = true;
  uint32_t colliderMask = 0xFFFFFFFFu;  // collides with colliders whose `groups` share a bit

  ChainSpace space = ChainSpace::World;
  float spaceInertia = 0.0f;   // 0..1: share of the space transform's motion felt as inertia
  // A root jump larger than this (m, or rad of rotation) within one frame is a teleport: the
  // chain is carried along rigidly, keeping its shape and velocities. 0 disables the check.
  float teleportDistance = 1.0f;
  float teleportAngle = 1.5707963f;
  // Fixed steps simulated, with the root and the animated pose held still, before the first
  // output after creation, reset() and teleport(): the chain starts settled instead of falling
  // from its bind pose. 0 = off.
  int warmupSteps = 0;
  // m: no joint strays farther than this from where the animated pose (the root and the
  // animated local rotations, World::setChainPose; the rest pose without it) puts it, enforced
  // after every substep; it wins over bone lengths and collisions. Times maxDistanceCurve and the
  // root's scale. 0 = off.
  float maxDistance = 0;

  // Backstop (chain/backstop.h): each joint j >= 1 is kept in front of a surface behind where the
  // animated pose puts it (A_j, as for maxDistance). The front direction N is backstopNormal
  // (normalised) in the animated frame of j's parent joint (the frame the bone into j hangs in;
  // the root's for joint 1's parent 0 times its animated rotation), so it follows the animation;
  // d = backstopDistance x backstopCurve (m, how far behind A_j the surface starts) and
  // R = backstopRadius (m), both times the root's scale:
  //   R = 0: a plane,  C(x) = (x - A_j).N + d >= 0
  //   R > 0: a sphere, C(x) = |x - (A_j - N (d + R))| - R >= 0 (touching that plane at A_j - N d)
  // Enforced after every substep, after collisions; maxDistance wins where both cannot hold.
  // Wisp mode only.
  bool backstop = false;
  Vec3 backstopNormal{0, 0, 1};
  float backstopDistance = 0;
  float backstopRadius = 0;

  // In ChainMode::Vrm the per-joint values mean what VRMC_springBone's do (per frame, three-vrm):
  //   stiffness -> stiffness (the displacement stiffness * delta along the rest axis),
  //   damping   -> dragForce (0..1 of the velocity removed per update),
  //   gravityScale * |gravity| -> gravityPower, gravity direction -> gravityDir,
  //   radius    -> hitRadius.  Elasticity, drag, limits, hinge and inertia are not used.
  //   vrmLimits -> VRMC_springBone_limit per joint, vrmWind -> air coupling (off by default).

  // VRM mode: vrmLimits[k] limits bone k (joint k to joint k + 1, VRM's joint k); at most one per
  // bone, missing ones are none. Applied after the length constraint and after every collider
  // push (the draft's order). Empty = no limits (three-vrm's behaviour).
  std::vector<VrmLimit> vrmLimits;
  // VRM mode, dimensionless: the air velocity at the joint (m/s, world wind and zones) times this
  // is added to the tail's motion per second, as gravityDir * gravityPower is:
  //   next += air * vrmWind * delta.
  // 0 = off (three-vrm's update, bit for bit). In [0, 100].
  float vrmWind = 0;

  Curve dampingCurve, stiffnessCurve, elasticityCurve, inertiaCurve, gravityCurve, externalForceCurve,
      radiusCurve, limitAngleCurve, maxDistanceCurve, backstopCurve;
  // Sleep and update rate, as RopeParams::sleepSpeed / sleepTime / updateEvery.
  float sleepSpeed = 0.0f;
  float sleepTime = 1.0f;
  int32_t updateEvery = 1;
};

// Timed multipliers (World::boostChain), e.g. stiffness x3 during a fast turn: while a boost
// runs, each parameter is multiplied by 1 + (m - 1) f, where f falls linearly from 1 (the first
// fixed step after the call) to 0 (`seconds` of the chain's simulated time later); then every
// multiplier is exactly 1 again. Each in [0, 100]; 1 leaves that parameter alone.
struct ChainBoost {
  float stiffness = 1;  // times ChainParams::stiffness (x curve)
  float damping = 1;    // times damping (VRM mode: dragForce, at most 1 after it)
  float drag = 1;       // times drag (air coupling)
  float gravity = 1;    // times gravityScale (x curve)
};

// A joint in its parent's frame (joint 0: in the root's frame): the bone hierarchy of a rig.
struct ChainJoint {
  Vec3 position;   // m, local offset from the parent joint
  Quat rotation;   // local rest rotation (only the output rotations depend on it)
};

struct ChainDef {
  Transform root;                 // world pose of the root at creation
  // Either `joints` (a bone hierarchy, 2 or more), or `points`: world rest positions (2 or more),
  // the bones then keep the root's orientation.
  std::vector<ChainJoint> joints;
  std::vector<Vec3> points;
  // m: adds a tip past the last joint, continuing the last bone, so the last joint rotates too.
  float endLength = 0;
  ChainParams params;
};

// Settled-state measures for tests and the playground.
struct ChainStats {
  int joints = 0;          // including the end tip
  float maxLengthError = 0;  // m, the largest |bone length - rest length| after the last step
  float maxSpeed = 0;      // m/s of the fastest joint after the last step
  int teleports = 0;       // root jumps handled as teleports so far
  float physicsWeight = 1; // the physics weight now (World::setChainPhysicsWeight)
};

}  // namespace wisp
