// World::shiftOrigin: moves the world's coordinate origin, for open worlds. Floats keep about
// seven significant digits, so 10 km from the origin a position is only good to a millimetre and
// a rope at rest there creeps by centimetres per step; a game that keeps its origin near the
// player (as with PhysX's PxScene::shiftOrigin or a floating origin) calls this when the player
// has moved far, and everything in the world is re-expressed relative to the new origin.
#include "world/world_impl.h"

namespace wisp {

namespace {

// v - o computed once and rounded once: exact whenever the result is representable (the shift of
// a value by a nearby offset always is, Sterbenz), so a scene built far away and shifted to the
// origin holds the very floats of the same scene built at the origin.
struct Offset {
  double x, y, z;
};
float shifted(float v, double o) { return static_cast<float>(static_cast<double>(v) - o); }
Vec3 shifted(Vec3 v, Offset o) { return {shifted(v.x, o.x), shifted(v.y, o.y), shifted(v.z, o.z)}; }

void shiftParticles(Particles& p, Offset o) {
  for (int i = 0; i < p.count(); ++i) {
    p.px[i] = shifted(p.px[i], o.x); p.py[i] = shifted(p.py[i], o.y); p.pz[i] = shifted(p.pz[i], o.z);
    p.ox[i] = shifted(p.ox[i], o.x); p.oy[i] = shifted(p.oy[i], o.y); p.oz[i] = shifted(p.oz[i], o.z);
    p.qx[i] = shifted(p.qx[i], o.x); p.qy[i] = shifted(p.qy[i], o.y); p.qz[i] = shifted(p.qz[i], o.z);
  }
  for (size_t k = 0; k + 2 < p.initialPositions.size(); k += 3) {
    p.initialPositions[k] = shifted(p.initialPositions[k], o.x);
    p.initialPositions[k + 1] = shifted(p.initialPositions[k + 1], o.y);
    p.initialPositions[k + 2] = shifted(p.initialPositions[k + 2], o.z);
  }
  p.writeOutput(0, p.count());
}

}  // namespace

Status World::shiftOrigin(double x, double y, double z) {
  for (double v : {x, y, z})
    if (!std::isfinite(v) || std::fabs(v) > 1e30)
      return Status::Error(StatusCode::InvalidArgument, "shiftOrigin: offset must be finite and at most 1e30 m (got (" +
                                                            formatValue(x) + ", " + formatValue(y) + ", " + formatValue(z) + "))");
  const Offset offset{x, y, z};
  Impl& w = *impl_;
  for (RopeState& r : w.ropes)
    if (r.alive) shiftParticles(r, offset);
  for (ClothState& c : w.cloths)
    if (c.alive) shiftParticles(c, offset);
  for (ChainState& c : w.chains) {
    if (!c.alive) continue;
    shiftParticles(c, offset);
    for (Transform* t : {&c.rootFrom, &c.rootTo, &c.spaceFrom, &c.spaceTo, &c.rootPrev, &c.spacePrev})
      t->position = shifted(t->position, offset);
  }
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
