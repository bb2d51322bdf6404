// Binary and JSON snapshots of the whole world: one field list per struct, for every format.
#include "snapshot/fields.h"
#include "memory/budget.h"
#include "world/world_impl.h"

namespace wisp {

// --- snapshots --------------------------------------------------------------------------------
// Field lists of the private state for snapshot/archive.h (the public structs' are in
// snapshot/fields.h): each struct once, for every format and direction.

template <class Ar> void visit(Ar& ar, Activity& a) {
  ar("enabled", a.enabled); ar("sleeping", a.sleeping); ar("stillTime", a.stillTime); ar("phase", a.phase);
  ar("updates", a.updates); ar("boxMin", a.boxMin); ar("boxMax", a.boxMax);
}
template <class Ar> void visit(Ar& ar, Particles& p) {
  ar("px", p.px); ar("py", p.py); ar("pz", p.pz); ar("vx", p.vx); ar("vy", p.vy); ar("vz", p.vz);
  ar("ox", p.ox); ar("oy", p.oy); ar("oz", p.oz); ar("qx", p.qx); ar("qy", p.qy); ar("qz", p.qz);
  ar("invMass", p.invMass); ar("baseInvMass", p.baseInvMass); ar("anchor", p.anchor); ar("pinDistance", p.pinDistance); ar("pinCompliance", p.pinCompliance);
  ar("pinnedList", p.pinnedList); ar("leashList", p.leashList);
  ar("tetherTo", p.tetherTo); ar("tetherLimit", p.tetherLimit); ar("initialPositions", p.initialPositions); ar("out", p.out);
  ar.object("activity", [&] { visit(ar, p.activity); });
  ar("originX", p.origin.x); ar("originY", p.origin.y); ar("originZ", p.origin.z);
}
template <class Ar> void visit(Ar& ar, RopeState& r) {
  visitGeneration(ar, r.generation); ar("alive", r.alive);
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
  visitGeneration(ar, c.generation); ar("alive", c.alive);
  if (!c.alive) return;
  ar("params", c.params);
  ar.object("particles", [&] { visit(ar, static_cast<Particles&>(c)); });
  ar("stretch", c.stretch); ar("shear", c.shear); ar("bends", c.bends); ar("triangles", c.triangles);
  ar("ax", c.ax); ar("ay", c.ay); ar("az", c.az); ar("normals", c.normals);
  ar("adjStart", c.adjStart); ar("adj", c.adj); ar("adjLength", c.adjLength); ar("geodesic", c.geodesic);
  ar("vertexMap", c.vertexMap); ar("ownedAnchors", c.ownedAnchors);
  if constexpr (!snapshot::kHashing<Ar>) ar("stats", c.stats);  // last frame's figures: not state
  ar("closed", c.closed); ar("restVolume", c.restVolume); ar("volumeLambda", c.volumeLambda);
}
template <class Ar> void visit(Ar& ar, ChainState& c) {
  visitGeneration(ar, c.generation); ar("alive", c.alive);
  if (!c.alive) return;
  ar("params", c.params);
  ar.object("particles", [&] { visit(ar, static_cast<Particles&>(c)); });
  ar("localPosition", c.localPosition); ar("localRotation", c.localRotation); ar("childAxis", c.childAxis);
  ar("boneLength", c.boneLength); ar("along", c.along);
  ar("rootFrom", c.rootFrom); ar("rootTo", c.rootTo); ar("spaceFrom", c.spaceFrom); ar("spaceTo", c.spaceTo);
  ar("rootPrev", c.rootPrev); ar("spacePrev", c.spacePrev);
  ar("ownSpace", c.ownSpace); ar("simRotation", c.simRotation); ar("teleports", c.teleports);
  ar("worldRotations", c.worldRotations); ar("localRotations", c.localRotations);
  ar("scale", c.scale); ar("restLocalPosition", c.restLocalPosition); ar("restBoneLength", c.restBoneLength);
  ar("animated", c.animated); ar("animFrom", c.animFrom); ar("animPrev", c.animPrev); ar("animTo", c.animTo);
  ar("weight", c.weight); ar("weightTarget", c.weightTarget); ar("weightRate", c.weightRate);
  ar("warmupPending", c.warmupPending);
  ar("boost", c.boost); ar("boostSeconds", c.boostSeconds); ar("boostLeft", c.boostLeft);
  // the per-joint parameters derive from params: checkSnapshot resolves them again
}
template <class Ar> void visit(Ar& ar, ChainLinksState& L) {
  visitGeneration(ar, L.generation); ar("alive", L.alive);
  if (!L.alive) return;
  ar("params", L.params);
  ar("chainSlot", L.chainSlot); ar("chainGeneration", L.chainGeneration); ar("memberAlive", L.memberAlive);
  ar("allA", L.allA); ar("allJointA", L.allJointA); ar("allB", L.allB); ar("allJointB", L.allJointB);
  ar("allRest", L.allRest); ar("allKind", L.allKind);
  // the live links, lambdas (reset every substep) and the driver's scratch derive from these
}
template <class Ar> void visit(Ar& ar, World::Impl& w) {
  if constexpr (snapshot::kHashing<Ar>) {
    // the thread count is not state: every count gives the same bits
    WorldSettings s = w.settings;
    s.threads = 0;
    ar("settings", s);
  } else {
    ar("settings", w.settings);
  }
  ar("accumulator", w.accumulator); ar("steps", w.steps);
  w.forEachKind([&](auto& objects) {
    using Row = decltype(w.rowOf(objects));
    ar(Row::field, objects.slots); ar(Row::freeField, objects.free);
  });
  ar("anchors", w.anchors.slots); ar("freeAnchors", w.anchors.free);
  ar("colliders", w.colliders.slots); ar("freeColliders", w.colliders.free);
  ar("windZones", w.windZones.slots); ar("freeWindZones", w.windZones.free);
  // A world that never had chain links hashes as it did before links existed (nothing is there
  // to hash); snapshots always hold the list.
  if (!snapshot::kHashing<Ar> || !w.chainLinks.slots.empty()) {
    ar("chainLinks", w.chainLinks.slots); ar("freeChainLinks", w.chainLinks.free);
  }
}

// FNV-1a over what a binary snapshot of the world would hold, streamed (no copy): the hash sees
// every field the snapshots save, through the same field lists, so a new parameter or state
// array cannot be left out of it (snapshot/fields.h, the visits above and in world_impl.h).
uint64_t World::stateHash() const {
  snapshot::HashWriter ar;
  visit(ar, const_cast<World::Impl&>(*impl_));  // the writer only reads
  return ar.hasher.result();
}

namespace {

constexpr char kMagic[8] = {'W', 'I', 'S', 'P', 'S', 'N', 'A', 'P'};
constexpr uint32_t kSnapshotVersion = 10;  // 2: chains; tapered, inside and grouped colliders. 3: maxSpeed, teleport thresholds, frame-time targets. 4: spring pins (pinCompliance). 5: per-object activity (enabled, sleep, update phase). 6: chains' animated pose, physics weight, warm-up. 7: object origins. 8: ClothParams.maxSubsteps, collider scale, chain backstop and boosts. 9: chains' VRM limits and VRM wind, chain links. 10: RopeParams.maxSubsteps

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
                        &p.baseInvMass, &p.tetherLimit, &p.pinDistance, &p.pinCompliance})
    if (!sized(*a, n)) return badSnapshot(std::string(what) + " particle arrays differ in length");
  if (!sized(p.anchor, n) || !sized(p.tetherTo, n) || p.out.size() != 3 * n || p.initialPositions.size() != 3 * n)
    return badSnapshot(std::string(what) + " particle arrays differ in length");
  if (!indicesBelow(p.anchor, anchors, true) || !indicesBelow(p.tetherTo, n, true) || !indicesBelow(p.pinnedList, n) ||
      !indicesBelow(p.leashList, n))
    return badSnapshot(std::string(what) + " has an index out of range");
  for (double o : {p.origin.x, p.origin.y, p.origin.z})
    if (!std::isfinite(o)) return badSnapshot(std::string(what) + " origin is not finite");
  return Status::Ok();
}

}  // namespace

Status KindRow<RopeState>::checkLoaded(RopeState& r, size_t anchors) {
  WISP_TRY(validateRopeParams(r.params));
  WISP_TRY(checkParticles(r, anchors, "rope"));
  const size_t n = r.px.size();
  if (n == 0 || r.rest.size() != n - 1 || r.bendRest.size() != (n > 1 ? n - 2 : 0) || r.restPrefix.size() != n ||
      r.lambda.size() != r.rest.size() + r.bendRest.size() || r.initialRest.size() != r.rest.size())
    return badSnapshot("rope constraint arrays do not match its particles");
  if (!indicesBelow(r.ownedAnchors, anchors)) return badSnapshot("rope owns an anchor out of range");
  return Status::Ok();
}

Status KindRow<ClothState>::checkLoaded(ClothState& c, size_t anchors) {
  WISP_TRY(validateClothParams(c.params));
  WISP_TRY(checkParticles(c, anchors, "cloth"));
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
      !indicesBelow(c.ownedAnchors, anchors))
    return badSnapshot("cloth arrays are inconsistent");
  for (size_t i = 0; i < n; ++i)
    if (c.adjStart[i] < 0 || c.adjStart[i + 1] < c.adjStart[i] || static_cast<size_t>(c.adjStart[i + 1]) > c.adj.size())
      return badSnapshot("cloth edge graph is inconsistent");
  c.buildTriangleLists();  // derived, not stored
  return Status::Ok();
}

Status KindRow<ChainState>::checkLoaded(ChainState& c, size_t anchors) {
  WISP_TRY(validateChainParams(c.params));
  WISP_TRY(checkParticles(c, anchors, "chain"));
  const size_t n = c.px.size();
  if (n < 2 || !sized(c.localPosition, n) || !sized(c.localRotation, n) || !sized(c.childAxis, n) ||
      !sized(c.boneLength, n) || !sized(c.along, n) || !sized(c.simRotation, n) ||
      !sized(c.restLocalPosition, n) || !sized(c.restBoneLength, n) || !(c.scale >= 1e-4f && c.scale <= 1e4f) ||
      c.worldRotations.size() != 4 * n || c.localRotations.size() != 4 * n || !sized(c.animFrom, n) ||
      !sized(c.animPrev, n) || !sized(c.animTo, n))
    return badSnapshot("chain arrays do not match its joints");
  for (const auto* a : {&c.animFrom, &c.animPrev, &c.animTo})
    for (const Quat& q : *a)
      if (!isFinite(q)) return badSnapshot("chain animated pose is not finite");
  if (!(c.weight >= 0 && c.weight <= 1 && c.weightTarget >= 0 && c.weightTarget <= 1 && c.weightRate >= 0 &&
        std::isfinite(c.weightRate)))
    return badSnapshot("chain physics weight is out of range");
  if (!validateChainBoost(c.boost).ok() || !(c.boostSeconds >= 0 && c.boostSeconds <= 1e4f) ||
      !(c.boostLeft >= 0 && c.boostLeft <= c.boostSeconds))
    return badSnapshot("chain boost is out of range");
  c.animEnd = c.animTo;  // scratch, rewritten by the next step
  c.animNow = c.animTo;
  // the solvers take the rest rotations, the animated pose, the roots and the bones' axes as unit (as the
  // builder and setChainPose leave them): solveBones turns a bone's axis without normalising it
  auto unit = [](float squared) { return std::fabs(squared - 1.0f) <= 1e-4f; };
  auto unitQuat = [&](const Quat& q) { return unit(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w); };
  for (size_t j = 0; j < n; ++j) {
    if (!isFinite(c.localPosition[j]) || !isFinite(c.localRotation[j]) || !isFinite(c.childAxis[j]) ||
        !std::isfinite(c.boneLength[j]) || !(c.along[j] >= 0 && c.along[j] <= 1))
      return badSnapshot("chain rest pose is not finite");
    if (!unitQuat(c.localRotation[j]) || !unitQuat(c.animFrom[j]) || !unitQuat(c.animPrev[j]) || !unitQuat(c.animTo[j]))
      return badSnapshot("chain joint " + std::to_string(j) + ": a rest or animated rotation is not a unit quaternion");
    if (j + 1 < n && !unit(lengthSq(c.childAxis[j])))  // the last joint has no bone
      return badSnapshot("chain bone " + std::to_string(j) + ": its axis (childAxis) is not a unit vector");
  }
  for (const Transform* t : {&c.rootFrom, &c.rootTo, &c.spaceFrom, &c.spaceTo, &c.rootPrev, &c.spacePrev}) {
    if (!isFinite(t->position) || !isFinite(t->rotation)) return badSnapshot("chain root pose is not finite");
    if (!unitQuat(t->rotation)) return badSnapshot("chain root pose: its rotation is not a unit quaternion");
  }
  WISP_TRY(resolveChainParams(c, c.params));
  return Status::Ok();
}

static Status checkSnapshot(World::Impl& w) {
  WISP_TRY(World::validate(w.settings));
  const size_t na = w.anchors.size();
  Status objects = Status::Ok();
  w.forEachKind([&](auto& store) {
    for (auto& o : store)
      if (objects.ok() && o.alive) objects = w.rowOf(store).checkLoaded(o, na);
  });
  WISP_TRY(objects);
  for (const AnchorSlot& a : w.anchors) {
    if (!a.alive) continue;
    if (!isFinite(a.from) || !isFinite(a.to)) return badSnapshot("an anchor position is not finite");
    if (!a.owned()) continue;
    size_t owners = 0;  // 0 for a kind that owns no anchors, or none at all
    w.withKind(a.owner(), [&](const auto& objects) {
      if (decltype(w.rowOf(objects))::anchorable) owners = objects.size();
    });
    if (a.ownerIndex < 0 || static_cast<size_t>(a.ownerIndex) >= owners) return badSnapshot("an anchor's owner is out of range");
  }
  for (const ColliderSlot& c : w.colliders) {
    if (!c.alive) continue;
    WISP_TRY(validateColliderDef(c.def));
    if (!(c.scale >= 1e-4f && c.scale <= 1e4f)) return badSnapshot("a collider scale is out of range");
  }
  for (const WindZoneSlot& z : w.windZones)
    if (z.alive) WISP_TRY(validateWindZone(z.def));
  if (!w.windZones.freeListInRange() || !w.ropes.freeListInRange() || !w.cloths.freeListInRange() ||
      !w.chains.freeListInRange() || !w.anchors.freeListInRange() || !w.colliders.freeListInRange())
    return badSnapshot("a free list is out of range");
  if (!std::isfinite(w.accumulator)) return badSnapshot("the time accumulator is not finite");
  if (!w.chainLinks.freeListInRange()) return badSnapshot("a free list is out of range");
  std::vector<uint8_t> linked(w.chains.size(), 0);
  for (const ChainLinksState& L : w.chainLinks) {
    if (!L.alive) continue;
    WISP_TRY(validateChainLinksParams(L.params));
    const size_t m = L.chainSlot.size(), n = L.allA.size();
    if (m < 2 || !sized(L.chainGeneration, m) || !sized(L.memberAlive, m) || !sized(L.allJointA, n) ||
        !sized(L.allB, n) || !sized(L.allJointB, n) || !sized(L.allRest, n) || !sized(L.allKind, n) ||
        !indicesBelow(L.allA, m) || !indicesBelow(L.allB, m))
      return badSnapshot("chain links arrays are inconsistent");
    for (size_t k = 0; k < m; ++k) {
      if (!L.memberAlive[k]) continue;
      const uint32_t s = L.chainSlot[k];
      if (s >= w.chains.size() || !w.chains[s].alive || (w.chains[s].generation & 0xFFFFFu) != L.chainGeneration[k] || linked[s])
        return badSnapshot("chain links refer to a chain that is not there (or is in two sets)");
      linked[s] = 1;
    }
    for (size_t k = 0; k < n; ++k) {
      for (auto [c, j] : {std::pair{L.allA[k], L.allJointA[k]}, std::pair{L.allB[k], L.allJointB[k]}})
        if (L.memberAlive[c] && (j < 0 || j >= w.chains[L.chainSlot[c]].joints()))
          return badSnapshot("a chain link's joint is out of range");
      if (!(L.allRest[k] >= 0 && std::isfinite(L.allRest[k]))) return badSnapshot("a chain link's rest length is not finite");
    }
  }
  return Status::Ok();
}

// Takes the loaded state: ids keep their slots and serials but carry this world's tag.
static void adopt(World::Impl& w, World::Impl&& loaded) {
  const uint32_t tag = w.tag;
  const uint64_t layout = w.layoutVersion + 1;
  w = std::move(loaded);
  w.tag = tag;
  w.forEachKind([&](auto& objects) {
    for (auto& o : objects) World::Impl::sizeScratch(o);
    objects.restamp(tag);
  });
  w.anchors.restamp(tag);
  w.colliders.restamp(tag);
  w.windZones.restamp(tag);
  w.chainLinks.restamp(tag);
  w.relinkAfterLoad();
  w.zoneFields.reserve(w.windZones.size());
  w.anchorPaths.resize(w.anchors.size());
  w.anchorJumped.resize(w.anchors.size());
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
  // the restored state is about as large as its bytes; the old one stays until it is adopted
  WISP_TRY(memory::reserve(2 * static_cast<uint64_t>(size), "this snapshot"));
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
  // the parsed tree takes several times the text (a node per number)
  WISP_TRY(memory::reserve(16 * static_cast<uint64_t>(json.size()), "this JSON snapshot"));
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
