#include "builders/cloth_builder.h"

#include "constraints/volume.h"
#include "math/frame.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>

#include "math/vec3.h"
#include "validate.h"

namespace wisp {

namespace {

Status invalid(std::string m) { return Status::Error(StatusCode::InvalidArgument, std::move(m)); }

// Greedy colouring in constraint order: each constraint takes the lowest colour that none of
// its particles has yet. Returns the colour of each constraint, or -1 when a particle would
// need more than 128 colours (a vertex shared by more than 128 constraints of one kind).
template <size_t N>
std::vector<int> colour(const std::vector<std::array<int32_t, N>>& items, int particles, int* colours) {
  std::vector<uint64_t> used(2 * static_cast<size_t>(particles), 0);
  std::vector<int> out(items.size());
  *colours = 0;
  for (size_t c = 0; c < items.size(); ++c) {
    uint64_t lo = 0, hi = 0;
    for (int32_t v : items[c]) { lo |= used[2 * v]; hi |= used[2 * v + 1]; }
    int col = -1;
    for (int k = 0; k < 128 && col < 0; ++k)
      if (!((k < 64 ? lo : hi) >> (k & 63) & 1)) col = k;
    if (col < 0) return {};
    for (int32_t v : items[c]) used[2 * v + (col >> 6)] |= uint64_t(1) << (col & 63);
    out[c] = col;
    *colours = std::max(*colours, col + 1);
  }
  return out;
}

// Stable order of constraints by colour, and the start of each colour.
std::vector<int> orderByColour(const std::vector<int>& col, int colours, std::vector<int32_t>* starts) {
  starts->assign(colours + 1, 0);
  for (int c : col) (*starts)[c + 1]++;
  for (int c = 0; c < colours; ++c) (*starts)[c + 1] += (*starts)[c];
  std::vector<int32_t> next(starts->begin(), starts->end() - 1);
  std::vector<int> order(col.size());
  for (size_t i = 0; i < col.size(); ++i) order[next[col[i]]++] = static_cast<int>(i);
  return order;
}

// `given` holds the colour of every edge (grids), or is empty to colour greedily (meshes).
Status fillEdges(const std::vector<std::array<int32_t, 2>>& edges, const std::vector<int>& given, const ClothState& c,
                 const char* kind, EdgeSet* out) {
  int colours = 0;
  std::vector<int> col = given;
  if (given.empty()) {
    col = colour(edges, c.count(), &colours);
    if (col.size() != edges.size())
      return invalid(std::string("a vertex has more than 128 ") + kind + " edges; the mesh cannot be coloured");
  } else {
    for (int k : given) colours = std::max(colours, k + 1);
  }
  std::vector<int> order = orderByColour(col, colours, &out->colourStart);
  for (int i : order) {
    int32_t a = edges[i][0], b = edges[i][1];
    out->a.push_back(a);
    out->b.push_back(b);
    Vec3 d{c.px[a] - c.px[b], c.py[a] - c.py[b], c.pz[a] - c.pz[b]};
    out->rest.push_back(length(d));
  }
  out->lambda.assign(edges.size(), 0.0f);
  return Status::Ok();
}

float cotangent(Vec3 a, Vec3 b) {
  float s = length(cross(a, b));
  return s > 1e-12f ? dot(a, b) / s : 0.0f;
}

}  // namespace


Status checkPressure(const ClothState& c, const ClothParams& p) {
  if (p.pressure > 0 && !c.closed)
    return Status::Error(StatusCode::InvalidArgument,
                         "ClothParams.pressure needs a closed mesh (every edge shared by exactly two triangles); "
                         "this cloth has open or non-manifold edges");
  if (p.pressure > 0 && !(std::fabs(c.restVolume) > 1e-12f))
    return Status::Error(StatusCode::InvalidArgument, "ClothParams.pressure needs a mesh that encloses a volume (got 0 m^3)");
  return Status::Ok();
}

Status buildCloth(const ClothDef& def, ClothState* out) {
  WISP_TRY(validateClothParams(def.params));
  WISP_TRY(checkRange("ClothDef.areaDensity", def.areaDensity, 1e-6, 1e6));
  WISP_TRY(checkRange("ClothDef.weldDistance", def.weldDistance, 0, 1e3));
  ClothState& c = *out;
  c.params = def.params;

  std::vector<Vec3> pts;
  std::vector<uint32_t> tris;
  std::vector<std::array<int32_t, 2>> structural, shearEdges;
  std::vector<int> structuralColour, shearColour;  // grids only
  const bool grid = def.indices.empty();

  if (grid) {
    const ClothGrid& g = def.grid;
    WISP_TRY(checkRange("ClothGrid.width", g.width, 1e-4, 1e4));
    WISP_TRY(checkRange("ClothGrid.height", g.height, 1e-4, 1e4));
    WISP_TRY(checkRange("ClothGrid.resolutionX", g.resolutionX, 1, 1024));
    WISP_TRY(checkRange("ClothGrid.resolutionY", g.resolutionY, 1, 1024));
    WISP_TRY(checkFiniteVec("ClothGrid.transform.position", g.transform.position));
    WISP_TRY(checkQuat("ClothGrid.transform.rotation", g.transform.rotation));
    const int rx = g.resolutionX, ry = g.resolutionY, w = rx + 1;
    const Transform frame{g.transform.position, normalize(g.transform.rotation)};
    for (int j = 0; j <= ry; ++j)
      for (int i = 0; i <= rx; ++i) {
        Vec3 local{g.width * float(i) / float(rx), -g.height * float(j) / float(ry), 0};
        pts.push_back(fromFrame(frame, local));
      }
    auto at = [w](int i, int j) { return static_cast<int32_t>(j * w + i); };
    // Colours by position rather than greedily: columns (i, j)-(i, j+1) of even rows, of odd
    // rows, then rows (i, j)-(i+1, j) of even i, of odd i; diagonals (i, j)-(i+1, j+1) of even
    // rows, odd rows, then anti-diagonals (i+1, j)-(i, j+1) likewise. Listed row by row, four
    // neighbouring columns or diagonals join four consecutive particles to four consecutive
    // particles, and four rows join alternate particles, so the solver loads them whole.
    for (int j = 0; j <= ry; ++j)
      for (int i = 0; i <= rx; ++i) {
        if (i < rx) {
          structural.push_back({at(i, j), at(i + 1, j)});
          structuralColour.push_back(2 + i % 2);
        }
        if (j < ry) {
          structural.push_back({at(i, j), at(i, j + 1)});
          structuralColour.push_back(j % 2);
        }
      }
    for (int j = 0; j < ry; ++j)
      for (int i = 0; i < rx; ++i) {
        int32_t a = at(i, j), b = at(i + 1, j), d = at(i, j + 1), e = at(i + 1, j + 1);
        shearEdges.push_back({a, e});
        shearEdges.push_back({b, d});
        shearColour.push_back(j % 2);
        shearColour.push_back(2 + j % 2);
        // alternate the split diagonal so the cloth has no preferred fold direction
        if ((i + j) % 2 == 0) {
          tris.insert(tris.end(), {uint32_t(a), uint32_t(d), uint32_t(e), uint32_t(a), uint32_t(e), uint32_t(b)});
        } else {
          tris.insert(tris.end(), {uint32_t(a), uint32_t(d), uint32_t(b), uint32_t(b), uint32_t(d), uint32_t(e)});
        }
      }
    c.vertexMap.resize(pts.size());
    for (size_t i = 0; i < pts.size(); ++i) c.vertexMap[i] = static_cast<int32_t>(i);
  } else {
    if (def.indices.size() % 3 != 0)
      return invalid("ClothDef.indices must hold 3 indices per triangle (got " + std::to_string(def.indices.size()) + ")");
    if (def.positions.size() > static_cast<size_t>(kMaxClothParticles))
      return invalid("ClothDef.positions has more than " + std::to_string(kMaxClothParticles) + " vertices");
    for (size_t i = 0; i < def.positions.size(); ++i)
      if (!isFinite(def.positions[i]))
        return invalid("ClothDef.positions[" + std::to_string(i) + "] must be finite (got " + formatVec(def.positions[i]) + ")");
    for (size_t i = 0; i < def.indices.size(); ++i)
      if (def.indices[i] >= def.positions.size())
        return Status::Error(StatusCode::OutOfRange, "ClothDef.indices[" + std::to_string(i) + "] = " +
                                                         std::to_string(def.indices[i]) + " is not a vertex index in [0, " +
                                                         std::to_string(def.positions.size()) + ")");
    // Weld: a vertex joins the first earlier particle within weldDistance (exact duplicates
    // when it is 0). A hash grid keeps it near-linear; the scan order keeps it deterministic.
    const float cell = def.weldDistance > 0 ? def.weldDistance : 1.0f;
    std::unordered_map<uint64_t, std::vector<int32_t>> buckets;
    auto key = [](int64_t x, int64_t y, int64_t z) {
      return (static_cast<uint64_t>(x) * 73856093u) ^ (static_cast<uint64_t>(y) * 19349663u) ^ (static_cast<uint64_t>(z) * 83492791u);
    };
    c.vertexMap.assign(def.positions.size(), -1);
    for (size_t v = 0; v < def.positions.size(); ++v) {
      Vec3 p = def.positions[v];
      // huge coordinates share cell 0 (still compared exactly): no out-of-range conversion
      int64_t cx = floorToCell(p.x / cell), cy = floorToCell(p.y / cell), cz = floorToCell(p.z / cell);
      int32_t found = -1;
      for (int64_t dz = -1; dz <= 1 && found < 0; ++dz)
        for (int64_t dy = -1; dy <= 1; ++dy)
          for (int64_t dx = -1; dx <= 1; ++dx) {
            auto it = buckets.find(key(cx + dx, cy + dy, cz + dz));
            if (it == buckets.end()) continue;
            for (int32_t q : it->second) {
              Vec3 d = pts[q] - p;
              bool same = def.weldDistance > 0 ? lengthSq(d) <= def.weldDistance * def.weldDistance
                                               : (d.x == 0 && d.y == 0 && d.z == 0);
              if (same && (found < 0 || q < found)) found = q;
            }
          }
      if (found < 0) {
        found = static_cast<int32_t>(pts.size());
        pts.push_back(p);
        buckets[key(cx, cy, cz)].push_back(found);
      }
      c.vertexMap[v] = found;
    }
    for (size_t t = 0; t < def.indices.size() / 3; ++t) {
      uint32_t a = c.vertexMap[def.indices[3 * t]], b = c.vertexMap[def.indices[3 * t + 1]], d = c.vertexMap[def.indices[3 * t + 2]];
      if (a == b || b == d || a == d)
        return invalid("triangle " + std::to_string(t) + " is degenerate: two of its vertices are the same particle (after welding)");
      float area2 = length(cross(pts[b] - pts[a], pts[d] - pts[a]));
      if (!(area2 > 1e-10f)) return invalid("triangle " + std::to_string(t) + " has zero area");
      tris.insert(tris.end(), {a, b, d});
    }
    if (tris.empty()) return invalid("ClothDef has no triangles");
    // structural edges: every triangle edge once
    std::vector<std::array<int32_t, 2>> all;
    for (size_t t = 0; t < tris.size(); t += 3)
      for (int e = 0; e < 3; ++e) {
        int32_t a = static_cast<int32_t>(tris[t + e]), b = static_cast<int32_t>(tris[t + (e + 1) % 3]);
        all.push_back({std::min(a, b), std::max(a, b)});
      }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    structural = all;
  }
  const int n = static_cast<int>(pts.size());
  if (n > kMaxClothParticles) return invalid("cloth has more than " + std::to_string(kMaxClothParticles) + " particles");

  // particles and masses: a third of each triangle's area to each of its vertices
  c.resizeParticles(n);
  std::vector<double> mass(n, 0.0);
  for (size_t t = 0; t < tris.size(); t += 3) {
    Vec3 a = pts[tris[t]], b = pts[tris[t + 1]], d = pts[tris[t + 2]];
    double m = 0.5 * length(cross(b - a, d - a)) * def.areaDensity / 3.0;
    for (int k = 0; k < 3; ++k) mass[tris[t + k]] += m;
  }
  for (int i = 0; i < n; ++i) {
    if (!(mass[i] > 0))
      return invalid("vertex " + std::to_string(i) + " belongs to no triangle (remove unused vertices)");
    c.px[i] = c.ox[i] = c.qx[i] = pts[i].x;
    c.py[i] = c.oy[i] = c.qy[i] = pts[i].y;
    c.pz[i] = c.oz[i] = c.qz[i] = pts[i].z;
    c.baseInvMass[i] = c.invMass[i] = static_cast<float>(1.0 / mass[i]);
  }
  c.triangles = tris;
  WISP_TRY(fillEdges(structural, structuralColour, c, "structural", &c.stretch));
  WISP_TRY(fillEdges(shearEdges, shearColour, c, "shear", &c.shear));

  // bending: interior edges shared by exactly two triangles (non-manifold edges get none)
  std::vector<std::tuple<int32_t, int32_t, int32_t>> halfEdges;  // (min, max, opposite)
  for (size_t t = 0; t < tris.size(); t += 3)
    for (int e = 0; e < 3; ++e) {
      int32_t a = static_cast<int32_t>(tris[t + e]), b = static_cast<int32_t>(tris[t + (e + 1) % 3]);
      int32_t o = static_cast<int32_t>(tris[t + (e + 2) % 3]);
      halfEdges.emplace_back(std::min(a, b), std::max(a, b), o);
    }
  std::sort(halfEdges.begin(), halfEdges.end());
  std::vector<std::array<int32_t, 4>> stencils;
  for (size_t i = 0; i < halfEdges.size();) {
    size_t j = i;
    while (j < halfEdges.size() && std::get<0>(halfEdges[j]) == std::get<0>(halfEdges[i]) &&
           std::get<1>(halfEdges[j]) == std::get<1>(halfEdges[i]))
      ++j;
    if (j - i == 2)
      stencils.push_back({std::get<0>(halfEdges[i]), std::get<1>(halfEdges[i]), std::get<2>(halfEdges[i]), std::get<2>(halfEdges[i + 1])});
    i = j;
  }
  int colours = 0;
  std::vector<int> col = colour(stencils, n, &colours);
  if (col.size() != stencils.size()) return invalid("a vertex has more than 128 bending stencils; the mesh cannot be coloured");
  std::vector<int> order = orderByColour(col, colours, &c.bends.colourStart);
  for (int idx : order) {
    const auto& s = stencils[idx];
    Vec3 x0 = pts[s[0]], x1 = pts[s[1]], x2 = pts[s[2]], x3 = pts[s[3]];
    Vec3 e0 = x1 - x0, e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1;
    float c01 = cotangent(e0, e1), c02 = cotangent(e0, e2), c03 = cotangent(-e0, e3), c04 = cotangent(-e0, e4);
    float area = 0.5f * length(cross(e0, e1)) + 0.5f * length(cross(e0, e2));
    float k[4] = {c03 + c04, c01 + c02, -c01 - c03, -c02 - c04};
    Vec3 rest = x0 * k[0] + x1 * k[1] + x2 * k[2] + x3 * k[3];
    for (int j = 0; j < 4; ++j) {
      c.bends.v[j].push_back(s[j]);
      c.bends.k[j].push_back(k[j]);
    }
    c.bends.restNorm.push_back(length(rest));
    c.bends.weight.push_back(3.0f / area);
  }
  c.bends.lambda.assign(c.bends.size(), 0.0f);

  // edge graph for tethers (structural + shear), CSR
  std::vector<std::vector<std::pair<int32_t, float>>> nb(n);
  for (const EdgeSet* set : {&c.stretch, &c.shear})
    for (int e = 0; e < set->size(); ++e) {
      nb[set->a[e]].push_back({set->b[e], set->rest[e]});
      nb[set->b[e]].push_back({set->a[e], set->rest[e]});
    }
  c.adjStart.assign(n + 1, 0);
  for (int i = 0; i < n; ++i) {
    std::sort(nb[i].begin(), nb[i].end());
    c.adjStart[i + 1] = c.adjStart[i] + static_cast<int32_t>(nb[i].size());
    for (auto [j, len] : nb[i]) {
      c.adj.push_back(j);
      c.adjLength.push_back(len);
    }
  }
  c.geodesic.assign(n, 0.0f);
  c.ax.assign(n, 0.0f);
  c.ay.assign(n, 0.0f);
  c.az.assign(n, 0.0f);
  c.normals.assign(3 * static_cast<size_t>(n), 0.0f);

  for (size_t k = 0; k < def.pinned.size(); ++k)
    if (def.pinned[k] < 0 || def.pinned[k] >= n)
      return Status::Error(StatusCode::OutOfRange, "ClothDef.pinned[" + std::to_string(k) + "] = " + std::to_string(def.pinned[k]) +
                                                       " is not a particle index in [0, " + std::to_string(n - 1) + "]");
  c.writeOutput(0, n);
  c.initialPositions = c.out;
  c.buildTriangleLists();
  c.computeNormals();
  c.stats.particles = n;
  c.stats.triangles = c.triangleCount();
  c.stats.stretchConstraints = c.stretch.size();
  c.stats.shearConstraints = c.shear.size();
  c.stats.bendConstraints = c.bends.size();
  c.stats.colours = c.stretch.colours() + c.shear.colours() + c.bends.colours();
  // closed: every undirected edge belongs to exactly two triangles
  std::vector<uint64_t> edges;
  edges.reserve(c.triangles.size());
  for (size_t t = 0; t < c.triangles.size(); t += 3)
    for (int e = 0; e < 3; ++e) {
      uint64_t a = c.triangles[t + e], b = c.triangles[t + (e + 1) % 3];
      edges.push_back(a < b ? (a << 32) | b : (b << 32) | a);
    }
  std::sort(edges.begin(), edges.end());
  c.closed = !edges.empty();
  for (size_t i = 0; i < edges.size() && c.closed;) {
    size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    c.closed = j - i == 2;
    i = j;
  }
  // only a closed surface encloses a volume; an open sheet's "signed volume" depends on where the
  // origin is (and shiftOrigin would change it)
  c.restVolume = c.closed ? static_cast<float>(meshVolume(c, c.triangles)) : 0.0f;
  WISP_TRY(checkPressure(c, c.params));
  return Status::Ok();
}

}  // namespace wisp
