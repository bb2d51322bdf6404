// VRMC_springBone_limit (draft 1.0, vrm-specification's 2026-01 text: spherical limits in
// pitch/yaw, -Y bone axes turned 180 deg about X) for ChainMode::Vrm. Acts on the unit tail
// direction t of one bone (dimensionless) expressed in the limit's frame, whose +Y is the bone's
// animated direction (wisp/chain.h, VrmLimit, for the frame):
//   Cone:      C(t) = cos(angle) - t.y <= 0
//              Projection: keep t's azimuth about Y, set its polar angle to `angle`.
//   Hinge:     C1(t) = t.x = 0 (rotation about X only), C2(t) = cos(angle) - t.y <= 0 in YZ
//              Projection: drop x, renormalise, then as the cone inside the YZ plane.
//   Spherical: pitch = atan2(t.z, t.y), yaw = asin(t.x):  |pitch| <= P, |yaw| <= Y
//              Projection: clamp each, t = (sin yaw, cos yaw cos pitch, cos yaw sin pitch).
// Angles are in radians. All trig is done once per parameter change (math/trig.h): the per-step
// code compares and rescales with cosines and sines, so no platform trig runs in a step and the
// clamps are the draft's (pitch's clamp keeps the (y, z) azimuth sign, yaw's keeps x's sign).
// "Inside" is tested on both the cosine and the sine side (angle(v, +Y) <= A iff v.y >= cos A and
// |v_perp| cos A <= v.y sin A): the draft's cosine test alone lets a unit vector up to ~5e-4 rad
// off axis pass a limit of 0, since its y rounds to 1 in float.
#pragma once
#include <cmath>

#include "math/frame.h"
#include "math/quat.h"
#include "math/trig.h"
#include "wisp/chain.h"

namespace wisp {

// A VrmLimit resolved for the solver: the limit frame relative to the joint's animated frame
// (shortestArc(+Y -> bone axis) * rotation) and the cosines and sines of its angles.
struct VrmLimitFrame {
  VrmLimitType type = VrmLimitType::None;
  Quat local{};             // limit frame in the joint's frame
  float cosA = -1, sinA = 0;  // cone / hinge angle, or spherical pitch
  float cosB = 0, sinB = 1;   // spherical yaw
};

// The draft's default frame: the shortest rotation taking +Y onto the bone axis (unit), or a
// half turn about X when the axis is -Y (the shortest arc is not unique there).
inline Quat vrmLimitAxisRotation(Vec3 axis) {
  const float d = axis.y;
  if (d + 1.0f < 1e-8f) return Quat{1, 0, 0, 0};
  return normalize(Quat{axis.z, 0, -axis.x, d + 1.0f});
}

inline VrmLimitFrame resolveVrmLimit(const VrmLimit& l, Vec3 boneAxis) {
  VrmLimitFrame f;
  f.type = l.type;
  if (l.type == VrmLimitType::None) return f;
  f.local = normalize(mul(vrmLimitAxisRotation(boneAxis), normalize(l.rotation)));
  // pi and up is the whole range (the draft's reading); exact -1/0 there, not sin(float pi) < 0
  const auto cosSin = [](double angle, double top, float* c, float* s) {
    if (angle >= top) {
      *c = top > 2 ? -1.0f : 0.0f;
      *s = top > 2 ? 0.0f : 1.0f;
      return;
    }
    double sv, cv;
    sinCos(angle, &sv, &cv);
    *c = static_cast<float>(cv);
    *s = static_cast<float>(sv);
  };
  const double kPi = 3.14159265358979323846;
  cosSin(l.type == VrmLimitType::Spherical ? l.pitch : l.angle, kPi, &f.cosA, &f.sinA);
  if (l.type == VrmLimitType::Spherical) cosSin(l.yaw, kPi / 2, &f.cosB, &f.sinB);
  return f;
}

// t (unit, limit frame) with its angle to +Y at most the one whose cosine and sine are (c, s);
// x and z keep their ratio. t = -Y exactly has no azimuth: it goes toward +Z.
// Whether a direction at (cos, sin) = (y, r), r >= 0, is within the angle (c, s) of +Y.
inline bool vrmWithin(float y, float r, float c, float s) { return y >= c && r * c <= y * s; }

inline Vec3 vrmClampPolar(Vec3 t, float c, float s) {
  const float r = std::sqrt(t.x * t.x + t.z * t.z);
  if (vrmWithin(t.y, r, c, s)) return t;
  if (!(r > 1e-12f)) return Vec3{0, c, s};
  const float k = s / r;
  return Vec3{t.x * k, c, t.z * k};
}

inline Vec3 vrmLimitCone(Vec3 t, const VrmLimitFrame& f) { return vrmClampPolar(t, f.cosA, f.sinA); }

inline Vec3 vrmLimitHinge(Vec3 t, const VrmLimitFrame& f) {
  const float r = std::sqrt(t.y * t.y + t.z * t.z);
  // along the hinge axis: no plane to fall back into but the rest direction
  t = r > 1e-12f ? Vec3{0, t.y / r, t.z / r} : Vec3{0, 1, 0};
  return vrmClampPolar(t, f.cosA, f.sinA);
}

inline Vec3 vrmLimitSpherical(Vec3 t, const VrmLimitFrame& f) {
  // pitch: the direction of (y, z) in its plane, clamped to +-P about +Y (atan2(0, 0) = 0: +Y)
  float r = std::sqrt(t.y * t.y + t.z * t.z);
  float py = r > 1e-12f ? t.y / r : 1.0f, pz = r > 1e-12f ? t.z / r : 0.0f;
  if (!vrmWithin(py, std::fabs(pz), f.cosA, f.sinA)) {
    py = f.cosA;
    pz = std::signbit(pz) ? -f.sinA : f.sinA;
  }
  // yaw: x = sin(yaw) clamped to +-sin(Y), the (y, z) part then of length cos(yaw)
  float x = t.x, cy = r;
  if (std::fabs(x) > f.sinB) {
    x = std::signbit(x) ? -f.sinB : f.sinB;
    cy = f.cosB;
  }
  return Vec3{x, cy * py, cy * pz};
}

// The limited world tail direction: d (unit, world) taken into the limit frame, whose world
// rotation is jointRotation * f.local, limited, and back.
inline Vec3 applyVrmLimit(Vec3 d, Quat jointRotation, const VrmLimitFrame& f) {
  const Quat frame = mul(jointRotation, f.local);
  Vec3 t = unrotate(frame, d);
  switch (f.type) {
    case VrmLimitType::Cone: t = vrmLimitCone(t, f); break;
    case VrmLimitType::Hinge: t = vrmLimitHinge(t, f); break;
    case VrmLimitType::Spherical: t = vrmLimitSpherical(t, f); break;
    case VrmLimitType::None: return d;
  }
  return normalizeOr(rotate(frame, t), d);
}

}  // namespace wisp
