// Ropes: particles joined by XPBD distance constraints, optionally with bending.
#pragma once
#include <cstdint>
#include <vector>
#include "wisp/types.h"

namespace wisp {

// Parameters that can change while the rope lives (RopeParams) are kept apart from the
// geometry that is fixed at creation (RopeDef), as in Jolt's settings/state split.
struct RopeParams {
  float radius = 0.01f;            // m: particle collision radius
  float stretchCompliance = 0;     // m/N: 0 = inextensible
  bool bending = false;            // adds (i, i+2) distance constraints
  float bendCompliance = 1e-3f;    // m/N for the bending constraints
  float damping = 0.1f;            // 1/s: velocity decays as dv/dt = -damping * v
  float drag = 1.0f;               // 1/s: coupling to the air velocity (wind); also damps in still air
  float gravityScale = 1;          // multiplies the world gravity (negative = anti-gravity)
  float yieldRatio = 0;            // plastic stretch starts past rest * yieldRatio (>1); 0 = elastic only
  float plasticity = 1;            // 1/s: how fast the rest length creeps once past the yield ratio
  bool collide = true;             // collide with the world's colliders
  uint32_t colliderMask = 0xFFFFFFFFu;  // ... whose ColliderDef::groups share a bit with this
  // Long-range attachments: no particle gets farther from its nearest pinned particle than the
  // rope's rest length between them. Keeps long ropes from over-stretching at low substep counts.
  bool tethers = true;
  // m/s: at the end of every step no particle is faster than this; faster ones are slowed to it
  // and a WorldEvent::SpeedClamped says so. A safety net (360 km/h), not physics. 0 = no cap.
  float maxSpeed = 100.0f;
  // An anchor jump within one frame farther than this (m) from where the pinned particle is, or a
  // turn of the line between the two farthest-apart pins by more than teleportAngle (rad), is a
  // teleport: the whole rope is carried rigidly onto its anchors (shape and velocities kept, no
  // velocity injected) and a WorldEvent::Teleported says so. The distance is per frame: 1 m at
  // 60 Hz is 60 m/s. 0 disables each check. The same defaults as ChainParams.
  float teleportDistance = 1.0f;
  float teleportAngle = 1.5707963f;
  // Sleep: once no particle has been faster than sleepSpeed (m/s) for sleepTime (s) the object
  // sleeps: it is skipped by the step, its state kept exactly, until something disturbs it (see
  // World::setEnabled). 0 = never sleeps (the default; 0.001, 1 mm/s, is a safe value to opt in).
  float sleepSpeed = 0.0f;
  float sleepTime = 1.0f;
  // Simulated every updateEvery-th fixed step with a step updateEvery times as long (1..16): far
  // or small objects for a fraction of the cost. Pins follow their anchors at the times it runs.
  int32_t updateEvery = 1;
  // Fast ropes: in a frame where neighbouring particles move apart or together faster than a
  // quarter of their segment per substep (|v_{j+1} - v_j| h > l_j / 4), the rope runs 2, 4, 8...
  // times WorldSettings::substeps (the fewest that bring it under), up to this many per fixed
  // step. A 1 m rope of 1,000 particles falling from horizontal stretches 25 % at the default 8
  // substeps and under 0.1 % with this. <= WorldSettings::substeps: off.
  int32_t maxSubsteps = 64;
};

struct RopeDef {
  // Geometry: either `points` (2 or more), or a straight line from `start` to `end` cut into
  // `segments` equal segments (used when `points` is empty).
  std::vector<Vec3> points;
  Vec3 start{0, 0, 0};
  Vec3 end{1, 0, 0};
  int segments = 16;
  float massPerLength = 0.1f;      // kg/m, spread over the particles
  // Particles pinned where they start (a fixed anchor is made for each and owned by the rope).
  std::vector<int> pinned;
  RopeParams params;
};

}  // namespace wisp
