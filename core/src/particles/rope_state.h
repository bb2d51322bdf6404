// Per-rope particle and constraint storage, structure-of-arrays. A rope's arrays are allocated
// when it is created (or cut) and never resized by a step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "wisp/rope.h"

namespace wisp {

struct RopeState {
  uint32_t generation = 0;  // of the id that owns this slot (kept after removal)
  bool alive = false;
  RopeParams params;

  // particles
  std::vector<float> px, py, pz;  // position (m)
  std::vector<float> vx, vy, vz;  // velocity (m/s)
  std::vector<float> ox, oy, oz;  // position at the start of the substep (m)
  std::vector<float> qx, qy, qz;  // predicted position after Integrate (m), see UpdateVelocity
  std::vector<float> invMass;     // effective 1/kg, 0 while pinned
  std::vector<float> baseInvMass; // 1/kg when free
  std::vector<int32_t> anchor;    // anchor slot a particle is pinned to, or -1
  std::vector<int32_t> pinnedList; // indices of pinned particles (derived from anchor)
  std::vector<int32_t> tetherTo;  // nearest pinned particle along the rope, or -1 (constraints/tether.h)
  std::vector<float> restPrefix;  // m, rest length from particle 0 to i along the rope

  // constraints: segment i joins particles i and i+1; bend i joins i and i+2
  std::vector<float> rest;        // m, current rest length (grows under plastic stretch)
  std::vector<float> bendRest;    // m
  std::vector<float> lambda;      // N*s^2, XPBD multipliers (stretch then bend), per substep

  // creation state, for reset()
  std::vector<float> initialPositions;  // interleaved xyz
  std::vector<float> initialRest;

  // interleaved xyz output for rendering (the zero-copy view JS sees)
  std::vector<float> out;

  std::vector<uint32_t> ownedAnchors;  // anchor slots created for RopeDef::pinned

  int count() const { return static_cast<int>(px.size()); }
  int segments() const { return static_cast<int>(rest.size()); }
  int bends() const { return static_cast<int>(bendRest.size()); }
  void resize(int n) {
    for (auto* a : {&px, &py, &pz, &vx, &vy, &vz, &ox, &oy, &oz, &qx, &qy, &qz, &invMass, &baseInvMass, &restPrefix})
      a->assign(n, 0.0f);
    anchor.assign(n, -1);
    tetherTo.assign(n, -1);
    rest.assign(n > 0 ? n - 1 : 0, 0.0f);
    bendRest.assign(n > 1 ? n - 2 : 0, 0.0f);
    lambda.assign(rest.size() + bendRest.size(), 0.0f);
    out.assign(3 * static_cast<size_t>(n), 0.0f);
  }
  // Recomputes what derives from `anchor` after pins change: the list of pinned particles, and
  // for tethers the pinned particle with the fewest segments between.
  void updatePins() {
    const int n = count();
    pinnedList.clear();
    for (int i = 0; i < n; ++i)
      if (anchor[i] >= 0) pinnedList.push_back(i);
    int last = -1;
    for (int i = 0; i < n; ++i) {
      if (anchor[i] >= 0) last = i;
      tetherTo[i] = anchor[i] >= 0 ? -1 : last;
    }
    last = -1;
    for (int i = n - 1; i >= 0; --i) {
      if (anchor[i] >= 0) { last = i; continue; }
      if (last >= 0 && (tetherTo[i] < 0 || last - i < i - tetherTo[i])) tetherTo[i] = last;
    }
  }
  void writeOutput(int begin, int end) {
    for (int i = begin; i < end; ++i) {
      out[3 * i] = px[i];
      out[3 * i + 1] = py[i];
      out[3 * i + 2] = pz[i];
    }
  }
};

}  // namespace wisp
