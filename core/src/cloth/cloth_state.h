// A cloth: particles (particles/particles.h) plus its constraints, each set sorted into colours
// (groups in which no two constraints share a particle) so a colour can be solved in parallel
// chunks with a result that does not depend on the thread count.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "particles/particles.h"
#include "wisp/cloth.h"

namespace wisp {

// Distance constraints (constraints/distance.h), sorted by colour.
struct EdgeSet {
  std::vector<int32_t> a, b;
  std::vector<float> rest;    // m
  std::vector<float> lambda;  // XPBD multipliers, per substep
  std::vector<int32_t> colourStart;  // colour c is [colourStart[c], colourStart[c + 1])
  std::vector<int32_t> runs;         // derived from a and b (edgeRuns in constraints/distance.h)
  int size() const { return static_cast<int>(a.size()); }
  int colours() const { return colourStart.empty() ? 0 : static_cast<int>(colourStart.size()) - 1; }
};

// Isometric bending stencils (constraints/bend_isometric.h), sorted by colour.
struct BendSet {
  std::array<std::vector<int32_t>, 4> v;  // edge (v0, v1), opposite vertices v2, v3
  std::array<std::vector<float>, 4> k;    // cotangent weights
  std::vector<float> restNorm;            // m: |sum k_i x_i| at rest (0 for a flat rest shape)
  std::vector<float> weight;              // 1/m^2: 3 / (area of the two triangles)
  std::vector<float> lambda;
  std::vector<int32_t> colourStart;
  int size() const { return static_cast<int>(restNorm.size()); }
  int colours() const { return colourStart.empty() ? 0 : static_cast<int>(colourStart.size()) - 1; }
};

struct ClothState : Particles {
  uint32_t generation = 0;
  bool alive = false;
  ClothParams params;

  EdgeSet stretch, shear;
  BendSet bends;
  std::vector<uint32_t> triangles;         // 3 particle indices per triangle
  std::vector<float> ax, ay, az;           // m/s^2: aerodynamic acceleration, per substep
  std::vector<float> normals;              // interleaved unit vertex normals (output)
  // derived from `triangles` (buildTriangleLists): each triangle's normal times twice its area,
  // (3 floats a triangle, and one of padding), and the triangles of particle i,
  // triangleOf[triangleStart[i] .. triangleStart[i+1]), ascending
  std::vector<float> triangleNormal;
  std::vector<int32_t> triangleStart, triangleOf;
  // per-step scratch for the strain statistics, one entry per block of kStrainBlock edges
  static constexpr int kStrainBlock = 1024;
  std::vector<float> strainWorst;
  std::vector<double> strainSum;

  // edge graph (CSR) for tethers: neighbours of particle i are adj[adjStart[i] .. adjStart[i+1])
  std::vector<int32_t> adjStart, adj;
  std::vector<float> adjLength;
  std::vector<float> geodesic;             // m: shortest rest path to tetherTo
  std::vector<int32_t> vertexMap;          // input mesh vertex -> particle (welding)
  std::vector<uint32_t> ownedAnchors;      // anchor slots created for ClothDef::pinned

  // self-collision (constraints/self_collision.h): hash table and this step's candidate pairs
  std::vector<int32_t> cellStart, cellEntries;
  std::vector<int32_t> pairA, pairB;
  std::vector<float> pairMin;              // m: the distance the pair must keep
  ClothStats stats;
  bool closed = false;                     // every edge has two triangles (a volume is defined)
  float restVolume = 0;                    // m^3, signed by the winding (outward normals: > 0)
  float volumeLambda = 0;                  // XPBD multiplier of the volume constraint, per substep
  float meanEdge = 0;                      // m: mean rest length of the structural edges (buildTriangleLists)

  int triangleCount() const { return static_cast<int>(triangles.size() / 3); }
  // After pins change: the pinned list and each free particle's nearest pinned particle along
  // the edge graph (multi-source Dijkstra; ties go to the lower index).
  void updatePins();
  // Area-weighted vertex normals from the current positions into `normals`: triangleNormals
  // over every triangle, then vertexNormals over every particle (both may run in parts).
  void computeNormals();
  void triangleNormals(int begin, int end);
  void vertexNormals(int begin, int end);
  // The derived arrays above, from `triangles` and the edge count, meanEdge, and the edge sets'
  // runs (at creation and after a snapshot is loaded; steps never allocate).
  void buildTriangleLists();
};

}  // namespace wisp
