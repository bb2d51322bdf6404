// Opaque generational handles (Box2D style). `index` selects a slot; `generation` must match
// the slot's current generation, so a removed object's id is rejected instead of aliasing a
// newer object. The top bits of a generation carry the owning world's tag, so an id from
// another World is rejected too.
#pragma once
#include <cstdint>

namespace wisp {

struct Handle {
  uint32_t index = 0;
  uint32_t generation = 0;  // 0 is never issued: a default-constructed id is always invalid
};

struct RopeId : Handle {};
struct AnchorId : Handle {};
struct ColliderId : Handle {};
struct ClothId : Handle {};
struct ChainId : Handle {};
struct WindZoneId : Handle {};
struct ChainLinksId : Handle {};

inline bool operator==(Handle a, Handle b) { return a.index == b.index && a.generation == b.generation; }

}  // namespace wisp
