// Particle storage shared by every object kind (ropes, cloth), structure-of-arrays. An object's
// arrays are allocated when it is created and never resized by a step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "particles/activity.h"
#include "particles/origin.h"
#include "solver/step_context.h"

namespace wisp {

// What an object with an origin of its own sees in one frame, converted into its frame (scratch,
// refilled every frame, sized serially before the step: no allocation in a steady state).
struct LocalFrame {
  std::vector<AnchorPath> anchors;      // indexed by anchor slot; only the object's pins are filled
  std::vector<ColliderPath> colliders;  // the world's enabled colliders, in the object's frame
  std::vector<WindZoneField> zones;     // the world's wind zones, in the object's frame
};

struct Particles {
  std::vector<float> px, py, pz;  // position (m)
  std::vector<float> vx, vy, vz;  // velocity (m/s)
  std::vector<float> ox, oy, oz;  // position at the start of the substep (m)
  std::vector<float> qx, qy, qz;  // predicted position after Integrate (m), see UpdateVelocity
  std::vector<float> invMass;     // effective 1/kg, 0 while pinned
  std::vector<float> baseInvMass; // 1/kg when free
  std::vector<int32_t> anchor;    // anchor slot a particle is pinned to, or -1
  std::vector<float> pinDistance; // m: 0 = held exactly on the anchor; > 0 = kept within it
  std::vector<float> pinCompliance; // m/N: 0 = a hard pin; > 0 = pulled toward the anchor by an XPBD spring
  std::vector<int32_t> pinnedList;  // indices of exactly pinned particles (derived)
  std::vector<int32_t> leashList;   // indices of particles leashed (pinDistance) or on a spring (pinCompliance) (derived)
  std::vector<int32_t> tetherTo;    // pinned particle this one is tethered to, or -1 (constraints/tether.h)
  std::vector<float> tetherLimit;   // m: the farthest it may be from tetherTo
  // m/s: the air velocity at each particle where it varies from point to point (turbulence, wind
  // zones), sampled once per fixed step and held through its substeps. Scratch: refilled before
  // every use, not saved, sized by sizeAirSamples() on first use.
  std::vector<float> airx, airy, airz;

  // The object's own origin (particles/origin.h): positions, initialPositions (and a chain's root
  // and space poses) are relative to it; `out` and every position the API returns are world
  // positions. 0 for objects near the world's origin.
  Origin origin;
  LocalFrame local;                     // scratch, not saved

  std::vector<float> initialPositions;  // interleaved xyz at creation, for reset()
  std::vector<float> out;               // interleaved xyz for rendering, world positions (the view JS sees)
  bool broken = false;                  // set by the step when the state went non-finite (not saved)
  float clampedSpeed = 0;               // m/s: set by the step when maxSpeed slowed particles: the fastest (not saved)
  Activity activity;                    // enabled, asleep, update phase (particles/activity.h)

  int count() const { return static_cast<int>(px.size()); }
  Vec3 worldPosition(int i) const { return toWorld(Vec3{px[i], py[i], pz[i]}, origin); }

  void resizeParticles(int n) {
    for (auto* a : {&px, &py, &pz, &vx, &vy, &vz, &ox, &oy, &oz, &qx, &qy, &qz, &invMass, &baseInvMass, &tetherLimit,
                    &pinDistance, &pinCompliance})
      a->assign(n, 0.0f);
    anchor.assign(n, -1);
    tetherTo.assign(n, -1);
    out.assign(3 * static_cast<size_t>(n), 0.0f);
  }
  // Call serially before a frame that samples the air: allocates only after the particle count
  // changed (creation, cut, snapshot load), never in a steady state.
  void sizeAirSamples() {
    for (auto* a : {&airx, &airy, &airz})
      if (a->size() != px.size()) a->assign(px.size(), 0.0f);
  }
  // True when particle i is held exactly (not leashed, not on a spring).
  bool hardPinned(int i) const { return anchor[i] >= 0 && pinDistance[i] == 0.0f && pinCompliance[i] == 0.0f; }
  // The lists of pinned and leashed particles, after `anchor`, `pinDistance` or `pinCompliance` changed.
  void collectPins() {
    pinnedList.clear();
    leashList.clear();
    for (int i = 0; i < count(); ++i) {
      if (anchor[i] < 0) continue;
      (hardPinned(i) ? pinnedList : leashList).push_back(i);
    }
  }
  void writeOutput(int begin, int end) {
    if (!origin.zero()) {
      for (int i = begin; i < end; ++i) {
        out[3 * i] = toWorld(px[i], origin.x);
        out[3 * i + 1] = toWorld(py[i], origin.y);
        out[3 * i + 2] = toWorld(pz[i], origin.z);
      }
      return;
    }
    for (int i = begin; i < end; ++i) {
      out[3 * i] = px[i];
      out[3 * i + 1] = py[i];
      out[3 * i + 2] = pz[i];
    }
  }
  // Back to the creation pose, at rest.
  void resetParticles() {
    for (int i = 0; i < count(); ++i) {
      px[i] = ox[i] = initialPositions[3 * i];
      py[i] = oy[i] = initialPositions[3 * i + 1];
      pz[i] = oz[i] = initialPositions[3 * i + 2];
      vx[i] = vy[i] = vz[i] = 0;
    }
    writeOutput(0, count());
  }
};

}  // namespace wisp
