// The world's private state, shared by its source files: object, anchor, collider and wind-zone
// slots with generation-checked handles, per-step scratch, and the frame driver's declarations.
// world.cpp: creation, time, events, inspection and the frame itself; world_objects.cpp: ropes,
// cloth, chains; world_scene.cpp: anchors, colliders, wind zones; world_snapshot.cpp: snapshots.
#pragma once

#include "wisp/world.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "builders/chain_builder.h"
#include "builders/cloth_builder.h"
#include "chain/chain_links_state.h"
#include "chain/chain_state.h"
#include "builders/rope_builder.h"
#include "checks/invariants.h"
#include "cloth/cloth_state.h"
#include "hash.h"
#include "jobs/job_pool.h"
#include "math/vec3.h"
#include "math/wide.h"
#include "rope/rope_state.h"
#include "solver/chain_lane_params.h"
#include "solver/step_context.h"
#include "snapshot/archive.h"
#include "validate.h"
#include "world/kinds.h"
#include "world/slot_store.h"

namespace wisp {

// Objects with more particles than this are solved one at a time with each stage split into
// parallel chunks; smaller objects are spread whole over the threads.
inline constexpr int kBigObject = 4096;
// Below this many particles a step is cheaper than waking worker threads: run it serially.
// (Only where work runs changes; the arithmetic, and so the result, is the same.)
inline constexpr int kMinParallelParticles = 2048;

// A slot's generation in the field lists. The state hash takes only the serial: the tag says which
// world issued the id, not what state it is in (two worlds built alike hash alike).
template <class Ar>
void visitGeneration(Ar& ar, uint32_t& g) {
  if constexpr (snapshot::kHashing<Ar>) {
    uint32_t serial = g & 0xFFFFFu;
    ar("generation", serial);
  } else {
    ar("generation", g);
  }
}

struct AnchorSlot {
  uint32_t generation = 0;
  bool alive = false;
  // m: where it was at the end of the last fixed step, the target given before the last step()
  // call (for the frame's end time then), and the target for the end of the next step() call.
  Vec3 from, to;
  Vec3 prev;
  bool jump = false;   // teleportAnchor since the last step(): pinned objects are carried there
  // The object that made it for its Def::pinned and removes it with itself: 0 = none, else
  // 1 + its ObjectKind (the snapshot's encoding: 1 rope, 2 cloth).
  uint8_t ownerKind = 0;
  int32_t ownerIndex = -1;
  bool owned() const { return ownerKind != 0; }
  ObjectKind owner() const { return static_cast<ObjectKind>(ownerKind - 1); }
  void setOwner(ObjectKind kind, int32_t index) {
    ownerKind = static_cast<uint8_t>(static_cast<int>(kind) + 1);
    ownerIndex = index;
  }
  void clearOwner() {
    ownerKind = 0;
    ownerIndex = -1;
  }
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
  Transform from;      // pose at the end of the last fixed step
  Transform prev;      // the target given before the last step() call (its end time)
  // The uniform scale of the pose (setColliderTransform): def's sizes are the unscaled ones, the
  // solver sees them times this (pathOf).
  float scale = 1;
};

// Snapshot field lists (see snapshot/archive.h); here because argument-dependent lookup finds
// them only in the namespace of their types.
template <class Ar> void visit(Ar& ar, AnchorSlot& a) {
  visitGeneration(ar, a.generation); ar("alive", a.alive); ar("from", a.from); ar("to", a.to);
  ar("ownerKind", a.ownerKind); ar("ownerIndex", a.ownerIndex); ar("prev", a.prev); ar("jump", a.jump);
}
template <class Ar> void visit(Ar& ar, WindZoneSlot& z) {
  visitGeneration(ar, z.generation); ar("alive", z.alive); ar("def", z.def);
}
template <class Ar> void visit(Ar& ar, ColliderSlot& c) {
  visitGeneration(ar, c.generation); ar("alive", c.alive); ar("def", c.def); ar("from", c.from); ar("prev", c.prev);
  ar("scale", c.scale);
}

inline Status badHandle(const char* kind, Handle h) {
  return Status::Error(StatusCode::InvalidHandle,
                       std::string(kind) + " id {" + std::to_string(h.index) + ", " + std::to_string(h.generation) +
                           "} is not a live object of this world (removed, never created, or from another world)");
}


inline Status badIndex(const char* what, int index, int count) {
  return Status::Error(StatusCode::OutOfRange, std::string(what) + " " + std::to_string(index) +
                                                   " is out of range [0, " + std::to_string(count - 1) + "]");
}

struct World::Impl {
  WorldSettings settings;
  uint32_t tag = 1;
  SlotStore<RopeState> ropes;
  SlotStore<ClothState> cloths;
  SlotStore<ChainState> chains;
  SlotStore<AnchorSlot> anchors;
  SlotStore<ColliderSlot> colliders;
  SlotStore<WindZoneSlot> windZones;
  SlotStore<ChainLinksState> chainLinks;  // world_chain_links.cpp

  // per-step scratch, grown only when objects are added
  std::vector<AnchorPath> anchorPaths;
  std::vector<uint8_t> anchorJumped;  // per anchor slot: its move this frame is a teleport
  std::vector<ColliderPath> colliderPaths;
  std::vector<ColliderPose> colliderPoses;  // StepContext::colliderPoses (runFrame)
  std::vector<WindZoneField> zoneFields;
  // objects solved whole, one per work item; and big ones, solved one at a time in chunks
  struct ObjectRef {
    ObjectKind kind;
    int index;
  };
  std::vector<ObjectRef> smallObjects, bigObjects;
  // Chains and ropes solved together in SIMD lanes this frame (solver/chain_lanes.h,
  // solver/rope_lanes.h), by groupChains and groupRopes: object slots, wide::kWidth per group of
  // equal size (joints, segments), filled in slot order; and per slot whether it is in one (then
  // its own work item skips it).
  struct LaneGroup {
    int member[wide::kWidth];
    int count;
    int size;
  };
  std::vector<LaneGroup> chainGroups, ropeGroups;
  std::vector<uint8_t> chainInGroup, ropeInGroup;
  // the chain groups' work items: one group, or two solved side by side (second >= 0)
  struct GroupPair {
    int first, second;
  };
  std::vector<GroupPair> chainItems;
  // per chain group slot, its chains' parameters in lane order, kept while the slot holds the
  // same chains with the same values (solver/chain_lane_params.h); never saved
  std::vector<LaneParams> chainGroupParams;
  std::vector<int> linkSets;  // live chain links sets: each one work item, with its chains
  int totalParticles = 0;
  uint64_t listsVersion = 0;

  std::vector<WorldEvent> events;  // of the last step() call

  double accumulator = 0;
  uint64_t steps = 0;
  uint64_t layoutVersion = 1;

  // f(store) for each kind's SlotStore, in the kind table's order (kinds.h).
  template <class F>
  void forEachKind(F&& f) {
    forEachKindRow([&](auto row) { f(storeOf<typename decltype(row)::State>()); });
  }
  template <class F>
  void forEachKind(F&& f) const {
    forEachKindRow([&](auto row) { f(storeOf<typename decltype(row)::State>()); });
  }
  // f(store) for the store of kind `kind`.
  template <class F>
  void withKind(ObjectKind kind, F&& f) {
    forEachKind([&](auto& store) {
      if (rowOf(store).kind == kind) f(store);
    });
  }
  template <class F>
  void withKind(ObjectKind kind, F&& f) const {
    forEachKind([&](const auto& store) {
      if (rowOf(store).kind == kind) f(store);
    });
  }
  template <class State>
  static KindRow<State> rowOf(const SlotStore<State>&) { return {}; }
  // The slots of a kind (its SlotStore member above).
  template <class State>
  SlotStore<State>& storeOf() {
    if constexpr (std::is_same_v<State, RopeState>) return ropes;
    else if constexpr (std::is_same_v<State, ClothState>) return cloths;
    else {
      static_assert(std::is_same_v<State, ChainState>, "a new kind needs its SlotStore here");
      return chains;
    }
  }
  template <class State>
  const SlotStore<State>& storeOf() const { return const_cast<Impl*>(this)->storeOf<State>(); }

  template <class Id>
  auto* object(Id id) { return storeOf<typename StateOf<Id>::type>().get(id); }
  template <class Id>
  const auto* object(Id id) const { return storeOf<typename StateOf<Id>::type>().get(id); }
  RopeState* rope(RopeId id) { return object(id); }
  const RopeState* rope(RopeId id) const { return object(id); }
  ClothState* cloth(ClothId id) { return object(id); }
  const ClothState* cloth(ClothId id) const { return object(id); }
  ChainState* chain(ChainId id) { return object(id); }
  const ChainState* chain(ChainId id) const { return object(id); }

  // f(object) for every live object of every kind.
  template <class F>
  void forEachObject(F&& f) {
    forEachKind([&](auto& store) {
      for (auto& o : store)
        if (o.alive) f(o);
    });
  }
  bool anchorLive(AnchorId id) const { return anchors.live(id); }
  bool zoneLive(WindZoneId id) const { return windZones.live(id); }
  AirField air() {
    zoneFields.clear();
    for (const WindZoneSlot& z : windZones)
      if (z.alive) zoneFields.push_back(makeWindZoneField(z.def));
    return {makeWindField(settings.wind), zoneFields.data(), static_cast<int>(zoneFields.size())};
  }
  bool colliderLive(ColliderId id) const { return colliders.live(id); }

  // An anchor at p; owned by object `owner` of `kind` when owner >= 0.
  uint32_t newAnchorSlot(Vec3 p, ObjectKind kind, int32_t owner) {
    bool grown;
    uint32_t slot = anchors.open(tag, &grown);
    if (grown) {
      anchorPaths.resize(anchors.size());
      anchorJumped.resize(anchors.size());
    }
    AnchorSlot& a = anchors[slot];
    a.from = a.to = a.prev = p;
    a.jump = false;
    if (owner >= 0) a.setOwner(kind, owner);
    else a.clearOwner();
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
          o.pinCompliance[i] = 0;
          o.invMass[i] = o.baseInvMass[i];
          changed = true;
        }
      if (changed) {
        o.updatePins();
        wakeLater(o, "an anchor it was pinned to was removed");
      }
    });
    anchors[slot].clearOwner();
    anchors.close(slot);
  }

  template <class Id, class State>
  Id store(SlotStore<State>& slots, State&& state) {
    sizeScratch(state);
    bool grown;
    uint32_t slot = slots.open(tag, &grown);
    uint32_t gen = slots[slot].generation;
    slots[slot] = std::move(state);
    slots[slot].generation = gen;
    slots[slot].alive = true;
    slots[slot].activity.phase = slot;  // objects with updateEvery > 1 take turns step by step
    ++layoutVersion;
    return slots.template id<Id>(slot);
  }
  RopeId storeRope(RopeState&& state) { return store<RopeId>(ropes, std::move(state)); }

  // The solver's per-object scratch (air samples; a rope's direct-solve rows), sized by the call
  // that made or reshaped the object, where running out of memory is an error, so that a step
  // never allocates (the step re-checks the sizes and finds them right).
  static void sizeScratch(RopeState& r) { r.sizeAirSamples(); r.sizeDirectScratch(); }
  static void sizeScratch(Particles& p) { p.sizeAirSamples(); }

  // Anchors for Def::pinned, owned by the object in `slot`.
  template <class State>
  void pinOwned(State& o, const std::vector<int>& pinned, uint32_t slot) {
    for (int p : pinned) {
      if (o.anchor[p] >= 0) continue;  // listed twice
      uint32_t a = newAnchorSlot(o.worldPosition(p), KindRow<State>::kind, static_cast<int32_t>(slot));
      o.anchor[p] = static_cast<int32_t>(a);
      o.invMass[p] = 0;
      o.ownedAnchors.push_back(a);
    }
    o.updatePins();
  }

  // Frees an object's slot and the anchors it owns; keeps the generation so the id stays stale.
  template <class State>
  void release(SlotStore<State>& slots, uint32_t index) {
    std::vector<uint32_t> owned = std::move(slots[index].ownedAnchors);
    uint32_t gen = slots[index].generation;
    slots[index] = State();
    slots[index].generation = gen;
    for (uint32_t a : owned) freeAnchorSlot(a);
    slots.close(index);
    ++layoutVersion;
  }

  void rebuildLists() {
    if (listsVersion == layoutVersion) return;
    smallObjects.clear();
    bigObjects.clear();
    linkSets.clear();
    totalParticles = 0;
    for (size_t i = 0; i < chainLinks.size(); ++i)
      if (chainLinks[i].alive) linkSets.push_back(static_cast<int>(i));
    forEachKind([&](auto& store) {
      using Row = decltype(rowOf(store));
      for (size_t i = 0; i < store.size(); ++i) {
        if (!store[i].alive) continue;
        const int count = store[i].count();
        totalParticles += count;
        if (isLinked(store[i])) continue;  // run by its links set
        (count > kBigObject && Row::splitsBig ? bigObjects : smallObjects).push_back({Row::kind, static_cast<int>(i)});
      }
    });
    colliderPaths.reserve(colliders.size());
    listsVersion = layoutVersion;
  }

  // Threads a step of `particles` particles runs on: 1 below kMinParallelParticles, else the
  // setting, at most the machine's threads. runFrame uses it and stats() reports it.
  int stepThreads(int particles) const {
    return particles >= kMinParallelParticles ? jobs::regionSize(jobs::resolveThreads(settings.threads)) : 1;
  }

  // Pinned particles on their anchors, at rest.
  template <class State>
  void putPinsOnAnchors(State& o) {
    for (int i : o.pinnedList) {
      Vec3 a = toLocal(anchors[o.anchor[i]].to, o.origin);
      o.px[i] = o.ox[i] = a.x;
      o.py[i] = o.oy[i] = a.y;
      o.pz[i] = o.oz[i] = a.z;
    }
    o.writeOutput(0, o.count());
  }
  // The object as created, at rest, with its pinned particles on their anchors (a chain: its rest
  // pose on the current root). The reset API and containment both use it.
  template <class State>
  void resetToRest(State& o) { KindRow<State>::resetToRest(*this, o); }
  // RopeParams/ClothParams::maxSpeed (0 = none): particles faster than it are slowed to it, at
  // the end of a frame. Returns the fastest speed found when it clipped, else 0. Squared speeds
  // are compared, so nothing changes (not a bit) while every particle is under the cap.
  static float capSpeed(Particles& o, float maxSpeed) {
    if (!(maxSpeed > 0.0f)) return 0.0f;
    const float max2 = maxSpeed * maxSpeed;
    float fastest2 = 0;
    for (int i = 0; i < o.count(); ++i) {
      const float v2 = o.vx[i] * o.vx[i] + o.vy[i] * o.vy[i] + o.vz[i] * o.vz[i];
      if (!(v2 > max2)) continue;
      fastest2 = std::max(fastest2, v2);
      const float s = maxSpeed / std::sqrt(v2);
      o.vx[i] *= s; o.vy[i] *= s; o.vz[i] *= s;
    }
    return std::sqrt(fastest2);
  }
  // m/s: the fastest particle (for sleep: RopeParams::sleepSpeed).
  static float fastestSpeed(const Particles& o) {
    float fastest2 = 0;
    for (int i = 0; i < o.count(); ++i)
      fastest2 = std::max(fastest2, o.vx[i] * o.vx[i] + o.vy[i] * o.vy[i] + o.vz[i] * o.vz[i]);
    return std::sqrt(fastest2);
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

  // Objects with an origin of their own (particles/origin.h, world_origin.cpp): `localize` fills
  // o.local with this frame's anchor paths (of its pins), collider paths and wind zones in its
  // frame (serially, before the objects run); `frameFor` is the step context the object runs
  // with; anchorsOf/collidersOf what its checks and teleports read.
  void localize(Particles& o);
  // Rebases an object whose particles drifted far from its origin (or that came back near the
  // world's origin) onto a new origin; serial, before localize.
  static void rebase(RopeState& o);
  static void rebase(ClothState& o);
  static void rebase(ChainState& o);
  static StepContext frameFor(const Particles& o, const StepContext& ctx) {
    if (o.origin.zero()) return ctx;
    StepContext c = ctx;
    c.anchors = o.local.anchors.data();
    c.colliders = o.local.colliders.data();
    c.wind.zones = o.local.zones.data();
    c.wind.global.offset = Vec3{static_cast<float>(o.origin.x), static_cast<float>(o.origin.y), static_cast<float>(o.origin.z)};
    return c;
  }
  const AnchorPath* anchorsOf(const Particles& o) const { return o.origin.zero() ? anchorPaths.data() : o.local.anchors.data(); }
  const ColliderPath* collidersOf(const Particles& o) const {
    return o.origin.zero() ? colliderPaths.data() : o.local.colliders.data();
  }

  // Chain links (world_chain_links.cpp): whether an object is run by a links set; the frame of
  // one set (its chains together, or alone those that cannot run with the others this frame);
  // the set's derived state again after it or its chains changed; a removed chain's links dropped.
  static bool isLinked(const ChainState& c) { return c.linkSet >= 0; }
  template <class State>
  static bool isLinked(const State&) { return false; }
  void stepChainLinks(ChainLinksState& L, const StepContext& ctx);
  void refreshChainLinks(uint32_t slot);
  void dropLinkedChain(ChainState& c);
  void relinkAfterLoad();

  // Containment (world.cpp): an object whose state went non-finite goes back to its rest pose,
  // its pinned particles on their anchors, at rest; an event says so. Other objects are not
  // touched.
  void contain();
  // WorldSettings::debugChecks: the first problem of each object, as an event (world.cpp).
  void debugCheck();
  // A SpeedClamped event for each object whose maxSpeed clipped in the last frame (world.cpp).
  void reportClampedSpeeds();
  // Anchor and collider paths for a frame whose last fixed step ends at fraction `alpha` of the
  // way from the previous targets to the current ones (world.cpp).
  // Without a fixed step (`stepping` false) anchors stay where they are, teleported ones at their target.
  void preparePaths(bool stepping, float alpha);
  // Teleports (world_teleport.cpp): objects pinned to anchors that jumped past their thresholds,
  // or were teleported, are carried rigidly onto them; those anchors' paths stop interpolating.
  // With `detect` false only teleportAnchor's jumps are resolved (a call that runs no fixed step).
  void resolveTeleports(bool detect);
  // One frame of fixedSteps fixed steps for every object (world.cpp).
  void runFrame(int fixedSteps, float alpha);
  // Fills chainGroups and chainInGroup for a frame of fixedSteps (world_lane_groups.cpp): the
  // chains that solvesInLanes and run this whole frame in the world's own frame. The groups
  // depend only on the chains (slot order, joint counts), never on the thread count. Then
  // chainItems: the groups as work items for `threads` threads, Wisp-rule groups of one joint
  // count in pairs when there are enough items for every thread (a chain's bits are the same
  // either way).
  void groupChains(int fixedSteps, int threads);
  // The same for ropes (ropeGroups, ropeInGroup).
  void groupRopes(int fixedSteps);
  void poseCollidersAtSubsteps(StepContext& ctx);  // world.cpp

  // Activity (world_activity.cpp). Before a frame's objects run: wakes sleepers that were
  // disturbed (their anchors, root or a collider that may reach them moved) and works out each
  // object's share of the frame (none when disabled, asleep or not due under updateEvery).
  void planActivity(int fixedSteps);
  // The frame as one object with `updateEvery` sees it (ctx itself when it runs every step).
  StepContext objectContext(const StepContext& ctx, const Activity& a, int updateEvery) const;
  // After they ran: counts updates, sends still objects to sleep.
  void settleActivity();
  // Wakes every object a collider may touch (added, removed, enabled, disabled); or all of them.
  void wakeNear(const ColliderPath& c, const char* why);
  void wakeAll(const char* why);
};

}  // namespace wisp
