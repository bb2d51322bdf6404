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

// A local wind (a fan, a doorway, a vent) added to the global wind inside a sphere or an
// oriented box. Its strength is full in the core and fades linearly to zero over the outer
// `falloff` fraction of the zone.
enum class WindZoneShape : int { Sphere = 0, Box = 1 };

struct WindZoneDef {
  WindZoneShape shape = WindZoneShape::Sphere;
  Transform transform;                  // centre and orientation
  float radius = 1;                     // m (sphere)
  Vec3 halfExtents{1, 1, 1};            // m (box, in its local axes)
  WindSettings wind;                    // direction (world space), speed, turbulence, seed
  float falloff = 0.25f;                // 0..1: fraction of the zone over which it fades out
};

}  // namespace wisp
