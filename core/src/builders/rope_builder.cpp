#include "builders/rope_builder.h"

#include <string>

#include "math/vec3.h"
#include "validate.h"

namespace wisp {

void computeBendRest(RopeState& r) {
  for (int b = 0; b < r.bends(); ++b) {
    Vec3 a{r.px[b], r.py[b], r.pz[b]}, c{r.px[b + 2], r.py[b + 2], r.pz[b + 2]};
    r.bendRest[b] = length(a - c);
  }
}

Status buildRope(const RopeDef& def, RopeState* out) {
  WISP_TRY(validateRopeParams(def.params));
  WISP_TRY(checkRange("RopeDef.massPerLength", def.massPerLength, 1e-6, 1e6));
  std::vector<Vec3> pts;
  if (!def.points.empty()) {
    if (def.points.size() < 2)
      return Status::Error(StatusCode::InvalidArgument, "RopeDef.points needs at least 2 points (got " +
                                                            std::to_string(def.points.size()) + ")");
    if (def.points.size() > static_cast<size_t>(kMaxRopeParticles))
      return Status::Error(StatusCode::InvalidArgument, "RopeDef.points has more than " +
                                                            std::to_string(kMaxRopeParticles) + " points");
    for (size_t i = 0; i < def.points.size(); ++i)
      if (!isFinite(def.points[i]))
        return Status::Error(StatusCode::InvalidArgument, "RopeDef.points[" + std::to_string(i) +
                                                              "] must be finite (got " + formatVec(def.points[i]) + ")");
    pts = def.points;
  } else {
    WISP_TRY(checkFiniteVec("RopeDef.start", def.start));
    WISP_TRY(checkFiniteVec("RopeDef.end", def.end));
    if (def.segments < 1 || def.segments >= kMaxRopeParticles)
      return Status::Error(StatusCode::InvalidArgument, "RopeDef.segments must be in [1, " +
                                                            std::to_string(kMaxRopeParticles - 1) + "] (got " +
                                                            std::to_string(def.segments) + ")");
    pts.resize(def.segments + 1);
    for (int i = 0; i <= def.segments; ++i)
      pts[i] = lerp(def.start, def.end, static_cast<float>(i) / static_cast<float>(def.segments));
  }
  const int n = static_cast<int>(pts.size());
  for (int s = 0; s + 1 < n; ++s) {
    float len = length(pts[s + 1] - pts[s]);
    if (!(len > 1e-6f))
      return Status::Error(StatusCode::InvalidArgument, "rope segment " + std::to_string(s) +
                                                            " has zero length (points " + std::to_string(s) +
                                                            " and " + std::to_string(s + 1) + " coincide)");
  }
  for (size_t k = 0; k < def.pinned.size(); ++k)
    if (def.pinned[k] < 0 || def.pinned[k] >= n)
      return Status::Error(StatusCode::OutOfRange, "RopeDef.pinned[" + std::to_string(k) + "] = " +
                                                       std::to_string(def.pinned[k]) + " is not a particle index in [0, " +
                                                       std::to_string(n - 1) + "]");

  RopeState& r = *out;
  r.params = def.params;
  r.resize(n);
  // Each particle carries the mass of half of each adjacent segment.
  std::vector<float> mass(n, 0.0f);
  for (int s = 0; s + 1 < n; ++s) {
    float len = length(pts[s + 1] - pts[s]);
    r.rest[s] = len;
    float m = 0.5f * len * def.massPerLength;
    mass[s] += m;
    mass[s + 1] += m;
  }
  for (int i = 0; i < n; ++i) {
    r.px[i] = r.ox[i] = pts[i].x;
    r.py[i] = r.oy[i] = pts[i].y;
    r.pz[i] = r.oz[i] = pts[i].z;
    r.baseInvMass[i] = r.invMass[i] = 1.0f / mass[i];
  }
  computeBendRest(r);
  r.initialRest = r.rest;
  r.writeOutput(0, n);
  r.initialPositions = r.out;
  return Status::Ok();
}

}  // namespace wisp
