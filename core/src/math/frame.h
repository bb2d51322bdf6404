// Rigid frames: a position and a unit rotation (a Transform, a collider's pose, a bone, a chain
// root, a wind zone). Moving points into and out of a frame, composing a child frame onto its
// parent and following a point fixed in a moving frame, in one place instead of the same
// expressions spelled out at each use.
//
// Composed with GLM (math/glm_bridge.h, pure mode): glm::quat * glm::quat, glm::quat * glm::vec3
// and glm::conjugate, converted from and to Wisp's Vec3/Quat at each function's boundary. These
// are +, -, * only (no libm), so they give the same bits natively and in WASM with
// -ffp-contract=off, and -fno-tree-slp-vectorize keeps GCC from fusing them when the target has
// FMA (CMakeLists.txt; scripts/test-march-native.sh checks it); GLM's inline code is compiled in
// Wisp's translation units, so those flags cover it. GLM sums the terms in another order than
// math/vec3.h's hand-written mul and rotate (64 % of products and 65 % of rotations differ in
// the last bit), so every frame here rounds like GLM, not like the solver's hand-written
// rotations: the solver's per-substep chain work (joint limits and drives) keeps vec3.h's
// mul/rotate, which tests/native/test_glm_oracle.cpp checks against GLM. Rigid motions from pose
// to pose (teleports, a chain carried with its root: particles/rigid_motion.h) are frames too.
// GLM's 4x4 matrices check these functions there too (the Frame* tests).
// Any type with `position` (Vec3) and `rotation` (unit Quat) members is a frame here.
#pragma once

#include "math/glm_bridge.h"
#include "math/vec3.h"

namespace wisp {

// The direction v in world axes, given in the axes of a frame rotated by the unit rotation q.
inline Vec3 turn(Quat q, Vec3 v) { return glmb::fromGlm(glmb::toGlm(q) * glmb::toGlm(v)); }

// A direction v turned back by the unit rotation q (q's inverse applied). glm::conjugate only
// flips signs (exact), so a conjugate stored once (a wind zone's) turns with the same bits.
inline Vec3 unrotate(Quat q, Vec3 v) { return glmb::fromGlm(glm::conjugate(glmb::toGlm(q)) * glmb::toGlm(v)); }

// Rotation r turned by the unit rotation q (q * r): a frame's rotation once its frame turned by q.
inline Quat turn(Quat q, Quat r) { return glmb::fromGlm(glmb::toGlm(q) * glmb::toGlm(r)); }

// The unit rotation q as GLM's 3x3 matrix (glm::mat3_cast), and a direction turned by such a
// matrix (GLM's mat3 * vec3): 9 multiplies and 6 adds per direction against q * v's 18 and 12,
// for the many points one rotation moves (a chain's joints carried with its root). The same
// rotation; the two round differently.
inline glm::mat3 turnMatrix(Quat q) { return glm::mat3_cast(glmb::toGlm(q)); }
inline Vec3 turn(const glm::mat3& m, Vec3 v) { return glmb::fromGlm(m * glmb::toGlm(v)); }

// The rotation taking the orientation `from` onto `to`, in world axes (to * from^-1).
inline Quat rotationFromTo(Quat from, Quat to) {
  return glmb::fromGlm(glmb::toGlm(to) * glm::conjugate(glmb::toGlm(from)));
}

// The world point of `local`, given in frame f.
template <class Frame>
inline Vec3 fromFrame(const Frame& f, Vec3 local) {
  return glmb::fromGlm(glmb::toGlm(f.position) + glmb::toGlm(f.rotation) * glmb::toGlm(local));
}

// Frame f's coordinates of the world point p.
template <class Frame>
inline Vec3 intoFrame(const Frame& f, Vec3 p) {
  return glmb::fromGlm(glm::conjugate(glmb::toGlm(f.rotation)) * (glmb::toGlm(p) - glmb::toGlm(f.position)));
}

// A child frame given in its parent's frame, in world terms (a joint's local position and
// rotation under its parent: one step of forward kinematics).
template <class Frame>
inline Transform compose(const Frame& parent, Vec3 childPosition, Quat childRotation) {
  return {fromFrame(parent, childPosition), glmb::fromGlm(glmb::toGlm(parent.rotation) * glmb::toGlm(childRotation))};
}

// Where a point fixed in a frame that moved from `before` to `now` is now (a collider's surface
// point, a particle carried along with it).
template <class FrameA, class FrameB>
inline Vec3 followFrame(const FrameA& before, const FrameB& now, Vec3 p) {
  return fromFrame(now, intoFrame(before, p));
}

}  // namespace wisp
