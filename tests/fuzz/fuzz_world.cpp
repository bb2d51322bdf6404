// libFuzzer target: the public C++ API driven by a random command sequence (create, set, step,
// pin, cut, teleport, remove, snapshots, bad values, stale ids). Built with AddressSanitizer and
// UBSan (scripts/fuzz.sh); a crash, a sanitizer report or a broken promise is a finding:
//   - every call returns (errors are Status values, never exceptions or aborts),
//   - after any successful step every position the API exposes is finite,
//   - a call that fails leaves the state hash unchanged.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "wisp/world.h"

using namespace wisp;

namespace {

class Input {
 public:
  Input(const uint8_t* d, size_t n) : d_(d), n_(n) {}
  bool empty() const { return i_ >= n_; }
  uint8_t byte() { return i_ < n_ ? d_[i_++] : 0; }
  int range(int lo, int hi) { return lo + static_cast<int>(byte() % static_cast<unsigned>(hi - lo + 1)); }
  // Mostly ordinary values, sometimes the ones that break things.
  float value(float scale = 1) {
    uint8_t k = byte();
    switch (k % 16) {
      case 0: return std::numeric_limits<float>::quiet_NaN();
      case 1: return std::numeric_limits<float>::infinity();
      case 2: return -std::numeric_limits<float>::infinity();
      case 3: return 1e30f;
      case 4: return -1.0f;
      case 5: return 0.0f;
      case 6: return 1e-30f;
      default: return scale * (static_cast<float>(byte()) / 255.0f) * ((k & 16) ? -1.0f : 1.0f);
    }
  }
  Vec3 vec(float scale = 1) { return {value(scale), value(scale), value(scale)}; }
  Quat quat() {
    if (byte() % 4 == 0) return {value(), value(), value(), value()};
    float a = static_cast<float>(byte()) / 40.0f;
    return {0, std::sin(a), 0, std::cos(a)};
  }

 private:
  const uint8_t* d_;
  size_t n_, i_ = 0;
};

template <class Id>
Id pick(Input& in, const std::vector<Id>& ids) {
  if (ids.empty() || in.byte() % 8 == 0) {  // sometimes a default or made-up id
    Id id;
    id.index = in.byte() % 4;
    id.generation = in.byte() % 3;
    return id;
  }
  return ids[in.byte() % ids.size()];
}

void checkFinite(const float* p, int n) {
  if (!p) return;
  for (int i = 0; i < 3 * n; ++i)
    if (!std::isfinite(p[i])) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(data, size);
  WorldSettings s;
  s.substeps = in.range(1, 4);
  s.threads = in.range(1, 2);
  s.debugChecks = true;
  std::unique_ptr<World> w;
  if (!World::create(s, &w).ok()) return 0;
  std::vector<RopeId> ropes;
  std::vector<ClothId> cloths;
  std::vector<ChainId> chains;
  std::vector<AnchorId> anchors;
  std::vector<ColliderId> colliders;
  std::vector<uint8_t> snapshot;

  for (int op = 0; op < 48 && !in.empty(); ++op) {
    const uint64_t before = w->stateHash();
    Status st = Status::Ok();
    switch (in.byte() % 20) {
      case 0: {
        RopeDef d;
        d.start = in.vec(2);
        d.end = in.vec(2);
        d.segments = in.range(-1, 24);
        d.params.damping = in.value(2);
        d.params.stretchCompliance = in.value(0.01f);
        d.params.bending = in.byte() & 1;
        if (in.byte() & 1) d.pinned = {0, in.range(-1, 30)};
        RopeId id;
        st = w->addRope(d, &id);
        if (st.ok()) ropes.push_back(id);
        break;
      }
      case 1: {
        ClothDef d;
        if (in.byte() & 1) {
          d.grid.width = in.value(2);
          d.grid.height = in.value(2);
          d.grid.resolutionX = in.range(0, 8);
          d.grid.resolutionY = in.range(0, 8);
        } else {
          for (int i = 0; i < in.range(0, 8); ++i) d.positions.push_back(in.vec());
          for (int i = 0; i < 3 * in.range(0, 6); ++i) d.indices.push_back(static_cast<uint32_t>(in.range(0, 9)));
        }
        d.params.selfCollision = in.byte() % 4 == 0;
        if (in.byte() & 1) d.pinned = {0};
        ClothId id;
        st = w->addCloth(d, &id);
        if (st.ok()) cloths.push_back(id);
        break;
      }
      case 2: {
        ChainDef d;
        d.root = {in.vec(), in.quat()};
        for (int i = 0; i < in.range(0, 8); ++i) d.joints.push_back({in.vec(0.2f), in.quat()});
        d.endLength = in.value(0.1f);
        d.params.mode = static_cast<ChainMode>(in.range(0, 2));
        d.params.stiffness = in.value(10);
        d.params.damping = in.value(2);
        d.params.limitAngle = in.value(3);
        d.params.hinge = in.byte() & 1;
        if (in.byte() & 1) d.params.radiusCurve = {{in.value(), in.value()}, {in.value(), in.value()}};
        ChainId id;
        st = w->addChain(d, &id);
        if (st.ok()) chains.push_back(id);
        break;
      }
      case 3: {
        AnchorId id;
        st = w->addAnchor(in.vec(), &id);
        if (st.ok()) anchors.push_back(id);
        break;
      }
      case 4: {
        ColliderDef d;
        d.type = static_cast<ColliderType>(in.range(0, 4));
        d.transform = {in.vec(), in.quat()};
        d.radius = in.value();
        d.radiusTop = in.value();
        d.halfHeight = in.value();
        d.halfExtents = in.vec();
        d.inside = in.byte() % 4 == 0;
        ColliderId id;
        st = w->addCollider(d, &id);
        if (st.ok()) colliders.push_back(id);
        break;
      }
      case 5: st = w->step(in.value(0.05f)); break;
      case 6: st = w->step(1.0 / 60.0); break;
      case 7: st = w->pin(pick(in, ropes), in.range(-1, 30), pick(in, anchors), in.byte() & 1 ? 0.0f : in.value()); break;
      case 8: st = w->setAnchorPosition(pick(in, anchors), in.vec(3)); break;
      case 9: st = w->setChainRoot(pick(in, chains), {in.vec(), in.quat()}); break;
      case 10: {
        RopeId tail;
        st = w->cutRope(pick(in, ropes), in.range(-1, 30), &tail);
        if (st.ok()) ropes.push_back(tail);
        break;
      }
      case 11: st = w->setColliderTransform(pick(in, colliders), {in.vec(), in.quat()}, in.byte() & 1 ? 1.0f : in.value(100)); break;
      case 12: {
        ChainParams p;
        ChainId id = pick(in, chains);
        if (w->chainParams(id, &p).ok()) {
          p.inertia = in.value();
          p.elasticity = in.value();
          p.space = static_cast<ChainSpace>(in.range(0, 1));
          p.inertiaCurve = {{0, in.value()}, {1, in.value()}};
          p.backstop = in.byte() & 1;
          p.backstopNormal = in.vec();
          p.backstopDistance = in.value();
          p.backstopRadius = in.value();
          st = in.byte() & 1 ? w->setChainParams(id, p)
                             : w->boostChain(id, {in.value(10), in.value(10), in.value(10), in.value(10)}, in.value(2));
        }
        break;
      }
      case 13: {
        RopeParams p;
        if (w->ropeParams(pick(in, ropes), &p).ok()) {
          p.yieldRatio = in.value(2);
          p.gravityScale = in.value(3);
          st = w->setRopeParams(pick(in, ropes), p);
        }
        break;
      }
      case 14: {
        switch (in.byte() % 4) {
          case 0: st = w->removeRope(pick(in, ropes)); break;
          case 1: st = w->removeCloth(pick(in, cloths)); break;
          case 2: st = w->removeChain(pick(in, chains)); break;
          default: st = w->removeAnchor(pick(in, anchors)); break;
        }
        break;
      }
      case 15: {
        if (in.byte() & 1) {
          snapshot.clear();
          st = w->saveSnapshot(&snapshot);
        } else if (!snapshot.empty()) {
          if (in.byte() & 1) snapshot[in.byte() % snapshot.size()] ^= static_cast<uint8_t>(1u << (in.byte() % 8));
          st = w->loadSnapshot(snapshot.data(), snapshot.size());
        }
        break;
      }
      case 16: st = w->teleportChain(pick(in, chains), {in.vec(100), in.quat()}); break;
      case 17: {
        const Vec3 o = in.vec(1e4f);
        st = w->shiftOrigin(o.x, o.y, o.z);
        break;
      }
      case 18:
        st = in.byte() & 1 ? w->teleportAnchor(pick(in, anchors), in.vec(100))
                           : w->setChainRoot(pick(in, chains), {in.vec(), in.quat()}, in.value(100));
        break;
      default: {
        WorldSettings ns = w->settings();
        ns.gravity = in.vec(20);
        ns.wind.speed = in.value(10);
        ns.wind.turbulence = in.value();
        st = w->setSettings(ns);
        break;
      }
    }
    if (!st.ok() && w->stateHash() != before) __builtin_trap();  // a failed call changed the world
  }
  // whatever happened, what the API exposes is finite
  for (RopeId r : ropes) {
    int n = 0;
    if (w->ropeParticleCount(r, &n).ok()) checkFinite(w->ropePositions(r), n);
  }
  for (ClothId c : cloths) {
    int n = 0;
    if (w->clothParticleCount(c, &n).ok()) checkFinite(w->clothPositions(c), n);
  }
  for (ChainId c : chains) {
    int n = 0;
    if (w->chainJointCount(c, &n).ok()) checkFinite(w->chainPositions(c), n);
  }
  return 0;
}
