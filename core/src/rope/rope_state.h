// A rope: particles (particles/particles.h) plus its constraints. Allocated when the rope is
// created (or cut), never resized by a step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "particles/particles.h"
#include "wisp/rope.h"

namespace wisp {

struct RopeState : Particles {
  uint32_t generation = 0;  // of the id that owns this slot (kept after removal)
  bool alive = false;
  RopeParams params;

  std::vector<float> restPrefix;  // m, rest length from particle 0 to i along the rope

  // constraints: segment i joins particles i and i+1; bend i joins i and i+2
  std::vector<float> rest;        // m, current rest length (grows under plastic stretch)
  std::vector<float> bendRest;    // m
  std::vector<float> lambda;      // N*s^2, XPBD multipliers (stretch then bend), per substep

  std::vector<float> initialRest;  // for reset()
  // Scratch of the direct stretch solve (constraints/rope_direct.h), 5 floats per segment: not
  // saved, sized by sizeDirectScratch() before a frame (allocates only after the segment count
  // changed: creation, cut, snapshot load).
  std::vector<float> directScratch;
  void sizeDirectScratch() {
    if (directScratch.size() != 5 * rest.size()) directScratch.assign(5 * rest.size(), 0.0f);
  }

  std::vector<uint32_t> ownedAnchors;  // anchor slots created for RopeDef::pinned

  int segments() const { return static_cast<int>(rest.size()); }
  int bends() const { return static_cast<int>(bendRest.size()); }
  void resize(int n) {
    resizeParticles(n);
    restPrefix.assign(n, 0.0f);
    rest.assign(n > 0 ? n - 1 : 0, 0.0f);
    bendRest.assign(n > 1 ? n - 2 : 0, 0.0f);
    lambda.assign(rest.size() + bendRest.size(), 0.0f);
  }
  // Recomputes what derives from `anchor` after pins change: the list of pinned particles, and
  // for tethers the pinned particle with the fewest segments between.
  void updatePins() {
    const int n = count();
    collectPins();
    int last = -1;
    for (int i = 0; i < n; ++i) {
      if (hardPinned(i)) last = i;
      tetherTo[i] = hardPinned(i) ? -1 : last;
    }
    last = -1;
    for (int i = n - 1; i >= 0; --i) {
      if (hardPinned(i)) { last = i; continue; }
      if (last >= 0 && (tetherTo[i] < 0 || last - i < i - tetherTo[i])) tetherTo[i] = last;
    }
  }
};

}  // namespace wisp
