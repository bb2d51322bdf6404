// What objects meet: anchors, colliders and wind zones.
#include "world/world_impl.h"

namespace wisp {

// --- anchors --------------------------------------------------------------------------------

Status World::addAnchor(Vec3 position, AnchorId* out) {
  WISP_TRY(checkFiniteVec("anchor position", position));
  uint32_t slot = impl_->newAnchorSlot(position, ObjectKind::Rope, -1);
  out->index = slot;
  out->generation = impl_->anchors[slot].generation;
  return Status::Ok();
}

Status World::removeAnchor(AnchorId id) {
  Impl& w = *impl_;
  if (!w.anchorLive(id)) return badHandle("anchor", id);
  const AnchorSlot& slot = w.anchors[id.index];
  if (slot.owned())  // made for its owner's Def::pinned: the owner no longer removes it
    w.withKind(slot.owner(), [&](auto& objects) {
      auto& owned = objects[slot.ownerIndex].ownedAnchors;
      owned.erase(std::remove(owned.begin(), owned.end(), id.index), owned.end());
    });
  w.freeAnchorSlot(id.index);
  return Status::Ok();
}

Status World::setAnchorPosition(AnchorId id, Vec3 position) {
  if (!impl_->anchorLive(id)) return badHandle("anchor", id);
  WISP_TRY(checkFiniteVec("anchor position", position));
  impl_->anchors[id.index].to = position;
  return Status::Ok();
}

Status World::teleportAnchor(AnchorId id, Vec3 position) {
  Impl& w = *impl_;
  if (!w.anchorLive(id)) return badHandle("anchor", id);
  WISP_TRY(checkFiniteVec("anchor position", position));
  // `from` stays until the next step() resolves the jump (World::Impl::resolveTeleports): leashed
  // particles follow by the jump, exact pins land on the anchor, whatever was teleported meanwhile
  AnchorSlot& a = w.anchors[id.index];
  a.to = a.prev = position;
  a.jump = true;
  return Status::Ok();
}

Status World::anchorPosition(AnchorId id, Vec3* out) const {
  if (!impl_->anchorLive(id)) return badHandle("anchor", id);
  *out = impl_->anchors[id.index].to;
  return Status::Ok();
}

// --- colliders -------------------------------------------------------------------------------

Status World::addCollider(const ColliderDef& def, ColliderId* out) {
  WISP_TRY(validateColliderDef(def));
  Impl& w = *impl_;
  bool grown;
  uint32_t slot = w.colliders.open(w.tag, &grown);
  if (grown) w.colliderPaths.reserve(w.colliders.size());
  ColliderSlot& c = w.colliders[slot];
  c.def = def;
  c.def.transform.rotation = normalize(def.transform.rotation);
  c.from = c.prev = c.def.transform;
  if (c.def.enabled) w.wakeNear(pathOf(c.def, c.from, c.scale), "a collider was added near it");
  out->index = slot;
  out->generation = c.generation;
  return Status::Ok();
}

Status World::removeCollider(ColliderId id) {
  Impl& w = *impl_;
  if (!w.colliderLive(id)) return badHandle("collider", id);
  const ColliderSlot& c = w.colliders[id.index];
  if (c.def.enabled) w.wakeNear(pathOf(c.def, c.from, c.scale), "a collider near it was removed");
  w.colliders.close(id.index);
  return Status::Ok();
}

Status World::setColliderTransform(ColliderId id, const Transform& t, float scale) {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  WISP_TRY(checkFiniteVec("collider position", t.position));
  WISP_TRY(checkQuat("collider rotation", t.rotation));
  if (!(scale >= 1e-4f && scale <= 1e4f)) WISP_TRY(checkRange("collider scale", scale, 1e-4, 1e4));
  ColliderSlot& c = impl_->colliders[id.index];
  // a new size where it stands: what it may now reach wakes (a move is seen by the step itself)
  if (scale != c.scale && c.def.enabled)
    impl_->wakeNear(pathOf(c.def, c.from, std::max(scale, c.scale)), "the scale of a collider near it changed");
  c.def.transform = {t.position, normalize(t.rotation)};
  c.scale = scale;
  return Status::Ok();
}

Status World::teleportCollider(ColliderId id, const Transform& t, float scale) {
  WISP_TRY(setColliderTransform(id, t, scale));
  ColliderSlot& c = impl_->colliders[id.index];
  if (c.def.enabled) impl_->wakeNear(pathOf(c.def, c.from, c.scale), "a collider was teleported near it");
  c.from = c.prev = c.def.transform;
  return Status::Ok();
}

Status World::addWindZone(const WindZoneDef& def, WindZoneId* out) {
  WISP_TRY(validateWindZone(def));
  Impl& w = *impl_;
  bool grown;
  uint32_t slot = w.windZones.open(w.tag, &grown);
  if (grown) w.zoneFields.reserve(w.windZones.size());
  WindZoneSlot& z = w.windZones[slot];
  z.def = def;
  w.wakeAll("a wind zone was added");
  out->index = slot;
  out->generation = z.generation;
  return Status::Ok();
}

Status World::setWindZone(WindZoneId id, const WindZoneDef& def) {
  if (!impl_->zoneLive(id)) return badHandle("wind zone", id);
  WISP_TRY(validateWindZone(def));
  impl_->windZones[id.index].def = def;
  impl_->wakeAll("a wind zone changed");
  return Status::Ok();
}

Status World::removeWindZone(WindZoneId id) {
  Impl& w = *impl_;
  if (!w.zoneLive(id)) return badHandle("wind zone", id);
  w.windZones.close(id.index);
  w.wakeAll("a wind zone was removed");
  return Status::Ok();
}

Vec3 World::airVelocityAt(Vec3 point) const {
  const Impl& w = *impl_;
  std::vector<WindZoneField> zones;
  for (const WindZoneSlot& z : w.windZones)
    if (z.alive) zones.push_back(makeWindZoneField(z.def));
  AirField air{makeWindField(w.settings.wind), zones.data(), static_cast<int>(zones.size())};
  return airVelocity(air, point, static_cast<float>(time()));
}

Status World::setColliderEnabled(ColliderId id, bool enabled) {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  ColliderSlot& c = impl_->colliders[id.index];
  if (c.def.enabled != enabled) impl_->wakeNear(pathOf(c.def, c.from, c.scale), enabled ? "a collider near it was enabled" : "a collider near it was disabled");
  c.def.enabled = enabled;
  return Status::Ok();
}

Status World::setColliderFriction(ColliderId id, float friction) {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  WISP_TRY(checkRange("collider friction", friction, 0, 2));
  ColliderSlot& c = impl_->colliders[id.index];
  if (c.def.enabled && c.def.friction != friction) impl_->wakeNear(pathOf(c.def, c.from, c.scale), "the friction of a collider near it changed");
  c.def.friction = friction;
  return Status::Ok();
}

Status World::collider(ColliderId id, ColliderDef* out) const {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  *out = impl_->colliders[id.index].def;
  return Status::Ok();
}

}  // namespace wisp
