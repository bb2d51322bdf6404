// World::objects(): the ids of every live object, so a caller that restored a snapshot can
// address what it holds.
#include "world/world_impl.h"

namespace wisp {

void World::objects(WorldObjects* out) const {
  const Impl& w = *impl_;
  w.forEachKind([&](const auto& objects) {
    using Row = decltype(w.rowOf(objects));
    objects.liveIds(&(out->*Row::ids));
  });
  w.anchors.liveIds(&out->anchors);
  w.colliders.liveIds(&out->colliders);
  w.windZones.liveIds(&out->windZones);
}

}  // namespace wisp
