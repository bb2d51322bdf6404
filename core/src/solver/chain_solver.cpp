// One spring-bone chain, one frame. Two update rules share the state:
//
// ChainMode::Wisp, per substep h, in stages:
//   Carry      the root's (and space's) motion, by the share that is inherited rigidly
//   Integrate  v <- (v + h (g + f + drag v_air)) / (1 + h (damping + drag));
//              x~ = x + h (v + reaction), the reaction the joint's child left it (below)
//   SolveBones root to tip, bone k from joint k (solved) to joint k+1:
//              the animated direction r = R_parent L_k c_k, R_parent the parent's *simulated*
//              rotation, so a curl keeps its shape as the base swings; a damped spring toward
//              the target T = x_k + r l_k (backward Euler, stable for any stiffness):
//                 dx = (w^2 h^2 (T - x~) - 2 z w h^2 (v - v_parent)) / (1 + w^2 h^2 + 2 z w h)
//              with w = stiffness (1/s), z = 1 - elasticity; then hinge and cone limits, the
//              exact bone length l_k, and collisions of the bone's capsule (colliders/bone_contact.h)
//   UpdateVelocity (inside SolveBones, as each joint is final)  v = (x - x_start) / h, with
//              contacts that only stop motion, the follow-the-leader reaction kept for the next
//              substep, and no energy gained in the solve (see there)
// Joint 0 rides the root. Bone lengths are exact after every substep (follow-the-leader).
//
// ChainMode::Vrm: three-vrm's VRMSpringBoneJoint.update, once per fixed step (delta = fixedDt):
//   next = x + (x - x_prev)(1 - dragForce) + axis stiffness delta + gravityDir gravityPower delta
//   then the bone length, then for each collider: push the tail out along the contact normal
//   and restore the length. Same order, same formulas, so a VRM rig moves as it does there.
//   Two additions, both off by default (then the update is three-vrm's, bit for bit):
//   VRMC_springBone_limit (constraints/vrm_limit.h) after the length and after every push, and
//   next += air vrmWind delta before the length.
#include <algorithm>
#include <new>

#include "chain/backstop.h"
#include "chain/boost.h"
#include "chain/chain_state.h"
#include "chain/physics_weight.h"
#include "checks/invariants.h"
#include "particles/fastest.h"
#include "particles/rigid_motion.h"
#include "colliders/bone_contact.h"
#include "constraints/angle_limit.h"
#include "constraints/vrm_limit.h"
#include "forces/integrate.h"
#include "forces/wind_field.h"
#include "math/frame.h"
#include "math/quat.h"
#include "solver/chain_frame.h"
#include "solver/chain_lanes.h"
#include "solver/chain_lanes_wisp.h"
#include "solver/chain_wisp_parts.h"

namespace wisp {

// Moves joints [begin, end) (carry: 1..) by `share` of the rigid motion from pose a to pose b
// (about a's origin): positions, substep-start positions and carried reactions (q) move,
// velocities turn, so no velocity is injected.
// share 1 is the whole motion; a partial share turns by the nlerp'd rotation. Joint 0 is not
// moved (it rides the root) but what the carry would do to it is added to the carry velocity w
// (when invH > 0): the pose spring compares velocities in the carried frame.
// The joints' arrays are `s` (the chain's own, or its lane of a lane group's block; the lane
// kernel moves joints 1.. on the lanes with these operations, chain_lanes_wisp.cpp).
void carryJoints(ChainState& c, const JointArrays& s, const Transform& a, const Transform& b, const float* share,
                 float uniform, float invH, int begin, int end) {
  if (a.position.x == b.position.x && a.position.y == b.position.y && a.position.z == b.position.z &&
      a.rotation.x == b.rotation.x && a.rotation.y == b.rotation.y && a.rotation.z == b.rotation.z &&
      a.rotation.w == b.rotation.w)
    return;
  bool any = false;  // a joint to move (most chains carry none of the root's motion: inertia 0)
  for (int j = begin; j < end && !any; ++j) any = !((share ? share[j] : uniform) <= 0.0f);
  if (!any) return;
  const Quat full = rotationFromTo(a.rotation, b.rotation);
  const Vec3 move = b.position - a.position;
  for (int j = begin; j < end; ++j) {
    float sj = share ? share[j] : uniform;
    if (sj <= 0.0f || (j == 0 && invH <= 0.0f)) continue;
    Quat q = sj >= 1.0f ? full : nlerp(Quat{}, full, sj);
    Vec3 t = sj >= 1.0f ? move : move * sj;
    const MatrixMotion m = matrixFromPoseTo(q, a.position, a.position + t);
    if (j == 0) {
      const Vec3 p = m.point(Vec3{s.px[0], s.py[0], s.pz[0]});
      c.wx += (p.x - s.px[0]) * invH;
      c.wy += (p.y - s.py[0]) * invH;
      c.wz += (p.z - s.pz[0]) * invH;
      continue;
    }
    const int i = j * s.stride;
    auto movePoint = [&](float* x, float* y, float* z) {
      const Vec3 p = m.point(Vec3{x[i], y[i], z[i]});
      x[i] = p.x; y[i] = p.y; z[i] = p.z;
    };
    movePoint(s.px, s.py, s.pz);
    movePoint(s.ox, s.oy, s.oz);
    movePoint(s.qx, s.qy, s.qz);
    const Vec3 v = m.vector(Vec3{s.vx[i], s.vy[i], s.vz[i]});
    s.vx[i] = v.x; s.vy[i] = v.y; s.vz[i] = v.z;
  }
}
namespace {

void carry(ChainState& c, const JointArrays& s, const Transform& a, const Transform& b, const float* share, float uniform,
           float invH) {
  carryJoints(c, s, a, b, share, uniform, invH, 0, c.joints());
}
void carry(ChainState& c, const Transform& a, const Transform& b, const float* share, float uniform, float invH) {
  carry(c, JointArrays::of(c), a, b, share, uniform, invH);
}

// The pose `p` after `share` of the motion a -> b (what carry() does to a point).
Transform carried(const Transform& p, const Transform& a, const Transform& b, float share) {
  if (share <= 0.0f) return p;
  Quat full = rotationFromTo(a.rotation, b.rotation);
  Quat q = share >= 1.0f ? full : nlerp(Quat{}, full, share);
  Vec3 t = (b.position - a.position) * (share >= 1.0f ? 1.0f : share);
  const RigidMotion m = fromPoseTo(q, a.position, a.position + t);
  return {m.point(p.position), m.rotation(p.rotation)};
}

bool isTeleport(const ChainState& c, const Transform& a, const Transform& b) {
  const ChainParams& p = c.params;
  if (p.teleportDistance > 0 && length(b.position - a.position) > p.teleportDistance * c.scale) return true;
  return p.teleportAngle > 0 && halfAngleCos(a.rotation, b.rotation) < c.cosHalfTeleport;
}

Vec3 pos(const ChainState& c, int j) { return {c.px[j], c.py[j], c.pz[j]}; }
void setPos(ChainState& c, int j, Vec3 p) { c.px[j] = p.x; c.py[j] = p.y; c.pz[j] = p.z; }

// Joint k's rotation once bone k points along `dir` (unit, world): math/quat.h's swingRotation
// of its rest rotation restRot (under the simulated parent `parent`) from the rest direction r.
// The next bone needs the world rotation every substep; the output rotations (the local one
// under `parent`) are written only when `output` (the frame's last substep).
void swingJoint(ChainState& c, int k, Quat parent, Quat restRot, Vec3 r, Vec3 dir, bool output) {
  const Quat world = swingRotation(restRot, r, dir, c.childAxis[k]);
  c.simRotation[k] = world;
  if (output) c.writeJointRotations(k, world, normalize(mul(conjugate(parent), world)));
}

void orientLast(ChainState& c, Quat parent, bool output) {
  int k = c.joints() - 1;
  c.simRotation[k] = normalize(mul(parent, c.target(k)));
  if (output) c.writeJointRotations(k, c.simRotation[k], c.target(k));
}

}  // namespace

// m/s: the velocity of the collider's material point at x over the substep (before -> now).
Vec3 surfaceVelocity(const ColliderPose& before, const ColliderPose& now, Vec3 x, float invH) {
  return (x - followFrame(now, before, x)) * invH;
}

// Pushes the bone's tail x out of one collider and records the contact; true if it moved.
bool collideBone(const ColliderPose& pose, const ColliderPose& before, float bound, Vec3 a, Vec3& x, Vec3& d,
                 float len, float radius, float invH, JointContacts& contacts) {
  if (bound < 1.0e38f) {  // far from the bounding sphere: no contact possible
    Vec3 q = a + (x - a) * closestParam(a, x, pose.position);
    // with a margin far above rounding, so that skipping never changes a result
    float reach = (bound + radius) * 1.01f + 1e-4f;
    if (lengthSq(q - pose.position) > reach * reach) return false;
  }
  BoneContact hit = boneContact(pose, a, x, radius);
  if (hit.depth <= 0.0f) return false;
  x += hit.normal * (hit.depth / std::max(hit.t, 0.25f));
  d = normalizeOr(x - a, d);
  x = a + d * len;
  contacts.add(hit.normal, surfaceVelocity(before, pose, x, invH));
  return true;
}

// Velocity of a joint that met colliders. What it moved over the substep (v), except that a
// contact only stops motion, it never starts it: the push that resolves a penetration is a
// position correction, and as velocity it would be depth / h (plus the turn of the bone about
// its parent to follow it), which grows without bound with the substep count: a chain grazing a
// head at rest was fired off it. So relative to each surface the normal velocity stays at most
// what it was before the contacts (vBefore) and at least 0 (inelastic), and the speed is at
// most the speed before the contacts.
Vec3 contactVelocity(Vec3 v, Vec3 vBefore, const JointContacts& contacts) {
  for (int i = 0; i < contacts.count; ++i) {
    const Vec3 n = contacts.normal[i], s = contacts.surface[i];
    const float vn = dot(v - s, n);
    const float allowed = std::max(dot(vBefore - s, n), 0.0f);
    if (vn > allowed) v -= n * (vn - allowed);
    const float before = lengthSq(vBefore - s), after = lengthSq(v - s);
    if (after > before) v = s + (v - s) * std::sqrt(before / after);
  }
  return v;
}

namespace {

// ---- ChainMode::Wisp ----------------------------------------------------------------------

// The colliders a chain meets in one substep: their poses computed once per substep (not per
// bone), with a bounding radius for a cheap rejection of far ones. The poses are the world's
// per-frame table's (StepContext::posedCollider), pointed to rather than copied: the copies (and
// the zeroing of 64 default-constructed poses) were a large part of a substep without contacts;
// only without a table are they posed here, into `own`, whose slots are constructed as used.
struct SubstepColliders {
  static constexpr int kCached = kSubstepCollidersCached;  // more than this are posed on the fly
  const ColliderPose* pose[kCached];
  const ColliderPose* before[kCached];  // at the start of the substep, for the surface's velocity
  float bound[kCached];
  int count = 0;
  alignas(ColliderPose) unsigned char own[2 * kCached * sizeof(ColliderPose)];
  const ColliderPose* keep(int slot, const ColliderPose& p) { return new (own + slot * sizeof(ColliderPose)) ColliderPose(p); }
};

// Substep `sub` runs from tPrev to tNow (fractions of the frame, times pathScale).
void poseColliders(const StepContext& ctx, uint32_t mask, int sub, float tPrev, float tNow, SubstepColliders* out) {
  out->count = 0;
  for (int ci = 0; ci < ctx.colliderCount && out->count < SubstepColliders::kCached; ++ci) {
    const ColliderPath& path = ctx.colliders[ci];
    if ((path.groups & mask) == 0) continue;
    const ColliderPose* before = ctx.posedCollider(sub, ci);  // posed once for every chain
    const int i = out->count;
    out->pose[i] = before ? before + ctx.colliderCount : out->keep(2 * i, poseAt(path, tNow));
    out->before[i] = before ? before : out->keep(2 * i + 1, poseAt(path, tPrev));
    out->bound[i] = boundingRadius(*out->pose[i]);
    ++out->count;
  }
}

void solveBones(ChainState& c, const StepContext& ctx, Quat rootRotation, int sub, float tPrev, float tNow, float h,
                bool output) {
  const ChainParams& p = c.params;
  const bool collide = collides(c, ctx);
  const bool limited = p.limitAngle < 3.14159f || !p.limitAngleCurve.empty();
  SubstepColliders near;
  tPrev *= ctx.pathScale;
  tNow *= ctx.pathScale;
  if (collide) poseColliders(ctx, p.colliderMask, sub, tPrev, tNow, &near);
  const bool overflow = collide && near.count == SubstepColliders::kCached;
  Quat parent = rootRotation;
  // where the animated pose puts joint k (forward kinematics from the root), for maxDistance and
  // the backstop
  const bool leashed = p.maxDistance > 0.0f;
  const bool backstopped = p.backstop;
  const Vec3 backstopNormal = backstopped ? normalizeOr(p.backstopNormal, Vec3{0, 0, 1}) : Vec3{0, 0, 1};
  const float backstopRadius = p.backstopRadius * c.scale;
  Transform animated{pos(c, 0), mul(rootRotation, c.target(0))};
  // joint 0's velocity in the carried frame (the frame stored velocities are in), and twice the
  // kinetic energy per unit mass relative to it: what forces and the spring gave, and what is left
  const Vec3 v0 = Vec3{c.px[0] - c.ox[0], c.py[0] - c.oy[0], c.pz[0] - c.oz[0]} * ctx.invH - Vec3{c.wx, c.wy, c.wz};
  float energyGiven = 0.0f, energyNow = 0.0f;
  JointContacts contacts;  // each joint's (constructed once: its arrays are zeroed)
  for (int k = 0; k + 1 < c.joints(); ++k) {
    const int j = k + 1;
    const Quat restRot = mul(parent, c.target(k));
    // unit as it stands: a unit axis turned by a product of unit rotations (the inputs are
    // normalised where they enter, a loaded snapshot's are checked unit), so it is not normalised
    // again; off the bone's serial chain that is a square root and a division per bone
    const Vec3 r = rotate(restRot, c.childAxis[k]);
    const float len = c.boneLength[k];
    const Vec3 a = pos(c, k);
    Vec3 x = pos(c, j);
    // m/s: the velocity forces and the pose spring gave the joint this substep (see the end)
    Vec3 given{c.vx[j], c.vy[j], c.vz[j]};

    // damped spring toward the animated pose
    const float w = c.jStiffness[j] * c.boostNow.stiffness;
    if (w > 0.0f) {
      const Vec3 target = a + r * len;
      const float z2w = 2.0f * (1.0f - c.jElasticity[j]) * w;
      // velocities in the carried frame: stored velocities leave the carry out; joint 0's
      // displacement is the root's, minus what the carry would have done to it
      Vec3 vParent = Vec3{c.px[k] - c.ox[k], c.py[k] - c.oy[k], c.pz[k] - c.oz[k]} * ctx.invH;
      if (k == 0) vParent -= Vec3{c.wx, c.wy, c.wz};
      const Vec3 vRel = Vec3{c.vx[j], c.vy[j], c.vz[j]} - vParent;
      const float w2h2 = w * w * h * h;
      const Vec3 pull = (((target - x) * w2h2) - vRel * (z2w * h * h)) * (1.0f / (1.0f + w2h2 + z2w * h));
      x += pull;
      given += pull * ctx.invH;
    }

    Vec3 d = normalizeOr(x - a, r);
    if (p.hinge) d = limitHinge(d, normalizeOr(rotate(restRot, p.hingeAxis), Vec3{1, 0, 0}), r);
    if (limited) d = limitCone(d, r, c.jCosLimit[j], c.jSinLimit[j]);
    x = a + d * len;

    contacts.count = 0;
    const Vec3 beforeContact = x;
    if (collide) {
      const float radius = c.jRadius[j];
      // a second pass only when the first moved the bone: one push can lead into another collider
      for (int pass = 0; pass < 2; ++pass) {
        bool moved = false;
        for (int ci = 0; ci < near.count; ++ci) moved |= collideBone(*near.pose[ci], *near.before[ci], near.bound[ci], a, x, d, len, radius, ctx.invH, contacts);
        if (overflow) {
          int seen = 0;
          for (int ci = 0; ci < ctx.colliderCount; ++ci) {
            const ColliderPath& path = ctx.colliders[ci];
            if ((path.groups & p.colliderMask) == 0 || seen++ < SubstepColliders::kCached) continue;
            ColliderPose pose = poseAt(path, tNow);
            moved |= collideBone(pose, poseAt(path, tPrev), boundingRadius(pose), a, x, d, len,
                                 radius, ctx.invH, contacts);
          }
        }
        if (!moved) break;
      }
    }
    if (leashed || backstopped) {
      const Quat animatedParent = animated.rotation;
      animated = compose(animated, c.localPosition[j], c.target(j));
      if (backstopped) {
        // in front of the backstop behind the animated position (chain/backstop.h), after contacts
        x = keepInFrontOfBackstop(x, animated.position, rotate(animatedParent, backstopNormal), c.jBackstop[j], backstopRadius);
        d = normalizeOr(x - a, d);
      }
    }
    if (leashed) {
      // max distance from the animated pose: the joint is put back on the sphere around where the
      // animation has it; this wins over the bone length, contacts and the backstop (a hard promise)
      const Vec3 animatedAt = animated.position;
      const Vec3 off = x - animatedAt;
      const float far = length(off), allowed = c.jMaxDistance[j];
      if (far > allowed) {
        x = animatedAt + off * (allowed / far);
        d = normalizeOr(x - a, d);
      }
    }
    setPos(c, j, x);
    // Stage UpdateVelocity for joint j, final now (later bones move only their own tails): the
    // velocity is what the joint moved, with contacts' pushes kept out of it (contactVelocity).
    const Vec3 o{c.ox[j], c.oy[j], c.oz[j]};
    Vec3 v = (x - o) * ctx.invH;
    if (contacts.count > 0) v = contactVelocity(v, (beforeContact - o) * ctx.invH, contacts);
    // Follow-the-leader moves only the child of each bone, which is not momentum conserving:
    // energy drifts to the tip and it never comes to rest. The parent also takes back most of
    // the correction the bone gave its child (Mueller et al. 2012, "Fast simulation of
    // inextensible hair and fur", s = 0.9), as if the bone had pulled on both ends. That
    // reaction acts in the next substep; it is kept apart from the velocity (as the point
    // q = x + h reaction) so that a joint that does not move has zero velocity. Only the bone's
    // own correction counts: a collider's push is not the parent's to take back.
    if (k > 0) {
      const Vec3 boneCorrection = (beforeContact - Vec3{c.qx[j], c.qy[j], c.qz[j]});
      const Vec3 parentAt = pos(c, k) - boneCorrection * kFtlDamping;
      c.qx[k] = parentAt.x; c.qy[k] = parentAt.y; c.qz[k] = parentAt.z;
    }
    c.vx[j] = v.x; c.vy[j] = v.y; c.vz[j] = v.z;
    energyGiven += lengthSq(given - v0);
    energyNow += lengthSq(v - v0);
    swingJoint(c, k, parent, restRot, r, d, output);
    parent = c.simRotation[k];
  }
  // Follow-the-leader is not energy conserving: each joint is dragged by its parent's
  // correction, and the reactions above feed some of it back. Bones, limits and contacts are
  // workless constraints (or take energy away), so the chain's kinetic energy relative to joint 0
  // may not exceed what gravity, wind, damping and the pose spring left it (`given`): any excess
  // is taken out of every joint's velocity relative to joint 0 in proportion. Relative to
  // joint 0, the root's own motion still drives the chain (its acceleration enters `given`).
  if (energyNow > energyGiven) {
    const float scale = std::sqrt(energyGiven / energyNow);
    for (int j = 1; j < c.joints(); ++j) {
      const Vec3 v = v0 + (Vec3{c.vx[j], c.vy[j], c.vz[j]} - v0) * scale;
      c.vx[j] = v.x; c.vy[j] = v.y; c.vz[j] = v.z;
    }
  }
  const int last = c.joints() - 1;  // the tip has no child: no reaction
  if (last > 0) { c.qx[last] = c.px[last]; c.qy[last] = c.py[last]; c.qz[last] = c.pz[last]; }
  orientLast(c, parent, output);
}

// Per frame: the teleport check and what every substep reads.
void wispFrameBegin(ChainState& c, const StepContext& ctx, ChainFrame& f) {
  const ChainParams& p = c.params;
  f.relative = p.space == ChainSpace::Relative;
  f.rootStart = c.rootFrom;
  f.spaceStart = c.ownSpace ? c.spaceFrom : c.rootFrom;
  f.spaceEnd = c.ownSpace ? c.spaceTo : c.rootTo;

  // A jump too large to be motion: carry the chain there whole, shape and velocities intact.
  if (isTeleport(c, f.rootStart, c.rootTo)) {
    carry(c, f.rootStart, c.rootTo, nullptr, 1.0f, 0.0f);
    setPos(c, 0, betweenFrames(f.rootStart, c.rootTo).point(pos(c, 0)));  // joint 0 too: it is not carried
    c.ox[0] = c.px[0]; c.oy[0] = c.py[0]; c.oz[0] = c.pz[0];
    f.rootStart = c.rootTo;
    f.spaceStart = f.spaceEnd;
    ++c.teleports;
  }

  f.gravity = gravityOf(c, ctx);
  f.turbulent = ctx.airVaries && p.drag > 0.0f;
  if (f.turbulent) c.sizeAirSamples();
  f.prevRoot = f.rootStart;
  f.prevSpace = f.spaceStart;
  f.root = f.rootStart;
  f.poison = 0.0f;
}

}  // namespace

Transform planWispSubstep(ChainState& c, const StepContext& ctx, ChainFrame& f, int sub, CarryPlan* plan,
                          const Transform* rootNow) {
  const ChainParams& p = c.params;
  const float tNow = static_cast<float>(sub + 1) / static_cast<float>(ctx.totalSubsteps);
  const Transform root = rootNow ? *rootNow : interpolate(f.rootStart, c.rootTo, tNow);
  f.root = root;
  animatedPoseAt(c, tNow);

  // Stage Carry: the space's motion (minus what is felt as inertia), then what is left of the
  // root's own motion, by each joint's inertia share.
  Transform rootBefore = f.prevRoot;
  c.wx = c.wy = c.wz = 0.0f;
  plan->space = f.relative;
  if (f.relative) {
    const Transform space = interpolate(f.spaceStart, f.spaceEnd, tNow);
    const float share = 1.0f - p.spaceInertia;
    plan->spaceFrom = f.prevSpace;
    plan->spaceTo = space;
    plan->spaceShare = share;
    rootBefore = carried(f.prevRoot, f.prevSpace, space, share);
    f.prevSpace = space;
  }
  plan->rootFrom = rootBefore;
  plan->rootTo = root;
  f.prevRoot = root;
  return root;
}

void sampleWispStep(ChainState& c, const JointArrays& joints, const StepContext& ctx, const ChainFrame& f, int sub) {
  // the air where it varies, sampled first at the start of each fixed step; the boost's
  // multipliers too
  if (ctx.startsStep(sub)) {
    if (f.turbulent) sampleAir(c, joints.px, joints.py, joints.pz, joints.stride, 1, c.joints(), ctx.wind, ctx.airTime(sub));
    c.boostNow = boostAt(c, ctx.h * static_cast<float>(sub));
  }
}

Transform beginWispSubstep(ChainState& c, const JointArrays& joints, const StepContext& ctx, ChainFrame& f, int sub) {
  CarryPlan plan;
  const Transform root = planWispSubstep(c, ctx, f, sub, &plan);
  if (plan.space) carry(c, joints, plan.spaceFrom, plan.spaceTo, nullptr, plan.spaceShare, ctx.invH);
  carry(c, joints, plan.rootFrom, plan.rootTo, c.jInertia.data(), 0.0f, ctx.invH);
  sampleWispStep(c, joints, ctx, f, sub);
  return root;
}

namespace {

void wispSubstep(ChainState& c, const StepContext& ctx, ChainFrame& f, int sub) {
  const ChainParams& p = c.params;
  const int n = c.joints();
  const float h = ctx.h;
  const Vec3 g = f.gravity;
  const bool turbulent = f.turbulent;
  const Vec3 meanAir = ctx.wind.global.mean;
  const int total = ctx.totalSubsteps;
  float poison = f.poison;
  {
    const float tNow = static_cast<float>(sub + 1) / static_cast<float>(total);
    const Transform root = beginWispSubstep(c, JointArrays::of(c), ctx, f, sub);  // Stage Carry

    // Stage Integrate
    const ChainBoost& boost = c.boostNow;
    for (int j = 1; j < n; ++j) {
      Vec3 x = pos(c, j);
      const float drag = p.drag * boost.drag;
      Vec3 air = turbulent ? Vec3{c.airx[j], c.airy[j], c.airz[j]} : meanAir;
      Vec3 acc = g * (c.jGravity[j] * boost.gravity) + p.externalForce * c.jExternal[j] + air * drag;
      const float k = 1.0f / (1.0f + h * (c.jDamping[j] * boost.damping + drag));
      // the velocity plus the reaction its child's bone left it last substep (q - x, see SolveBones)
      const Vec3 reaction = (Vec3{c.qx[j], c.qy[j], c.qz[j]} - x) * ctx.invH;
      Vec3 v = (Vec3{c.vx[j], c.vy[j], c.vz[j]} + acc * h) * k;
      c.ox[j] = x.x; c.oy[j] = x.y; c.oz[j] = x.z;
      x += (v + reaction * k) * h;
      poison += (x.x - x.x) + (x.y - x.y) + (x.z - x.z);  // 0 unless something is not finite
      setPos(c, j, x);
      c.qx[j] = x.x; c.qy[j] = x.y; c.qz[j] = x.z;
      c.vx[j] = v.x; c.vy[j] = v.y; c.vz[j] = v.z;
    }
    // joint 0 rides the root
    c.ox[0] = c.px[0]; c.oy[0] = c.py[0]; c.oz[0] = c.pz[0];
    setPos(c, 0, fromFrame(root, c.localPosition[0]));

    const float tPrev = static_cast<float>(sub) / static_cast<float>(total);
    solveBones(c, ctx, root.rotation, sub, tPrev, tNow, h, sub + 1 == total);  // Stage SolveBones

    // Stage UpdateVelocity (joint 0; the others in SolveBones)
    c.vx[0] = (c.px[0] - c.ox[0]) * ctx.invH;
    c.vy[0] = (c.py[0] - c.oy[0]) * ctx.invH;
    c.vz[0] = (c.pz[0] - c.oz[0]) * ctx.invH;
  }
  f.poison = poison;
}

void wispFrameEnd(ChainState& c, const ChainFrame& f) {
  // A non-finite joint is lost: bone normalization would put it back on its rest direction and
  // velocities are re-derived from positions every substep, so nothing would show it. The
  // velocities keep it, for the world to reset the chain and report it.
  if (!(f.poison == 0.0f))
    for (int j = 1; j < c.joints(); ++j) c.vx[j] += f.poison;
}

void wispFrame(ChainState& c, const StepContext& ctx) {
  ChainFrame f;
  wispFrameBegin(c, ctx, f);
  for (int sub = 0; sub < ctx.totalSubsteps; ++sub) wispSubstep(c, ctx, f, sub);
  wispFrameEnd(c, f);
}

// ---- ChainMode::Vrm -----------------------------------------------------------------------

// State per joint j >= 1: q = VRM's current tail, o = its previous tail, x = the bone's
// position as the skeleton shows it (rest length from its parent). three-vrm measures each bone's
// length as the distance from its head now to its child's position as the skeleton last showed
// it (the child's world matrix is only refreshed after its own update), so the tail is kept at
// that length, not the rest length; the same is done here.
void vrmFrame(ChainState& c, const StepContext& ctx) {
  const int n = c.joints();
  const bool collide = collides(c, ctx);
  const float delta = ctx.stepDt;  // one fixed step
  const float invDelta = 1.0f / delta;
  const Vec3 g = gravityOf(c, ctx);
  const uint32_t mask = c.params.colliderMask;
  // VRM wind (ChainParams::vrmWind, off by default): the air at each joint, sampled once per
  // fixed step where it varies from point to point
  const bool windy = c.params.vrmWind > 0.0f;
  const bool turbulent = windy && ctx.airVaries;
  if (turbulent) c.sizeAirSamples();
  const Vec3 meanAir = ctx.wind.global.mean;
  auto air = [&](int j) { return turbulent ? Vec3{c.airx[j], c.airy[j], c.airz[j]} : meanAir; };
  for (int s = 0; s < ctx.fixedSteps; ++s) {
    const float tNow = static_cast<float>(s + 1) / static_cast<float>(ctx.fixedSteps);
    const Transform root = interpolate(c.rootFrom, c.rootTo, tNow);
    animatedPoseAt(c, tNow);
    const ChainBoost boost = boostAt(c, delta * static_cast<float>(s));
    if (turbulent) sampleAir(c, 1, n, ctx.wind, ctx.airTime(s * ctx.substeps));
    c.vx[0] = c.vy[0] = c.vz[0] = 0;
    setPos(c, 0, fromFrame(root, c.localPosition[0]));
    Quat parent = root.rotation;
    for (int k = 0; k + 1 < n; ++k) {
      const int j = k + 1;
      const Quat restRot = mul(parent, c.target(k));
      const Vec3 axis = normalizeOr(rotate(restRot, c.childAxis[k]), c.childAxis[k]);
      const Vec3 a = pos(c, k);
      const Vec3 cur{c.qx[j], c.qy[j], c.qz[j]}, prev{c.ox[j], c.oy[j], c.oz[j]};
      const float len = length(pos(c, j) - a);  // to the child as last shown (see above)
      // (a boosted dragForce stays a fraction: at most 1)
      const float dragForce = std::min(c.jDamping[j] * boost.damping, 1.0f);
      Vec3 next = cur + (cur - prev) * (1.0f - dragForce) + axis * (c.jStiffness[j] * boost.stiffness * delta) +
                  g * (c.jGravity[j] * boost.gravity * delta);
      if (windy) next += air(j) * (c.params.vrmWind * boost.drag * delta);
      const VrmLimitFrame& limit = c.vrmLimit[k];
      next = a + normalizeOr(next - a, axis) * len;
      if (limit.type != VrmLimitType::None) next = a + applyVrmLimit(normalizeOr(next - a, axis), restRot, limit) * len;
      if (collide)
        for (int ci = 0; ci < ctx.colliderCount; ++ci) {
          const ColliderPath& path = ctx.colliders[ci];
          if ((path.groups & mask) == 0) continue;
          SurfacePoint sp = signedDistance(poseAt(path, tNow * ctx.pathScale), next);
          float dist = sp.distance - c.jRadius[j];
          if (dist < 0.0f) {
            next += sp.normal * -dist;
            next = a + normalizeOr(next - a, axis) * len;
            if (limit.type != VrmLimitType::None) next = a + applyVrmLimit(normalizeOr(next - a, axis), restRot, limit) * len;
          }
        }
      c.ox[j] = cur.x; c.oy[j] = cur.y; c.oz[j] = cur.z;
      c.qx[j] = next.x; c.qy[j] = next.y; c.qz[j] = next.z;
      c.vx[j] = (next.x - cur.x) * invDelta;
      c.vy[j] = (next.y - cur.y) * invDelta;
      c.vz[j] = (next.z - cur.z) * invDelta;
      const Vec3 dir = normalizeOr(next - a, axis);
      setPos(c, j, a + dir * c.boneLength[k]);
      swingJoint(c, k, parent, restRot, axis, dir, true);
      parent = c.simRotation[k];
    }
    orientLast(c, parent, true);
  }
}

// ChainParams::warmupSteps fixed steps with the root, the space, the animated pose and the
// colliders held where this frame starts: the chain settles there before its first output.
void warmUp(ChainState& c, const StepContext& ctx) {
  c.warmupPending = false;
  if (c.params.warmupSteps <= 0) return;
  const Transform rootTo = c.rootTo, spaceTo = c.spaceTo;
  c.rootTo = c.rootFrom;
  c.spaceTo = c.spaceFrom;
  if (c.animated) std::copy(c.animFrom.begin(), c.animFrom.end(), c.animEnd.begin());
  StepContext still = ctx;
  still.setTiming(c.params.warmupSteps, ctx.substeps, ctx.h);
  still.pathScale = 0;
  if (c.params.mode == ChainMode::Vrm) vrmFrame(c, still);
  else wispFrame(c, still);
  c.rootTo = rootTo;
  c.spaceTo = spaceTo;
}

}  // namespace

void beginChainFrame(ChainState& c, const StepContext& ctx, ChainFrame* f) {
  if (c.warmupPending) warmUp(c, ctx);
  // where this frame's last fixed step ends on the line between the last two animated targets
  if (c.animated)
    for (int j = 0; j < c.joints(); ++j) c.animEnd[j] = nlerp(c.animPrev[j], c.animTo[j], ctx.alpha);
  // Like anchors: the frame's last fixed step ends `alpha` of the way along the line from the
  // previous frame's root (and space) target to this one's, not on this frame's target; a jump
  // past the teleport thresholds goes all the way. The frame runs toward that end pose.
  f->rootTarget = c.rootTo;
  f->spaceTarget = c.spaceTo;
  if (ctx.alpha < 1.0f && !isTeleport(c, c.rootFrom, f->rootTarget)) {
    c.rootTo = interpolate(c.rootPrev, f->rootTarget, ctx.alpha);
    if (c.ownSpace) c.spaceTo = interpolate(c.spacePrev, f->spaceTarget, ctx.alpha);
  }
  if (c.params.mode != ChainMode::Vrm) wispFrameBegin(c, ctx, *f);
}

void chainSubstep(ChainState& c, const StepContext& ctx, ChainFrame& f, int sub) { wispSubstep(c, ctx, f, sub); }

void endChainFrame(ChainState& c, const StepContext& ctx, ChainFrame& f) {
  if (c.params.mode != ChainMode::Vrm) wispFrameEnd(c, f);
  c.maxSpeed = std::sqrt(f.scanned ? f.fastestSq : fastestSpeedSq(c));
  c.rootFrom = c.rootTo;
  c.spaceFrom = c.spaceTo;
  c.rootTo = f.rootTarget;
  c.spaceTo = f.spaceTarget;
  if (c.animated) std::copy(c.animEnd.begin(), c.animEnd.end(), c.animFrom.begin());
  if (!f.scanned) c.writeOutput(0, c.joints());
  advancePhysicsWeight(c, ctx.frameDt);
  advanceBoost(c, ctx.frameDt);
  blendWithAnimation(c);
  // what the world reads after a chain's frame, however it was solved (alone, in a lane group,
  // linked): whether its state went non-finite (it is then reset), and its speed for sleep
  c.broken = !(f.scanned ? f.finite : allFinite(c));
  c.activity.speed = c.maxSpeed;
}

void reorientChain(ChainState& c, Quat rootRotation, bool output) {
  Quat parent = rootRotation;
  for (int k = 0; k + 1 < c.joints(); ++k) {
    const Quat restRot = mul(parent, c.target(k));
    const Vec3 r = normalizeOr(rotate(restRot, c.childAxis[k]), c.childAxis[k]);
    swingJoint(c, k, parent, restRot, r, normalizeOr(pos(c, k + 1) - pos(c, k), r), output);
    parent = c.simRotation[k];
  }
  orientLast(c, parent, output);
}

void simulateVrmChain(ChainState& c, const StepContext& ctx) {
  ChainFrame f;
  beginChainFrame(c, ctx, &f);
  vrmFrame(c, ctx);
  endChainFrame(c, ctx, f);
}

void simulateChain(ChainState& c, const StepContext& ctx) {
  ChainFrame f;
  beginChainFrame(c, ctx, &f);
  if (c.params.mode == ChainMode::Vrm) vrmFrame(c, ctx);
  else {
    for (int sub = 0; sub < ctx.totalSubsteps; ++sub) wispSubstep(c, ctx, f, sub);
  }
  endChainFrame(c, ctx, f);
}

void simulateChainGroups(ChainGroup* groups, int count, const StepContext& ctx) {
  ChainFrame frames[2][wide::kWidth];
  for (int i = 0; i < count; ++i) {
    ChainGroup& g = groups[i];
    g.frames = frames[i];
    for (int l = 0; l < g.count; ++l) beginChainFrame(*g.chains[l], ctx, &g.frames[l]);
  }
  if (groups[0].chains[0]->params.mode == ChainMode::Vrm)
    for (int i = 0; i < count; ++i) solveChainLanes(groups[i].chains, groups[i].count, ctx, groups[i].frames, *groups[i].params);
  else
    solveWispChainLanes(groups, count, ctx);
  for (int i = 0; i < count; ++i)
    for (int l = 0; l < groups[i].count; ++l) endChainFrame(*groups[i].chains[l], ctx, groups[i].frames[l]);
}

}  // namespace wisp
