// World::objects(): the ids of every live object, so a caller that restored a snapshot can
// address what it holds.
#include "world/world_impl.h"

namespace wisp {

namespace {
template <class Id, class Slot>
void liveIds(const std::vector<Slot>& slots, std::vector<Id>* out) {
  out->clear();
  for (size_t i = 0; i < slots.size(); ++i)
    if (slots[i].alive) {
      Id id;
      id.index = static_cast<uint32_t>(i);
      id.generation = slots[i].generation;
      out->push_back(id);
    }
}
}  // namespace

void World::objects(WorldObjects* out) const {
  const Impl& w = *impl_;
  liveIds(w.ropes, &out->ropes);
  liveIds(w.cloths, &out->cloths);
  liveIds(w.chains, &out->chains);
  liveIds(w.anchors, &out->anchors);
  liveIds(w.colliders, &out->colliders);
  liveIds(w.windZones, &out->windZones);
}

}  // namespace wisp
