// Scenes shared by the tests and the benchmarks, so both measure the same thing.
#pragma once
#include <memory>

#include "math/vec3.h"
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
  ColliderId head;
  std::vector<ChainId> chains;
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
    // fanned out from the moving anchor, so the pin starts where the rope does
    const float len = 0.08f * static_cast<float>(24 + k);
    const Vec3 dir = rotate(nlerp(Quat{}, Quat{0, 0.3826834f, 0, 0.9238795f}, static_cast<float>(k) / 11.0f), Vec3{1, 0, 0});
    RopeDef d;
    d.start = {-1, 1, 0};
    d.end = d.start + dir * len;
    d.segments = 24 + k;
    d.params.bending = (k % 2) == 0;
    d.params.stretchCompliance = (k % 3) == 0 ? 1e-4f : 0.0f;
    d.params.yieldRatio = (k % 4) == 1 ? 1.05f : 0.0f;
    d.params.radius = 0.02f;
    d.params.colliderMask = 0x1u;  // not the chains' inside volume (group 2)
    RopeId r;
    w.addRope(d, &r);
    w.pin(r, 0, sc.mover);
  }
  // one big rope, to exercise the chunked parallel path
  RopeDef big = straightRope({-2, 0.5f, 1}, 6000, 0.001f);
  big.pinned = {0};
  big.params.colliderMask = 0x1u;
  // fast ropes (solver/rope_substeps.h) on the chunked path too, but at most twice the world's
  // substeps: at the default 64 this 1 mm rope runs 64 nearly always, which made every test of
  // this scene (sanitizers included) twice as slow
  big.params.maxSubsteps = 16;
  RopeId r;
  w.addRope(big, &r);
  // a flag in the turbulent wind with one corner on the moving anchor, and a sheet dropping
  // onto the sphere (cloth's chunked parallel path is covered by Cloth.ThreadCount...)
  ClothDef flag;
  flag.grid = {1.0f, 0.6f, 20, 12, {{-1, 1.2f, -1}, {}}};
  for (int j = 1; j <= 12; ++j) flag.pinned.push_back(j * 21);
  flag.params.colliderMask = 0x1u;
  ClothId c;
  w.addCloth(flag, &c);
  ClothDef sheet;
  sheet.grid = {1.2f, 1.2f, 30, 30, {{-0.1f, 0.2f, -0.6f}, {-0.7071068f, 0, 0, 0.7071068f}}};
  sheet.params.radius = 0.02f;
  sheet.params.selfCollision = true;
  sheet.params.colliderMask = 0x1u;
  w.addCloth(sheet, &c);
  // a gusty box zone over part of the ropes and the flag
  WindZoneDef zone;
  zone.shape = WindZoneShape::Box;
  zone.transform = {{-0.5f, 0.8f, -0.5f}, {0, 0.3826834f, 0, 0.9238795f}};
  zone.halfExtents = {0.8f, 0.6f, 0.5f};
  zone.wind = {{0, 0.4f, 1}, 5.0f, 0.6f, 0.7f, 11};
  WindZoneId zid;
  w.addWindZone(zone, &zid);
  // spring-bone chains around a moving head: both update rules, limits, hinges, curves, inertia,
  // a relative space, a tapered capsule and an inside sphere in their own collider group
  ColliderDef head;
  head.radius = 0.12f;
  head.transform.position = {2.5f, 1.0f, 0};
  w.addCollider(head, &sc.head);
  ColliderDef neck;
  neck.type = ColliderType::Capsule;
  neck.radius = 0.08f;
  neck.radiusTop = 0.05f;
  neck.halfHeight = 0.12f;
  neck.transform.position = {2.5f, 0.78f, 0};
  w.addCollider(neck, &id);
  ColliderDef volume;
  volume.radius = 0.7f;
  volume.inside = true;
  volume.groups = 0x2u;
  volume.transform.position = {2.5f, 0.8f, 0};
  w.addCollider(volume, &id);
  for (int k = 0; k < 24; ++k) {
    ChainDef d;
    d.root.position = head.transform.position;
    float a = -0.9f + 0.075f * static_cast<float>(k);  // around the back of the head
    Vec3 out{a, 0.35f, -1.0f};
    out = out * (1.0f / length(out));
    d.joints.push_back({out * 0.14f, {}});
    for (int j = 1; j < 8 + (k % 3); ++j) d.joints.push_back({{out.x * 0.03f, -0.05f, out.z * 0.03f}, {0, 0, 0.0499792f, 0.9987503f}});
    d.endLength = (k % 2) ? 0.03f : 0.0f;
    ChainParams& p = d.params;
    p.radius = 0.015f;
    p.stiffness = 2.0f + 0.25f * static_cast<float>(k % 5);
    p.elasticity = (k % 4) * 0.25f;
    p.inertia = (k % 3) * 0.4f;
    p.limitAngle = (k % 4) == 0 ? 0.8f : 3.14159274f;
    p.hinge = (k % 6) == 1;
    p.colliderMask = (k % 5) == 0 ? 0x3u : 0x1u;
    if (k % 3 == 2) p.stiffnessCurve = {{0, 1}, {0.5f, 0.6f}, {1, 0.2f}};
    if (k % 4 == 3) p.radiusCurve = {{0, 1.5f}, {1, 0.5f}};
    if (k % 7 == 5) { p.space = ChainSpace::Relative; p.spaceInertia = 0.3f; }
    if (k % 8 == 7) { p.gravityScale = -0.6f; }
    if (k % 5 == 4) {  // VRM's per-frame rule, with VRM parameter meanings
      p.mode = ChainMode::Vrm;
      p.stiffness = 1.0f;
      p.damping = 0.4f;
      p.customGravity = true;
      p.gravity = {0, -1, 0};
      p.gravityScale = 0.5f;
    }
    ChainId c;
    w.addChain(d, &c);
    sc.chains.push_back(c);
  }
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
  // the head nods and turns: rotations interpolated between fixed quaternions (no trig)
  Quat turned = nlerp(Quat{}, Quat{0.0998334f, 0.4794255f, 0, 0.8775826f}, tri);
  Transform head{{2.5f + 0.3f * tri, 1.0f + 0.1f * tri, 0}, turned};
  sc.world->setColliderTransform(sc.head, head);
  for (size_t k = 0; k < sc.chains.size(); ++k) {
    sc.world->setChainRoot(sc.chains[k], head);
    if (k % 7 == 5) sc.world->setChainSpace(sc.chains[k], {{2.5f + 0.3f * tri, 0.5f, 0}, {}});
  }
  (void)t;
}

}  // namespace wisp::scenes
