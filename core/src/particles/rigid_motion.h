// The rigid move of a set of particles: teleportRope/teleportCloth, the carry onto anchors that
// jumped and teleportChain move positions the same way and turn velocities with them, so that no
// velocity is injected. One kernel over contiguous arrays (RigidMotion); each caller's arithmetic
// is the kernel's, operation for operation (the golden hash pins it). A chain's carry with its
// root moves points the same way by the rotation's matrix instead (MatrixMotion, below).
// A rigid motion is a frame: it turns with math/frame.h (GLM's operators), like every other frame.
#pragma once

#include "math/frame.h"
#include "math/quat.h"
#include "math/vec3.h"

namespace wisp {

// x -> (turn ? pivotTo + turn(q, x - pivotFrom) : x), then + shift when `shifted`.
// Vectors (velocities) only turn. Written as it is computed: (a + b) + c is not a + (b + c).
struct RigidMotion {
  Quat q{};
  bool turn = false;
  Vec3 pivotFrom, pivotTo;
  Vec3 shift;
  bool shifted = false;

  Vec3 point(Vec3 x) const {
    if (turn) x = pivotTo + wisp::turn(q, x - pivotFrom);
    if (shifted) x = x + shift;
    return x;
  }
  Vec3 vector(Vec3 v) const { return turn ? wisp::turn(q, v) : v; }
  // A rotation carried by the motion (a joint's, a root's): q * r, renormalized.
  Quat rotation(Quat r) const { return turn ? normalize(wisp::turn(q, r)) : r; }
};

// Rotation q about `pivot`, then translation by `shift` (teleportRope's rule).
inline RigidMotion turnAboutThenShift(Quat q, Vec3 pivot, Vec3 shift) {
  RigidMotion m;
  m.q = q;
  m.turn = true;
  m.pivotFrom = m.pivotTo = pivot;
  m.shift = shift;
  m.shifted = true;
  return m;
}
// The motion taking pose `from` onto pose `to` with rotation q (a chain's root: x -> to +
// rotate(q, x - from)).
inline RigidMotion fromPoseTo(Quat q, Vec3 from, Vec3 to) {
  RigidMotion m;
  m.q = q;
  m.turn = true;
  m.pivotFrom = from;
  m.pivotTo = to;
  return m;
}
// The motion taking frame `from` onto frame `to`, whole (a chain's teleport with its root).
template <class FrameA, class FrameB>
inline RigidMotion betweenFrames(const FrameA& from, const FrameB& to) {
  return fromPoseTo(rotationFromTo(from.rotation, to.rotation), from.position, to.position);
}

// The motion fromPoseTo(q, from, to) makes, turning by q's matrix (math/frame.h's turnMatrix):
// a chain's carry with its root moves every joint of every chain every substep, where the matrix
// halves the arithmetic of each turn. The lanes make it once per substep for all joints sharing
// a carry; the scalar carry makes it per joint (each joint may carry its own share of the
// motion). It rounds unlike RigidMotion; the carry moves joints only with this one, in the
// scalar rule and its lanes alike (the golden hash pins it), while a teleport's joint 0, a
// single point, keeps RigidMotion.
struct MatrixMotion {
  glm::mat3 m;
  Vec3 pivotFrom, pivotTo;
  Vec3 point(Vec3 x) const { return pivotTo + wisp::turn(m, x - pivotFrom); }
  Vec3 vector(Vec3 v) const { return wisp::turn(m, v); }
};
inline MatrixMotion matrixFromPoseTo(Quat q, Vec3 from, Vec3 to) { return {turnMatrix(q), from, to}; }

// Moves points [begin, end) of the arrays x, y, z by `m`.
inline void movePoints(const RigidMotion& m, int begin, int end, float* x, float* y, float* z) {
  for (int i = begin; i < end; ++i) {
    const Vec3 p = m.point(Vec3{x[i], y[i], z[i]});
    x[i] = p.x; y[i] = p.y; z[i] = p.z;
  }
}
// Turns vectors [begin, end) of the arrays x, y, z by `m` (a no-op without a turn).
inline void turnVectors(const RigidMotion& m, int begin, int end, float* x, float* y, float* z) {
  if (!m.turn) return;
  for (int i = begin; i < end; ++i) {
    const Vec3 v = turn(m.q, Vec3{x[i], y[i], z[i]});
    x[i] = v.x; y[i] = v.y; z[i] = v.z;
  }
}

}  // namespace wisp
