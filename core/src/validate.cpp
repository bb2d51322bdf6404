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
  WISP_TRY(checkRange("RopeParams.teleportDistance", p.teleportDistance, 0, 1e6));
  WISP_TRY(checkRange("RopeParams.teleportAngle", p.teleportAngle, 0, 3.1416));
  return validateActivityParams("RopeParams", p.sleepSpeed, p.sleepTime, p.updateEvery);
}

Status validateActivityParams(const char* kind, float sleepSpeed, float sleepTime, int32_t updateEvery) {
  const std::string k(kind);
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

}  // namespace wisp
