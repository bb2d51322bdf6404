// Scenes shared by the tests and the benchmarks, so both measure the same thing.
#pragma once
#include <memory>

#include "wisp/world.h"

namespace wisp::scenes {

inline std::unique_ptr<World> makeWorld(WorldSettings s = {}) {
  std::unique_ptr<World> w;
  Status st = World::create(s, &w);
  if (!st.ok()) return nullptr;
  return w;
}

// A rope lying along +X from `origin`, `segments` segments of `segLen` metres.
inline RopeDef straightRope(Vec3 origin, int segments, float segLen) {
  RopeDef d;
  d.start = origin;
  d.end = {origin.x + segments * segLen, origin.y, origin.z};
  d.segments = segments;
  return d;
}

// The determinism scene: ropes with pins, bending, plastic stretch, cloth with aerodynamics and
// tethers, every collider type, a moving anchor and turbulent wind. Returns the anchor that the driver moves each frame.
struct DeterminismScene {
  std::unique_ptr<World> world;
  AnchorId mover;
  ColliderId sphere;
};

inline DeterminismScene makeDeterminismScene(int threads) {
  WorldSettings s;
  s.threads = threads;
  s.substeps = 8;
  s.wind = {{1, 0, 0.3f}, 4.0f, 0.8f, 1.5f, 7};
  DeterminismScene sc;
  sc.world = makeWorld(s);
  World& w = *sc.world;
  ColliderDef plane;
  plane.type = ColliderType::Plane;
  plane.transform.position = {0, -2, 0};
  ColliderId id;
  w.addCollider(plane, &id);
  ColliderDef sphere;
  sphere.type = ColliderType::Sphere;
  sphere.radius = 0.3f;
  sphere.transform.position = {0.5f, -0.8f, 0};
  w.addCollider(sphere, &sc.sphere);
  ColliderDef capsule;
  capsule.type = ColliderType::Capsule;
  capsule.radius = 0.1f;
  capsule.halfHeight = 0.5f;
  capsule.transform = {{-0.6f, -1.0f, 0.2f}, {0, 0, 0.3826834f, 0.9238795f}};
  w.addCollider(capsule, &id);
  ColliderDef box;
  box.type = ColliderType::Box;
  box.halfExtents = {0.3f, 0.2f, 0.3f};
  box.transform.position = {1.5f, -1.5f, 0};
  w.addCollider(box, &id);
  w.addAnchor({-1, 1, 0}, &sc.mover);
  for (int k = 0; k < 12; ++k) {
    RopeDef d = straightRope({-1.0f + 0.05f * k, 1, 0.1f * k - 0.6f}, 24 + k, 0.08f);
    d.params.bending = (k % 2) == 0;
    d.params.stretchCompliance = (k % 3) == 0 ? 1e-4f : 0.0f;
    d.params.yieldRatio = (k % 4) == 1 ? 1.05f : 0.0f;
    d.params.radius = 0.02f;
    RopeId r;
    w.addRope(d, &r);
    w.pin(r, 0, sc.mover);
  }
  // one big rope, to exercise the chunked parallel path
  RopeDef big = straightRope({-2, 0.5f, 1}, 6000, 0.001f);
  big.pinned = {0};
  RopeId r;
  w.addRope(big, &r);
  // a flag in the turbulent wind with one corner on the moving anchor, and a sheet dropping
  // onto the sphere (cloth's chunked parallel path is covered by Cloth.ThreadCount...)
  ClothDef flag;
  flag.grid = {1.0f, 0.6f, 20, 12, {{-1, 1.2f, -1}, {}}};
  for (int j = 1; j <= 12; ++j) flag.pinned.push_back(j * 21);
  ClothId c;
  w.addCloth(flag, &c);
  w.pin(c, 0, sc.mover);
  ClothDef sheet;
  sheet.grid = {1.2f, 1.2f, 30, 30, {{-0.1f, 0.2f, -0.6f}, {-0.7071068f, 0, 0, 0.7071068f}}};
  sheet.params.radius = 0.02f;
  sheet.params.selfCollision = true;
  w.addCloth(sheet, &c);
  // a gusty box zone over part of the ropes and the flag
  WindZoneDef zone;
  zone.shape = WindZoneShape::Box;
  zone.transform = {{-0.5f, 0.8f, -0.5f}, {0, 0.3826834f, 0, 0.9238795f}};
  zone.halfExtents = {0.8f, 0.6f, 0.5f};
  zone.wind = {{0, 0.4f, 1}, 5.0f, 0.6f, 0.7f, 11};
  WindZoneId zid;
  w.addWindZone(zone, &zid);
  return sc;
}

// One frame of the determinism scene's motion.
inline void driveDeterminismScene(DeterminismScene& sc, int frame) {
  float t = static_cast<float>(frame) / 60.0f;
  // piecewise-linear path: no platform trig, so native and WASM inputs are identical
  float u = static_cast<float>(frame % 120) / 60.0f;
  float tri = u < 1.0f ? u : 2.0f - u;
  sc.world->setAnchorPosition(sc.mover, {-1.0f + 0.8f * tri, 1.0f + 0.2f * tri, 0});
  Transform tr;
  tr.position = {0.5f, -0.8f + 0.3f * tri, 0};
  sc.world->setColliderTransform(sc.sphere, tr);
  (void)t;
}

}  // namespace wisp::scenes
