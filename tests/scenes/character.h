// A dressed character running: a skirt of linked chains around the hips, a ponytail and a cape
// of linked chains, with tapered thigh capsules, a torso capsule and a head sphere, driven by a
// procedural run cycle (thighs swinging +-45 deg at 1.4 Hz, 3.5 m/s forward, two 90 deg turns
// and a jump). Shared by the chain-links tests and the benchmarks, so both measure the same thing.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "math/quat.h"
#include "scenes/scenes.h"

namespace wisp::scenes {

struct CharacterOptions {
  int threads = 1;
  int skirtChains = 14;
  int skirtJoints = 6;
  bool loop = true;
  bool linked = true;     // false: the same chains, no links (the baseline)
  bool dressed = true;    // ponytail and cape too
  // The collider group bits of this character's colliders and its chains' colliderMask (several
  // characters in one world meet only their own colliders, as a game would set them).
  uint32_t groups = 0xFFFFFFFFu;
  float compliance = 0;   // the skirt links'
};

struct Character {
  std::unique_ptr<World> owned;  // makeCharacter's world (dressCharacter puts one in a given world)
  World* world = nullptr;
  Vec3 offset;                   // m: where this character runs, beside the others
  std::vector<ChainId> skirt, cape;
  ChainId ponytail;
  ChainLinksId skirtLinks, capeLinks;
  ColliderId thigh[2], torso, head;
  // per skirt chain: its root on the hip ring in the hips' frame
  std::vector<Vec3> skirtRoot;
  std::vector<Vec3> capeRoot;
  Vec3 ponytailRoot{0, 0.72f, -0.1f};
  // the thighs' shape: from the hip joint down, radius at the hip and at the knee (m)
  float thighLength = 0.45f, thighRadiusHip = 0.075f, thighRadiusKnee = 0.055f;
  Vec3 hipJoint[2] = {{-0.09f, -0.05f, 0}, {0.09f, -0.05f, 0}};
};

inline Quat yawQuat(double a) { return {0, static_cast<float>(std::sin(a / 2)), 0, static_cast<float>(std::cos(a / 2))}; }

// The hips' pose at time t (s): 3.5 m/s along the heading, turning 90 deg left over 0.4 s from
// t = 3 s and 90 deg right from t = 6.5 s, a 0.35 m jump from t = 8 s to 8.6 s, a bob each step.
inline Transform hipsAt(double t) {
  auto ramp = [](double t, double t0) { return std::clamp((t - t0) / 0.4, 0.0, 1.0); };
  auto smooth = [](double s) { return s * s * (3 - 2 * s); };
  const double pi = 3.14159265358979;
  // heading and position by integrating the velocity: exact on the straight parts, 16 midpoint
  // steps over each turn (deterministic, and cheap enough to call per chain per frame)
  auto heading = [&](double tm) { return 0.5 * pi * (smooth(ramp(tm, 3.0)) - smooth(ramp(tm, 6.5))); };
  double x = 0, z = 0, yaw = 0;
  const double cuts[] = {0.0, 3.0, 3.4, 6.5, 6.9, 1e9};
  for (int seg = 0; seg < 5 && t > cuts[seg]; ++seg) {
    const double a = cuts[seg], b = std::min(t, cuts[seg + 1]);
    const bool turning = seg == 1 || seg == 3;
    const int n = turning ? 16 : 1;
    const double dt = (b - a) / n;
    for (int i = 0; i < n; ++i) {
      const double h = heading(a + (i + 0.5) * dt);
      x += 3.5 * std::sin(h) * dt;
      z += 3.5 * std::cos(h) * dt;
    }
  }
  yaw = 0.5 * pi * (smooth(ramp(t, 3.0)) - smooth(ramp(t, 6.5)));
  double y = 0.95 + 0.03 * std::fabs(std::sin(2 * pi * 1.4 * t));
  if (t > 8.0 && t < 8.6) {
    const double s = (t - 8.0) / 0.6;
    y += 4 * 0.35 * s * (1 - s);
  }
  return {{static_cast<float>(x), static_cast<float>(y), static_cast<float>(z)}, yawQuat(yaw)};
}

inline Transform hipsOf(const Character& c, double t) {
  Transform h = hipsAt(t);
  h.position = h.position + c.offset;
  return h;
}

// Thigh swing (rad, + forward) of leg `leg` at time t: +-45 deg at 1.4 Hz, the legs in opposition.
inline double thighSwing(int leg, double t) {
  const double pi = 3.14159265358979;
  return 0.25 * pi * std::sin(2 * pi * 1.4 * t + (leg ? pi : 0.0));
}

// The thigh capsule's axis ends at time t: hip joint and knee (world, m).
inline void thighEnds(const Character& c, int leg, double t, Vec3* hip, Vec3* knee) {
  const Transform hips = hipsOf(c, t);
  const double a = thighSwing(leg, t);
  const Vec3 down{0, -static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))};
  *hip = hips.position + rotate(hips.rotation, c.hipJoint[leg]);
  *knee = *hip + rotate(hips.rotation, down) * c.thighLength;
}

// A capsule's pose along hip -> knee: local +Y (radiusTop's end) at the hip.
inline Transform capsuleAlong(Vec3 hip, Vec3 knee) {
  const Vec3 d = hip - knee;
  return {(hip + knee) * 0.5f, fromUnitVectors(Vec3{0, 1, 0}, d * (1.0f / length(d)))};
}

// Poses the colliders and chain roots for time t in c.world (or in `other`, a world restored
// from a snapshot of it: the same ids).
inline void poseCharacter(Character& c, double t, bool teleport, World* other = nullptr) {
  World& w = other ? *other : *c.world;
  const Transform hips = hipsOf(c, t);
  for (int leg = 0; leg < 2; ++leg) {
    Vec3 hip, knee;
    thighEnds(c, leg, t, &hip, &knee);
    const Transform p = capsuleAlong(hip, knee);
    if (teleport) w.teleportCollider(c.thigh[leg], p);
    else w.setColliderTransform(c.thigh[leg], p);
  }
  const Transform torso{hips.position + rotate(hips.rotation, Vec3{0, 0.3f, 0}), hips.rotation};
  const Transform head{hips.position + rotate(hips.rotation, Vec3{0, 0.75f, 0}), hips.rotation};
  if (teleport) {
    w.teleportCollider(c.torso, torso);
    w.teleportCollider(c.head, head);
  } else {
    w.setColliderTransform(c.torso, torso);
    w.setColliderTransform(c.head, head);
  }
  auto root = [&](ChainId id, Vec3 local) {
    const Transform r{hips.position + rotate(hips.rotation, local), hips.rotation};
    if (teleport) w.teleportChain(id, r);
    else w.setChainRoot(id, r);
  };
  for (size_t k = 0; k < c.skirt.size(); ++k) root(c.skirt[k], c.skirtRoot[k]);
  for (size_t k = 0; k < c.cape.size(); ++k) root(c.cape[k], c.capeRoot[k]);
  if (c.ponytail.generation != 0) root(c.ponytail, c.ponytailRoot);
}

// Adds a character at `offset` to world w.
inline void dressCharacter(Character& c, World& w, const CharacterOptions& o, Vec3 offset) {
  c.world = &w;
  c.offset = offset;
  const Transform hips = hipsOf(c, 0);
  ColliderDef cap;
  cap.type = ColliderType::Capsule;
  cap.halfHeight = c.thighLength / 2;
  cap.radius = c.thighRadiusKnee;     // at -halfHeight: the knee
  cap.radiusTop = c.thighRadiusHip;   // at +halfHeight: the hip
  cap.groups = o.groups;
  for (int leg = 0; leg < 2; ++leg) {
    Vec3 hip, knee;
    thighEnds(c, leg, 0, &hip, &knee);
    cap.transform = capsuleAlong(hip, knee);
    w.addCollider(cap, &c.thigh[leg]);
  }
  ColliderDef torso;
  torso.type = ColliderType::Capsule;
  torso.radius = 0.13f;
  torso.radiusTop = 0.15f;
  torso.halfHeight = 0.2f;
  torso.groups = o.groups;
  torso.transform = {hips.position + Vec3{0, 0.3f, 0}, {}};
  w.addCollider(torso, &c.torso);
  ColliderDef head;
  head.radius = 0.11f;
  head.groups = o.groups;
  head.transform = {hips.position + Vec3{0, 0.75f, 0}, {}};
  w.addCollider(head, &c.head);

  ChainParams skirt;
  skirt.stiffness = 6;
  skirt.damping = 3;
  skirt.inertia = 0.3f;
  skirt.radius = 0.02f;
  skirt.colliderMask = o.groups;
  const float ring = 0.2f, bone = 0.09f, flare = 0.02f;
  const double pi = 3.14159265358979;
  for (int k = 0; k < o.skirtChains; ++k) {
    const double a = 2 * pi * k / o.skirtChains;
    const Vec3 out{static_cast<float>(std::sin(a)), 0, static_cast<float>(std::cos(a))};
    const Vec3 local = out * ring + Vec3{0, -0.02f, 0};
    c.skirtRoot.push_back(local);
    ChainDef d;
    d.root = {hips.position + rotate(hips.rotation, local), hips.rotation};
    for (int j = 0; j < o.skirtJoints; ++j) d.points.push_back(d.root.position + out * (flare * j) + Vec3{0, -bone * j, 0});
    d.params = skirt;
    ChainId id;
    w.addChain(d, &id);
    c.skirt.push_back(id);
  }
  if (o.linked) {
    ChainLinksDef l;
    l.chains = c.skirt;
    l.params.loop = o.loop;
    l.params.compliance = o.compliance;
    w.addChainLinks(l, &c.skirtLinks);
  }
  if (o.dressed) {
    ChainDef p;
    p.root = {hips.position + c.ponytailRoot, hips.rotation};
    for (int j = 0; j < 8; ++j) p.points.push_back(p.root.position + Vec3{0, -0.06f * j, -0.03f * j});
    p.params.stiffness = 3;
    p.params.radius = 0.025f;
    p.params.colliderMask = o.groups;
    w.addChain(p, &c.ponytail);
    ChainParams cape = skirt;
    cape.stiffness = 2;
    for (int k = 0; k < 8; ++k) {
      const Vec3 local{-0.2f + 0.4f * k / 7.0f, 0.5f, -0.17f};
      c.capeRoot.push_back(local);
      ChainDef d;
      d.root = {hips.position + local, hips.rotation};
      for (int j = 0; j < 8; ++j) d.points.push_back(d.root.position + Vec3{0, -0.1f * j, -0.01f * j});
      d.params = cape;
      ChainId id;
      w.addChain(d, &id);
      c.cape.push_back(id);
    }
    if (o.linked) {
      ChainLinksDef l;
      l.chains = c.cape;
      l.params.diagonals = true;
      w.addChainLinks(l, &c.capeLinks);
    }
  }
}

inline Character makeCharacter(const CharacterOptions& o) {
  Character c;
  WorldSettings s;
  s.threads = o.threads;
  c.owned = makeWorld(s);
  dressCharacter(c, *c.owned, o, Vec3{});
  return c;
}

}  // namespace wisp::scenes
