// Cloth: triangle meshes of particles with XPBD stretch, shear and bending, tethers to pinned
// vertices, collisions and aerodynamic drag and lift.
#pragma once
#include <cstdint>
#include <vector>

#include "wisp/types.h"

namespace wisp {

// Parameters that can change while the cloth lives.
struct ClothParams {
  float radius = 0.01f;             // m: collision thickness of each vertex
  float stretchCompliance = 0;      // m/N: structural edges (triangle edges; grid rows/columns)
  float shearCompliance = 1e-4f;    // m/N: grid diagonals (meshes have none)
  float bendCompliance = 1e-3f;     // 1/J: isometric bending across every interior edge (0 = stiffest)
  bool bending = true;
  bool tethers = true;              // long-range attachments to pinned vertices
  float tetherSlack = 0.0f;         // a tether allows (1 + slack) x the shortest path length
  float tetherCompliance = 0.0f;    // m/N: 0 = a hard limit; > 0 = it gives under load
  float damping = 0.1f;             // 1/s
  float gravityScale = 1;
  float dragCoefficient = 1.0f;     // aerodynamic drag, normal to each triangle (dimensionless)
  float liftCoefficient = 0.3f;     // aerodynamic lift (dimensionless)
  float airDensity = 1.2f;          // kg/m^3
  float residualTolerance = 0;      // > 0: stop iterating once the worst edge strain is below this
  // Closed meshes only (every edge shared by two triangles): keep the enclosed volume at
  // pressure x the rest volume (1 = incompressible balloon, > 1 inflated); 0 = off.
  float pressure = 0;
  float volumeCompliance = 0;       // m^3/Pa: 0 = the volume is held exactly
  bool collide = true;
  uint32_t colliderMask = 0xFFFFFFFFu;  // collide with colliders whose ColliderDef::groups share a bit
  // Self-collision: particles of this cloth keep at least 2 * radius apart (or their rest
  // distance, if closer), found with a spatial hash once per step.
  bool selfCollision = false;
  // m/s: the speed cap, as RopeParams::maxSpeed (0 = none).
  float maxSpeed = 100.0f;
  // Teleport detection on the cloth's anchors, as RopeParams::teleportDistance/teleportAngle.
  float teleportDistance = 1.0f;
  float teleportAngle = 1.5707963f;
  // Sleep and update rate, as RopeParams::sleepSpeed / sleepTime / updateEvery.
  float sleepSpeed = 0.0f;
  float sleepTime = 1.0f;
  int32_t updateEvery = 1;
  // Fast pins: in a step where an exactly pinned particle's anchor moves more than a tenth of
  // the mean edge length per substep, the cloth runs 2, 4, 8... times WorldSettings::substeps
  // (the fewest that bring it under a tenth), up to this many per fixed step. Capes whipped at
  // 20 m/s tear apart at 8 substeps and hold at 64. <= WorldSettings::substeps: off.
  int32_t maxSubsteps = 64;
};

// A rectangle in the local XY plane, `width` along X and `height` along -Y from the origin
// (row 0 is the top edge), placed by `transform`. resolutionX x resolutionY quads.
struct ClothGrid {
  float width = 1, height = 1;                    // m
  int resolutionX = 16, resolutionY = 16;         // quads
  Transform transform;
};

struct ClothDef {
  // Either a grid (when `indices` is empty) or an indexed triangle mesh.
  ClothGrid grid;
  std::vector<Vec3> positions;
  std::vector<uint32_t> indices;                  // 3 per triangle
  float weldDistance = 0;                         // m: mesh vertices closer than this become one particle
  float areaDensity = 0.2f;                       // kg/m^2
  std::vector<int> pinned;                        // particle indices pinned where they start
  ClothParams params;
};

// Solver statistics of one cloth for the last step.
struct ClothStats {
  int particles = 0;
  int triangles = 0;
  int stretchConstraints = 0;
  int shearConstraints = 0;
  int bendConstraints = 0;
  int tethers = 0;
  int colours = 0;                 // parallel groups over all constraint types
  float maxStrain = 0;             // max |length - rest| / rest over stretch edges, end of step
  float meanStrain = 0;
  int substeps = 0;                // run in the last step()
  int iterations = 0;              // total constraint iterations run in the last step()
};

}  // namespace wisp
