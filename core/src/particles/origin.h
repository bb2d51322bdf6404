// An object's own origin. Floats keep about seven significant digits: 10 km from the world's
// origin a position is only good to a millimetre, and a rope at rest there creeps by centimetres
// per step. So every rope, cloth and chain built far out simulates relative to an origin of its
// own, near its particles: its positions are stored relative to it, and what it meets (anchors,
// colliders, wind zones, roots) is converted into its frame once per frame. Objects built within
// kNearOrigin of the world's origin keep the origin 0: their floats are the world's, bit for bit.
// The threshold keeps the float spacing (7.6 µm at 128 m) well under the distance gravity moves a
// particle from rest in one substep (g·h² = 43 µm at 8 substeps of 1/60 s); at 1 km it is 61 µm.
#pragma once
#include <cmath>

#include "math/vec3.h"

namespace wisp {

// m: objects whose reference point is this close to the world's origin (in every coordinate)
// keep the origin 0; farther out the origin is the reference point rounded to kOriginGrid.
inline constexpr double kNearOrigin = 128;
// m: a power of two, so that moving a position by a multiple of it (a rebase, shiftOrigin by a
// multiple of it) is exact whenever the result is no farther out than the position was.
inline constexpr double kOriginGrid = 16;
// m: an object whose reference point drifts this far from its own origin is rebased.
inline constexpr double kOriginDrift = 64;

struct Origin {
  double x = 0, y = 0, z = 0;
  bool zero() const { return x == 0.0 && y == 0.0 && z == 0.0; }
};

// v - o and v + o in double, rounded once: exact whenever the result is representable (a shift
// of a value by a nearby multiple of the grid always is), and the same on every target.
inline float toLocal(float v, double o) { return static_cast<float>(static_cast<double>(v) - o); }
inline float toWorld(float v, double o) { return static_cast<float>(static_cast<double>(v) + o); }
inline Vec3 toLocal(Vec3 v, const Origin& o) { return {toLocal(v.x, o.x), toLocal(v.y, o.y), toLocal(v.z, o.z)}; }
inline Vec3 toWorld(Vec3 v, const Origin& o) { return {toWorld(v.x, o.x), toWorld(v.y, o.y), toWorld(v.z, o.z)}; }

// The origin for an object whose reference point is p (world coordinates, double): 0 near the
// world's origin (or for non-finite input, which validation rejects later), else p rounded to the grid.
inline Origin originFor(double x, double y, double z) {
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) return {};
  if (std::fabs(x) < kNearOrigin && std::fabs(y) < kNearOrigin && std::fabs(z) < kNearOrigin) return {};
  auto snap = [](double v) { return std::floor(v / kOriginGrid + 0.5) * kOriginGrid; };
  return {snap(x), snap(y), snap(z)};
}
inline Origin originFor(Vec3 p) { return originFor(p.x, p.y, p.z); }

}  // namespace wisp
