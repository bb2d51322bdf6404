#include "validate.h"

#include <cmath>
#include <cstdio>

#include "math/vec3.h"

namespace wisp {

const char* statusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::Ok: return "ok";
    case StatusCode::InvalidArgument: return "invalid-argument";
    case StatusCode::InvalidHandle: return "invalid-handle";
    case StatusCode::OutOfRange: return "out-of-range";
    case StatusCode::Unsupported: return "unsupported";
    case StatusCode::OutOfMemory: return "out-of-memory";
  }
  return "unknown";
}

std::string formatValue(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string formatVec(Vec3 v) {
  char buf[112];
  std::snprintf(buf, sizeof buf, "(%.9g, %.9g, %.9g)", static_cast<double>(v.x), static_cast<double>(v.y),
                static_cast<double>(v.z));
  return buf;
}

static Status invalid(std::string m) { return Status::Error(StatusCode::InvalidArgument, std::move(m)); }

Status checkFinite(const char* name, double v) {
  if (!std::isfinite(v)) return invalid(std::string(name) + " must be a finite number (got " + formatValue(v) + ")");
  return Status::Ok();
}

Status checkRange(const char* name, double v, double lo, double hi) {
  WISP_TRY(checkFinite(name, v));
  if (v < lo || v > hi)
    return invalid(std::string(name) + " must be in [" + formatValue(lo) + ", " + formatValue(hi) + "] (got " +
                   formatValue(v) + ")");
  return Status::Ok();
}

Status checkFiniteVec(const char* name, Vec3 v) {
  if (!isFinite(v)) return invalid(std::string(name) + " must have finite components (got " + formatVec(v) + ")");
  return Status::Ok();
}

Status checkQuat(const char* name, Quat q) {
  if (!isFinite(q))
    return invalid(std::string(name) + " must have finite components (got (" + formatValue(q.x) + ", " +
                   formatValue(q.y) + ", " + formatValue(q.z) + ", " + formatValue(q.w) + "))");
  float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
  if (!(n > 1e-12f)) return invalid(std::string(name) + " must not be a zero quaternion");
  return Status::Ok();
}

Status validateRopeParams(const RopeParams& p) {
  WISP_TRY(checkRange("RopeParams.radius", p.radius, 0, 10));
  WISP_TRY(checkRange("RopeParams.stretchCompliance", p.stretchCompliance, 0, 1e3));
  WISP_TRY(checkRange("RopeParams.bendCompliance", p.bendCompliance, 0, 1e3));
  WISP_TRY(checkRange("RopeParams.damping", p.damping, 0, 1e4));
  WISP_TRY(checkRange("RopeParams.drag", p.drag, 0, 1e4));
  WISP_TRY(checkRange("RopeParams.gravityScale", p.gravityScale, -100, 100));
  WISP_TRY(checkFinite("RopeParams.yieldRatio", p.yieldRatio));
  if (p.yieldRatio != 0 && p.yieldRatio <= 1)
    return invalid("RopeParams.yieldRatio must be 0 (elastic only) or > 1 (got " + formatValue(p.yieldRatio) + ")");
  if (p.yieldRatio > 100) return invalid("RopeParams.yieldRatio must be <= 100 (got " + formatValue(p.yieldRatio) + ")");
  WISP_TRY(checkRange("RopeParams.plasticity", p.plasticity, 0, 1e4));
  WISP_TRY(checkRange("RopeParams.maxSpeed", p.maxSpeed, 0, 1e5));
  WISP_TRY(validateObjectParams("RopeParams", p.teleportDistance, p.teleportAngle, p.sleepSpeed, p.sleepTime, p.updateEvery));
  return checkRange("RopeParams.maxSubsteps", p.maxSubsteps, 1, 1024);
}

Status validateObjectParams(const char* kind, float teleportDistance, float teleportAngle, float sleepSpeed,
                            float sleepTime, int32_t updateEvery) {
  const std::string k(kind);
  WISP_TRY(checkRange((k + ".teleportDistance").c_str(), teleportDistance, 0, 1e6));
  WISP_TRY(checkRange((k + ".teleportAngle").c_str(), teleportAngle, 0, 3.1416));
  WISP_TRY(checkRange((k + ".sleepSpeed").c_str(), sleepSpeed, 0, 10));
  WISP_TRY(checkRange((k + ".sleepTime").c_str(), sleepTime, 0, 1e4));
  WISP_TRY(checkRange((k + ".updateEvery").c_str(), updateEvery, 1, 16));
  return Status::Ok();
}

Status validateWind(const WindSettings& w) {
  WISP_TRY(checkFiniteVec("WindSettings.direction", w.direction));
  WISP_TRY(checkRange("WindSettings.speed", w.speed, 0, 1000));
  WISP_TRY(checkRange("WindSettings.turbulence", w.turbulence, 0, 4));
  WISP_TRY(checkRange("WindSettings.turbulenceScale", w.turbulenceScale, 1e-3, 1e4));
  if (w.speed > 0 && !(lengthSq(w.direction) > 1e-12f))
    return invalid("WindSettings.direction must not be zero when speed > 0");
  return Status::Ok();
}

Status validateColliderDef(const ColliderDef& d) {
  int t = static_cast<int>(d.type);
  if (t < 0 || t > 3) return invalid("ColliderDef.type must be sphere, capsule, plane or box (got " + std::to_string(t) + ")");
  WISP_TRY(checkFiniteVec("ColliderDef.transform.position", d.transform.position));
  WISP_TRY(checkQuat("ColliderDef.transform.rotation", d.transform.rotation));
  WISP_TRY(checkRange("ColliderDef.radius", d.radius, 0, 1e4));
  WISP_TRY(checkRange("ColliderDef.halfHeight", d.halfHeight, 0, 1e4));
  WISP_TRY(checkFiniteVec("ColliderDef.halfExtents", d.halfExtents));
  if (d.halfExtents.x < 0 || d.halfExtents.y < 0 || d.halfExtents.z < 0 || d.halfExtents.x > 1e4 ||
      d.halfExtents.y > 1e4 || d.halfExtents.z > 1e4)
    return invalid("ColliderDef.halfExtents must be in [0, 10000] (got " + formatVec(d.halfExtents) + ")");
  WISP_TRY(checkRange("ColliderDef.friction", d.friction, 0, 2));
  WISP_TRY(checkFinite("ColliderDef.radiusTop", d.radiusTop));
  if (d.radiusTop > 1e4f) return invalid("ColliderDef.radiusTop must be <= 10000 (got " + formatValue(d.radiusTop) + ")");
  if (d.inside && d.type != ColliderType::Sphere && d.type != ColliderType::Capsule)
    return invalid("ColliderDef.inside is only for spheres and capsules");
  return Status::Ok();
}

Status validateWindZone(const WindZoneDef& d) {
  int s = static_cast<int>(d.shape);
  if (s < 0 || s > 1) return invalid("WindZoneDef.shape must be sphere or box (got " + std::to_string(s) + ")");
  WISP_TRY(checkFiniteVec("WindZoneDef.transform.position", d.transform.position));
  WISP_TRY(checkQuat("WindZoneDef.transform.rotation", d.transform.rotation));
  WISP_TRY(checkRange("WindZoneDef.radius", d.radius, 1e-4, 1e5));
  WISP_TRY(checkFiniteVec("WindZoneDef.halfExtents", d.halfExtents));
  if (!(d.halfExtents.x >= 1e-4f && d.halfExtents.y >= 1e-4f && d.halfExtents.z >= 1e-4f && d.halfExtents.x <= 1e5f &&
        d.halfExtents.y <= 1e5f && d.halfExtents.z <= 1e5f))
    return invalid("WindZoneDef.halfExtents must be in [0.0001, 100000] (got " + formatVec(d.halfExtents) + ")");
  WISP_TRY(checkRange("WindZoneDef.falloff", d.falloff, 0, 1));
  WISP_TRY(validateWind(d.wind));
  return Status::Ok();
}

Status checkTransform(const char* positionName, const char* rotationName, const Transform& t) {
  WISP_TRY(checkFiniteVec(positionName, t.position));
  return checkQuat(rotationName, t.rotation);
}

Status validateWorldSettings(const WorldSettings& s) {
  WISP_TRY(checkFiniteVec("WorldSettings.gravity", s.gravity));
  if (length(s.gravity) > 1e4f) return invalid("WorldSettings.gravity must be at most 10000 m/s^2 long (got " + formatVec(s.gravity) + ")");
  WISP_TRY(checkRange("WorldSettings.fixedDt", s.fixedDt, 1e-5, 0.1));
  WISP_TRY(checkRange("WorldSettings.substeps", s.substeps, 1, 128));
  WISP_TRY(checkRange("WorldSettings.iterations", s.iterations, 1, 64));
  WISP_TRY(checkRange("WorldSettings.maxFrameDt", s.maxFrameDt, s.fixedDt, 1000 * s.fixedDt));
  if (s.rejectFrameDt != 0) WISP_TRY(checkRange("WorldSettings.rejectFrameDt (0 = off)", s.rejectFrameDt, s.maxFrameDt, 3600));
  WISP_TRY(checkRange("WorldSettings.threads", s.threads, 0, 64));
  WISP_TRY(validateWind(s.wind));
  return Status::Ok();
}

Status validateClothParams(const ClothParams& p) {
  WISP_TRY(checkRange("ClothParams.radius", p.radius, 0, 10));
  WISP_TRY(checkRange("ClothParams.stretchCompliance", p.stretchCompliance, 0, 1e3));
  WISP_TRY(checkRange("ClothParams.shearCompliance", p.shearCompliance, 0, 1e3));
  // An infinitely stiff bend locks a cloth with inextensible edges into a plate that jitters
  // (energy grew at 1e-6 with 8 substeps, measured); 1e-5 is the stiffest measured stable.
  WISP_TRY(checkRange("ClothParams.bendCompliance", p.bendCompliance, 1e-5, 1e6));
  WISP_TRY(checkRange("ClothParams.tetherSlack", p.tetherSlack, 0, 10));
  WISP_TRY(checkRange("ClothParams.tetherCompliance", p.tetherCompliance, 0, 1e3));
  WISP_TRY(checkRange("ClothParams.damping", p.damping, 0, 1e4));
  WISP_TRY(checkRange("ClothParams.gravityScale", p.gravityScale, -100, 100));
  WISP_TRY(checkRange("ClothParams.dragCoefficient", p.dragCoefficient, 0, 100));
  WISP_TRY(checkRange("ClothParams.liftCoefficient", p.liftCoefficient, -100, 100));
  WISP_TRY(checkRange("ClothParams.airDensity", p.airDensity, 0, 100));
  WISP_TRY(checkRange("ClothParams.residualTolerance", p.residualTolerance, 0, 1));
  WISP_TRY(checkRange("ClothParams.maxSpeed", p.maxSpeed, 0, 1e5));
  WISP_TRY(validateObjectParams("ClothParams", p.teleportDistance, p.teleportAngle, p.sleepSpeed, p.sleepTime, p.updateEvery));
  WISP_TRY(checkRange("ClothParams.pressure", p.pressure, 0, 100));
  WISP_TRY(checkRange("ClothParams.volumeCompliance", p.volumeCompliance, 0, 1e6));
  WISP_TRY(checkRange("ClothParams.maxSubsteps", p.maxSubsteps, 1, 1024));
  return Status::Ok();
}

namespace {
Status checkCurve(const char* name, const Curve& curve) {
  if (curve.size() > 64) return invalid(std::string(name) + " has " + std::to_string(curve.size()) + " keys (at most 64)");
  for (size_t k = 0; k < curve.size(); ++k) {
    const std::string key = std::string(name) + "[" + std::to_string(k) + "]";
    WISP_TRY(checkRange((key + ".t").c_str(), curve[k].t, 0, 1));
    WISP_TRY(checkRange((key + ".value").c_str(), curve[k].value, -1e6, 1e6));
    if (k > 0 && !(curve[k].t > curve[k - 1].t))
      return invalid(key + ".t must be greater than the previous key's t (got " + formatValue(curve[k].t) +
                     " after " + formatValue(curve[k - 1].t) + ")");
  }
  return Status::Ok();
}

}  // namespace

Status validateChainParams(const ChainParams& p) {
  int mode = static_cast<int>(p.mode), space = static_cast<int>(p.space);
  if (mode < 0 || mode > 1) return invalid("ChainParams.mode must be wisp or vrm (got " + std::to_string(mode) + ")");
  if (space < 0 || space > 1) return invalid("ChainParams.space must be world or relative (got " + std::to_string(space) + ")");
  WISP_TRY(checkRange("ChainParams.damping", p.damping, 0, 1e4));
  WISP_TRY(checkRange("ChainParams.stiffness", p.stiffness, 0, 1e4));
  WISP_TRY(checkRange("ChainParams.elasticity", p.elasticity, 0, 1));
  WISP_TRY(checkRange("ChainParams.inertia", p.inertia, 0, 1));
  WISP_TRY(checkRange("ChainParams.gravityScale", p.gravityScale, -100, 100));
  WISP_TRY(checkFiniteVec("ChainParams.gravity", p.gravity));
  if (length(p.gravity) > 1e4f) return invalid("ChainParams.gravity must be at most 10000 m/s^2 long (got " + formatVec(p.gravity) + ")");
  WISP_TRY(checkFiniteVec("ChainParams.externalForce", p.externalForce));
  if (length(p.externalForce) > 1e4f)
    return invalid("ChainParams.externalForce must be at most 10000 m/s^2 long (got " + formatVec(p.externalForce) + ")");
  WISP_TRY(checkRange("ChainParams.drag", p.drag, 0, 1e4));
  WISP_TRY(checkRange("ChainParams.radius", p.radius, 0, 10));
  WISP_TRY(checkRange("ChainParams.limitAngle", p.limitAngle, 0, 3.1416));
  WISP_TRY(checkFiniteVec("ChainParams.hingeAxis", p.hingeAxis));
  if (p.hinge && !(lengthSq(p.hingeAxis) > 1e-12f)) return invalid("ChainParams.hingeAxis must not be zero when hinge is on");
  WISP_TRY(checkRange("ChainParams.spaceInertia", p.spaceInertia, 0, 1));
  WISP_TRY(validateObjectParams("ChainParams", p.teleportDistance, p.teleportAngle, p.sleepSpeed, p.sleepTime, p.updateEvery));
  WISP_TRY(checkRange("ChainParams.warmupSteps", p.warmupSteps, 0, 10000));
  WISP_TRY(checkRange("ChainParams.maxDistance", p.maxDistance, 0, 1e3));
  WISP_TRY(checkCurve("ChainParams.maxDistanceCurve", p.maxDistanceCurve));
  WISP_TRY(checkCurve("ChainParams.dampingCurve", p.dampingCurve));
  WISP_TRY(checkCurve("ChainParams.stiffnessCurve", p.stiffnessCurve));
  WISP_TRY(checkCurve("ChainParams.elasticityCurve", p.elasticityCurve));
  WISP_TRY(checkCurve("ChainParams.inertiaCurve", p.inertiaCurve));
  WISP_TRY(checkCurve("ChainParams.gravityCurve", p.gravityCurve));
  WISP_TRY(checkCurve("ChainParams.externalForceCurve", p.externalForceCurve));
  WISP_TRY(checkCurve("ChainParams.radiusCurve", p.radiusCurve));
  WISP_TRY(checkCurve("ChainParams.limitAngleCurve", p.limitAngleCurve));
  WISP_TRY(checkFiniteVec("ChainParams.backstopNormal", p.backstopNormal));
  if (p.backstop && !(lengthSq(p.backstopNormal) > 1e-12f))
    return invalid("ChainParams.backstopNormal must not be zero when backstop is on (got " + formatVec(p.backstopNormal) + ")");
  WISP_TRY(checkRange("ChainParams.backstopDistance", p.backstopDistance, 0, 1e3));
  WISP_TRY(checkRange("ChainParams.backstopRadius", p.backstopRadius, 0, 1e3));
  WISP_TRY(checkCurve("ChainParams.backstopCurve", p.backstopCurve));
  WISP_TRY(checkRange("ChainParams.vrmWind", p.vrmWind, 0, 100));
  if (p.vrmLimits.size() > 4096)
    return invalid("ChainParams.vrmLimits has " + std::to_string(p.vrmLimits.size()) + " entries (at most 4096)");
  for (size_t k = 0; k < p.vrmLimits.size(); ++k) {
    const VrmLimit& l = p.vrmLimits[k];
    const std::string at = "ChainParams.vrmLimits[" + std::to_string(k) + "]";
    const int type = static_cast<int>(l.type);
    if (type < 0 || type > 3)
      return invalid(at + ".type must be none, cone, hinge or spherical (got " + std::to_string(type) + ")");
    WISP_TRY(checkRange((at + ".angle").c_str(), l.angle, 0, 3.1416));
    WISP_TRY(checkRange((at + ".pitch").c_str(), l.pitch, 0, 3.1416));
    WISP_TRY(checkRange((at + ".yaw").c_str(), l.yaw, 0, 1.5708));
    const Quat q = l.rotation;
    const float n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!std::isfinite(n2) || !(n2 > 1e-12f))
      return invalid(at + ".rotation must be a finite, non-zero quaternion (got [" + formatValue(q.x) + ", " +
                     formatValue(q.y) + ", " + formatValue(q.z) + ", " + formatValue(q.w) + "])");
  }
  return Status::Ok();
}

Status validateChainBoost(const ChainBoost& b) {
  WISP_TRY(checkRange("boostChain: stiffness", b.stiffness, 0, 100));
  WISP_TRY(checkRange("boostChain: damping", b.damping, 0, 100));
  WISP_TRY(checkRange("boostChain: drag", b.drag, 0, 100));
  return checkRange("boostChain: gravity", b.gravity, 0, 100);
}

Status validateChainLinksParams(const ChainLinksParams& p) {
  WISP_TRY(checkRange("ChainLinksParams.compliance", p.compliance, 0, 1e6));
  WISP_TRY(checkRange("ChainLinksParams.stretch", p.stretch, 0, 1e6));
  return checkRange("ChainLinksParams.fromJoint", p.fromJoint, 0, 1e6);
}

}  // namespace wisp
