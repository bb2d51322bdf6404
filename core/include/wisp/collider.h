// Colliders are shared by every object in a world. Each has a pose (Transform) set from the
// game each frame; the solver interpolates the pose across substeps.
//   sphere:  centre at the pose position, `radius`.
//   capsule: segment along local Y from -halfHeight to +halfHeight, `radius` at -halfHeight and
//            `radiusTop` at +halfHeight (tapered: a cone between two spheres).
//   plane:   through the pose position, normal = local +Y. Particles stay on the +Y side.
//   box:     half extents `halfExtents` in local axes.
#pragma once
#include <cstdint>

#include "wisp/types.h"

namespace wisp {

enum class ColliderType : int { Sphere = 0, Capsule = 1, Plane = 2, Box = 3 };

struct ColliderDef {
  ColliderType type = ColliderType::Sphere;
  Transform transform;
  float radius = 0.1f;        // m (sphere, capsule)
  float halfHeight = 0.1f;    // m (capsule)
  Vec3 halfExtents{0.1f, 0.1f, 0.1f};  // m (box)
  float radiusTop = -1.0f;    // m (capsule): radius at +halfHeight; < 0 = same as `radius`
  float friction = 0.3f;      // Coulomb coefficient, 0..2 (dimensionless)
  bool enabled = true;
  // Sphere and capsule only: keep particles inside the shape instead of outside (a hair volume,
  // a VRM inside collider).
  bool inside = false;
  // Bit set matched against the colliderMask of ropes, cloth and chains (VRM collider groups).
  // Give an inside collider a group of its own: it confines everything that collides with it.
  uint32_t groups = 0xFFFFFFFFu;
};

}  // namespace wisp
