// Teleports of ropes and cloth: anchors that jump (past an object's teleportDistance or
// teleportAngle within one frame, or through teleportAnchor) carry the objects pinned to them
// rigidly, instead of dragging their pins across the world in one frame (a rope pinned to an
// anchor moved 100 m would otherwise leave at 6,000 m/s).
#include "math/quat.h"
#include "math/trig.h"
#include "particles/rigid_motion.h"
#include "world/world_impl.h"

namespace wisp {

namespace {

Vec3 at(const Particles& o, int i) { return {o.px[i], o.py[i], o.pz[i]}; }

// The pin of `pins` farthest from pins[0] by `where` (the first of equals), or -1 if all coincide.
template <class Where>
int farthestPin(const std::vector<int32_t>& pins, Where&& where) {
  int far = -1;
  float best = 1e-12f;
  const Vec3 p0 = where(pins[0]);
  for (size_t k = 1; k < pins.size(); ++k) {
    const float d = lengthSq(where(pins[k]) - p0);
    if (d > best) {
      best = d;
      far = pins[k];
    }
  }
  return far;
}

// Whether the object's anchors jump past its thresholds this frame: one moves farther than
// `distance`, or the line between its two farthest-apart anchors turns by more than `angle`.
bool jumpsPastThresholds(const Particles& o, const AnchorPath* paths, float distance, float angle) {
  if (distance > 0.0f) {
    const float d2 = distance * distance;
    for (const std::vector<int32_t>* list : {&o.pinnedList, &o.leashList})
      for (int32_t i : *list) {
        const AnchorPath& a = paths[o.anchor[i]];
        if (lengthSq(a.to - a.from) > d2) return true;
      }
  }
  const std::vector<int32_t>& pins = !o.pinnedList.empty() ? o.pinnedList : o.leashList;
  if (angle > 0.0f && pins.size() >= 2) {
    const int far = farthestPin(pins, [&](int i) { return paths[o.anchor[i]].from; });
    if (far < 0) return false;
    const AnchorPath& a0 = paths[o.anchor[pins[0]]];
    const AnchorPath& a1 = paths[o.anchor[far]];
    const Vec3 u = a1.from - a0.from, v = a1.to - a0.to;
    const float lu = length(u), lv = length(v);
    if (!(lv > 1e-6f)) return false;
    double s, c;
    sinCos(angle, &s, &c);
    return dot(u, v) < static_cast<float>(c) * lu * lv;
  }
  return false;
}

}  // namespace

// Carries the object rigidly so that its pins land on their anchors' targets: exact pins map
// from where they are to their anchor's end position; with none, leashed particles keep their
// offsets and follow their anchors' jumps. Translation of the first pin, and the shortest turn
// taking the line to the farthest pin onto the line between their targets. Positions, previous
// positions and velocities move together (teleportRope's rule), so no velocity is injected.
// Returns false when the object is already there (nothing moved, not a bit).
bool carryOntoAnchors(Particles& o, const AnchorPath* paths) {
  const bool exact = !o.pinnedList.empty();
  const std::vector<int32_t>& pins = exact ? o.pinnedList : o.leashList;
  if (pins.empty()) return false;
  auto target = [&](int i) {
    const AnchorPath& a = paths[o.anchor[i]];
    return exact ? a.to : at(o, i) + (a.to - a.from);
  };
  const int i0 = pins[0];
  const Vec3 x0 = at(o, i0);
  const Vec3 shift = target(i0) - x0;
  Quat q{};
  bool turn = false;
  const int far = farthestPin(pins, [&](int i) { return at(o, i); });
  if (far >= 0) {
    const Vec3 u = at(o, far) - x0, v = target(far) - target(i0);
    if (length(v) > 1e-6f && !(u.x == v.x && u.y == v.y && u.z == v.z)) {
      q = fromUnitVectors(u * (1.0f / length(u)), v * (1.0f / length(v)));
      turn = !(q.x == 0.0f && q.y == 0.0f && q.z == 0.0f);
    }
  }
  if (!turn && shift.x == 0.0f && shift.y == 0.0f && shift.z == 0.0f) return false;
  RigidMotion m = turnAboutThenShift(q, x0, shift);
  m.turn = turn;
  movePoints(m, 0, o.count(), o.px.data(), o.py.data(), o.pz.data());
  movePoints(m, 0, o.count(), o.ox.data(), o.oy.data(), o.oz.data());
  turnVectors(m, 0, o.count(), o.vx.data(), o.vy.data(), o.vz.data());
  o.writeOutput(0, o.count());
  return true;
}

namespace {

bool pinnedToJumped(const Particles& o, const std::vector<uint8_t>& jumped) {
  for (const std::vector<int32_t>* list : {&o.pinnedList, &o.leashList})
    for (int32_t i : *list)
      if (jumped[o.anchor[i]]) return true;
  return false;
}

}  // namespace

void World::Impl::resolveTeleports(bool detect) {
  bool any = false;
  for (size_t i = 0; i < anchors.size(); ++i) {
    anchorJumped[i] = anchors[i].alive && anchors[i].jump ? 1 : 0;
    any = any || anchorJumped[i];
  }
  if (!detect && !any) return;
  // An anchor's jump is a teleport for every object on it when it is one for any of them (the
  // strictest threshold wins): its path cannot both interpolate and jump.
  auto mark = [&](const Particles& o, float distance, float angle) {
    if (!o.activity.enabled) return;  // carried onto its anchors when enabled again
    if (!jumpsPastThresholds(o, anchorPaths.data(), distance, angle)) return;
    for (const std::vector<int32_t>* list : {&o.pinnedList, &o.leashList})
      for (int32_t i : *list) anchorJumped[o.anchor[i]] = 1;
    any = true;
  };
  // only kinds that hang on anchors (a chain's teleport thresholds are its root's: chain_solver.cpp)
  if (detect)
    forEachKind([&](const auto& objects) {
      if constexpr (decltype(rowOf(objects))::anchorable)
        for (const auto& o : objects)
          if (o.alive) mark(o, o.params.teleportDistance, o.params.teleportAngle);
    });
  if (!any) return;
  forEachKind([&](auto& objects) {
    using Row = decltype(rowOf(objects));
    if constexpr (Row::anchorable) {
      for (size_t i = 0; i < objects.size(); ++i) {
        auto& o = objects[i];
        if (!o.alive || !o.activity.enabled || !pinnedToJumped(o, anchorJumped)) continue;
        if (o.activity.sleeping) wakeLater(o, "its anchors were teleported");
        localize(o);  // an object with an origin of its own lands on its anchors in its frame
        if (!carryOntoAnchors(o, anchorsOf(o))) continue;
        report(WorldEvent::Type::Teleported, Row::kind, static_cast<uint32_t>(i), o.generation,
               std::string(Row::name) + " " + std::to_string(i) + " was carried rigidly onto anchors that jumped");
      }
    }
  });
  for (size_t i = 0; i < anchors.size(); ++i)
    if (anchorJumped[i]) anchorPaths[i].from = anchorPaths[i].to;
}

}  // namespace wisp
