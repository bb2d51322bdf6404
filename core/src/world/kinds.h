// The kind table: one row per object kind (rope, cloth, chain) with everything world code needs
// to treat the kinds alike: its code (ObjectKind, shared with the bindings and JavaScript), its
// name, its id type, its snapshot field names, its place in the stats and id lists, and the
// functions that differ by kind (step, reset to rest, debug check, snapshot check, constraint
// count). World code iterates the kinds (World::Impl::forEachKind) instead of repeating itself
// per kind; adding a kind is one row here, its line in forEachKindRow and its SlotStore in World::Impl
// (docs/architecture.md).
#pragma once

#include <string>
#include <vector>

#include "wisp/world.h"

namespace wisp {

struct RopeState;
struct ClothState;
struct ChainState;
struct StepContext;
struct ChainGroup;  // solver/chain_lanes.h

template <class State> struct KindRow;

// The state type of an id type.
template <class Id> struct StateOf;
template <> struct StateOf<RopeId> { using type = RopeState; };
template <> struct StateOf<ClothId> { using type = ClothState; };
template <> struct StateOf<ChainId> { using type = ChainState; };
template <class Id> using KindOfId = KindRow<typename StateOf<Id>::type>;

// The functions a row declares (defined next to what they use):
//   step(o, ctx, threads)       the object's share of the frame, then its end-of-frame checks
//                               (broken, speed cap, fastest speed for sleep)   world_kinds.cpp
//   resetToRest(w, o)           the object as created, at rest, on its anchors world_kinds.cpp
//   constraints(o)              for WorldStats::constraints                    world_kinds.cpp
//   check(w, index, o, n)       the first debug-check problem, or ""           world_kinds.cpp
//   checkLoaded(o, anchors)     a loaded snapshot's arrays are consistent      world_snapshot.cpp
#define WISP_KIND_FUNCTIONS(State)                                                              \
  static void step(State& o, const StepContext& ctx, int threads);                              \
  static void resetToRest(World::Impl& w, State& o);                                            \
  static int constraints(const State& o);                                                       \
  static std::string check(const World::Impl& w, int index, const State& o, int colliders);     \
  static Status checkLoaded(State& o, size_t anchors);

// Each row: State and Id; statsCount and ids, its place in WorldStats and WorldObjects (the
// base); kind, its code; name, for messages; field and freeField, its snapshot fields; whether
// it is anchorable (owns anchors for Def::pinned, carried onto anchors that jump), splitsBig (past
// kBigObject particles solved alone in parallel chunks) and capsSpeed (Params::maxSpeed).
template <class S, class I, int WorldStats::*Count, std::vector<I> WorldObjects::*Ids>
struct KindRowBase {
  using State = S;
  using Id = I;
  static constexpr int WorldStats::*statsCount = Count;
  static constexpr std::vector<I> WorldObjects::*ids = Ids;
};

template <> struct KindRow<RopeState> : KindRowBase<RopeState, RopeId, &WorldStats::ropes, &WorldObjects::ropes> {
  static constexpr ObjectKind kind = ObjectKind::Rope;
  static constexpr const char *name = "rope", *field = "ropes", *freeField = "freeRopes";
  static constexpr bool anchorable = true, splitsBig = true, capsSpeed = true;
  WISP_KIND_FUNCTIONS(RopeState)
  // step() for up to wide::kWidth ropes solved together in SIMD lanes (solver/rope_lanes.h)
  static void stepGroup(RopeState* const* ropes, int count, const StepContext& ctx);
};
template <> struct KindRow<ClothState> : KindRowBase<ClothState, ClothId, &WorldStats::cloths, &WorldObjects::cloths> {
  static constexpr ObjectKind kind = ObjectKind::Cloth;
  static constexpr const char *name = "cloth", *field = "cloths", *freeField = "freeCloths";
  static constexpr bool anchorable = true, splitsBig = true, capsSpeed = true;
  WISP_KIND_FUNCTIONS(ClothState)
};
// A chain rides its root (setChainRoot), not anchors, and is solved root to tip in one job.
template <> struct KindRow<ChainState> : KindRowBase<ChainState, ChainId, &WorldStats::chains, &WorldObjects::chains> {
  static constexpr ObjectKind kind = ObjectKind::Chain;
  static constexpr const char *name = "chain", *field = "chains", *freeField = "freeChains";
  static constexpr bool anchorable = false, splitsBig = false, capsSpeed = false;
  WISP_KIND_FUNCTIONS(ChainState)
  // step() for one or two lane groups of chains solved together in SIMD lanes
  // (solver/chain_lanes.h), with their group slots' parameters (World::Impl::chainGroupParams)
  static void stepGroups(ChainGroup* groups, int count, const StepContext& ctx);
};

#undef WISP_KIND_FUNCTIONS

// The table: f(row) for each kind, in the order their slots are saved and their objects stepped.
template <class F>
void forEachKindRow(F&& f) {
  f(KindRow<RopeState>{});
  f(KindRow<ClothState>{});
  f(KindRow<ChainState>{});
}

// An object kind's name, for messages ("rope", "cloth", "chain").
const char* kindName(ObjectKind kind);
template <class Id> const char* kindName(Id) { return KindOfId<Id>::name; }

}  // namespace wisp
