// Per-object activity: enabled, asleep, how long it has been still, and which fixed steps it runs
// on (updateEvery). Read by the step (world/world_activity.cpp) to skip objects, saved in
// snapshots and hashed, so a restored world sleeps and wakes exactly as the original.
#pragma once
#include <cstdint>

#include "math/vec3.h"

namespace wisp {

struct Activity {
  bool enabled = true;     // false: skipped by the step, state kept (World::setEnabled)
  bool sleeping = false;   // settled: skipped until disturbed
  float stillTime = 0;     // s the object has been slower than its sleepSpeed
  uint32_t phase = 0;      // runs on fixed steps g with (g + phase) % updateEvery == 0
  uint64_t updates = 0;    // fixed steps the object was simulated
  Vec3 boxMin, boxMax;     // m: its particles' bounds when it fell asleep (what colliders may touch)
  float speed = 0;         // m/s: the fastest particle after its last simulated step (not saved)
  // This frame's share of fixed steps (set by the step before the objects run; not saved).
  int frameSteps = 0;
  int firstStep = 0;       // the frame's fixed step (0-based) its first simulated step ends on
  const char* woke = nullptr;  // why it was woken between steps: reported by the next step (not saved)
};

// Wakes a sleeping object (or restarts a waking one's stillness clock); the next step runs it and
// reports why.
inline void wakeLater(Activity& a, const char* why) {
  if (a.sleeping && !a.woke) a.woke = why;
  a.sleeping = false;
  a.stillTime = 0;
}
template <class Object>
void wakeLater(Object& o, const char* why) { wakeLater(o.activity, why); }

}  // namespace wisp
