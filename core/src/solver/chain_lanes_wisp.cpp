// The Wisp rule's lane kernel (solver/chain_lanes_wisp.h). It mirrors wispSubstep and
// solveBones in chain_solver.cpp statement by statement: Integrate, the pose spring, the bone
// length, the velocity update, the follow-the-leader reaction, the energy bound and the joint
// rotations run on the lanes, and so do the carry and a bone's contact with a solid sphere (the
// head that hair is rooted on: colliders/bone_contact_lanes.h); per-chain work (the chain's
// motions, the air and boost samples) and contacts with other shapes run the scalar code per lane.
// Colliders are rejected on the lanes by bounds of the scalar rule's own bounding-sphere test
// (per substep for a whole chain, farBones, then per bone, mayTouch), so in the common case (most
// bones far from most colliders) no lane leaves the SIMD path. Keep the two in step:
// tests/native/test_chain_lanes.cpp compares every state bit with the scalar solver's.
#include "solver/chain_lanes_wisp.h"

#include <cstddef>
#include <cstring>
#include <new>

#include "checks/invariants.h"
#include "colliders/bone_contact_lanes.h"
#include "colliders/shapes.h"
#include "math/frame.h"
#include "math/wide_vec.h"
#include "solver/chain_joint_block.h"
#include "solver/chain_wisp_parts.h"

namespace wisp {

bool wispSolvesInLanes(const ChainState& c) {
  // Batched: inertia and space carry, drag, wind and turbulent air, external force, the pose
  // spring, the bone length, contacts with any collider shape (swept per lane by the scalar
  // code once the lanes' bounding test lets a bone near), the energy bound, animation, boost,
  // teleports and warm-up (frame begin). To the scalar rule: cone limits and hinges
  // (constraints/angle_limit.h), maxDistance and the backstop (per-joint animated forward
  // kinematics), none of them in the hot path of a plain hair or tail.
  const ChainParams& p = c.params;
  const bool limited = p.limitAngle < 3.14159f || !p.limitAngleCurve.empty();
  return !limited && !p.hinge && !(p.maxDistance > 0.0f) && !p.backstop;
}

namespace {

using wide::F4;
using wide::Q4;
using wide::V3;
constexpr int kLanes = wide::kWidth;

// The chains of a group, spare lanes repeating lane 0 (they compute lane 0's bits again and
// store nothing), and the group's blocks: the joints' state in lane order for the whole frame
// (solver/chain_joint_block.h) and their parameters (solver/chain_lane_params.h). A spare lane
// is not carried (the carry runs per stored chain), so its values drift from lane 0's; no stored
// lane reads them.
struct WispLanes {
  ChainState* c[kLanes];
  int count;
  JointBlock* b;
  ParamBlock* p;
};
using JB = JointBlock;
using PB = ParamBlock;

using wide::laneOf;
using wide::quats;
using wide::vecs;
using wide::withLane;
F4 maskOf(const bool (&b)[kLanes]) {
  return wide::lessThan(wide::splat(0.0f), wide::make(b[0] ? 1.0f : 0.0f, b[1] ? 1.0f : 0.0f, b[2] ? 1.0f : 0.0f, b[3] ? 1.0f : 0.0f));
}
// The lanes' positions and rotations: each transform's seven floats are loaded four at a time
// (position and rotation.x; the rotation) and transposed.
void transforms(const Transform (&t)[kLanes], V3* position, Q4* rotation) {
  static_assert(sizeof(Transform) == 7 * sizeof(float) && offsetof(Transform, rotation) == 3 * sizeof(float));
  F4 p[kLanes], q[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    // through a copy: a load of four floats from position.x reads into rotation, past the Vec3
    float f[8];
    std::memcpy(f, &t[l], sizeof(Transform));
    p[l] = wide::load(f);
    q[l] = wide::load(f + 3);
  }
  wide::transpose(p[0], p[1], p[2], p[3]);
  wide::transpose(q[0], q[1], q[2], q[3]);
  *position = {p[0], p[1], p[2]};
  *rotation = {q[0], q[1], q[2], q[3]};
}
bool laneSet(F4 mask, int l) {
  float m[kLanes];
  wide::store(m, mask);
  uint32_t u;
  std::memcpy(&u, &m[l], 4);
  return u != 0;
}

// The colliders of one substep as poseColliders gives them to each chain: pointers into the
// world's per-frame pose table (posed once for every chain), or into `own` where there is no
// table; meets[ci]: the lanes whose chain collides and whose mask takes collider ci (set once per
// frame: masks do not change during a step).
struct LaneColliders {
  const ColliderPose* pose[kSubstepCollidersCached];
  const ColliderPose* before[kSubstepCollidersCached];
  float bound[kSubstepCollidersCached];
  F4 meets[kSubstepCollidersCached];
  F4 meetsStored[kSubstepCollidersCached];  // meets, of the stored lanes only
  bool any[kSubstepCollidersCached];
  // the world's pose table (StepContext::posedCollider) when it holds this context's colliders:
  // whether it does is the same at every substep, so asked once per frame
  const ColliderPose* table = nullptr;
  bool anyLane = false;
  int count = 0;
  // per substep (farBones): bones 0 .. firstBone[ci] - 1 are far from collider ci in every stored
  // lane; farUntil and nearFrom are the greatest and the least firstBone
  int firstBone[kSubstepCollidersCached];
  int farUntil = 0, nearFrom = 0;
  // where there is no pose table; raw storage, constructed as used (64 default-constructed poses
  // per group and frame were a cost of their own)
  alignas(ColliderPose) unsigned char own[2 * kSubstepCollidersCached * sizeof(ColliderPose)];
  const ColliderPose* keep(int slot, const ColliderPose& p) { return new (own + slot * sizeof(ColliderPose)) ColliderPose(p); }
};

void laneColliderMasks(const WispLanes& g, const StepContext& ctx, F4 stored, LaneColliders* out) {
  bool collide[kLanes];
  for (int l = 0; l < kLanes; ++l) collide[l] = collides(*g.c[l], ctx);
  out->count = ctx.colliderCount;
  out->anyLane = false;
  out->table = ctx.colliderCount > 0 ? ctx.posedCollider(0, 0) : nullptr;
  for (int ci = 0; ci < ctx.colliderCount; ++ci) {
    const ColliderPath& path = ctx.colliders[ci];
    bool m[kLanes];
    bool any = false;
    for (int l = 0; l < kLanes; ++l) {
      m[l] = collide[l] && (path.groups & g.c[l]->params.colliderMask) != 0;
      any |= m[l];
    }
    out->any[ci] = any;
    out->anyLane |= any;
    out->meets[ci] = maskOf(m);
    out->meetsStored[ci] = wide::maskAnd(out->meets[ci], stored);
  }
}

void poseLaneColliders(const StepContext& ctx, int sub, float tPrev, float tNow, LaneColliders* out) {
  for (int ci = 0; ci < out->count; ++ci) {
    if (!out->any[ci]) continue;
    const ColliderPath& path = ctx.colliders[ci];
    if (out->table) {
      const ColliderPose* before = out->table + static_cast<size_t>(sub) * static_cast<size_t>(out->count) + static_cast<size_t>(ci);
      out->pose[ci] = before + ctx.colliderCount;
      out->before[ci] = before;
    } else {
      out->pose[ci] = out->keep(2 * ci, poseAt(path, tNow));
      out->before[ci] = out->keep(2 * ci + 1, poseAt(path, tPrev));
    }
    out->bound[ci] = boundingRadius(*out->pose[ci]);
  }
}

// Lanes that may touch collider `ci`: all but those collideBone's own bounding test is sure to
// reject, so skipping them changes nothing (the others run collideBone, which makes the test).
// Cheaper than that test (no division): the bone [a, x], of length len, lies in the ball of radius
// len / 2 around its midpoint, so when that ball is farther than the test's reach (with 0.1% and
// 1e-5 m to spare for rounding) the closest point of the bone is too. `mid`: (a + x) / 2.
F4 mayTouch(const LaneColliders& cs, int ci, V3 mid, F4 halfLen, F4 radius) {
  const float bound = cs.bound[ci];
  if (!(bound < 1.0e38f)) return cs.meets[ci];
  const F4 reach = (wide::splat(bound) + radius) * wide::splat(1.01f) + wide::splat(1e-4f);  // collideBone's
  const F4 limit = (reach + halfLen) * wide::splat(1.001f) + wide::splat(1e-5f);
  const V3 off = mid - wide::splat3(cs.pose[ci]->position);
  const F4 far = wide::lessThan(limit * limit, wide::dot(off, off));
  // lanes that meet the collider and are not far; a mask lane's bits are 0 (which equals 0.0f)
  // or all ones (a NaN, equal to nothing), so equal(far, 0) is its complement
  return wide::maskAnd(cs.meets[ci], wide::equal(far, wide::splat(0.0f)));
}

// How far each lane's bones reach from joint 0, for farBones (set once per frame: lengths and
// axes do not change during a step). A bone's tail is its head plus its direction times its
// length, the direction unit or, where it falls back (normalizeOr), the rest direction: the child
// axis turned by a unit rotation, as long as the axis to rounding (farBones' 1 % covers that); so
// bones 0..k lie within along[k] of joint 0, and are at most radius[k] thick.
constexpr int kMaxJoints = kBlockJoints;  // longer chains run the scalar rule
struct ChainReach {
  F4 along[kMaxJoints];   // the sum over bones 0..k of |length| max(1, |child axis|)
  F4 radius[kMaxJoints];  // the greatest hit radius of bones 0..k
};

void chainReach(const ParamBlock& pb, int n, ChainReach* out) {
  const F4 one = wide::splat(1.0f);
  F4 along = wide::splat(0.0f), radius = pb.get(PB::Radius, 1);
  for (int k = 0; k + 1 < n; ++k) {
    const F4 axis = wide::length(pb.childAxis(k));  // not finite: then neither is along (never far)
    along = along + wide::abs(pb.get(PB::BoneLength, k)) * wide::select(wide::lessThan(axis, one), one, axis);
    const F4 r = pb.get(PB::Radius, k + 1);
    radius = wide::select(wide::lessThan(radius, r), r, radius);
    out->along[k] = along;
    out->radius[k] = radius;
  }
}

// Per substep, before the bones (joint 0 at x0): each collider's firstBone. A whole chain is
// usually far from most colliders (hair on one side of a head, a tail and the arms): then no
// bone of it runs mayTouch for them. Bones 0..k lie in the ball of radius along[k] around x0, so
// when that ball is farther from the collider than collideBone's reach for the thickest of them
// (with 1% and 1e-4 m, plus 1e-4 of the coordinates' size, to spare for the rounding of the
// joints' positions and of the test), collideBone is sure to reject each of them. That holds
// for finite joints only (a NaN bone is not rejected there): BoneWalk::bone skips a collider on
// this ground only when the bone's ends are finite in every stored lane.
void farBones(const ChainReach& cr, int bones, V3 x0, LaneColliders* cs) {
  const F4 zero = wide::splat(0.0f);
  const F4 size0 = wide::abs(x0.x) + wide::abs(x0.y) + wide::abs(x0.z);
  cs->farUntil = 0;
  cs->nearFrom = bones;
  for (int ci = 0; ci < cs->count; ++ci) {
    cs->firstBone[ci] = bones;  // no stored lane meets it
    if (!cs->any[ci]) continue;
    const float bound = cs->bound[ci];
    if (!(bound < 1.0e38f)) {  // collideBone makes no bounding test
      cs->firstBone[ci] = cs->nearFrom = 0;
      continue;
    }
    const F4 lanes = cs->meetsStored[ci];
    const V3 c = wide::splat3(cs->pose[ci]->position), off = x0 - c;
    const F4 d2 = wide::dot(off, off);
    const F4 size = size0 + wide::abs(c.x) + wide::abs(c.y) + wide::abs(c.z);
    const F4 spare = size * wide::splat(1e-4f) + wide::splat(1e-4f);
    auto far = [&](int k) {
      const F4 reach = (wide::splat(bound) + cr.radius[k]) * wide::splat(1.01f) + wide::splat(1e-4f);  // collideBone's
      const F4 limit = (reach + cr.along[k]) * wide::splat(1.01f) + spare;
      // a lane that meets the collider and is not far (a NaN distance is not far)
      return !wide::any(wide::maskAnd(lanes, wide::equal(wide::lessThan(limit * limit, d2), zero)));
    };
    // the least k not far: far(k) holds below it and not from it on, since limit never
    // decreases as k grows (along and radius are running sums and maxima of values >= 0, a NaN
    // staying NaN; + and * by positive factors keep float order) and limit >= 0 (bound, radii
    // and spare are), so neither does its square. So it is found by bisection: a collider no
    // bone reaches in one test, one the root is near (the head hair grows from) in two, any
    // other in at most 2 + log2(bones - 1), rounded up
    int k = bones;
    if (!far(bones - 1)) {
      int lo = 0, hi = bones - 1;  // not far at hi
      if (far(0))
        for (lo = 1; lo < hi;) {
          const int mid = (lo + hi) / 2;
          if (far(mid))
            lo = mid + 1;
          else
            hi = mid;
        }
      k = lo;
    }
    cs->firstBone[ci] = k;
    if (k > cs->farUntil) cs->farUntil = k;
    if (k < cs->nearFrom) cs->nearFrom = k;
  }
}

// Is x finite in every stored lane?
bool finiteLanes(V3 x, F4 stored) {
  const F4 nan = (x.x - x.x) + (x.y - x.y) + (x.z - x.z);  // 0 if finite
  const F4 zero = wide::splat(0.0f);
  return !wide::any(wide::maskAnd(stored, wide::equal(wide::equal(nan, zero), zero)));
}
// Are a and x finite in every stored lane?
bool finiteLanes(V3 a, V3 x, F4 stored) {
  const F4 nan = nonFiniteTerms(a.x, a.y, a.z, x.x, x.y, x.z);  // 0 if finite
  const F4 zero = wide::splat(0.0f);
  return !wide::any(wide::maskAnd(stored, wide::equal(wide::equal(nan, zero), zero)));
}

// swingJoint (chain_solver.cpp) for joint k of every lane: the world rotation (the next bone's
// parent) from the rest direction r onto dir; stored, with the local rotation under `parent`,
// only on the frame's last substep (the rotation the scalar rule leaves in simRotation is its
// last substep's).
Q4 swingJoints(const WispLanes& g, int k, Q4 parent, Q4 restRot, V3 r, V3 dir, V3 childAxis, bool output) {
  const Q4 world = wide::swingRotation(restRot, r, dir, childAxis);
  if (output) {
    writeLaneRotations(g.c, g.count, k, world, wide::normalize(wide::mul(wide::conjugate(parent), world)));
  }
  return world;
}

// What Integrate and the pose spring compute per joint from parameters that change only at a
// fixed step's start (the boost's multipliers; h is the frame's): computed then, with the scalar
// rule's operations, and read by that step's substeps.
struct StepFactors {
  F4 keep[kMaxJoints];     // Integrate's 1 / (1 + h (damping + drag))
  F4 springy[kMaxJoints];  // lanes with stiffness > 0
  F4 w2h2[kMaxJoints], z2whh[kMaxJoints], pullScale[kMaxJoints];  // the spring's w^2 h^2, 2 z w h^2, 1 / (1 + ...)
  V3 accH[kMaxJoints];  // Integrate's h (g + f + drag v_air), where the air is the same everywhere (!turbulent)
  bool turbulent = false;
};

// What Integrate's acceleration is made of, per lane: the frame's gravity and external force, the
// boost's multipliers, and whether the air varies (then it is sampled per joint).
struct LaneForces {
  V3 gravity, external, mean;
  F4 drag, bGravity;
  bool turbulent[kLanes] = {false, false, false, false};
  bool anyTurbulent = false;
};
LaneForces lanesForces(const WispLanes& g, const StepContext& ctx, const ChainFrame* frames) {
  LaneForces out;
  Vec3 gl[kLanes], ext[kLanes];
  float drag[kLanes], bGravity[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    const ChainState& c = *g.c[l];
    const ChainFrame& f = frames[l < g.count ? l : 0];
    gl[l] = f.gravity;
    ext[l] = c.params.externalForce;
    drag[l] = c.params.drag * c.boostNow.drag;
    bGravity[l] = c.boostNow.gravity;
    out.turbulent[l] = f.turbulent;
    out.anyTurbulent |= f.turbulent;
  }
  out.gravity = vecs(gl);
  out.external = vecs(ext);
  out.mean = wide::splat3(ctx.wind.global.mean);
  out.drag = wide::load(drag);
  out.bGravity = wide::load(bGravity);
  return out;
}
// Joint j's acceleration in the air `air` (wispSubstep's g + f + drag v_air)
V3 acceleration(const LaneForces& lf, const ParamBlock& pb, int j, V3 air) {
  return lf.gravity * (pb.get(PB::Gravity, j) * lf.bGravity) + lf.external * pb.get(PB::External, j) + air * lf.drag;
}

void stepFactors(const WispLanes& g, const StepContext& ctx, const ChainFrame* frames, StepFactors* out) {
  const int n = g.c[0]->joints();
  const F4 h = wide::splat(ctx.h), zero = wide::splat(0.0f), one = wide::splat(1.0f), two = wide::splat(2.0f);
  float drag[kLanes], bDamping[kLanes], bStiffness[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    const ChainState& c = *g.c[l];
    drag[l] = c.params.drag * c.boostNow.drag;
    bDamping[l] = c.boostNow.damping;
    bStiffness[l] = c.boostNow.stiffness;
  }
  const F4 dragL = wide::load(drag), bDampingL = wide::load(bDamping), bStiffnessL = wide::load(bStiffness);
  for (int j = 1; j < n; ++j) {
    out->keep[j] = one / (one + h * (g.p->get(PB::Damping, j) * bDampingL + dragL));
    const F4 wj = g.p->get(PB::Stiffness, j) * bStiffnessL;
    const F4 z2w = two * (one - g.p->get(PB::Elasticity, j)) * wj;
    const F4 w2h2 = wj * wj * h * h;
    out->springy[j] = wide::lessThan(zero, wj);
    out->w2h2[j] = w2h2;
    out->z2whh[j] = z2w * h * h;
    out->pullScale[j] = one / (one + w2h2 + z2w * h);
  }
  // the same for every substep of the step unless the air is sampled per joint
  const LaneForces lf = lanesForces(g, ctx, frames);
  out->turbulent = lf.anyTurbulent;
  if (!lf.anyTurbulent)
    for (int j = 1; j < n; ++j) out->accH[j] = acceleration(lf, *g.p, j, lf.mean) * h;
}

// Joints [begin, end) carried by one motion: x -> pivotTo + turnBy (x - pivotFrom) for the
// positions, v -> turnBy v for the velocities, in the lanes `on` (All: in every lane). Not the
// substep-start positions (ox): Stage Integrate, next, sets them for joints 1.. before anything
// reads them.
template <bool All>
void carryRun(JointBlock& b, int begin, int end, const wide::M3& turnBy, V3 pivotFrom, V3 pivotTo, F4 on) {
  for (int j = begin; j < end; ++j) {
    for (JB::Field f : {JB::Px, JB::Qx}) {
      const V3 x = b.get3(f, j), moved = pivotTo + wide::turn(turnBy, x - pivotFrom);
      b.set3(f, j, All ? moved : wide::select(on, moved, x));
    }
    const V3 v = b.get3(JB::Vx, j), turned = wide::turn(turnBy, v);
    b.set3(JB::Vx, j, All ? turned : wide::select(on, turned, v));
  }
}

// One carry motion (carryJoints, chain_solver.cpp) of every lane on the block: lane l by
// share(j) of the motion from[l] -> to[l], unless !moving[l]. The per-lane parts of the motion
// (its rotation and translation) are the scalar code's; per joint, the nlerp'd rotation, the
// pivots and the turns of the scalar rule's MatrixMotion run on the lanes. Joint 0 is not moved:
// what the motion would do to it adds to its chain's carry velocity (when invH > 0), as there.
template <class Share>
void carryLanes(const WispLanes& g, int n, const Transform (&from)[kLanes], const Transform (&to)[kLanes],
                const bool (&moving)[kLanes], float invH, Share share) {
  JointBlock& b = *g.b;
  bool anyMoving = false;
  for (int l = 0; l < kLanes; ++l) anyMoving |= moving[l];
  F4 anyShare = wide::splat(0.0f);  // most chains carry none of the root's motion (inertia 0)
  for (int j = 0; j < n; ++j) anyShare = wide::maskOr(anyShare, wide::lessThan(wide::splat(0.0f), share(j)));
  if (!anyMoving || !wide::any(anyShare)) return;
  Quat full[kLanes];
  Vec3 move[kLanes], pivot[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    // chains that share a root (a wig's strands) share the turn: the same inputs, the same bits
    const bool again = l > 0 && std::memcmp(&from[l].rotation, &from[l - 1].rotation, sizeof(Quat)) == 0 &&
                       std::memcmp(&to[l].rotation, &to[l - 1].rotation, sizeof(Quat)) == 0;
    full[l] = again ? full[l - 1] : rotationFromTo(from[l].rotation, to[l].rotation);
    move[l] = to[l].position - from[l].position;
    pivot[l] = from[l].position;
  }
  const Q4 fullL = quats(full), identity{wide::splat(0.0f), wide::splat(0.0f), wide::splat(0.0f), wide::splat(1.0f)};
  const V3 moveL = vecs(move), pivotFrom = vecs(pivot);
  const F4 movingL = maskOf(moving), zero = wide::splat(0.0f), one = wide::splat(1.0f);
  // A joint's turn and pivot depend only on its share: with the share of the joint before (most
  // chains give every joint the same inertia) they are that joint's, computed again for nothing.
  F4 sBefore = wide::splat(-1.0f);
  wide::M3 turnBy = wide::turnMatrix(identity);
  V3 pivotTo = pivotFrom;
  // equal shares are equal bits, or zeros of either sign, whose lanes are not `on`
  auto differs = [](F4 s, F4 t) { return wide::any(wide::equal(wide::equal(s, t), wide::splat(0.0f))); };
  auto plan = [&](F4 s) {
    if (!differs(s, sBefore)) return;
    const F4 partial = wide::lessThan(s, one);
    turnBy = wide::turnMatrix(wide::select(partial, wide::nlerp(identity, fullL, s), fullL));
    pivotTo = pivotFrom + wide::select(partial, moveL * s, moveL);
    sBefore = s;
  };
  if (invH > 0.0f) {
    const F4 s = share(0);
    const F4 on = wide::maskAnd(movingL, wide::lessThan(zero, s));
    if (wide::any(on)) {
      plan(s);
      const V3 x = b.get3(JB::Px, 0), carried = (pivotTo + wide::turn(turnBy, x - pivotFrom) - x) * wide::splat(invH);
      for (int l = 0; l < g.count; ++l)
        if (laneSet(on, l)) {
          ChainState& c = *g.c[l];
          c.wx += wide::lane(carried.x, l);
          c.wy += wide::lane(carried.y, l);
          c.wz += wide::lane(carried.z, l);
        }
    }
  }
  // Joints 1.. in runs of equal shares, each run turned by one motion in a loop of its own: with
  // no test for a new share between its joints the motion is invariant there, and the carry
  // takes about half the instructions per joint (docs/benchmarks.md)
  for (int j = 1; j < n;) {
    const F4 s = share(j);
    int end = j + 1;
    while (end < n && !differs(share(end), s)) ++end;
    const F4 on = wide::maskAnd(movingL, wide::lessThan(zero, s));
    if (wide::any(on)) {
      plan(s);
      if (!wide::any(wide::equal(on, zero)))  // every lane (a mask lane is 0 (off) or a NaN (on))
        carryRun<true>(b, j, end, turnBy, pivotFrom, pivotTo, on);
      else
        carryRun<false>(b, j, end, turnBy, pivotFrom, pivotTo, on);
    }
    j = end;
  }
}

// The carry's per-lane plans and motions, constructed once per frame rather than per substep
// (their default poses were a cost of their own). Every substep overwrites what it reads: a
// lane's space motion is planned every substep or, when its chain has no moving space this
// frame, never (then its share stays 0); the spare lanes' motions stay the identity, never moving.
// inertia: whether some lane gives some joint a share of the root's motion (jInertia > 0; the
// parameters hold through the frame): without, the root's carry moves nothing (carryLanes).
struct CarryScratch {
  CarryPlan plans[kLanes];
  Transform from[kLanes], to[kLanes];
  Transform roots[kLanes];  // the substep's roots (Stage Carry's result)
  bool inertia = false;
};

// Stage Carry (beginWispSubstep) of every stored lane: the motions planned per chain, carried on
// the lanes (the space's motion before the root's, as there).
// paths[l]: lane l's roots per substep where they are shared (RootPath), else nullptr.
void carryStage(const WispLanes& g, const StepContext& ctx, ChainFrame* frames, int sub, const Transform* const (&paths)[kLanes],
                CarryScratch& scratch, Transform (&roots)[kLanes]) {
  JointBlock& b = *g.b;
  CarryPlan (&plans)[kLanes] = scratch.plans;
  Transform(&from)[kLanes] = scratch.from;
  Transform(&to)[kLanes] = scratch.to;
  bool moving[kLanes] = {false, false, false, false};
  float spaceShare[kLanes] = {0, 0, 0, 0};
  bool anySpace = false;
  const int n = g.c[0]->joints();
  for (int l = 0; l < g.count; ++l) {
    ChainState& c = *g.c[l];
    roots[l] = planWispSubstep(c, ctx, frames[l], sub, &plans[l], paths[l] ? &paths[l][sub] : nullptr);
    anySpace |= plans[l].space;
  }
  auto same = [](const Transform& a, const Transform& t) {  // carryJoints' test, which returns at once
    return a.position.x == t.position.x && a.position.y == t.position.y && a.position.z == t.position.z &&
           a.rotation.x == t.rotation.x && a.rotation.y == t.rotation.y && a.rotation.z == t.rotation.z &&
           a.rotation.w == t.rotation.w;
  };
  if (anySpace) {
    for (int l = 0; l < g.count; ++l) {
      from[l] = plans[l].spaceFrom;
      to[l] = plans[l].spaceTo;
      moving[l] = plans[l].space && !same(from[l], to[l]);
      spaceShare[l] = plans[l].spaceShare;
    }
    const F4 shareL = wide::load(spaceShare);
    carryLanes(g, n, from, to, moving, ctx.invH, [&](int) { return shareL; });
  }
  if (scratch.inertia) {
    for (int l = 0; l < g.count; ++l) {
      from[l] = plans[l].rootFrom;
      to[l] = plans[l].rootTo;
      moving[l] = !same(from[l], to[l]);
    }
    carryLanes(g, n, from, to, moving, ctx.invH, [&](int j) { return g.p->get(PB::Inertia, j); });
  }
  if (ctx.startsStep(sub))  // sampleWispStep does nothing otherwise
    for (int l = 0; l < g.count; ++l) sampleWispStep(*g.c[l], b.lane(l), ctx, frames[l], sub);
}

// Stage Integrate (wispSubstep) on the lanes. Unlike the scalar rule it leaves no copy of the
// integrated positions in Qx: the bone loop reads them from Px before it overwrites them, and
// it sets every joint's Qx but joint 0's (which Integrate does not touch) before the substep
// ends. poisonL: the lanes' ChainFrame::poison, kept on the lanes through the frame (only the
// frame's end reads it) and written back then.
void integrateLanes(const WispLanes& g, const StepContext& ctx, ChainFrame* frames, const StepFactors& sf, F4& poisonL) {
  const int n = g.c[0]->joints();
  JointBlock& b = *g.b;
  const F4 h = wide::splat(ctx.h), invH = wide::splat(ctx.invH);
  const Vec3 meanAir = ctx.wind.global.mean;
  const LaneForces lf = sf.turbulent ? lanesForces(g, ctx, frames) : LaneForces{};  // read only where turbulent
  for (int j = 1; j < n; ++j) {
    V3 x = b.get3(JB::Px, j);
    V3 accH = sf.accH[j];
    if (sf.turbulent) {
      Vec3 al[kLanes];
      for (int l = 0; l < kLanes; ++l) {
        const ChainState& c = *g.c[l];
        al[l] = lf.turbulent[l] ? Vec3{c.airx[j], c.airy[j], c.airz[j]} : meanAir;
      }
      accH = acceleration(lf, *g.p, j, vecs(al)) * h;
    }
    const F4 k = sf.keep[j];
    const V3 reaction = (b.get3(JB::Qx, j) - x) * invH;
    const V3 v = (b.get3(JB::Vx, j) + accH) * k;
    b.set3(JB::Ox, j, x);
    x = x + (v + reaction * k) * h;
    poisonL = poisonL + ((x.x - x.x) + (x.y - x.y) + (x.z - x.z));
    b.set3(JB::Px, j, x);
    b.set3(JB::Vx, j, v);
  }
}

// collideBone of the bone [a, x] (direction d) in the lanes of `near` that are still active
// (bit l of `active`) with collider ci: for a solid sphere on the lanes
// (colliders/bone_contact_lanes.h, each contact recorded as the scalar code records it, the
// surface velocities of the four lanes at once: surfaceVelocityLanes), for other shapes by the
// scalar code lane by lane. Returns the lanes it pushed (bit l for lane l), with every lane's
// tail and direction (pushed or not) in out[0] and out[1] when there were any. Not inlined, x
// and d taken by value and the lanes as bits: measured when the passes were still inlined into
// the bone loop, inlining it or passing the loop's x, d or flag arrays by reference cost the
// common path (no bone near a collider) registers and instructions.
[[gnu::noinline]] int collideLanes(const LaneColliders& cs, int ci, float invH, int count, F4 storedL, V3 a, V3 x, V3 d,
                                   F4 len, F4 radius, F4 near, int active, JointContacts (&contacts)[kLanes], V3 (&out)[2]) {
  const ColliderPose& pose = *cs.pose[ci];
  int pushed = 0;
  if (pose.type == ColliderType::Sphere && !pose.inside) {
    V3 normal{};  // written where a lane hits; zeroed so GCC sees no read of an unset value
    static_assert(kLanes == 4);
    const bool on[kLanes] = {(active & 1) != 0, (active & 2) != 0, (active & 4) != 0, (active & 8) != 0};
    const F4 lanes = wide::maskAnd(wide::maskAnd(near, maskOf(on)), storedL);
    const F4 hit = sphereBoneLanes(wide::splat3(pose.position), cs.bound[ci], a, x, d, len, radius, lanes, &normal);
    if (!wide::any(hit)) return 0;
    const V3 surface = surfaceVelocityLanes(*cs.before[ci], pose, x, invH);
    float ss[3][kLanes], ns[3][kLanes];
    wide::store(ss[0], surface.x), wide::store(ss[1], surface.y), wide::store(ss[2], surface.z);
    wide::store(ns[0], normal.x), wide::store(ns[1], normal.y), wide::store(ns[2], normal.z);
    for (int l = 0; l < count; ++l)
      if (laneSet(hit, l)) {
        contacts[l].add({ns[0][l], ns[1][l], ns[2][l]}, {ss[0][l], ss[1][l], ss[2][l]});
        pushed |= 1 << l;
      }
  } else {
    for (int l = 0; l < count; ++l) {
      if (!(active & (1 << l)) || !laneSet(near, l)) continue;
      Vec3 xl = laneOf(x, l), dl = laneOf(d, l);
      if (collideBone(pose, *cs.before[ci], cs.bound[ci], laneOf(a, l), xl, dl, wide::lane(len, l), wide::lane(radius, l),
                      invH, contacts[l])) {
        pushed |= 1 << l;
        x = withLane(x, l, xl);
        d = withLane(d, l, dl);
      }
    }
  }
  out[0] = x;
  out[1] = d;
  return pushed;
}

// Skipped by BoneWalk::bone, collider ci at bone k: the lanes do not meet it, or farBones found
// bones 0 .. firstBone - 1 far from it (`bounded`: the bone's ends are finite in every stored lane)
inline bool skips(const LaneColliders& cs, int ci, int k, bool bounded) { return !cs.any[ci] || (bounded && k < cs.firstBone[ci]); }

// Does some lane of the bone (midpoint mid) get past mayTouch for some collider? When none does,
// the passes of collidePasses would push nothing, so the bone skips them.
inline bool nearAny(const LaneColliders& cs, int k, bool bounded, V3 mid, F4 halfLen, F4 radius) {
  for (int ci = 0; ci < cs.count; ++ci)
    if (!skips(cs, ci, k, bounded) && wide::any(mayTouch(cs, ci, mid, halfLen, radius))) return true;
  return false;
}

// collideBone's loop (solveBones) for bone k [a, x] (direction d) on the lanes: each collider
// pushes the bone as the pushes before left it, and a second pass runs for the lanes the first
// moved. Returns whether any lane was pushed, with the tail and direction in out[0] and out[1]
// then; contacts holds each lane's. Not inlined: the bone loop keeps its registers for the common
// path, where nearAny finds no collider near (x and d are taken by value for the same reason).
[[gnu::noinline]] bool collidePasses(const LaneColliders& cs, int k, bool bounded, float invH, int count, F4 storedL, V3 a, V3 x, V3 d,
                                     F4 len, F4 radius, F4 halfLen, JointContacts (&contacts)[kLanes], V3 (&out)[2]) {
  for (JointContacts& jc : contacts) jc.count = 0;
  bool touched = false;
  // lanes as bits (lane l: 1 << l), so that no array of flags lives in memory
  int active = (1 << kLanes) - 1;
  for (int pass = 0; pass < 2; ++pass) {
    int moved = 0;
    if (pass > 0) bounded = k < cs.farUntil && finiteLanes(a, x, storedL);
    // the bone's midpoint as the pushes so far left it: each collider is tested against the
    // bone as it is then (collideBone's loop), so a push into the next collider is seen
    V3 mid = (a + x) * wide::splat(0.5f);
    for (int ci = 0; ci < cs.count; ++ci) {
      if (skips(cs, ci, k, bounded)) continue;
      const F4 near = mayTouch(cs, ci, mid, halfLen, radius);
      if (!wide::any(near)) continue;
      V3 pushedTo[2];
      if (const int pushed = collideLanes(cs, ci, invH, count, storedL, a, x, d, len, radius, near, active, contacts, pushedTo)) {
        x = pushedTo[0];
        d = pushedTo[1];
        moved |= pushed;
        touched = true;
        mid = (a + x) * wide::splat(0.5f);
      }
    }
    if (moved == 0) break;
    active = moved;
  }
  out[0] = x;
  out[1] = d;
  return touched;
}

// One lane group's frame (solveWispChainLanes): its chains and blocks, and what stays the same
// through the frame's substeps, set up once: the stored lanes' mask, joint 0's local position,
// the roots' substep poses, the carry's and the contacts' scratch, and the poison sums (on the
// lanes until the frame's end reads them).
struct GroupRun {
  WispLanes g;
  ChainFrame* frames = nullptr;
  ParamBlock p;
  bool animated = false;
  const Transform* paths[kLanes] = {nullptr, nullptr, nullptr, nullptr};
  F4 storedL{};
  V3 local0{};
  F4 poisonL{};
  StepFactors factors;
  LaneColliders colliders;
  ChainReach reach;
  CarryScratch carry;
  JointContacts contacts[kLanes];
  Q4 rootRotation{};  // the substep's roots' (Stage Carry's result)
};

// solveBones (chain_solver.cpp) on the lanes, for chains without limits, leash or backstop, as a
// walk from the root to the tip: begin, then bone(k) for k = 0 .. n - 2, then end. A walk is one
// serial chain of dependent operations (each bone's rotation is the next one's parent, with four
// square roots and divisions on the way), so the bones of two lane groups are walked side by side
// (walkBones) and the processor overlaps the two chains. As WebAssembly that made the benchmark's
// 1000 Wisp-rule chains 1.2-1.3x faster (docs/benchmarks.md). begin takes what the walk reads
// from its group's run: the roots at the substep's end, the stored lanes' mask, and the contacts'
// scratch (constructed once per frame: its arrays are zeroed then, and only the counts need
// resetting, which collidePasses does for the joints that run it; the counts are read only
// where it pushed a lane).
struct BoneWalk {
  // the group's (set by begin)
  const WispLanes* lanes = nullptr;
  const StepContext* context = nullptr;
  LaneColliders* colliders = nullptr;
  const StepFactors* factors = nullptr;
  JointContacts (*scratch)[kLanes] = nullptr;
  F4 storedL{};
  bool output = false;
  bool anyCollide = false;
  Q4 parent{};
  V3 v0{};
  F4 energyGiven{}, energyNow{};
  // the parent's velocity (a - aStart) / h, less the carry velocity for joint 0: v0 for joint 0,
  // and for the others the velocity the joint before was given before its contacts (the same
  // operations on the same values)
  V3 vParent{};
  // a (the bone's head) is finite in every stored lane: it is the tail of the bone before, which
  // was checked finite and left far from every collider (no contact moved it since)
  bool headFinite = false;

  void begin(GroupRun& run, const StepContext& ctx, int sub);
  [[gnu::always_inline]] inline void bone(int k);
  void end(int n);
};

void BoneWalk::begin(GroupRun& run, const StepContext& ctx, int sub) {
  const WispLanes& g = run.g;
  LaneColliders& cs = run.colliders;
  lanes = &g;
  context = &ctx;
  colliders = &cs;
  factors = &run.factors;
  scratch = &run.contacts;
  storedL = run.storedL;
  output = sub + 1 == ctx.totalSubsteps;
  const float tPrev = static_cast<float>(sub) / static_cast<float>(ctx.totalSubsteps);
  const float tNow = static_cast<float>(sub + 1) / static_cast<float>(ctx.totalSubsteps);
  const JointBlock& b = *g.b;
  anyCollide = cs.anyLane;
  Vec3 carryVel[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    const ChainState& c = *g.c[l];
    carryVel[l] = {c.wx, c.wy, c.wz};
  }
  if (anyCollide) poseLaneColliders(ctx, sub, tPrev * ctx.pathScale, tNow * ctx.pathScale, &cs);
  const V3 w = vecs(carryVel);
  parent = run.rootRotation;
  const V3 x0 = b.get3(JB::Px, 0), aStart = b.get3(JB::Ox, 0);  // joint 0, and its substep start
  if (anyCollide) farBones(run.reach, g.c[0]->joints() - 1, x0, &cs);
  v0 = (x0 - aStart) * wide::splat(ctx.invH) - w;
  energyGiven = energyNow = wide::splat(0.0f);
  vParent = v0;
  headFinite = false;
}

void BoneWalk::bone(int k) {
  const WispLanes& g = *lanes;
  const StepContext& ctx = *context;
  LaneColliders& cs = *colliders;
  const StepFactors& sf = *factors;
  JointContacts(&contacts)[kLanes] = *scratch;
  JointBlock& b = *g.b;
  const ParamBlock& pb = *g.p;
  const F4 invH = wide::splat(ctx.invH), zero = wide::splat(0.0f);
  const int j = k + 1;
  // the bone's head: joint 0, or the tail the bone before left (loaded, not kept in registers)
  const V3 a = b.get3(JB::Px, k);
  const Q4 restRot = wide::mul(parent, pb.target(k));
  const V3 childAxis = pb.childAxis(k);
  const V3 r = wide::rotate(restRot, childAxis);  // unit as it stands (solveBones says why)
  const F4 len = pb.get(PB::BoneLength, k);
  V3 x = b.get3(JB::Px, j);
  V3 given = b.get3(JB::Vx, j);

  // damped spring toward the animated pose, in the lanes whose stiffness is > 0
  const F4 springy = sf.springy[j];
  if (wide::any(springy)) {
    const V3 target = a + r * len;
    const V3 vRel = given - vParent;
    const V3 pull = (((target - x) * sf.w2h2[j]) - vRel * sf.z2whh[j]) * sf.pullScale[j];
    if (!wide::any(wide::equal(springy, zero))) {  // every lane (a mask lane is 0 or a NaN)
      x = x + pull;
      given = given + pull * invH;
    } else {
      x = wide::select(springy, x + pull, x);
      given = wide::select(springy, given + pull * invH, given);
    }
  }

  V3 d = wide::normalizeOr(x - a, r);
  x = a + d * len;

  bool touched = false;
  const V3 beforeContact = x;
  // far from every collider (farBones) when the bone's ends are finite
  const bool far = anyCollide && k < cs.nearFrom && (headFinite ? finiteLanes(x, storedL) : finiteLanes(a, x, storedL));
  headFinite = far;
  if (anyCollide && !far) {
    const F4 radius = pb.get(PB::Radius, j), halfLen = len * wide::splat(0.5f);
    const bool bounded = k < cs.farUntil && finiteLanes(a, x, storedL);  // farBones may skip
    // most bones that are not far are near no collider either: only those that are run the passes
    if (nearAny(cs, k, bounded, (a + x) * wide::splat(0.5f), halfLen, radius)) {
      V3 pushedTo[2];
      touched = collidePasses(cs, k, bounded, ctx.invH, g.count, storedL, a, x, d, len, radius, halfLen, contacts, pushedTo);
      if (touched) {
        x = pushedTo[0];
        d = pushedTo[1];
      }
    }
  }
  // the follow-the-leader reaction (solveBones), from the joint's integrated position, which
  // Px still holds (the scalar rule reads it from the copy Integrate leaves in Qx)
  if (k > 0) {
    const V3 boneCorrection = beforeContact - b.get3(JB::Px, j);
    b.set3(JB::Qx, k, a - boneCorrection * wide::splat(kFtlDamping));
  }
  b.set3(JB::Px, j, x);
  // Stage UpdateVelocity for joint j
  const V3 o = b.get3(JB::Ox, j);
  V3 v = (x - o) * invH;
  vParent = v;
  if (touched)
    for (int l = 0; l < g.count; ++l)
      if (contacts[l].count > 0)
        v = withLane(v, l, contactVelocity(laneOf(v, l), (laneOf(beforeContact, l) - laneOf(o, l)) * ctx.invH, contacts[l]));
  b.set3(JB::Vx, j, v);
  const V3 givenRel = given - v0, nowRel = v - v0;
  energyGiven = energyGiven + wide::dot(givenRel, givenRel);
  energyNow = energyNow + wide::dot(nowRel, nowRel);
  parent = swingJoints(g, k, parent, restRot, r, d, childAxis, output);
}

void BoneWalk::end(int n) {
  const WispLanes& g = *lanes;
  JointBlock& b = *g.b;
  // the energy bound (solveBones)
  const F4 over = wide::lessThan(energyGiven, energyNow);
  if (wide::any(over)) {
    const F4 scale = wide::sqrt(energyGiven / energyNow);
    for (int j = 1; j < n; ++j) {
      const V3 v = b.get3(JB::Vx, j);
      b.set3(JB::Vx, j, wide::select(over, v0 + (v - v0) * scale, v));
    }
  }
  const int last = n - 1;  // the tip has no child: no reaction
  b.set3(JB::Qx, last, b.get3(JB::Px, last));
  if (output) {  // orientLast; its simRotation is needed only at the frame's end
    const Q4 target = g.p->target(last);
    writeLaneRotations(g.c, g.count, last, wide::normalize(wide::mul(parent, target)), target);
  }
}

// The bones of one or two walks (of groups of n joints each), side by side. Not inlined into its
// caller: inlined, the bone loop's size made GCC stop inlining the joints' rotations into it
// (measured on orientJoints, which swingJoints replaced), which cost more than the call saves.
// The walks are copied in: as locals their state (the parent rotation, the energies) stays in
// registers, where through a pointer every store to the joint block reloaded it.
template <int Walks>
[[gnu::noinline]] void walkBones(const BoneWalk (&walks)[Walks], int n) {
  static_assert(Walks == 1 || Walks == 2);
  BoneWalk a = walks[0];
  if constexpr (Walks == 1) {
    for (int k = 0; k + 1 < n; ++k) a.bone(k);
    a.end(n);
  } else {
    BoneWalk b = walks[1];
    for (int k = 0; k + 1 < n; ++k) {
      a.bone(k);
      b.bone(k);
    }
    a.end(n);
    b.end(n);
  }
}

void beginGroup(GroupRun& run, const ChainGroup& group, const StepContext& ctx, JointBlock* block, RootPath* rootPath) {
  WispLanes& g = run.g;
  const int count = group.count;
  g.count = count;
  for (int l = 0; l < kLanes; ++l) g.c[l] = group.chains[l < count ? l : 0];
  run.frames = group.frames;
  const ChainFrame* frames = group.frames;
  const int n = g.c[0]->joints();
  g.b = block;
  // not the substep-start positions: each substep sets them before reading them (joint 0 as it
  // rides the root, the others in Stage Integrate)
  block->gather(g.c, n, JB::Px, JB::Ox);
  block->gather(g.c, n, JB::Vx, JB::kFields);
  run.p = group.params->of(g.c, n);
  g.p = &run.p;
  for (int l = 0; l < kLanes; ++l) run.animated |= g.c[l]->animated;
  // the roots' substep poses, interpolated once for the lanes whose frame starts and ends at the
  // same root as lane 0's (and kept for the next group: usually the same again)
  if (const Transform* shared = rootPath->of(frames[0].rootStart, g.c[0]->rootTo, ctx.totalSubsteps))
    for (int l = 0; l < count; ++l)
      if (RootPath::sameBits(frames[l].rootStart, frames[0].rootStart) && RootPath::sameBits(g.c[l]->rootTo, g.c[0]->rootTo))
        run.paths[l] = shared;
  bool stored[kLanes];
  Vec3 local[kLanes];
  float poison[kLanes];
  for (int l = 0; l < kLanes; ++l) {
    stored[l] = l < count;
    local[l] = g.c[l]->localPosition[0];
    poison[l] = frames[l < count ? l : 0].poison;
  }
  run.storedL = maskOf(stored);
  laneColliderMasks(g, ctx, run.storedL, &run.colliders);
  if (run.colliders.anyLane) chainReach(run.p, n, &run.reach);
  run.local0 = vecs(local);
  run.poisonL = wide::load(poison);
  F4 inertia = wide::splat(0.0f);
  for (int j = 0; j < n; ++j) inertia = wide::maskOr(inertia, wide::lessThan(wide::splat(0.0f), run.p.get(PB::Inertia, j)));
  run.carry.inertia = wide::any(inertia);
}

// A substep's stages before the bones: Carry, Integrate, and joint 0 on the root.
void beforeBones(GroupRun& run, const StepContext& ctx, int sub) {
  WispLanes& g = run.g;
  JointBlock& b = *g.b;
  const int n = g.c[0]->joints();
  Transform(&roots)[kLanes] = run.carry.roots;
  carryStage(g, ctx, run.frames, sub, run.paths, run.carry, roots);  // Stage Carry
  if (run.animated) run.p.gatherTargets(g.c, n);                    // planWispSubstep moved the animated pose
  // the spare lanes ride lane 0's root (they compute lane 0's bits again; nothing stores them)
  for (int l = g.count; l < kLanes; ++l) roots[l] = roots[0];
  V3 at;
  transforms(roots, &at, &run.rootRotation);
  if (ctx.startsStep(sub)) stepFactors(g, ctx, run.frames, &run.factors);  // the boost was sampled (beginWispSubstep)
  integrateLanes(g, ctx, run.frames, run.factors, run.poisonL);             // Stage Integrate
  // joint 0 rides the root: fromFrame (GLM's position + rotation * local) on the lanes
  b.set3(JB::Ox, 0, b.get3(JB::Px, 0));
  b.set3(JB::Px, 0, at + wide::turn(run.rootRotation, run.local0));
}

// Stage UpdateVelocity (joint 0), after the bones
void afterBones(GroupRun& run, const StepContext& ctx) {
  JointBlock& b = *run.g.b;
  b.set3(JB::Vx, 0, (b.get3(JB::Px, 0) - b.get3(JB::Ox, 0)) * wide::splat(ctx.invH));
}

void endGroup(GroupRun& run) {
  for (int l = 0; l < run.g.count; ++l) run.frames[l].poison = wide::lane(run.poisonL, l);
  run.g.b->scatter(run.g.c, run.g.count, run.g.c[0]->joints());
}

// The frame's substeps of one or two groups (of equal joint counts), their bones walked side by side.
template <int Groups>
void solveGroups(const ChainGroup* groups, const StepContext& ctx) {
  LaneBlocks& blocks = laneBlocks();
  GroupRun runs[Groups];
  for (int i = 0; i < Groups; ++i) beginGroup(runs[i], groups[i], ctx, &blocks.joints[i], &blocks.rootPath[i]);
  const int n = runs[0].g.c[0]->joints();
  const int total = ctx.totalSubsteps;
  for (int sub = 0; sub < total; ++sub) {
    for (GroupRun& run : runs) beforeBones(run, ctx, sub);
    // Stage SolveBones
    BoneWalk walks[Groups];
    for (int i = 0; i < Groups; ++i) walks[i].begin(runs[i], ctx, sub);
    walkBones<Groups>(walks, n);
    for (GroupRun& run : runs) afterBones(run, ctx);
  }
  for (GroupRun& run : runs) endGroup(run);
}

}  // namespace

void solveWispChainLanes(const ChainGroup* groups, int count, const StepContext& ctx) {
  // the scalar rule where the kernel's arrays are too small: solveBones poses some colliders per
  // bone past kSubstepCollidersCached, and the blocks hold kMaxJoints joints
  auto fits = [&](const ChainGroup& g) { return ctx.colliderCount < kSubstepCollidersCached && g.chains[0]->joints() <= kMaxJoints; };
  const int n = groups[0].chains[0]->joints();
  if (count == 2 && groups[1].chains[0]->joints() == n && fits(groups[0])) return solveGroups<2>(groups, ctx);
  for (int i = 0; i < count; ++i) {
    const ChainGroup& g = groups[i];
    if (fits(g)) {
      solveGroups<1>(&g, ctx);
      continue;
    }
    for (int sub = 0; sub < ctx.totalSubsteps; ++sub)
      for (int l = 0; l < g.count; ++l) chainSubstep(*g.chains[l], ctx, g.frames[l], sub);
  }
}

}  // namespace wisp
