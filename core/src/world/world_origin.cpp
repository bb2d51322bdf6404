// World::shiftOrigin, and the origins objects simulate relative to (particles/origin.h). Floats
// keep about seven significant digits, so 10 km from the origin a position is only good to a
// millimetre and a rope at rest there would creep by centimetres per step. Every rope, cloth and
// chain built far out therefore gets an origin of its own near its particles and is simulated
// relative to it; what it meets is converted into its frame once per frame (localize), and it is
// rebased when it travels. A game that keeps its own origin near the player (as with PhysX's
// PxScene::shiftOrigin or a floating origin) also calls shiftOrigin when the player has moved
// far, and everything in the world is re-expressed relative to the new origin.
#include "world/world_impl.h"

namespace wisp {

namespace {

// v - o computed once and rounded once (toLocal): exact whenever the result is representable (the
// shift of a value by a nearby offset always is, Sterbenz), so a scene built far away and shifted
// to the origin holds the very floats of the same scene built at the origin.
Vec3 shifted(Vec3 v, const Origin& o) { return toLocal(v, o); }

// Moves an object onto the origin `next`: its positions change by (origin - next), exactly when
// the grid step is a multiple of the positions' spacing (a rebase by multiples of kOriginGrid).
void moveParticles(Particles& p, const Origin& next) {
  const Origin d{next.x - p.origin.x, next.y - p.origin.y, next.z - p.origin.z};
  for (int i = 0; i < p.count(); ++i) {
    p.px[i] = toLocal(p.px[i], d.x); p.py[i] = toLocal(p.py[i], d.y); p.pz[i] = toLocal(p.pz[i], d.z);
    p.ox[i] = toLocal(p.ox[i], d.x); p.oy[i] = toLocal(p.oy[i], d.y); p.oz[i] = toLocal(p.oz[i], d.z);
    p.qx[i] = toLocal(p.qx[i], d.x); p.qy[i] = toLocal(p.qy[i], d.y); p.qz[i] = toLocal(p.qz[i], d.z);
  }
  for (size_t k = 0; k + 2 < p.initialPositions.size(); k += 3) {
    p.initialPositions[k] = toLocal(p.initialPositions[k], d.x);
    p.initialPositions[k + 1] = toLocal(p.initialPositions[k + 1], d.y);
    p.initialPositions[k + 2] = toLocal(p.initialPositions[k + 2], d.z);
  }
  p.origin = next;
  p.writeOutput(0, p.count());
}

// The origin an object should have now, judged by its first particle; false when it keeps its own.
// Near the world's origin: 0 (with hysteresis: an object leaves 0 past kNearOrigin and comes back
// inside half of it). Far out: the particle rounded to the grid, once it drifted kOriginDrift away.
bool nextOrigin(const Particles& o, Origin* next) {
  if (o.count() == 0) return false;
  const Vec3 p{o.px[0], o.py[0], o.pz[0]};
  // the common case, judged on the floats alone (every frame, every object): at the origin 0 and
  // near it, where originFor gives 0 (a NaN fails the test and goes the long way)
  if (o.origin.zero() && std::fabs(p.x) < kNearOrigin && std::fabs(p.y) < kNearOrigin && std::fabs(p.z) < kNearOrigin)
    return false;
  if (!isFinite(p)) return false;
  const double x = static_cast<double>(p.x) + o.origin.x, y = static_cast<double>(p.y) + o.origin.y,
               z = static_cast<double>(p.z) + o.origin.z;
  if (o.origin.zero()) {
    *next = originFor(x, y, z);
    return !next->zero();
  }
  const double back = 0.5 * kNearOrigin;
  if (std::fabs(x) < back && std::fabs(y) < back && std::fabs(z) < back) {
    *next = Origin{};
    return true;
  }
  if (std::fabs(p.x) <= kOriginDrift && std::fabs(p.y) <= kOriginDrift && std::fabs(p.z) <= kOriginDrift) return false;
  *next = originFor(x, y, z);
  return true;
}

}  // namespace

void World::Impl::rebase(RopeState& o) {
  Origin next;
  if (nextOrigin(o, &next)) moveParticles(o, next);
}
void World::Impl::rebase(ClothState& o) {
  Origin next;
  if (nextOrigin(o, &next)) moveParticles(o, next);
}
void World::Impl::rebase(ChainState& c) {
  Origin next;
  if (!nextOrigin(c, &next)) return;
  const Origin d{next.x - c.origin.x, next.y - c.origin.y, next.z - c.origin.z};
  for (Transform* t : {&c.rootFrom, &c.rootTo, &c.spaceFrom, &c.spaceTo, &c.rootPrev, &c.spacePrev}) t->position = shifted(t->position, d);
  moveParticles(c, next);
}

void World::Impl::localize(Particles& o) {
  if (o.origin.zero()) return;
  LocalFrame& f = o.local;
  if (f.anchors.size() < anchorPaths.size()) f.anchors.resize(anchorPaths.size());  // grows with the anchors only
  for (const std::vector<int32_t>* list : {&o.pinnedList, &o.leashList})
    for (int32_t i : *list) {
      const AnchorPath& a = anchorPaths[o.anchor[i]];
      f.anchors[o.anchor[i]] = {toLocal(a.from, o.origin), toLocal(a.to, o.origin)};
    }
  f.colliders.resize(colliderPaths.size());  // within the capacity of the largest collider count seen
  for (size_t k = 0; k < colliderPaths.size(); ++k) {
    ColliderPath c = colliderPaths[k];
    c.from.position = toLocal(c.from.position, o.origin);
    c.to.position = toLocal(c.to.position, o.origin);
    f.colliders[k] = c;
  }
  f.zones.resize(zoneFields.size());
  const Vec3 offset{static_cast<float>(o.origin.x), static_cast<float>(o.origin.y), static_cast<float>(o.origin.z)};
  for (size_t k = 0; k < zoneFields.size(); ++k) {
    WindZoneField z = zoneFields[k];
    z.centre = toLocal(z.centre, o.origin);
    z.wind.offset = offset;
    f.zones[k] = z;
  }
}

Status World::shiftOrigin(double x, double y, double z) {
  for (double v : {x, y, z})
    if (!std::isfinite(v) || std::fabs(v) > 1e30)
      return Status::Error(StatusCode::InvalidArgument, "shiftOrigin: offset must be finite and at most 1e30 m (got (" +
                                                            formatValue(x) + ", " + formatValue(y) + ", " + formatValue(z) + "))");
  const Origin offset{x, y, z};
  Impl& w = *impl_;
  // objects keep their floats: their own origins move (a chain's root and space poses are
  // relative to its origin too)
  w.forEachObject([&](Particles& o) {
    o.origin = {o.origin.x - x, o.origin.y - y, o.origin.z - z};
    o.writeOutput(0, o.count());
  });
  for (AnchorSlot& a : w.anchors) {
    if (!a.alive) continue;
    a.from = shifted(a.from, offset);
    a.to = shifted(a.to, offset);
    a.prev = shifted(a.prev, offset);
  }
  for (ColliderSlot& c : w.colliders) {
    if (!c.alive) continue;
    for (Transform* t : {&c.def.transform, &c.from, &c.prev}) t->position = shifted(t->position, offset);
  }
  for (WindZoneSlot& z : w.windZones)
    if (z.alive) z.def.transform.position = shifted(z.def.transform.position, offset);
  return Status::Ok();
}

}  // namespace wisp
