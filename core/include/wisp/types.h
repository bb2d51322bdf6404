// Plain value types shared by the public API. Units: metres, seconds, kilograms, radians.
// Right-handed, Y up (three.js convention).
#pragma once
#include <cstdint>

namespace wisp {

struct Vec3 {
  float x = 0, y = 0, z = 0;
};

// Unit quaternion (x, y, z, w); identity by default.
struct Quat {
  float x = 0, y = 0, z = 0, w = 1;
};

// A rigid pose: rotate, then translate.
struct Transform {
  Vec3 position;
  Quat rotation;
};

}  // namespace wisp
