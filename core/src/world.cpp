#include "wisp/world.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "builders/chain_builder.h"
#include "builders/cloth_builder.h"
#include "chain/chain_state.h"
#include "builders/rope_builder.h"
#include "checks/invariants.h"
#include "cloth/cloth_state.h"
#include "hash.h"
#include "jobs/job_pool.h"
#include "math/vec3.h"
#include "math/wide.h"
#include "particles/rope_state.h"
#include "solver/step_context.h"
#include "snapshot/archive.h"
#include "validate.h"

namespace wisp {

namespace {

// Objects with more particles than this are solved one at a time with each stage split into
// parallel chunks; smaller objects are spread whole over the threads.
constexpr int kBigObject = 4096;
// Below this many particles a step is cheaper than waking worker threads: run it serially.
// (Only where work runs changes; the arithmetic, and so the result, is the same.)
constexpr int kMinParallelParticles = 2048;

std::atomic<uint32_t> gNextWorldTag{1};

// Generation = world tag (high 12 bits) | per-slot serial (low 20 bits, never 0).
uint32_t nextGeneration(uint32_t tag, uint32_t previous) {
  uint32_t serial = (previous & 0xFFFFFu) + 1;
  if (serial > 0xFFFFFu) serial = 1;
  return (tag << 20) | serial;
}

struct AnchorSlot {
  uint32_t generation = 0;
  bool alive = false;
  Vec3 from, to;       // m: pose at the end of the previous frame, and the target for this one
  // The object that made it for RopeDef/ClothDef::pinned and removes it with itself.
  enum class Owner : uint8_t { None, Rope, Cloth } ownerKind = Owner::None;
  int32_t ownerIndex = -1;
};

struct WindZoneSlot {
  uint32_t generation = 0;
  bool alive = false;
  WindZoneDef def;
};

struct ColliderSlot {
  uint32_t generation = 0;
  bool alive = false;
  ColliderDef def;     // def.transform is the target pose for this frame
  Transform from;      // pose at the end of the previous frame
};

// A free slot from `freeList`, or a new one at the end of `slots` (then `grown` is true).
template <class Slot>
uint32_t takeSlot(std::vector<Slot>& slots, std::vector<uint32_t>& freeList, bool* grown) {
  *grown = freeList.empty();
  if (*grown) {
    slots.emplace_back();
    return static_cast<uint32_t>(slots.size() - 1);
  }
  uint32_t slot = freeList.back();
  freeList.pop_back();
  return slot;
}

// Snapshot field lists (see snapshot/archive.h); here because argument-dependent lookup finds
// them only in the namespace of their types.
template <class Ar> void visit(Ar& ar, AnchorSlot& a) {
  ar("generation", a.generation); ar("alive", a.alive); ar("from", a.from); ar("to", a.to);
  ar("ownerKind", a.ownerKind); ar("ownerIndex", a.ownerIndex);
}
template <class Ar> void visit(Ar& ar, WindZoneSlot& z) {
  ar("generation", z.generation); ar("alive", z.alive); ar("def", z.def);
}
template <class Ar> void visit(Ar& ar, ColliderSlot& c) {
  ar("generation", c.generation); ar("alive", c.alive); ar("def", c.def); ar("from", c.from);
}

template <class Slot>
bool liveSlot(const std::vector<Slot>& slots, Handle h) {
  return h.generation != 0 && h.index < slots.size() && slots[h.index].alive &&
         slots[h.index].generation == h.generation;
}

Status badHandle(const char* kind, Handle h) {
  return Status::Error(StatusCode::InvalidHandle,
                       std::string(kind) + " id {" + std::to_string(h.index) + ", " + std::to_string(h.generation) +
                           "} is not a live object of this world (removed, never created, or from another world)");
}

Status badIndex(const char* what, int index, int count) {
  return Status::Error(StatusCode::OutOfRange, std::string(what) + " " + std::to_string(index) +
                                                   " is out of range [0, " + std::to_string(count - 1) + "]");
}

}  // namespace

struct World::Impl {
  WorldSettings settings;
  uint32_t tag = 1;
  std::vector<RopeState> ropes;
  std::vector<uint32_t> freeRopes;
  std::vector<ClothState> cloths;
  std::vector<uint32_t> freeCloths;
  std::vector<ChainState> chains;
  std::vector<uint32_t> freeChains;
  std::vector<AnchorSlot> anchors;
  std::vector<uint32_t> freeAnchors;
  std::vector<ColliderSlot> colliders;
  std::vector<uint32_t> freeColliders;
  std::vector<WindZoneSlot> windZones;
  std::vector<uint32_t> freeWindZones;

  // per-step scratch, grown only when objects are added
  std::vector<AnchorPath> anchorPaths;
  std::vector<ColliderPath> colliderPaths;
  std::vector<WindZoneField> zoneFields;
  // objects solved whole, one per work item; and big ones, solved one at a time in chunks
  enum class Kind : uint8_t { Rope, Cloth, Chain };
  struct ObjectRef {
    Kind kind;
    int index;
  };
  std::vector<ObjectRef> smallObjects, bigObjects;
  int totalParticles = 0;
  uint64_t listsVersion = 0;

  std::vector<WorldEvent> events;  // of the last step() call

  double accumulator = 0;
  uint64_t steps = 0;
  uint64_t layoutVersion = 1;

  RopeState* rope(RopeId id) { return liveSlot(ropes, id) ? &ropes[id.index] : nullptr; }
  const RopeState* rope(RopeId id) const { return liveSlot(ropes, id) ? &ropes[id.index] : nullptr; }
  ClothState* cloth(ClothId id) { return liveSlot(cloths, id) ? &cloths[id.index] : nullptr; }
  const ClothState* cloth(ClothId id) const { return liveSlot(cloths, id) ? &cloths[id.index] : nullptr; }
  ChainState* chain(ChainId id) { return liveSlot(chains, id) ? &chains[id.index] : nullptr; }
  const ChainState* chain(ChainId id) const { return liveSlot(chains, id) ? &chains[id.index] : nullptr; }
  ChainState* object(ChainId id) { return chain(id); }
  const ChainState* object(ChainId id) const { return chain(id); }
  RopeState* object(RopeId id) { return rope(id); }
  ClothState* object(ClothId id) { return cloth(id); }
  const RopeState* object(RopeId id) const { return rope(id); }
  const ClothState* object(ClothId id) const { return cloth(id); }

  template <class F>
  void forEachObject(F&& f) {
    for (RopeState& r : ropes)
      if (r.alive) f(r);
    for (ClothState& c : cloths)
      if (c.alive) f(c);
    for (ChainState& c : chains)
      if (c.alive) f(c);
  }
  bool anchorLive(AnchorId id) const {
    return id.generation != 0 && id.index < anchors.size() && anchors[id.index].alive &&
           anchors[id.index].generation == id.generation;
  }
  bool zoneLive(WindZoneId id) const {
    return id.generation != 0 && id.index < windZones.size() && windZones[id.index].alive &&
           windZones[id.index].generation == id.generation;
  }
  AirField air() {
    zoneFields.clear();
    for (const WindZoneSlot& z : windZones)
      if (z.alive) zoneFields.push_back(makeWindZoneField(z.def));
    return {makeWindField(settings.wind), zoneFields.data(), static_cast<int>(zoneFields.size())};
  }
  bool colliderLive(ColliderId id) const {
    return id.generation != 0 && id.index < colliders.size() && colliders[id.index].alive &&
           colliders[id.index].generation == id.generation;
  }

  uint32_t newAnchorSlot(Vec3 p, AnchorSlot::Owner kind, int32_t owner) {
    bool grown;
    uint32_t slot = takeSlot(anchors, freeAnchors, &grown);
    if (grown) anchorPaths.resize(anchors.size());
    AnchorSlot& a = anchors[slot];
    a.generation = nextGeneration(tag, a.generation);
    a.alive = true;
    a.from = a.to = p;
    a.ownerKind = kind;
    a.ownerIndex = owner;
    return slot;
  }

  void freeAnchorSlot(uint32_t slot) {
    // particles pinned to it become free
    forEachObject([&](auto& o) {
      bool changed = false;
      for (int i = 0; i < o.count(); ++i)
        if (o.anchor[i] == static_cast<int32_t>(slot)) {
          o.anchor[i] = -1;
          o.pinDistance[i] = 0;
          o.invMass[i] = o.baseInvMass[i];
          changed = true;
        }
      if (changed) o.updatePins();
    });
    anchors[slot].alive = false;
    anchors[slot].ownerKind = AnchorSlot::Owner::None;
    anchors[slot].ownerIndex = -1;
    freeAnchors.push_back(slot);
  }

  template <class Id, class State>
  Id store(std::vector<State>& slots, std::vector<uint32_t>& freeList, State&& state) {
    bool grown;
    uint32_t slot = takeSlot(slots, freeList, &grown);
    uint32_t gen = nextGeneration(tag, slots[slot].generation);
    slots[slot] = std::move(state);
    slots[slot].generation = gen;
    slots[slot].alive = true;
    ++layoutVersion;
    Id id;
    id.index = slot;
    id.generation = gen;
    return id;
  }
  RopeId storeRope(RopeState&& state) { return store<RopeId>(ropes, freeRopes, std::move(state)); }

  // Anchors for Def::pinned, owned by the object in `slot`.
  template <class State>
  void pinOwned(State& o, const std::vector<int>& pinned, AnchorSlot::Owner kind, uint32_t slot) {
    for (int p : pinned) {
      if (o.anchor[p] >= 0) continue;  // listed twice
      uint32_t a = newAnchorSlot(Vec3{o.px[p], o.py[p], o.pz[p]}, kind, static_cast<int32_t>(slot));
      o.anchor[p] = static_cast<int32_t>(a);
      o.invMass[p] = 0;
      o.ownedAnchors.push_back(a);
    }
    o.updatePins();
  }

  // Frees an object's slot and the anchors it owns; keeps the generation so the id stays stale.
  template <class State>
  void release(std::vector<State>& slots, std::vector<uint32_t>& freeList, uint32_t index) {
    std::vector<uint32_t> owned = std::move(slots[index].ownedAnchors);
    uint32_t gen = slots[index].generation;
    slots[index] = State();
    slots[index].generation = gen;
    for (uint32_t a : owned) freeAnchorSlot(a);
    freeList.push_back(index);
    ++layoutVersion;
  }

  void rebuildLists() {
    if (listsVersion == layoutVersion) return;
    smallObjects.clear();
    bigObjects.clear();
    totalParticles = 0;
    auto add = [&](Kind kind, size_t i, int count) {
      totalParticles += count;
      (count > kBigObject && kind != Kind::Chain ? bigObjects : smallObjects).push_back({kind, static_cast<int>(i)});
    };
    for (size_t i = 0; i < ropes.size(); ++i)
      if (ropes[i].alive) add(Kind::Rope, i, ropes[i].count());
    for (size_t i = 0; i < cloths.size(); ++i)
      if (cloths[i].alive) add(Kind::Cloth, i, cloths[i].count());
    for (size_t i = 0; i < chains.size(); ++i)
      if (chains[i].alive) add(Kind::Chain, i, chains[i].count());
    colliderPaths.reserve(colliders.size());
    listsVersion = layoutVersion;
  }

  // Containment: an object whose state went non-finite goes back to its rest pose, its pinned
  // particles on their anchors, at rest; an event says so. Other objects are not touched.
  template <class State>
  void putPinsOnAnchors(State& o) {
    for (int i : o.pinnedList) {
      Vec3 a = anchors[o.anchor[i]].to;
      o.px[i] = o.ox[i] = a.x;
      o.py[i] = o.oy[i] = a.y;
      o.pz[i] = o.oz[i] = a.z;
    }
    o.writeOutput(0, o.count());
  }
  template <class State>
  int firstBadParticle(const State& o) {
    for (int i = 0; i < o.count(); ++i)
      if (!isFinite(Vec3{o.px[i], o.py[i], o.pz[i]}) || !isFinite(Vec3{o.vx[i], o.vy[i], o.vz[i]})) return i;
    return -1;
  }
  void report(WorldEvent::Type type, ObjectKind kind, uint32_t index, uint32_t generation, std::string message) {
    WorldEvent e;
    e.type = type;
    e.kind = kind;
    e.object.index = index;
    e.object.generation = generation;
    e.message = std::move(message);
    events.push_back(std::move(e));
  }
  void contain() {
    auto resetMessage = [](const char* kind, size_t i, int p) {
      return std::string(kind) + " " + std::to_string(i) + ": particle " + std::to_string(p) +
             " became non-finite; the object was reset to its rest pose on its anchors";
    };
    for (size_t i = 0; i < ropes.size(); ++i) {
      RopeState& r = ropes[i];
      if (!r.alive || !r.broken) continue;
      int p = firstBadParticle(r);
      r.resetParticles();
      r.rest = r.initialRest;
      computeBendRest(r);
      putPinsOnAnchors(r);
      r.broken = false;
      report(WorldEvent::Type::ObjectReset, ObjectKind::Rope, static_cast<uint32_t>(i), r.generation, resetMessage("rope", i, p));
    }
    for (size_t i = 0; i < cloths.size(); ++i) {
      ClothState& c = cloths[i];
      if (!c.alive || !c.broken) continue;
      int p = firstBadParticle(c);
      c.resetParticles();
      putPinsOnAnchors(c);
      c.computeNormals();
      c.broken = false;
      report(WorldEvent::Type::ObjectReset, ObjectKind::Cloth, static_cast<uint32_t>(i), c.generation, resetMessage("cloth", i, p));
    }
    for (size_t i = 0; i < chains.size(); ++i) {
      ChainState& c = chains[i];
      if (!c.alive || !c.broken) continue;
      int p = firstBadParticle(c);
      poseChainAtRest(c);
      c.broken = false;
      report(WorldEvent::Type::ObjectReset, ObjectKind::Chain, static_cast<uint32_t>(i), c.generation, resetMessage("chain", i, p));
    }
  }

  // WorldSettings::debugChecks: the first problem of each object, as an event.
  void debugCheck() {
    const bool collide = settings.collisions;
    const int nc = static_cast<int>(colliderPaths.size());
    for (size_t i = 0; i < ropes.size(); ++i) {
      const RopeState& r = ropes[i];
      if (!r.alive) continue;
      std::string m = checkParticles("rope", static_cast<int>(i), r, anchorPaths.data(), colliderPaths.data(), nc,
                                     r.params.radius, collide && r.params.collide, r.params.colliderMask);
      if (m.empty() && r.params.stretchCompliance == 0.0f && r.params.yieldRatio == 0.0f) {
        float total = 0, rest = 0;
        // the rope as a whole: with one pass per substep a long rope's single edges strain by far
        // more than the rope does while it whips, so edges are not a useful alarm here
        for (int s = 0; s < r.segments(); ++s) {
          total += length(Vec3{r.px[s + 1] - r.px[s], r.py[s + 1] - r.py[s], r.pz[s + 1] - r.pz[s]});
          rest += r.rest[s];
        }
        if (m.empty() && total > rest * (1.0f + kDebugMaxRopeStretch))
          m = "rope " + std::to_string(i) + " is " + std::to_string(total / rest) + " x its rest length";
      }
      if (!m.empty()) report(WorldEvent::Type::InvariantViolated, ObjectKind::Rope, static_cast<uint32_t>(i), r.generation, m);
    }
    for (size_t i = 0; i < cloths.size(); ++i) {
      const ClothState& c = cloths[i];
      if (!c.alive) continue;
      std::string m = checkParticles("cloth", static_cast<int>(i), c, anchorPaths.data(), colliderPaths.data(), nc,
                                     c.params.radius, collide && c.params.collide, c.params.colliderMask);
      if (m.empty() && c.params.stretchCompliance == 0.0f)
        for (size_t e = 0; e < c.stretch.a.size() && m.empty(); ++e)
          m = checkStretch("cloth", static_cast<int>(i), c, c.stretch.a[e], c.stretch.b[e], c.stretch.rest[e]);
      if (!m.empty()) report(WorldEvent::Type::InvariantViolated, ObjectKind::Cloth, static_cast<uint32_t>(i), c.generation, m);
    }
    for (size_t i = 0; i < chains.size(); ++i) {
      const ChainState& c = chains[i];
      if (!c.alive) continue;
      // joints: finite and under the speed cap (bone capsules, not joint spheres, meet colliders)
      std::string m = checkParticles("chain", static_cast<int>(i), c, anchorPaths.data(), colliderPaths.data(), nc, 0.0f, false);
      for (int k = 0; k + 1 < c.joints() && m.empty(); ++k) {
        float len = length(Vec3{c.px[k + 1] - c.px[k], c.py[k + 1] - c.py[k], c.pz[k + 1] - c.pz[k]});
        if (!(std::fabs(len - c.boneLength[k]) <= 1e-4f * c.boneLength[k] + 1e-6f))
          m = "chain " + std::to_string(i) + " bone " + std::to_string(k) + " is " + std::to_string(len) + " m long, not " +
              std::to_string(c.boneLength[k]);
      }
      if (!m.empty()) report(WorldEvent::Type::InvariantViolated, ObjectKind::Chain, static_cast<uint32_t>(i), c.generation, m);
    }
  }

  void runFrame(int fixedSteps) {
    rebuildLists();
    for (size_t i = 0; i < anchors.size(); ++i) anchorPaths[i] = {anchors[i].from, anchors[i].to};
    colliderPaths.clear();
    for (const ColliderSlot& c : colliders) {
      if (!c.alive || !c.def.enabled) continue;
      colliderPaths.push_back(pathOf(c.def, c.from));
    }
    StepContext ctx;
    ctx.fixedSteps = fixedSteps;
    ctx.substeps = settings.substeps;
    ctx.iterations = settings.iterations;
    ctx.h = static_cast<float>(settings.fixedDt / settings.substeps);
    ctx.invH = 1.0f / ctx.h;
    ctx.time0 = static_cast<double>(steps) * settings.fixedDt;
    ctx.gravity = settings.gravity;
    ctx.wind = air();
    ctx.collisions = settings.collisions;
    ctx.anchors = anchorPaths.data();
    ctx.colliders = colliderPaths.data();
    ctx.colliderCount = static_cast<int>(colliderPaths.size());
    const int threads = totalParticles >= kMinParallelParticles ? jobs::resolveThreads(settings.threads) : 1;

    // Each object notes whether its state went non-finite, in its own job.
    auto simulate = [&](ObjectRef o, int t) {
      switch (o.kind) {
        case Kind::Rope: simulateRope(ropes[o.index], ctx, t); ropes[o.index].broken = !allFinite(ropes[o.index]); break;
        case Kind::Cloth: simulateCloth(cloths[o.index], ctx, t); cloths[o.index].broken = !allFinite(cloths[o.index]); break;
        case Kind::Chain: simulateChain(chains[o.index], ctx); chains[o.index].broken = !allFinite(chains[o.index]); break;
      }
    };
    jobs::parallelFor(static_cast<int>(smallObjects.size()), threads, [&](int k) { simulate(smallObjects[k], 1); });
    for (ObjectRef o : bigObjects) simulate(o, threads);

    contain();
    if (settings.debugChecks) debugCheck();

    steps += static_cast<uint64_t>(fixedSteps);
    for (AnchorSlot& a : anchors) a.from = a.to;
    for (ColliderSlot& c : colliders) c.from = c.def.transform;
  }
};

World::World(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
World::~World() = default;

Status World::validate(const WorldSettings& s) {
  WISP_TRY(checkFiniteVec("WorldSettings.gravity", s.gravity));
  if (length(s.gravity) > 1e4f) return Status::Error(StatusCode::InvalidArgument, "WorldSettings.gravity must be at most 10000 m/s^2 long (got " + formatVec(s.gravity) + ")");
  WISP_TRY(checkRange("WorldSettings.fixedDt", s.fixedDt, 1e-5, 0.1));
  WISP_TRY(checkRange("WorldSettings.substeps", s.substeps, 1, 128));
  WISP_TRY(checkRange("WorldSettings.iterations", s.iterations, 1, 64));
  WISP_TRY(checkRange("WorldSettings.maxFrameDt", s.maxFrameDt, s.fixedDt, 1000 * s.fixedDt));
  WISP_TRY(checkRange("WorldSettings.rejectFrameDt", s.rejectFrameDt, s.maxFrameDt, 3600));
  WISP_TRY(checkRange("WorldSettings.threads", s.threads, 0, 64));
  WISP_TRY(validateWind(s.wind));
  return Status::Ok();
}

Status World::create(const WorldSettings& settings, std::unique_ptr<World>* out) {
  WISP_TRY(validate(settings));
  auto impl = std::make_unique<Impl>();
  impl->settings = settings;
  impl->events.reserve(8);
  uint32_t tag = gNextWorldTag.fetch_add(1) & 0xFFFu;
  impl->tag = tag == 0 ? 1 : tag;
  out->reset(new World(std::move(impl)));
  return Status::Ok();
}

// --- time ---------------------------------------------------------------------------------

Status World::step(double frameDt, StepReport* report) {
  Impl& w = *impl_;
  if (!std::isfinite(frameDt))
    return Status::Error(StatusCode::InvalidArgument, "step: frameDt must be a finite number of seconds (got " + formatValue(frameDt) + ")");
  if (frameDt <= 0)
    return Status::Error(StatusCode::InvalidArgument, "step: frameDt must be > 0 s (got " + formatValue(frameDt) + ")");
  if (frameDt > w.settings.rejectFrameDt)
    return Status::Error(StatusCode::InvalidArgument,
                         "step: frameDt " + formatValue(frameDt) + " s is longer than WorldSettings.rejectFrameDt (" +
                             formatValue(w.settings.rejectFrameDt) + " s); after a long pause call step with a short dt");
  w.events.clear();
  double dropped = frameDt > w.settings.maxFrameDt ? frameDt - w.settings.maxFrameDt : 0.0;
  w.accumulator += std::min(frameDt, w.settings.maxFrameDt);
  // A relative tolerance so that frame times that sum to whole steps in exact arithmetic
  // (144 frames of 1/144 s = 60 steps of 1/60 s) are not one step short from rounding.
  const double dt = w.settings.fixedDt;
  int k = 0;
  while (w.accumulator >= dt * (1.0 - 1e-9)) {
    w.accumulator -= dt;
    ++k;
  }
  if (std::fabs(w.accumulator) < dt * 1e-9) w.accumulator = 0;  // round-off, not time
  if (k > 0) w.runFrame(k);
  if (report) {
    report->fixedSteps = k;
    report->droppedTime = dropped;
    report->leftover = std::max(0.0, w.accumulator);
  }
  return Status::Ok();
}

const WorldSettings& World::settings() const { return impl_->settings; }

Status World::setSettings(const WorldSettings& s) {
  WISP_TRY(validate(s));
  impl_->settings = s;
  return Status::Ok();
}

Status World::setGravity(Vec3 g) {
  WorldSettings s = impl_->settings;
  s.gravity = g;
  return setSettings(s);
}

Status World::setWind(const WindSettings& wind) {
  WorldSettings s = impl_->settings;
  s.wind = wind;
  return setSettings(s);
}

double World::time() const { return static_cast<double>(impl_->steps) * impl_->settings.fixedDt; }
uint64_t World::stepCount() const { return impl_->steps; }

// --- ropes --------------------------------------------------------------------------------

Status World::addRope(const RopeDef& def, RopeId* out) {
  RopeState state;
  WISP_TRY(buildRope(def, &state));
  Impl& w = *impl_;
  RopeId id = w.storeRope(std::move(state));
  w.pinOwned(w.ropes[id.index], def.pinned, AnchorSlot::Owner::Rope, id.index);
  *out = id;
  return Status::Ok();
}

Status World::removeRope(RopeId id) {
  Impl& w = *impl_;
  if (!w.rope(id)) return badHandle("rope", id);
  w.release(w.ropes, w.freeRopes, id.index);
  return Status::Ok();
}

Status World::ropeParams(RopeId id, RopeParams* out) const {
  const RopeState* r = impl_->rope(id);
  if (!r) return badHandle("rope", id);
  *out = r->params;
  return Status::Ok();
}

Status World::setRopeParams(RopeId id, const RopeParams& params) {
  RopeState* r = impl_->rope(id);
  if (!r) return badHandle("rope", id);
  WISP_TRY(validateRopeParams(params));
  r->params = params;
  return Status::Ok();
}

Status World::ropeParticleCount(RopeId id, int* out) const {
  const RopeState* r = impl_->rope(id);
  if (!r) return badHandle("rope", id);
  *out = r->count();
  return Status::Ok();
}

const float* World::ropePositions(RopeId id) const {
  const RopeState* r = impl_->rope(id);
  return r ? r->out.data() : nullptr;
}



Status World::segmentRestLength(RopeId id, int segment, float* out) const {
  const RopeState* r = impl_->rope(id);
  if (!r) return badHandle("rope", id);
  if (segment < 0 || segment >= r->segments()) return badIndex("segment", segment, r->segments());
  *out = r->rest[segment];
  return Status::Ok();
}

namespace {
template <class T>
void moveTail(std::vector<T>& from, std::vector<T>& to, size_t start) {
  to.assign(from.begin() + static_cast<std::ptrdiff_t>(start), from.end());
  from.resize(start);
}
}  // namespace

Status World::cutRope(RopeId id, int segment, RopeId* tailOut) {
  Impl& w = *impl_;
  RopeState* head = w.rope(id);
  if (!head) return badHandle("rope", id);
  if (segment < 0 || segment >= head->segments()) return badIndex("segment", segment, head->segments());
  const size_t s = static_cast<size_t>(segment);
  const size_t n = static_cast<size_t>(head->count());
  const size_t bends = static_cast<size_t>(head->bends());

  RopeState tail;
  tail.params = head->params;
  for (auto pair : {std::pair{&head->px, &tail.px}, {&head->py, &tail.py}, {&head->pz, &tail.pz},
                    {&head->vx, &tail.vx}, {&head->vy, &tail.vy}, {&head->vz, &tail.vz},
                    {&head->ox, &tail.ox}, {&head->oy, &tail.oy}, {&head->oz, &tail.oz},
                    {&head->qx, &tail.qx}, {&head->qy, &tail.qy}, {&head->qz, &tail.qz},
                    {&head->restPrefix, &tail.restPrefix}, {&head->tetherLimit, &tail.tetherLimit},
                    {&head->pinDistance, &tail.pinDistance},
                    {&head->invMass, &tail.invMass}, {&head->baseInvMass, &tail.baseInvMass}})
    moveTail(*pair.first, *pair.second, s + 1);
  moveTail(head->anchor, tail.anchor, s + 1);
  moveTail(head->tetherTo, tail.tetherTo, s + 1);
  head->updatePins();
  tail.updatePins();
  // segment s disappears; segments after it belong to the tail
  tail.rest.assign(head->rest.begin() + static_cast<std::ptrdiff_t>(s + 1), head->rest.end());
  tail.initialRest.assign(head->initialRest.begin() + static_cast<std::ptrdiff_t>(s + 1), head->initialRest.end());
  head->rest.resize(s);
  head->initialRest.resize(s);
  // bend b joins b and b+2: the head keeps b + 2 <= s, the tail gets b >= s + 1
  if (bends > s + 1) tail.bendRest.assign(head->bendRest.begin() + static_cast<std::ptrdiff_t>(s + 1), head->bendRest.end());
  head->bendRest.resize(s >= 2 ? std::min(bends, s - 1) : 0);
  tail.initialPositions.assign(head->initialPositions.begin() + static_cast<std::ptrdiff_t>(3 * (s + 1)),
                               head->initialPositions.end());
  head->initialPositions.resize(3 * (s + 1));
  head->lambda.assign(head->rest.size() + head->bendRest.size(), 0.0f);
  tail.lambda.assign(tail.rest.size() + tail.bendRest.size(), 0.0f);
  head->out.resize(3 * (s + 1));
  tail.out.resize(3 * (n - s - 1));
  head->writeOutput(0, head->count());
  tail.writeOutput(0, tail.count());

  // anchors made for RopeDef::pinned follow the particles that use them
  std::vector<uint32_t> keep, give;
  for (uint32_t a : head->ownedAnchors) {
    bool usedByTail = std::find(tail.anchor.begin(), tail.anchor.end(), static_cast<int32_t>(a)) != tail.anchor.end();
    bool usedByHead = std::find(head->anchor.begin(), head->anchor.end(), static_cast<int32_t>(a)) != head->anchor.end();
    (usedByTail && !usedByHead ? give : keep).push_back(a);
  }
  head->ownedAnchors = keep;
  tail.ownedAnchors = give;

  RopeId tailId = w.storeRope(std::move(tail));  // may move `ropes`: `head` is stale from here
  for (uint32_t a : give) w.anchors[a].ownerIndex = static_cast<int32_t>(tailId.index);
  *tailOut = tailId;
  return Status::Ok();
}


Status World::resetRope(RopeId id) {
  RopeState* r = impl_->rope(id);
  if (!r) return badHandle("rope", id);
  r->resetParticles();
  r->rest = r->initialRest;
  computeBendRest(*r);
  return Status::Ok();
}


// --- operations every object kind has --------------------------------------------------------

namespace {

const char* kindName(RopeId) { return "rope"; }
const char* kindName(ClothId) { return "cloth"; }
const char* kindName(ChainId) { return "chain"; }

template <class Id>
Status particleOf(const World::Impl& w, Id id, int index, ParticleState* out) {
  const auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (index < 0 || index >= r->count()) return badIndex("particle", index, r->count());
  out->position = {r->px[index], r->py[index], r->pz[index]};
  out->velocity = {r->vx[index], r->vy[index], r->vz[index]};
  out->invMass = r->invMass[index];
  out->pinned = r->anchor[index] >= 0;
  return Status::Ok();
}

template <class Id>
Status setVelocityOf(World::Impl& w, Id id, int index, Vec3 v) {
  auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (index < 0 || index >= r->count()) return badIndex("particle", index, r->count());
  WISP_TRY(checkFiniteVec("velocity", v));
  r->vx[index] = v.x; r->vy[index] = v.y; r->vz[index] = v.z;
  return Status::Ok();
}

template <class Id>
Status pinOf(World::Impl& w, Id id, int particle, AnchorId anchor, float maxDistance) {
  auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (!w.anchorLive(anchor)) return badHandle("anchor", anchor);
  if (particle < 0 || particle >= r->count()) return badIndex("particle", particle, r->count());
  WISP_TRY(checkRange("pin maxDistance", maxDistance, 0, 1e4));
  r->anchor[particle] = static_cast<int32_t>(anchor.index);
  r->pinDistance[particle] = maxDistance;
  r->invMass[particle] = maxDistance == 0.0f ? 0.0f : r->baseInvMass[particle];
  r->updatePins();
  return Status::Ok();
}

template <class Id>
Status unpinOf(World::Impl& w, Id id, int particle) {
  auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (particle < 0 || particle >= r->count()) return badIndex("particle", particle, r->count());
  r->anchor[particle] = -1;
  r->pinDistance[particle] = 0;
  r->invMass[particle] = r->baseInvMass[particle];
  r->updatePins();
  return Status::Ok();
}

// Rotation about `pivot`, then translation, of positions and velocities: no velocity injected.
template <class Id>
Status teleportOf(World::Impl& w, Id id, const Transform& delta, Vec3 pivot) {
  auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  WISP_TRY(checkFiniteVec("teleport translation", delta.position));
  WISP_TRY(checkQuat("teleport rotation", delta.rotation));
  WISP_TRY(checkFiniteVec("teleport pivot", pivot));
  Quat q = normalize(delta.rotation);
  for (int i = 0; i < r->count(); ++i) {
    Vec3 x = pivot + rotate(q, Vec3{r->px[i], r->py[i], r->pz[i]} - pivot) + delta.position;
    Vec3 o = pivot + rotate(q, Vec3{r->ox[i], r->oy[i], r->oz[i]} - pivot) + delta.position;
    Vec3 v = rotate(q, Vec3{r->vx[i], r->vy[i], r->vz[i]});
    r->px[i] = x.x; r->py[i] = x.y; r->pz[i] = x.z;
    r->ox[i] = o.x; r->oy[i] = o.y; r->oz[i] = o.z;
    r->vx[i] = v.x; r->vy[i] = v.y; r->vz[i] = v.z;
  }
  r->writeOutput(0, r->count());
  return Status::Ok();
}

}  // namespace

Status World::particle(RopeId id, int i, ParticleState* out) const { return particleOf(*impl_, id, i, out); }
Status World::particle(ClothId id, int i, ParticleState* out) const { return particleOf(*impl_, id, i, out); }
Status World::setParticleVelocity(RopeId id, int i, Vec3 v) { return setVelocityOf(*impl_, id, i, v); }
Status World::setParticleVelocity(ClothId id, int i, Vec3 v) { return setVelocityOf(*impl_, id, i, v); }
Status World::pin(RopeId id, int particle, AnchorId anchor, float d) { return pinOf(*impl_, id, particle, anchor, d); }
Status World::pin(ClothId id, int particle, AnchorId anchor, float d) { return pinOf(*impl_, id, particle, anchor, d); }
Status World::unpin(RopeId id, int particle) { return unpinOf(*impl_, id, particle); }
Status World::unpin(ClothId id, int particle) { return unpinOf(*impl_, id, particle); }
Status World::teleportRope(RopeId id, const Transform& d, Vec3 pivot) { return teleportOf(*impl_, id, d, pivot); }
Status World::teleportCloth(ClothId id, const Transform& d, Vec3 pivot) { return teleportOf(*impl_, id, d, pivot); }
Status World::particle(ChainId id, int i, ParticleState* out) const { return particleOf(*impl_, id, i, out); }
Status World::setParticleVelocity(ChainId id, int i, Vec3 v) { return setVelocityOf(*impl_, id, i, v); }

// --- chains -------------------------------------------------------------------------------------

Status World::addChain(const ChainDef& def, ChainId* out) {
  ChainState state;
  WISP_TRY(buildChain(def, &state));
  *out = impl_->store<ChainId>(impl_->chains, impl_->freeChains, std::move(state));
  return Status::Ok();
}

Status World::removeChain(ChainId id) {
  Impl& w = *impl_;
  if (!w.chain(id)) return badHandle("chain", id);
  w.release(w.chains, w.freeChains, id.index);
  return Status::Ok();
}

Status World::chainParams(ChainId id, ChainParams* out) const {
  const ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  *out = c->params;
  return Status::Ok();
}

Status World::setChainParams(ChainId id, const ChainParams& params) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(validateChainParams(params));
  return resolveChainParams(*c, params);
}

Status World::chainJointCount(ChainId id, int* out) const {
  const ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  *out = c->joints();
  return Status::Ok();
}

// Literal names: building them would allocate on every call of a per-frame setter.
static Status checkTransform(const char* positionName, const char* rotationName, const Transform& t) {
  WISP_TRY(checkFiniteVec(positionName, t.position));
  return checkQuat(rotationName, t.rotation);
}

Status World::setChainRoot(ChainId id, const Transform& root) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkTransform("setChainRoot: root.position", "setChainRoot: root.rotation", root));
  c->rootTo = {root.position, normalize(root.rotation)};
  return Status::Ok();
}

Status World::setChainSpace(ChainId id, const Transform& space) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkTransform("setChainSpace: space.position", "setChainSpace: space.rotation", space));
  c->spaceTo = {space.position, normalize(space.rotation)};
  if (!c->ownSpace) c->spaceFrom = c->spaceTo;  // the first space pose is a placement, not motion
  c->ownSpace = true;
  return Status::Ok();
}

Status World::teleportChain(ChainId id, const Transform& root) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkTransform("teleportChain: root.position", "teleportChain: root.rotation", root));
  const Transform to{root.position, normalize(root.rotation)};
  // carry the chain from its current root pose, whole: shape and velocities turn with it
  Transform from = c->rootFrom;
  Quat q = mul(to.rotation, conjugate(from.rotation));
  for (int j = 0; j < c->joints(); ++j) {
    Vec3 p = to.position + rotate(q, Vec3{c->px[j], c->py[j], c->pz[j]} - from.position);
    Vec3 o = to.position + rotate(q, Vec3{c->ox[j], c->oy[j], c->oz[j]} - from.position);
    Vec3 t = to.position + rotate(q, Vec3{c->qx[j], c->qy[j], c->qz[j]} - from.position);  // VRM's tail
    Vec3 v = rotate(q, Vec3{c->vx[j], c->vy[j], c->vz[j]});
    c->px[j] = p.x; c->py[j] = p.y; c->pz[j] = p.z;
    c->qx[j] = t.x; c->qy[j] = t.y; c->qz[j] = t.z;
    c->ox[j] = o.x; c->oy[j] = o.y; c->oz[j] = o.z;
    c->vx[j] = v.x; c->vy[j] = v.y; c->vz[j] = v.z;
    Quat wq = normalize(mul(q, c->simRotation[j]));
    c->simRotation[j] = wq;
    float* wr = &c->worldRotations[4 * j];
    wr[0] = wq.x; wr[1] = wq.y; wr[2] = wq.z; wr[3] = wq.w;
  }
  c->rootFrom = c->rootTo = to;
  if (c->ownSpace) {
    Transform s = c->spaceTo;
    c->spaceFrom = c->spaceTo = {to.position + rotate(q, s.position - from.position), normalize(mul(q, s.rotation))};
  } else {
    c->spaceFrom = c->spaceTo = to;
  }
  c->writeOutput(0, c->joints());
  return Status::Ok();
}

Status World::resetChain(ChainId id) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  poseChainAtRest(*c);
  return Status::Ok();
}

const float* World::chainPositions(ChainId id) const {
  const ChainState* c = impl_->chain(id);
  return c ? c->out.data() : nullptr;
}
const float* World::chainRotations(ChainId id) const {
  const ChainState* c = impl_->chain(id);
  return c ? c->worldRotations.data() : nullptr;
}
const float* World::chainLocalRotations(ChainId id) const {
  const ChainState* c = impl_->chain(id);
  return c ? c->localRotations.data() : nullptr;
}

Status World::chainStats(ChainId id, ChainStats* out) const {
  const ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  ChainStats s;
  s.joints = c->joints();
  for (int k = 0; k + 1 < c->joints(); ++k) {
    Vec3 d{c->px[k + 1] - c->px[k], c->py[k + 1] - c->py[k], c->pz[k + 1] - c->pz[k]};
    s.maxLengthError = std::max(s.maxLengthError, std::fabs(length(d) - c->boneLength[k]));
  }
  s.maxSpeed = c->maxSpeed;
  s.teleports = c->teleports;
  *out = s;
  return Status::Ok();
}

// --- cloth --------------------------------------------------------------------------------------

Status World::addCloth(const ClothDef& def, ClothId* out) {
  ClothState state;
  WISP_TRY(buildCloth(def, &state));
  Impl& w = *impl_;
  ClothId id = w.store<ClothId>(w.cloths, w.freeCloths, std::move(state));
  w.pinOwned(w.cloths[id.index], def.pinned, AnchorSlot::Owner::Cloth, id.index);
  *out = id;
  return Status::Ok();
}

Status World::removeCloth(ClothId id) {
  Impl& w = *impl_;
  if (!w.cloth(id)) return badHandle("cloth", id);
  w.release(w.cloths, w.freeCloths, id.index);
  return Status::Ok();
}

Status World::clothParams(ClothId id, ClothParams* out) const {
  const ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  *out = c->params;
  return Status::Ok();
}

Status World::setClothParams(ClothId id, const ClothParams& params) {
  ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  WISP_TRY(validateClothParams(params));
  WISP_TRY(checkPressure(*c, params));
  bool slack = params.tetherSlack != c->params.tetherSlack;
  c->params = params;
  if (slack) c->updatePins();
  return Status::Ok();
}

Status World::clothParticleCount(ClothId id, int* out) const {
  const ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  *out = c->count();
  return Status::Ok();
}

const float* World::clothPositions(ClothId id) const {
  const ClothState* c = impl_->cloth(id);
  return c ? c->out.data() : nullptr;
}

const float* World::clothNormals(ClothId id) const {
  const ClothState* c = impl_->cloth(id);
  return c ? c->normals.data() : nullptr;
}

Status World::clothTriangles(ClothId id, const uint32_t** indices, int* triangleCount) const {
  const ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  *indices = c->triangles.data();
  *triangleCount = c->triangleCount();
  return Status::Ok();
}

Status World::clothVertexMap(ClothId id, const int32_t** map, int* vertexCount) const {
  const ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  *map = c->vertexMap.data();
  *vertexCount = static_cast<int>(c->vertexMap.size());
  return Status::Ok();
}

Status World::clothStats(ClothId id, ClothStats* out) const {
  const ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  *out = c->stats;
  return Status::Ok();
}

Status World::resetCloth(ClothId id) {
  ClothState* c = impl_->cloth(id);
  if (!c) return badHandle("cloth", id);
  c->resetParticles();
  c->computeNormals();
  return Status::Ok();
}

// --- anchors --------------------------------------------------------------------------------

Status World::addAnchor(Vec3 position, AnchorId* out) {
  WISP_TRY(checkFiniteVec("anchor position", position));
  uint32_t slot = impl_->newAnchorSlot(position, AnchorSlot::Owner::None, -1);
  out->index = slot;
  out->generation = impl_->anchors[slot].generation;
  return Status::Ok();
}

Status World::removeAnchor(AnchorId id) {
  Impl& w = *impl_;
  if (!w.anchorLive(id)) return badHandle("anchor", id);
  const AnchorSlot& slot = w.anchors[id.index];
  if (slot.ownerKind != AnchorSlot::Owner::None) {
    auto& owned = slot.ownerKind == AnchorSlot::Owner::Rope ? w.ropes[slot.ownerIndex].ownedAnchors
                                                             : w.cloths[slot.ownerIndex].ownedAnchors;
    owned.erase(std::remove(owned.begin(), owned.end(), id.index), owned.end());
  }
  w.freeAnchorSlot(id.index);
  return Status::Ok();
}

Status World::setAnchorPosition(AnchorId id, Vec3 position) {
  if (!impl_->anchorLive(id)) return badHandle("anchor", id);
  WISP_TRY(checkFiniteVec("anchor position", position));
  impl_->anchors[id.index].to = position;
  return Status::Ok();
}

Status World::teleportAnchor(AnchorId id, Vec3 position) {
  Impl& w = *impl_;
  if (!w.anchorLive(id)) return badHandle("anchor", id);
  WISP_TRY(checkFiniteVec("anchor position", position));
  const Vec3 shift = position - w.anchors[id.index].to;
  w.anchors[id.index].from = w.anchors[id.index].to = position;
  w.forEachObject([&](Particles& r) {
    bool moved = false;
    for (int i = 0; i < r.count(); ++i) {
      if (r.anchor[i] != static_cast<int32_t>(id.index)) continue;
      // exact pins land on the anchor; leashed particles keep their offset from it
      Vec3 x = r.pinDistance[i] == 0.0f ? position : Vec3{r.px[i], r.py[i], r.pz[i]} + shift;
      r.px[i] = r.ox[i] = x.x;
      r.py[i] = r.oy[i] = x.y;
      r.pz[i] = r.oz[i] = x.z;
      moved = true;
    }
    if (moved) r.writeOutput(0, r.count());
  });
  return Status::Ok();
}

Status World::anchorPosition(AnchorId id, Vec3* out) const {
  if (!impl_->anchorLive(id)) return badHandle("anchor", id);
  *out = impl_->anchors[id.index].to;
  return Status::Ok();
}



// --- colliders -------------------------------------------------------------------------------

Status World::addCollider(const ColliderDef& def, ColliderId* out) {
  WISP_TRY(validateColliderDef(def));
  Impl& w = *impl_;
  bool grown;
  uint32_t slot = takeSlot(w.colliders, w.freeColliders, &grown);
  if (grown) w.colliderPaths.reserve(w.colliders.size());
  ColliderSlot& c = w.colliders[slot];
  c.generation = nextGeneration(w.tag, c.generation);
  c.alive = true;
  c.def = def;
  c.def.transform.rotation = normalize(def.transform.rotation);
  c.from = c.def.transform;
  out->index = slot;
  out->generation = c.generation;
  return Status::Ok();
}

Status World::removeCollider(ColliderId id) {
  Impl& w = *impl_;
  if (!w.colliderLive(id)) return badHandle("collider", id);
  w.colliders[id.index].alive = false;
  w.freeColliders.push_back(id.index);
  return Status::Ok();
}

Status World::setColliderTransform(ColliderId id, const Transform& t) {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  WISP_TRY(checkFiniteVec("collider position", t.position));
  WISP_TRY(checkQuat("collider rotation", t.rotation));
  impl_->colliders[id.index].def.transform = {t.position, normalize(t.rotation)};
  return Status::Ok();
}

Status World::teleportCollider(ColliderId id, const Transform& t) {
  WISP_TRY(setColliderTransform(id, t));
  ColliderSlot& c = impl_->colliders[id.index];
  c.from = c.def.transform;
  return Status::Ok();
}

Status World::addWindZone(const WindZoneDef& def, WindZoneId* out) {
  WISP_TRY(validateWindZone(def));
  Impl& w = *impl_;
  bool grown;
  uint32_t slot = takeSlot(w.windZones, w.freeWindZones, &grown);
  if (grown) w.zoneFields.reserve(w.windZones.size());
  WindZoneSlot& z = w.windZones[slot];
  z.generation = nextGeneration(w.tag, z.generation);
  z.alive = true;
  z.def = def;
  out->index = slot;
  out->generation = z.generation;
  return Status::Ok();
}

Status World::setWindZone(WindZoneId id, const WindZoneDef& def) {
  if (!impl_->zoneLive(id)) return badHandle("wind zone", id);
  WISP_TRY(validateWindZone(def));
  impl_->windZones[id.index].def = def;
  return Status::Ok();
}

Status World::removeWindZone(WindZoneId id) {
  Impl& w = *impl_;
  if (!w.zoneLive(id)) return badHandle("wind zone", id);
  w.windZones[id.index].alive = false;
  w.freeWindZones.push_back(id.index);
  return Status::Ok();
}

Vec3 World::airVelocityAt(Vec3 point) const {
  const Impl& w = *impl_;
  std::vector<WindZoneField> zones;
  for (const WindZoneSlot& z : w.windZones)
    if (z.alive) zones.push_back(makeWindZoneField(z.def));
  AirField air{makeWindField(w.settings.wind), zones.data(), static_cast<int>(zones.size())};
  return airVelocity(air, point, static_cast<float>(time()));
}

Status World::setColliderEnabled(ColliderId id, bool enabled) {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  impl_->colliders[id.index].def.enabled = enabled;
  return Status::Ok();
}

Status World::setColliderFriction(ColliderId id, float friction) {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  WISP_TRY(checkRange("collider friction", friction, 0, 2));
  impl_->colliders[id.index].def.friction = friction;
  return Status::Ok();
}

Status World::collider(ColliderId id, ColliderDef* out) const {
  if (!impl_->colliderLive(id)) return badHandle("collider", id);
  *out = impl_->colliders[id.index].def;
  return Status::Ok();
}

// --- events and containment ----------------------------------------------------------------------

const std::vector<WorldEvent>& World::events() const { return impl_->events; }

template <class Id>
static Status injectInto(World::Impl& w, Id id, int particle) {
  auto* o = w.object(id);
  if (!o) return badHandle(kindName(id), id);
  if (particle < 0 || particle >= o->count()) return badIndex("particle", particle, o->count());
  o->px[particle] = std::numeric_limits<float>::quiet_NaN();
  return Status::Ok();
}
Status World::injectFault(RopeId id, int particle) { return injectInto(*impl_, id, particle); }
Status World::injectFault(ClothId id, int particle) { return injectInto(*impl_, id, particle); }
Status World::injectFault(ChainId id, int particle) { return injectInto(*impl_, id, particle); }

// --- inspection --------------------------------------------------------------------------------

uint64_t World::stateHash() const {
  const Impl& w = *impl_;
  StateHasher h;
  h.value(w.steps);
  h.value(w.accumulator);
  for (size_t i = 0; i < w.ropes.size(); ++i) {
    const RopeState& r = w.ropes[i];
    if (!r.alive) continue;
    h.value(static_cast<uint64_t>(i));
    for (const auto* a : {&r.px, &r.py, &r.pz, &r.vx, &r.vy, &r.vz, &r.invMass, &r.rest, &r.bendRest}) h.array(*a);
    h.array(r.anchor);
    h.array(r.pinDistance);
    // field by field: structs with bools have padding bytes of unspecified value
    const RopeParams& p = r.params;
    for (float f : {p.radius, p.stretchCompliance, p.bendCompliance, p.damping, p.drag, p.gravityScale,
                    p.yieldRatio, p.plasticity})
      h.value(f);
    h.value(static_cast<uint8_t>(p.bending));
    h.value(static_cast<uint8_t>(p.collide));
    h.value(static_cast<uint8_t>(p.tethers));
    h.value(p.colliderMask);
  }
  for (size_t i = 0; i < w.cloths.size(); ++i) {
    const ClothState& c = w.cloths[i];
    if (!c.alive) continue;
    h.value(static_cast<uint64_t>(i));
    for (const auto* a : {&c.px, &c.py, &c.pz, &c.vx, &c.vy, &c.vz, &c.invMass}) h.array(*a);
    h.array(c.anchor);
    h.array(c.pinDistance);
    const ClothParams& p = c.params;
    for (float f : {p.radius, p.stretchCompliance, p.shearCompliance, p.bendCompliance, p.tetherSlack, p.damping,
                    p.gravityScale, p.dragCoefficient, p.liftCoefficient, p.airDensity, p.residualTolerance,
                    p.pressure, p.volumeCompliance, p.tetherCompliance})
      h.value(f);
    h.value(static_cast<uint8_t>(p.bending));
    h.value(static_cast<uint8_t>(p.tethers));
    h.value(static_cast<uint8_t>(p.collide));
    h.value(static_cast<uint8_t>(p.selfCollision));
    h.value(p.colliderMask);
  }
  for (size_t i = 0; i < w.chains.size(); ++i) {
    const ChainState& c = w.chains[i];
    if (!c.alive) continue;
    h.value(static_cast<uint64_t>(i));
    for (const auto* a : {&c.px, &c.py, &c.pz, &c.vx, &c.vy, &c.vz, &c.ox, &c.oy, &c.oz, &c.qx, &c.qy, &c.qz, &c.worldRotations,
                          &c.jDamping, &c.jStiffness, &c.jElasticity, &c.jInertia, &c.jGravity, &c.jExternal,
                          &c.jRadius, &c.jCosLimit})
      h.array(*a);
    const ChainParams& p = c.params;
    h.value(static_cast<int32_t>(p.mode));
    h.value(static_cast<int32_t>(p.space));
    for (float f : {p.drag, p.spaceInertia, p.teleportDistance, p.teleportAngle}) h.value(f);
    for (Vec3 v : {p.gravity, p.externalForce, p.hingeAxis}) h.value(v);
    h.value(static_cast<uint8_t>(p.customGravity));
    h.value(static_cast<uint8_t>(p.hinge));
    h.value(static_cast<uint8_t>(p.collide));
    h.value(p.colliderMask);
    for (const Transform* t : {&c.rootFrom, &c.rootTo, &c.spaceFrom, &c.spaceTo}) {
      h.value(t->position);
      h.value(t->rotation);
    }
    h.value(static_cast<uint8_t>(c.ownSpace));
    h.value(c.teleports);
  }
  for (const AnchorSlot& a : w.anchors)
    if (a.alive) { h.value(a.from); h.value(a.to); }
  for (const WindZoneSlot& z : w.windZones) {
    if (!z.alive) continue;
    const WindZoneDef& d = z.def;
    h.value(static_cast<int32_t>(d.shape));
    h.value(d.transform.position);
    h.value(d.transform.rotation);
    h.value(d.halfExtents);
    for (float f : {d.radius, d.falloff, d.wind.speed, d.wind.turbulence, d.wind.turbulenceScale}) h.value(f);
    h.value(d.wind.direction);
    h.value(d.wind.seed);
  }
  for (const ColliderSlot& c : w.colliders)
    if (c.alive) {
      const ColliderDef& d = c.def;
      h.value(static_cast<int32_t>(d.type));
      for (const Transform* t : {&d.transform, &c.from}) {
        h.value(t->position);
        h.value(t->rotation);
      }
      for (float f : {d.radius, d.radiusTop, d.halfHeight, d.halfExtents.x, d.halfExtents.y, d.halfExtents.z, d.friction})
        h.value(f);
      h.value(static_cast<uint8_t>(d.enabled));
      h.value(static_cast<uint8_t>(d.inside));
      h.value(d.groups);
    }
  return h.result();
}

WorldStats World::stats() const {
  const Impl& w = *impl_;
  WorldStats s;
  for (const RopeState& r : w.ropes) {
    if (!r.alive) continue;
    ++s.ropes;
    s.particles += r.count();
    s.constraints += r.segments() + (r.params.bending ? r.bends() : 0);
  }
  for (const ClothState& c : w.cloths) {
    if (!c.alive) continue;
    ++s.cloths;
    s.particles += c.count();
    s.constraints += c.stretch.size() + c.shear.size() + (c.params.bending ? c.bends.size() : 0);
  }
  for (const ChainState& c : w.chains) {
    if (!c.alive) continue;
    ++s.chains;
    s.particles += c.count();
    s.constraints += c.bones();
  }
  for (const AnchorSlot& a : w.anchors) s.anchors += a.alive ? 1 : 0;
  for (const ColliderSlot& c : w.colliders) s.colliders += c.alive ? 1 : 0;
  s.threads = jobs::resolveThreads(w.settings.threads);
  s.simd = wide::kEnabled;
  return s;
}

uint64_t World::layoutVersion() const { return impl_->layoutVersion; }

// --- snapshots --------------------------------------------------------------------------------
// Field lists for snapshot/archive.h: each struct once, for every format and direction.

template <class Ar> void visit(Ar& ar, Transform& t) { ar("position", t.position); ar("rotation", t.rotation); }
template <class Ar> void visit(Ar& ar, WindSettings& w) {
  ar("direction", w.direction); ar("speed", w.speed); ar("turbulence", w.turbulence);
  ar("turbulenceScale", w.turbulenceScale); ar("seed", w.seed);
}
template <class Ar> void visit(Ar& ar, WorldSettings& s) {
  ar("gravity", s.gravity); ar("fixedDt", s.fixedDt); ar("substeps", s.substeps); ar("iterations", s.iterations);
  ar("maxFrameDt", s.maxFrameDt); ar("rejectFrameDt", s.rejectFrameDt); ar("collisions", s.collisions);
  ar("threads", s.threads); ar("wind", s.wind);
}
template <class Ar> void visit(Ar& ar, RopeParams& p) {
  ar("radius", p.radius); ar("stretchCompliance", p.stretchCompliance); ar("bending", p.bending);
  ar("bendCompliance", p.bendCompliance); ar("damping", p.damping); ar("drag", p.drag);
  ar("gravityScale", p.gravityScale); ar("yieldRatio", p.yieldRatio); ar("plasticity", p.plasticity);
  ar("collide", p.collide); ar("tethers", p.tethers);
  ar("colliderMask", p.colliderMask);
}
template <class Ar> void visit(Ar& ar, ClothParams& p) {
  ar("radius", p.radius); ar("stretchCompliance", p.stretchCompliance); ar("shearCompliance", p.shearCompliance);
  ar("bendCompliance", p.bendCompliance); ar("bending", p.bending); ar("tethers", p.tethers);
  ar("tetherSlack", p.tetherSlack); ar("damping", p.damping); ar("gravityScale", p.gravityScale);
  ar("dragCoefficient", p.dragCoefficient); ar("liftCoefficient", p.liftCoefficient); ar("airDensity", p.airDensity);
  ar("residualTolerance", p.residualTolerance); ar("collide", p.collide); ar("selfCollision", p.selfCollision);
  ar("colliderMask", p.colliderMask);
  ar("pressure", p.pressure); ar("volumeCompliance", p.volumeCompliance);
  ar("tetherCompliance", p.tetherCompliance);
}
template <class Ar> void visit(Ar& ar, ClothStats& s) {
  ar("particles", s.particles); ar("triangles", s.triangles); ar("stretchConstraints", s.stretchConstraints);
  ar("shearConstraints", s.shearConstraints); ar("bendConstraints", s.bendConstraints); ar("tethers", s.tethers);
  ar("colours", s.colours); ar("maxStrain", s.maxStrain); ar("meanStrain", s.meanStrain);
  ar("substeps", s.substeps); ar("iterations", s.iterations);
}
template <class Ar> void visit(Ar& ar, WindZoneDef& d) {
  ar("shape", d.shape); ar("transform", d.transform); ar("radius", d.radius); ar("halfExtents", d.halfExtents);
  ar("wind", d.wind); ar("falloff", d.falloff);
}
template <class Ar> void visit(Ar& ar, ColliderDef& d) {
  ar("type", d.type); ar("transform", d.transform); ar("radius", d.radius); ar("halfHeight", d.halfHeight);
  ar("halfExtents", d.halfExtents); ar("friction", d.friction); ar("enabled", d.enabled);
  ar("radiusTop", d.radiusTop); ar("inside", d.inside); ar("groups", d.groups);
}
template <class Ar> void visit(Ar& ar, Particles& p) {
  ar("px", p.px); ar("py", p.py); ar("pz", p.pz); ar("vx", p.vx); ar("vy", p.vy); ar("vz", p.vz);
  ar("ox", p.ox); ar("oy", p.oy); ar("oz", p.oz); ar("qx", p.qx); ar("qy", p.qy); ar("qz", p.qz);
  ar("invMass", p.invMass); ar("baseInvMass", p.baseInvMass); ar("anchor", p.anchor); ar("pinDistance", p.pinDistance);
  ar("pinnedList", p.pinnedList); ar("leashList", p.leashList);
  ar("tetherTo", p.tetherTo); ar("tetherLimit", p.tetherLimit); ar("initialPositions", p.initialPositions); ar("out", p.out);
}
template <class Ar> void visit(Ar& ar, RopeState& r) {
  ar("generation", r.generation); ar("alive", r.alive);
  if (!r.alive) return;
  ar("params", r.params);
  ar.object("particles", [&] { visit(ar, static_cast<Particles&>(r)); });
  ar("restPrefix", r.restPrefix); ar("rest", r.rest); ar("bendRest", r.bendRest); ar("lambda", r.lambda);
  ar("initialRest", r.initialRest); ar("ownedAnchors", r.ownedAnchors);
}
template <class Ar> void visit(Ar& ar, EdgeSet& e) {
  ar("a", e.a); ar("b", e.b); ar("rest", e.rest); ar("lambda", e.lambda); ar("colourStart", e.colourStart);
}
template <class Ar> void visit(Ar& ar, BendSet& b) {
  ar("v", b.v); ar("k", b.k); ar("restNorm", b.restNorm); ar("weight", b.weight); ar("lambda", b.lambda);
  ar("colourStart", b.colourStart);
}
template <class Ar> void visit(Ar& ar, ClothState& c) {
  ar("generation", c.generation); ar("alive", c.alive);
  if (!c.alive) return;
  ar("params", c.params);
  ar.object("particles", [&] { visit(ar, static_cast<Particles&>(c)); });
  ar("stretch", c.stretch); ar("shear", c.shear); ar("bends", c.bends); ar("triangles", c.triangles);
  ar("ax", c.ax); ar("ay", c.ay); ar("az", c.az); ar("normals", c.normals);
  ar("adjStart", c.adjStart); ar("adj", c.adj); ar("adjLength", c.adjLength); ar("geodesic", c.geodesic);
  ar("vertexMap", c.vertexMap); ar("ownedAnchors", c.ownedAnchors); ar("stats", c.stats);
  ar("closed", c.closed); ar("restVolume", c.restVolume); ar("volumeLambda", c.volumeLambda);
}
template <class Ar> void visit(Ar& ar, CurveKey& k) { ar("t", k.t); ar("value", k.value); }
template <class Ar> void visit(Ar& ar, ChainParams& p) {
  ar("mode", p.mode); ar("damping", p.damping); ar("stiffness", p.stiffness); ar("elasticity", p.elasticity);
  ar("inertia", p.inertia); ar("gravityScale", p.gravityScale); ar("customGravity", p.customGravity);
  ar("gravity", p.gravity); ar("externalForce", p.externalForce); ar("drag", p.drag); ar("radius", p.radius);
  ar("limitAngle", p.limitAngle); ar("hinge", p.hinge); ar("hingeAxis", p.hingeAxis); ar("collide", p.collide);
  ar("colliderMask", p.colliderMask); ar("space", p.space); ar("spaceInertia", p.spaceInertia);
  ar("teleportDistance", p.teleportDistance); ar("teleportAngle", p.teleportAngle);
  ar("dampingCurve", p.dampingCurve); ar("stiffnessCurve", p.stiffnessCurve); ar("elasticityCurve", p.elasticityCurve);
  ar("inertiaCurve", p.inertiaCurve); ar("gravityCurve", p.gravityCurve); ar("externalForceCurve", p.externalForceCurve);
  ar("radiusCurve", p.radiusCurve); ar("limitAngleCurve", p.limitAngleCurve);
}
template <class Ar> void visit(Ar& ar, ChainState& c) {
  ar("generation", c.generation); ar("alive", c.alive);
  if (!c.alive) return;
  ar("params", c.params);
  ar.object("particles", [&] { visit(ar, static_cast<Particles&>(c)); });
  ar("localPosition", c.localPosition); ar("localRotation", c.localRotation); ar("childAxis", c.childAxis);
  ar("boneLength", c.boneLength); ar("along", c.along);
  ar("rootFrom", c.rootFrom); ar("rootTo", c.rootTo); ar("spaceFrom", c.spaceFrom); ar("spaceTo", c.spaceTo);
  ar("ownSpace", c.ownSpace); ar("simRotation", c.simRotation); ar("teleports", c.teleports);
  ar("worldRotations", c.worldRotations); ar("localRotations", c.localRotations);
  // the per-joint parameters derive from params: checkSnapshot resolves them again
}
template <class Ar> void visit(Ar& ar, World::Impl& w) {
  ar("settings", w.settings);
  ar("accumulator", w.accumulator); ar("steps", w.steps);
  ar("ropes", w.ropes); ar("freeRopes", w.freeRopes);
  ar("cloths", w.cloths); ar("freeCloths", w.freeCloths);
  ar("chains", w.chains); ar("freeChains", w.freeChains);
  ar("anchors", w.anchors); ar("freeAnchors", w.freeAnchors);
  ar("colliders", w.colliders); ar("freeColliders", w.freeColliders);
  ar("windZones", w.windZones); ar("freeWindZones", w.freeWindZones);
}

namespace {

constexpr char kMagic[8] = {'W', 'I', 'S', 'P', 'S', 'N', 'A', 'P'};
constexpr uint32_t kSnapshotVersion = 2;  // 2: chains; tapered, inside and grouped colliders

Status badSnapshot(const std::string& why) {
  return Status::Error(StatusCode::InvalidArgument, "snapshot rejected: " + why);
}

template <class T>
bool sized(const std::vector<T>& v, size_t n) { return v.size() == n; }
template <class T>
bool indicesBelow(const std::vector<T>& v, size_t n, bool allowMinusOne = false) {
  for (T i : v)
    if (!((allowMinusOne && static_cast<int64_t>(i) == -1) || (static_cast<int64_t>(i) >= 0 && static_cast<uint64_t>(i) < n))) return false;
  return true;
}
bool coloursOk(const std::vector<int32_t>& starts, size_t count) {
  if (starts.empty()) return count == 0;
  if (starts.front() != 0 || static_cast<size_t>(starts.back()) != count) return false;
  for (size_t i = 1; i < starts.size(); ++i)
    if (starts[i] < starts[i - 1]) return false;
  return true;
}

// Everything the solver indexes with must be in range, so that a corrupted or hand-edited
// snapshot is an error instead of a crash.
Status checkParticles(const Particles& p, size_t anchors, const char* what) {
  const size_t n = p.px.size();
  for (const auto* a : {&p.py, &p.pz, &p.vx, &p.vy, &p.vz, &p.ox, &p.oy, &p.oz, &p.qx, &p.qy, &p.qz, &p.invMass,
                        &p.baseInvMass, &p.tetherLimit, &p.pinDistance})
    if (!sized(*a, n)) return badSnapshot(std::string(what) + " particle arrays differ in length");
  if (!sized(p.anchor, n) || !sized(p.tetherTo, n) || p.out.size() != 3 * n || p.initialPositions.size() != 3 * n)
    return badSnapshot(std::string(what) + " particle arrays differ in length");
  if (!indicesBelow(p.anchor, anchors, true) || !indicesBelow(p.tetherTo, n, true) || !indicesBelow(p.pinnedList, n) ||
      !indicesBelow(p.leashList, n))
    return badSnapshot(std::string(what) + " has an index out of range");
  return Status::Ok();
}

}  // namespace

static Status checkSnapshot(World::Impl& w) {
  WISP_TRY(World::validate(w.settings));
  const size_t na = w.anchors.size();
  for (const RopeState& r : w.ropes) {
    if (!r.alive) continue;
    WISP_TRY(validateRopeParams(r.params));
    WISP_TRY(checkParticles(r, na, "rope"));
    const size_t n = r.px.size();
    if (n == 0 || r.rest.size() != n - 1 || r.bendRest.size() != (n > 1 ? n - 2 : 0) || r.restPrefix.size() != n ||
        r.lambda.size() != r.rest.size() + r.bendRest.size() || r.initialRest.size() != r.rest.size())
      return badSnapshot("rope constraint arrays do not match its particles");
    if (!indicesBelow(r.ownedAnchors, na)) return badSnapshot("rope owns an anchor out of range");
  }
  for (ClothState& c : w.cloths) {
    if (!c.alive) continue;
    WISP_TRY(validateClothParams(c.params));
    WISP_TRY(checkParticles(c, na, "cloth"));
    const size_t n = c.px.size();
    for (const EdgeSet* e : {&c.stretch, &c.shear}) {
      const size_t m = e->a.size();
      if (!sized(e->b, m) || !sized(e->rest, m) || !sized(e->lambda, m) || !coloursOk(e->colourStart, m) ||
          !indicesBelow(e->a, n) || !indicesBelow(e->b, n))
        return badSnapshot("cloth edge constraints are inconsistent");
    }
    const size_t nb = c.bends.restNorm.size();
    for (int j = 0; j < 4; ++j)
      if (!sized(c.bends.v[j], nb) || !sized(c.bends.k[j], nb) || !indicesBelow(c.bends.v[j], n))
        return badSnapshot("cloth bending constraints are inconsistent");
    if (!sized(c.bends.weight, nb) || !sized(c.bends.lambda, nb) || !coloursOk(c.bends.colourStart, nb))
      return badSnapshot("cloth bending constraints are inconsistent");
    if (c.triangles.size() % 3 != 0 || !indicesBelow(c.triangles, n) || !sized(c.ax, n) || !sized(c.ay, n) ||
        !sized(c.az, n) || c.normals.size() != 3 * n || !sized(c.geodesic, n) || c.adjStart.size() != n + 1 ||
        !sized(c.adjLength, c.adj.size()) || !indicesBelow(c.adj, n) || !indicesBelow(c.vertexMap, n) ||
        !indicesBelow(c.ownedAnchors, na))
      return badSnapshot("cloth arrays are inconsistent");
    for (size_t i = 0; i < n; ++i)
      if (c.adjStart[i] < 0 || c.adjStart[i + 1] < c.adjStart[i] || static_cast<size_t>(c.adjStart[i + 1]) > c.adj.size())
        return badSnapshot("cloth edge graph is inconsistent");
    c.buildTriangleLists();  // derived, not stored
  }
  for (ChainState& c : w.chains) {
    if (!c.alive) continue;
    WISP_TRY(validateChainParams(c.params));
    WISP_TRY(checkParticles(c, na, "chain"));
    const size_t n = c.px.size();
    if (n < 2 || !sized(c.localPosition, n) || !sized(c.localRotation, n) || !sized(c.childAxis, n) ||
        !sized(c.boneLength, n) || !sized(c.along, n) || !sized(c.simRotation, n) ||
        c.worldRotations.size() != 4 * n || c.localRotations.size() != 4 * n)
      return badSnapshot("chain arrays do not match its joints");
    for (size_t j = 0; j < n; ++j)
      if (!isFinite(c.localPosition[j]) || !isFinite(c.localRotation[j]) || !isFinite(c.childAxis[j]) ||
          !std::isfinite(c.boneLength[j]) || !(c.along[j] >= 0 && c.along[j] <= 1))
        return badSnapshot("chain rest pose is not finite");
    for (const Transform* t : {&c.rootFrom, &c.rootTo, &c.spaceFrom, &c.spaceTo})
      if (!isFinite(t->position) || !isFinite(t->rotation)) return badSnapshot("chain root pose is not finite");
    WISP_TRY(resolveChainParams(c, c.params));
  }
  for (const AnchorSlot& a : w.anchors) {
    if (!a.alive) continue;
    if (!isFinite(a.from) || !isFinite(a.to)) return badSnapshot("an anchor position is not finite");
    size_t owners = a.ownerKind == AnchorSlot::Owner::Rope ? w.ropes.size() : a.ownerKind == AnchorSlot::Owner::Cloth ? w.cloths.size() : 0;
    if (a.ownerKind != AnchorSlot::Owner::None && (a.ownerIndex < 0 || static_cast<size_t>(a.ownerIndex) >= owners))
      return badSnapshot("an anchor's owner is out of range");
  }
  for (const ColliderSlot& c : w.colliders)
    if (c.alive) WISP_TRY(validateColliderDef(c.def));
  for (const WindZoneSlot& z : w.windZones)
    if (z.alive) WISP_TRY(validateWindZone(z.def));
  if (!indicesBelow(w.freeWindZones, w.windZones.size())) return badSnapshot("a free list is out of range");
  if (!indicesBelow(w.freeRopes, w.ropes.size()) || !indicesBelow(w.freeCloths, w.cloths.size()) ||
      !indicesBelow(w.freeChains, w.chains.size()) ||
      !indicesBelow(w.freeAnchors, na) || !indicesBelow(w.freeColliders, w.colliders.size()))
    return badSnapshot("a free list is out of range");
  if (!std::isfinite(w.accumulator)) return badSnapshot("the time accumulator is not finite");
  return Status::Ok();
}

// Takes the loaded state: ids keep their slots and serials but carry this world's tag.
static void adopt(World::Impl& w, World::Impl&& loaded) {
  const uint32_t tag = w.tag;
  const uint64_t layout = w.layoutVersion + 1;
  w = std::move(loaded);
  w.tag = tag;
  auto restamp = [tag](uint32_t& g) { g = (tag << 20) | (g & 0xFFFFFu); };
  for (auto& r : w.ropes) restamp(r.generation);
  for (auto& c : w.cloths) restamp(c.generation);
  for (auto& c : w.chains) restamp(c.generation);
  for (auto& a : w.anchors) restamp(a.generation);
  for (auto& c : w.colliders) restamp(c.generation);
  for (auto& z : w.windZones) restamp(z.generation);
  w.zoneFields.reserve(w.windZones.size());
  w.anchorPaths.resize(w.anchors.size());
  w.colliderPaths.clear();
  w.colliderPaths.reserve(w.colliders.size());
  w.layoutVersion = layout;
  w.listsVersion = 0;
}

Status World::saveSnapshot(std::vector<uint8_t>* out) const {
  snapshot::BinaryWriter ar;
  ar.bytes.resize(8);
  std::memcpy(ar.bytes.data(), kMagic, 8);
  uint32_t version = kSnapshotVersion;
  ar("version", version);
  visit(ar, *impl_);
  *out = std::move(ar.bytes);
  return Status::Ok();
}

Status World::loadSnapshot(const uint8_t* data, size_t size) {
  if (!data || size < 12 || std::memcmp(data, kMagic, 8) != 0) return badSnapshot("not a Wisp binary snapshot");
  snapshot::BinaryReader ar(data + 8, size - 8);
  uint32_t version = 0;
  ar("version", version);
  if (version != kSnapshotVersion) return badSnapshot("version " + std::to_string(version) + " (this build reads " + std::to_string(kSnapshotVersion) + ")");
  Impl loaded;
  visit(ar, loaded);
  if (!ar.ok()) return badSnapshot(ar.error());
  if (!ar.atEnd()) return badSnapshot("trailing bytes after the state");
  WISP_TRY(checkSnapshot(loaded));
  adopt(*impl_, std::move(loaded));
  return Status::Ok();
}

Status World::saveSnapshotJson(std::string* out) const {
  snapshot::JsonWriter ar;
  ar.root([&] {
    ar.label("format", "wisp-snapshot");
    uint32_t version = kSnapshotVersion;
    ar("version", version);
    ar.object("state", [&] { visit(ar, *impl_); });
  });
  *out = std::move(ar.text);
  return Status::Ok();
}

Status World::loadSnapshotJson(const std::string& json) {
  snapshot::JsonValue root;
  std::string error;
  if (!snapshot::parseJson(json, &root, &error)) return badSnapshot("invalid JSON: " + error);
  auto fmt = root.members.find("format");
  if (root.kind != snapshot::JsonValue::Object || fmt == root.members.end() || fmt->second.text != "wisp-snapshot")
    return badSnapshot("not a Wisp JSON snapshot (no \"format\": \"wisp-snapshot\")");
  snapshot::JsonReader ar(root);
  uint32_t version = 0;
  ar("version", version);
  if (version != kSnapshotVersion) return badSnapshot("version " + std::to_string(version) + " (this build reads " + std::to_string(kSnapshotVersion) + ")");
  Impl loaded;
  ar.object("state", [&] { visit(ar, loaded); });
  if (!ar.ok()) return badSnapshot(ar.error());
  WISP_TRY(checkSnapshot(loaded));
  adopt(*impl_, std::move(loaded));
  return Status::Ok();
}

}  // namespace wisp
