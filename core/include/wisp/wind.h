// Global wind: a uniform air velocity plus seeded, deterministic turbulence. Particles feel the
// wind only through air drag (RopeParams::drag), so a rope with drag 0 ignores it.
#pragma once
#include <cstdint>
#include "wisp/types.h"

namespace wisp {

struct WindSettings {
  Vec3 direction{1, 0, 0};  // normalised internally; must not be zero when speed > 0
  float speed = 0;          // m/s
  float turbulence = 0;     // 0..4: gust amplitude as a fraction of speed
  float turbulenceScale = 2;  // m: size of the gusts (noise wavelength)
  uint32_t seed = 1;        // same seed, same gusts
};

}  // namespace wisp
