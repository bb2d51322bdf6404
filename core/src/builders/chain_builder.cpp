#include "builders/chain_builder.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "math/frame.h"
#include "math/quat.h"
#include "math/trig.h"
#include "validate.h"

namespace wisp {

namespace {

Status invalid(std::string m) { return Status::Error(StatusCode::InvalidArgument, std::move(m)); }

// ChainState::paramsStamp: counted over the process (every world, every thread), so no two
// resolutions share one; 0 is never given (a lane group's empty cache)
uint64_t nextParamsStamp() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace

float evaluateCurve(const Curve& curve, float t) {
  if (curve.empty()) return 1.0f;
  if (t <= curve.front().t) return curve.front().value;
  if (t >= curve.back().t) return curve.back().value;
  size_t k = 1;
  while (curve[k].t < t) ++k;
  const CurveKey& a = curve[k - 1];
  const CurveKey& b = curve[k];
  float u = (t - a.t) / (b.t - a.t);
  return a.value + (b.value - a.value) * u;
}


Status resolveChainParams(ChainState& c, const ChainParams& p) {
  const int n = c.joints();
  const bool vrm = p.mode == ChainMode::Vrm;
  struct Field {
    const char* name;
    float base;
    const Curve* curve;
    double lo, hi;
    std::vector<float>* out;
  };
  // VRM's dragForce is a fraction per update: it must stay in [0, 1].
  const Field fields[] = {
      {"damping", p.damping, &p.dampingCurve, 0, vrm ? 1 : 1e4, &c.jDamping},
      {"stiffness", p.stiffness, &p.stiffnessCurve, 0, 1e4, &c.jStiffness},
      {"elasticity", p.elasticity, &p.elasticityCurve, 0, 1, &c.jElasticity},
      {"inertia", p.inertia, &p.inertiaCurve, 0, 1, &c.jInertia},
      {"gravityScale", p.gravityScale, &p.gravityCurve, -100, 100, &c.jGravity},
      {"externalForce", 1.0f, &p.externalForceCurve, -1e4, 1e4, &c.jExternal},
      {"radius", p.radius, &p.radiusCurve, 0, 10, &c.jRadius},
      {"maxDistance", p.maxDistance, &p.maxDistanceCurve, 0, 1e3, &c.jMaxDistance},
      {"backstopDistance", p.backstopDistance, &p.backstopCurve, 0, 1e3, &c.jBackstop},
      {"limitAngle", p.limitAngle, &p.limitAngleCurve, 0, 3.1416, &c.jSinLimit},  // angle, converted below
  };
  for (const Field& f : fields)
    for (int j = 0; j < n; ++j) {
      double v = static_cast<double>(f.base) * evaluateCurve(*f.curve, c.along[j]);
      if (!(v >= f.lo && v <= f.hi))
        return invalid(std::string("ChainParams.") + f.name + " times its curve at joint " + std::to_string(j) +
                       " is " + formatValue(v) + ", outside [" + formatValue(f.lo) + ", " + formatValue(f.hi) + "]");
    }
  if (p.vrmLimits.size() > static_cast<size_t>(c.bones()))
    return invalid("ChainParams.vrmLimits has " + std::to_string(p.vrmLimits.size()) + " entries, more than the chain's " +
                   std::to_string(c.bones()) + " bones");
  c.paramsStamp = nextParamsStamp();  // valid: from here on the values change
  c.jCosLimit.resize(n);
  for (const Field& f : fields) {
    f.out->resize(n);
    for (int j = 0; j < n; ++j) (*f.out)[j] = f.base * evaluateCurve(*f.curve, c.along[j]);
  }
  // lengths and accelerations follow the root's scale (ChainState::scale; exact when it is 1)
  for (std::vector<float>* scaled : {&c.jGravity, &c.jExternal, &c.jRadius, &c.jMaxDistance, &c.jBackstop})
    for (float& v : *scaled) v *= c.scale;
  for (int j = 0; j < n; ++j) {
    double s, co;
    sinCos(c.jSinLimit[j], &s, &co);
    c.jSinLimit[j] = static_cast<float>(s);
    c.jCosLimit[j] = static_cast<float>(co);
  }
  c.vrmLimit.assign(n, VrmLimitFrame{});
  c.vrmLimited = false;
  for (size_t k = 0; k < p.vrmLimits.size(); ++k) {
    c.vrmLimit[k] = resolveVrmLimit(p.vrmLimits[k], c.childAxis[k]);
    c.vrmLimited |= p.vrmLimits[k].type != VrmLimitType::None;
  }
  double s, co;
  sinCos(0.5 * p.teleportAngle, &s, &co);
  c.cosHalfTeleport = static_cast<float>(co);
  c.params = p;
  return Status::Ok();
}

void scaleChain(ChainState& c, float scale) {
  if (scale == c.scale) return;
  const float ratio = scale / c.scale;
  c.scale = scale;
  for (int j = 0; j < c.joints(); ++j) {
    c.localPosition[j] = c.restLocalPosition[j] * scale;
    c.boneLength[j] = c.restBoneLength[j] * scale;
  }
  resolveChainParams(c, c.params);  // valid already: only the scaled values change
  // carry the joints about the root: the same shape at the new size, velocities scaled with it
  const Vec3 r = c.rootFrom.position;
  for (int j = 0; j < c.joints(); ++j) {
    const Vec3 p = r + (Vec3{c.px[j], c.py[j], c.pz[j]} - r) * ratio;
    const Vec3 o = r + (Vec3{c.ox[j], c.oy[j], c.oz[j]} - r) * ratio;
    const Vec3 q = r + (Vec3{c.qx[j], c.qy[j], c.qz[j]} - r) * ratio;
    c.px[j] = p.x; c.py[j] = p.y; c.pz[j] = p.z;
    c.ox[j] = o.x; c.oy[j] = o.y; c.oz[j] = o.z;
    c.qx[j] = q.x; c.qy[j] = q.y; c.qz[j] = q.z;
    c.vx[j] *= ratio; c.vy[j] *= ratio; c.vz[j] *= ratio;
  }
  c.writeOutput(0, c.joints());
}

void poseChainAtRest(ChainState& c) {
  const int n = c.joints();
  if (c.animated) {  // at rest on the current target: no motion toward it left to interpolate
    c.animFrom = c.animPrev = c.animEnd = c.animNow = c.animTo;
  }
  Transform joint = c.rootTo;
  for (int j = 0; j < n; ++j) {
    joint = compose(joint, c.localPosition[j], c.target(j));  // the rest hierarchy, root to tip
    const Vec3 p = joint.position;
    const Quat q = joint.rotation;
    c.px[j] = c.ox[j] = c.qx[j] = p.x;
    c.py[j] = c.oy[j] = c.qy[j] = p.y;
    c.pz[j] = c.oz[j] = c.qz[j] = p.z;
    c.vx[j] = c.vy[j] = c.vz[j] = 0;
    c.simRotation[j] = q;
    c.writeJointRotations(j, q, c.target(j));
  }
  c.rootFrom = c.rootPrev = c.rootTo;
  c.spaceFrom = c.spacePrev = c.spaceTo;
  c.maxSpeed = 0;
  c.warmupPending = true;
  c.writeOutput(0, n);
}

Status buildChain(const ChainDef& def, ChainState* out) {
  WISP_TRY(validateChainParams(def.params));
  WISP_TRY(checkFiniteVec("ChainDef.root.position", def.root.position));
  WISP_TRY(checkQuat("ChainDef.root.rotation", def.root.rotation));
  WISP_TRY(checkRange("ChainDef.endLength", def.endLength, 0, 1e3));
  const Transform root{def.root.position, normalize(def.root.rotation)};

  std::vector<ChainJoint> joints;
  if (!def.joints.empty()) {
    joints = def.joints;
    for (size_t j = 0; j < joints.size(); ++j) {
      const std::string name = "ChainDef.joints[" + std::to_string(j) + "]";
      WISP_TRY(checkFiniteVec((name + ".position").c_str(), joints[j].position));
      WISP_TRY(checkQuat((name + ".rotation").c_str(), joints[j].rotation));
      joints[j].rotation = normalize(joints[j].rotation);
    }
  } else {
    Vec3 prev = root.position;
    for (size_t j = 0; j < def.points.size(); ++j) {
      WISP_TRY(checkFiniteVec(("ChainDef.points[" + std::to_string(j) + "]").c_str(), def.points[j]));
      joints.push_back({unrotate(root.rotation, def.points[j] - prev), Quat{}});
      prev = def.points[j];
    }
  }
  if (joints.size() < 2)
    return invalid("a chain needs at least 2 joints in ChainDef.joints or ChainDef.points (got " +
                   std::to_string(joints.size()) + ")");
  if (joints.size() + 1 > static_cast<size_t>(kMaxChainJoints))
    return invalid("a chain has at most " + std::to_string(kMaxChainJoints - 1) + " joints (got " +
                   std::to_string(joints.size()) + ")");
  for (size_t j = 1; j < joints.size(); ++j)
    if (!(length(joints[j].position) > 1e-6f))
      return invalid("chain bone " + std::to_string(j - 1) + " has zero length (joint " + std::to_string(j) +
                     " sits on joint " + std::to_string(j - 1) + ")");
  if (def.endLength > 0) {
    // The tip continues the last bone, in the last joint's frame.
    const ChainJoint& last = joints.back();
    Vec3 dir = unrotate(last.rotation, last.position);
    joints.push_back({dir * (def.endLength / length(dir)), Quat{}});
  }

  ChainState c;
  const int n = static_cast<int>(joints.size());
  c.resize(n);
  float total = 0;
  for (int j = 0; j < n; ++j) {
    c.localPosition[j] = joints[j].position;
    c.localRotation[j] = joints[j].rotation;
    if (j + 1 < n) {
      c.boneLength[j] = length(joints[j + 1].position);
      c.childAxis[j] = joints[j + 1].position * (1.0f / c.boneLength[j]);
    }
    c.along[j] = total;
    if (j + 1 < n) total += c.boneLength[j];
  }
  for (int j = 0; j < n; ++j) c.along[j] /= total;
  c.restLocalPosition = c.localPosition;
  c.restBoneLength = c.boneLength;
  for (int j = 0; j < n; ++j) c.baseInvMass[j] = c.invMass[j] = j == 0 ? 0.0f : 1.0f;
  WISP_TRY(resolveChainParams(c, def.params));
  c.rootFrom = c.rootTo = root;
  c.spaceFrom = c.spaceTo = root;
  poseChainAtRest(c);
  c.initialPositions = c.out;
  *out = std::move(c);
  return Status::Ok();
}

}  // namespace wisp
