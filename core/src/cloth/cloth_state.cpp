// ClothState at run time: pins and tethers after a pin change, triangle lists and normals.
#include "cloth/cloth_state.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <tuple>
#include <vector>

#include "math/wide.h"

#include "constraints/distance.h"
#include "math/vec3.h"

namespace wisp {

void ClothState::updatePins() {
  collectPins();
  const int n = count();
  std::fill(tetherTo.begin(), tetherTo.end(), -1);
  std::fill(geodesic.begin(), geodesic.end(), 0.0f);
  // multi-source Dijkstra from the pinned particles over rest edge lengths
  using Item = std::tuple<float, int32_t, int32_t>;  // distance, source, particle: ties by index
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  std::vector<float> dist(n, INFINITY);
  for (int32_t p : pinnedList) {
    dist[p] = 0;
    tetherTo[p] = p;
    queue.emplace(0.0f, p, p);
  }
  while (!queue.empty()) {
    auto [d, src, i] = queue.top();
    queue.pop();
    if (d > dist[i] || tetherTo[i] != src) continue;
    for (int32_t e = adjStart[i]; e < adjStart[i + 1]; ++e) {
      int32_t j = adj[e];
      float nd = d + adjLength[e];
      if (nd < dist[j] || (nd == dist[j] && src < tetherTo[j])) {
        dist[j] = nd;
        tetherTo[j] = src;
        queue.emplace(nd, src, j);
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (hardPinned(i) || !std::isfinite(dist[i])) {
      tetherTo[i] = -1;  // pinned itself, or no pinned particle reachable
      continue;
    }
    geodesic[i] = dist[i];
    tetherLimit[i] = dist[i] * (1.0f + params.tetherSlack);
  }
  stats.tethers = 0;
  for (int i = 0; i < n; ++i) stats.tethers += tetherTo[i] >= 0 ? 1 : 0;
}

void ClothState::buildTriangleLists() {
  double restSum = 0;
  for (float r : stretch.rest) restSum += r;
  meanEdge = stretch.rest.empty() ? 0.0f : static_cast<float>(restSum / static_cast<double>(stretch.rest.size()));
  const int n = count();
  const int t = triangleCount();
  triangleNormal.assign(3 * static_cast<size_t>(t) + 1, 0.0f);  // + 1: vertexNormals loads 4 floats
  triangleStart.assign(n + 1, 0);
  for (uint32_t v : triangles) triangleStart[v + 1]++;
  for (int i = 0; i < n; ++i) triangleStart[i + 1] += triangleStart[i];
  triangleOf.assign(triangles.size(), 0);
  std::vector<int32_t> next(triangleStart.begin(), triangleStart.end() - 1);
  for (int k = 0; k < t; ++k)
    for (int j = 0; j < 3; ++j) triangleOf[next[triangles[3 * k + j]]++] = k;
  const size_t blocks = (static_cast<size_t>(stretch.size()) + kStrainBlock - 1) / kStrainBlock;
  strainWorst.assign(blocks, 0.0f);
  strainSum.assign(blocks, 0.0);
  for (EdgeSet* e : {&stretch, &shear}) {
    e->runs.assign(e->a.size(), 0);
    edgeRuns(e->a.data(), e->b.data(), e->size(), e->runs.data());
  }
}

void ClothState::triangleNormals(int begin, int end) {
  for (int t = begin; t < end; ++t) {
    uint32_t a = triangles[3 * t], b = triangles[3 * t + 1], d = triangles[3 * t + 2];
    Vec3 xa{px[a], py[a], pz[a]};
    Vec3 n = cross(Vec3{px[b], py[b], pz[b]} - xa, Vec3{px[d], py[d], pz[d]} - xa);  // |n| = 2 * area
    triangleNormal[3 * t] = n.x;
    triangleNormal[3 * t + 1] = n.y;
    triangleNormal[3 * t + 2] = n.z;
  }
}

void ClothState::vertexNormals(int begin, int end) {
  // x, y and z of a vertex's sum in three lanes of one F4 (the fourth adds the next triangle's x,
  // or the padding after the last, and is dropped): each lane is the scalar sum in the same order
  using namespace wide;
  const float* tns = triangleNormal.data();
  const int32_t *start = triangleStart.data(), *of = triangleOf.data();
  for (int i = begin; i < end; ++i) {
    F4 sum = splat(0.0f);
    for (int32_t k = start[i]; k < start[i + 1]; ++k) sum = sum + load(tns + 3 * static_cast<size_t>(of[k]));
    alignas(16) float lanes[kWidth];
    store(lanes, sum);
    const Vec3 n{lanes[0], lanes[1], lanes[2]};
    float len = length(n);
    Vec3 u = len > 1e-20f ? n * (1.0f / len) : Vec3{0, 1, 0};
    normals[3 * i] = u.x;
    normals[3 * i + 1] = u.y;
    normals[3 * i + 2] = u.z;
  }
}

void ClothState::computeNormals() {
  triangleNormals(0, triangleCount());
  vertexNormals(0, count());
}

}  // namespace wisp
