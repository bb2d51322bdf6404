// Linked chains (wisp/chain_links.h), one frame, substep by substep:
//   for each chain, in the order given: its own substep (Carry, Integrate, SolveBones: chain_solver.cpp)
//   three times (kRounds):
//   Stage SolveLinks  ctx.iterations passes over the links in order: the XPBD distance
//                     (constraints/chain_link.h, lambda from 0 every substep, kept across the
//                     rounds), then the hard cap
//   Stage CollideLinks each link's capsule against the colliders at the substep's end (last round)
//   Stage Bones       each chain's bones back to their exact lengths, root to tip (the links
//                     moved joints sideways; this moves them along their bones only)
//   UpdateVelocity    what the links moved a joint is added to its velocity (and to its carried
//                     reaction point, so the reaction stays what its bone left it)
// On the frame's last substep the joint rotations are derived again from the final positions.
// Fixed order throughout, so the result does not depend on the thread that runs the set.
#include "chain/chain_links_state.h"
#include <algorithm>

#include "constraints/chain_link.h"
#include "math/quat.h"

namespace wisp {

namespace {

Vec3 jointAt(const ChainState& c, int j) { return {c.px[j], c.py[j], c.pz[j]}; }
void setJoint(ChainState& c, int j, Vec3 p) { c.px[j] = p.x; c.py[j] = p.y; c.pz[j] = p.z; }

// 1 for a simulated joint of a chain that moves with the links, 0 for joint 0 or a held chain.
float weightOf(const ChainLinksState& L, int m, int j) { return L.moving[m] ? L.chain[m]->invMass[j] : 0.0f; }

// Every moving chain's bones back to their exact lengths, root to tip, each joint moved along
// its bone only (the direction before the links if it became degenerate).
void restoreBones(ChainLinksState& L) {
  for (int m = 0; m < L.members(); ++m) {
    if (!L.moving[m]) continue;
    ChainState& c = *L.chain[m];
    const Vec3* before = &L.before[L.jointStart[m]];
    for (int j = 1; j < c.joints(); ++j) {
      const Vec3 parent = jointAt(c, j - 1);
      setJoint(c, j, parent + normalizeOr(jointAt(c, j) - parent, before[j] - before[j - 1]) * c.boneLength[j - 1]);
    }
  }
}

// Stage SolveLinks: the XPBD solve and the cap of every link, in order (positions in the first
// running chain's frame: each chain's plus its offset).
void solveLinks(ChainLinksState& L, float alphaTilde) {
  const float capScale = 1.0f + L.params.stretch;
  for (int k = 0; k < L.count(); ++k) {
    const int ma = L.a[k], mb = L.b[k], ja = L.jointA[k], jb = L.jointB[k];
    const float wa = weightOf(L, ma, ja), wb = weightOf(L, mb, jb);
    if (wa + wb == 0.0f) continue;
    ChainState &ca = *L.chain[ma], &cb = *L.chain[mb];
    const Vec3 a0 = jointAt(ca, ja) + L.offset[ma], b0 = jointAt(cb, jb) + L.offset[mb];
    Vec3 a = a0, b = b0;
    solveChainLink(a, b, wa, wb, L.rest[k], alphaTilde, L.lambda[k]);
    capChainLink(a, b, wa, wb, L.rest[k] * capScale);
    setJoint(ca, ja, jointAt(ca, ja) + (a - a0));
    setJoint(cb, jb, jointAt(cb, jb) + (b - b0));
  }
}

// The colliders at the substep's end, for every link (not per link): from the world's table of
// poses at substep boundaries (StepContext::posedCollider) where it serves this context, with
// a bounding radius for a cheap rejection of far ones (3e38: never rejected).
struct PosedColliders {
  static constexpr int kCached = 32;  // more than this are posed on the fly
  ColliderPose pose[kCached];
  float bound[kCached];
  int index[kCached];                 // in ctx.colliders
  int count = 0;
  int last = -1;                      // ctx index of the last one cached
};

// Pushes the link a-b out of one collider unless its bounding sphere is out of reach (with a
// margin far above rounding, so that skipping never changes a result).
void collideNear(const ColliderPose& pose, float bound, Vec3& a, Vec3& b, float wa, float wb, float radius) {
  if (bound < 1.0e38f) {
    const Vec3 q = a + (b - a) * closestParam(a, b, pose.position);
    const float reach = (bound + radius) * 1.01f + 1e-4f;
    if (lengthSq(q - pose.position) > reach * reach) return;
  }
  collideChainLink(pose, a, b, wa, wb, radius);
}

// Stage CollideLinks: each link's capsule against the colliders at the substep's end.
void collideLinks(ChainLinksState& L, const StepContext& ctx, int sub, float tNow) {
  auto poseNow = [&](int ci) {
    const ColliderPose* before = ctx.posedCollider(sub, ci);
    return before ? before[ctx.colliderCount] : poseAt(ctx.colliders[ci], tNow);
  };
  // only those some chain of the set collides with (their masks' union)
  uint32_t setMask = 0;
  for (int m = 0; m < L.members(); ++m)
    if (L.moving[m] && L.chain[m]->params.collide) setMask |= L.chain[m]->params.colliderMask;
  PosedColliders near;
  for (int ci = 0; ci < ctx.colliderCount && near.count < PosedColliders::kCached; ++ci) {
    if ((ctx.colliders[ci].groups & setMask) == 0) continue;
    near.pose[near.count] = poseNow(ci);
    near.bound[near.count] = boundingRadius(near.pose[near.count]);
    near.index[near.count] = ci;
    near.last = ci;
    ++near.count;
  }
  const bool overflow = near.count == PosedColliders::kCached;
  for (int k = 0; k < L.count(); ++k) {
    const int ma = L.a[k], mb = L.b[k], ja = L.jointA[k], jb = L.jointB[k];
    const float wa = weightOf(L, ma, ja), wb = weightOf(L, mb, jb);
    ChainState &ca = *L.chain[ma], &cb = *L.chain[mb];
    if (wa + wb == 0.0f || !ca.params.collide || !cb.params.collide) continue;
    const uint32_t mask = ca.params.colliderMask & cb.params.colliderMask;
    const float radius = 0.5f * (ca.jRadius[ja] + cb.jRadius[jb]);
    const Vec3 a0 = jointAt(ca, ja) + L.offset[ma], b0 = jointAt(cb, jb) + L.offset[mb];
    Vec3 a = a0, b = b0;
    for (int i = 0; i < near.count; ++i)
      if (ctx.colliders[near.index[i]].groups & mask) collideNear(near.pose[i], near.bound[i], a, b, wa, wb, radius);
    for (int ci = near.last + 1; overflow && ci < ctx.colliderCount; ++ci) {
      if ((ctx.colliders[ci].groups & mask) == 0) continue;
      const ColliderPose pose = poseNow(ci);
      collideNear(pose, boundingRadius(pose), a, b, wa, wb, radius);
    }
    setJoint(ca, ja, jointAt(ca, ja) + (a - a0));
    setJoint(cb, jb, jointAt(cb, jb) + (b - b0));
  }
}

// The links and the bones are solved in turn (Gauss-Seidel across the two), this many times per
// substep: with one round the bones undo enough of the links that a skirt's hem opened to 1.13 x
// its rest spacing on the run-cycle test. Two kept it at 1.085 with one rounding of the rigid
// frames and 1.229 with another (the run's worst moment is chaotic); three give 1.087 to 1.146
// across rounding-level changes of the joints' rotations.
constexpr int kRounds = 3;

void linkPass(ChainLinksState& L, const StepContext& ctx, int sub) {
  const int members = L.members();
  for (int m = 0; m < members; ++m) {
    if (!L.moving[m]) continue;
    const ChainState& c = *L.chain[m];
    for (int j = 0; j < c.joints(); ++j) L.before[L.jointStart[m] + j] = jointAt(c, j);
  }
  const float alphaTilde = L.params.compliance / ctx.h2;
  const bool collide = L.params.collide && ctx.collides(true);
  const float tNow = static_cast<float>(sub + 1) / static_cast<float>(ctx.totalSubsteps) * ctx.pathScale;
  std::fill(L.lambda.begin(), L.lambda.end(), 0.0f);
  for (int round = 0; round < kRounds; ++round) {
    for (int it = 0; it < ctx.iterations; ++it) solveLinks(L, alphaTilde);
    if (collide && round + 1 == kRounds) collideLinks(L, ctx, sub, tNow);  // once, before the last bones
    restoreBones(L);  // Stage Bones
  }
  // Stage UpdateVelocity, and the rotations on the frame's last substep
  const bool output = sub + 1 == ctx.totalSubsteps;
  for (int m = 0; m < members; ++m) {
    if (!L.moving[m]) continue;
    ChainState& c = *L.chain[m];
    const Vec3* before = &L.before[L.jointStart[m]];
    for (int j = 1; j < c.joints(); ++j) {
      const Vec3 moved = jointAt(c, j) - before[j];
      c.vx[j] += moved.x * ctx.invH; c.vy[j] += moved.y * ctx.invH; c.vz[j] += moved.z * ctx.invH;
      c.qx[j] += moved.x; c.qy[j] += moved.y; c.qz[j] += moved.z;
    }
    if (output) reorientChain(c, L.frame[m].root.rotation, true);
  }
}

}  // namespace

void simulateLinkedChains(ChainLinksState& L) {
  const int members = L.members();
  int lead = -1;
  for (int m = 0; m < members; ++m) {
    if (!L.moving[m]) continue;
    beginChainFrame(*L.chain[m], L.ctx[m], &L.frame[m]);
    if (lead < 0) lead = m;
  }
  if (lead < 0) return;
  const StepContext& ctx = L.ctx[lead];
  for (int sub = 0; sub < ctx.totalSubsteps; ++sub) {
    for (int m = 0; m < members; ++m)
      if (L.moving[m]) chainSubstep(*L.chain[m], L.ctx[m], L.frame[m], sub);
    linkPass(L, ctx, sub);
  }
  for (int m = 0; m < members; ++m)
    if (L.moving[m]) endChainFrame(*L.chain[m], L.ctx[m], L.frame[m]);
}

}  // namespace wisp
