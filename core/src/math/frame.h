// Rigid frames: a position and a unit rotation (a Transform, a collider's pose, a bone, a chain
// root, a wind zone). Moving points into and out of a frame, composing a child frame onto its
// parent and following a point fixed in a moving frame, in one place instead of the same
// expressions spelled out at each use.
//
// Written on math/vec3.h's hand-written mul and rotate, not on GLM's operators: GLM's quaternion
// product adds the y and z terms in another order, and its q * v adds the two cross-product terms
// together before adding them to v, so 64 % of products and 65 % of rotations of random unit
// quaternions differ from Wisp's in the last bit (g++ 12, -ffp-contract=off, 1e5 samples).
// Every frame below feeds the simulated state, so the golden hash
// (tests/native/test_determinism.cpp) depends on these bits; GLM's arithmetic is deterministic
// too, but switching would move every stored result for no gain in accuracy. GLM checks these
// functions against its matrices in tests/native/test_glm_oracle.cpp (the Frame* tests).
// Any type with `position` (Vec3) and `rotation` (unit Quat) members is a frame here.
#pragma once

#include "math/vec3.h"

namespace wisp {

// The world point of `local`, given in frame f.
template <class Frame>
inline Vec3 fromFrame(const Frame& f, Vec3 local) {
  return f.position + rotate(f.rotation, local);
}

// Frame f's coordinates of the world point p.
template <class Frame>
inline Vec3 intoFrame(const Frame& f, Vec3 p) {
  return rotate(conjugate(f.rotation), p - f.position);
}

// A direction v turned back by the unit rotation q (q's inverse applied).
inline Vec3 unrotate(Quat q, Vec3 v) { return rotate(conjugate(q), v); }

// A child frame given in its parent's frame, in world terms (a joint's local position and
// rotation under its parent: one step of forward kinematics).
template <class Frame>
inline Transform compose(const Frame& parent, Vec3 childPosition, Quat childRotation) {
  return {fromFrame(parent, childPosition), mul(parent.rotation, childRotation)};
}

// Where a point fixed in a frame that moved from `before` to `now` is now (a collider's surface
// point, a particle carried along with it).
template <class FrameA, class FrameB>
inline Vec3 followFrame(const FrameA& before, const FrameB& now, Vec3 p) {
  return fromFrame(now, intoFrame(before, p));
}

}  // namespace wisp
