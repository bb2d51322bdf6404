// The slots of one kind of thing the world holds (ropes, cloth, chains, anchors, colliders, wind
// zones): the slots themselves, the free list, generations and liveness, so that every kind
// issues and checks its generational handles (wisp/ids.h) the same way. A slot type has
// `uint32_t generation` and `bool alive`.
#pragma once

#include <cstdint>
#include <vector>

#include "wisp/ids.h"

namespace wisp {

// Generation = world tag (high 12 bits) | per-slot serial (low 20 bits, never 0).
inline uint32_t nextGeneration(uint32_t tag, uint32_t previous) {
  uint32_t serial = (previous & 0xFFFFFu) + 1;
  if (serial > 0xFFFFFu) serial = 1;
  return (tag << 20) | serial;
}

template <class Slot>
struct SlotStore {
  using value_type = Slot;
  std::vector<Slot> slots;
  std::vector<uint32_t> free;  // dead slots, reused last-freed first

  size_t size() const { return slots.size(); }
  Slot& operator[](size_t i) { return slots[i]; }
  const Slot& operator[](size_t i) const { return slots[i]; }
  auto begin() { return slots.begin(); }
  auto end() { return slots.end(); }
  auto begin() const { return slots.begin(); }
  auto end() const { return slots.end(); }

  bool live(Handle h) const {
    return h.generation != 0 && h.index < slots.size() && slots[h.index].alive && slots[h.index].generation == h.generation;
  }
  Slot* get(Handle h) { return live(h) ? &slots[h.index] : nullptr; }
  const Slot* get(Handle h) const { return live(h) ? &slots[h.index] : nullptr; }
  template <class Id>
  Id id(uint32_t index) const {
    Id out;
    out.index = index;
    out.generation = slots[index].generation;
    return out;
  }
  // Every live slot's id, in slot order.
  template <class Id>
  void liveIds(std::vector<Id>* out) const {
    out->clear();
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i].alive) out->push_back(id<Id>(static_cast<uint32_t>(i)));
  }
  int liveCount() const {
    int n = 0;
    for (const Slot& s : slots) n += s.alive ? 1 : 0;
    return n;
  }

  // A free slot, or a new one at the end (then `grown` is true), alive under a new generation
  // carrying the world's `tag`.
  uint32_t open(uint32_t tag, bool* grown) {
    *grown = free.empty();
    uint32_t slot;
    if (*grown) {
      slots.emplace_back();
      slot = static_cast<uint32_t>(slots.size() - 1);
    } else {
      slot = free.back();
      free.pop_back();
    }
    slots[slot].generation = nextGeneration(tag, slots[slot].generation);
    slots[slot].alive = true;
    return slot;
  }
  // Dead and on the free list; the generation stays, so old ids stay stale.
  void close(uint32_t index) {
    slots[index].alive = false;
    free.push_back(index);
  }
  // Every generation re-stamped with `tag` (a loaded snapshot's ids, issued by this world).
  void restamp(uint32_t tag) {
    for (Slot& s : slots) s.generation = (tag << 20) | (s.generation & 0xFFFFFu);
  }
  // The free list names only slots that exist (a loaded snapshot's).
  bool freeListInRange() const {
    for (uint32_t i : free)
      if (i >= slots.size()) return false;
    return true;
  }
};

}  // namespace wisp
