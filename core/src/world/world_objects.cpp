// Ropes, cloth and chains: creation, parameters, per-particle operations, cuts and resets.
#include "world/world_impl.h"

#include "memory/budget.h"
#include "chain/boost.h"
#include "particles/rigid_motion.h"
#include "snapshot/fields.h"

namespace wisp {

namespace {
// Whether two parameter sets differ in any field (fields.h lists them): setting the same values
// again wakes nothing, so a game may call set() with unchanged parameters every frame.
template <class Params>
bool changed(const Params& a, const Params& b) {
  snapshot::BinaryWriter x, y;
  visit(x, const_cast<Params&>(a));
  visit(y, const_cast<Params&>(b));
  return x.bytes != y.bytes;
}
// --- building relative to an origin (particles/origin.h) ---------------------------------------

// Where an object is built, and the same definition with its positions relative to `o` (double
// subtraction, rounded once: built 10 km out on a multiple of the grid, the object holds the very
// floats of the same object built at the world's origin).
Vec3 buildPoint(const RopeDef& d) { return d.points.empty() ? d.start : d.points.front(); }
Vec3 buildPoint(const ClothDef& d) { return d.indices.empty() || d.positions.empty() ? d.grid.transform.position : d.positions.front(); }
Vec3 buildPoint(const ChainDef& d) { return d.points.empty() ? d.root.position : d.points.front(); }

RopeDef relativeTo(const RopeDef& d, const Origin& o) {
  RopeDef r = d;
  for (Vec3& p : r.points) p = toLocal(p, o);
  r.start = toLocal(r.start, o);
  r.end = toLocal(r.end, o);
  return r;
}
ClothDef relativeTo(const ClothDef& d, const Origin& o) {
  ClothDef c = d;
  for (Vec3& p : c.positions) p = toLocal(p, o);
  c.grid.transform.position = toLocal(c.grid.transform.position, o);
  return c;
}
ChainDef relativeTo(const ChainDef& d, const Origin& o) {
  ChainDef c = d;
  for (Vec3& p : c.points) p = toLocal(p, o);
  c.root.position = toLocal(c.root.position, o);
  return c;
}

template <class Def, class State, class Build>
Status buildLocal(const Def& def, State* state, Build build) {
  const Origin origin = originFor(buildPoint(def));
  if (origin.zero()) return build(def, state);  // near the world's origin: as it always was
  WISP_TRY(build(relativeTo(def, origin), state));
  state->origin = origin;
  state->writeOutput(0, state->count());
  return Status::Ok();
}

}  // namespace

// --- ropes --------------------------------------------------------------------------------

Status World::addRope(const RopeDef& def, RopeId* out) {
  WISP_TRY(memory::reserve(memory::ropeBytes(def), "this rope"));
  RopeState state;
  WISP_TRY(buildLocal(def, &state, buildRope));
  Impl& w = *impl_;
  RopeId id = w.storeRope(std::move(state));
  w.pinOwned(w.ropes[id.index], def.pinned, id.index);
  *out = id;
  return Status::Ok();
}

Status World::removeRope(RopeId id) {
  Impl& w = *impl_;
  if (!w.rope(id)) return badHandle("rope", id);
  w.release(w.ropes, id.index);
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
  if (changed(r->params, params)) wakeLater(*r, "its parameters were set");
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
  WISP_TRY(memory::reserve(static_cast<uint64_t>(head->count() - segment) * memory::kRopeBytesPerParticle, "the cut"));
  const size_t s = static_cast<size_t>(segment);
  const size_t n = static_cast<size_t>(head->count());
  const size_t bends = static_cast<size_t>(head->bends());

  RopeState tail;
  tail.params = head->params;
  tail.origin = head->origin;
  for (auto pair : {std::pair{&head->px, &tail.px}, {&head->py, &tail.py}, {&head->pz, &tail.pz},
                    {&head->vx, &tail.vx}, {&head->vy, &tail.vy}, {&head->vz, &tail.vz},
                    {&head->ox, &tail.ox}, {&head->oy, &tail.oy}, {&head->oz, &tail.oz},
                    {&head->qx, &tail.qx}, {&head->qy, &tail.qy}, {&head->qz, &tail.qz},
                    {&head->restPrefix, &tail.restPrefix}, {&head->tetherLimit, &tail.tetherLimit},
                    {&head->pinDistance, &tail.pinDistance}, {&head->pinCompliance, &tail.pinCompliance},
                    {&head->invMass, &tail.invMass}, {&head->baseInvMass, &tail.baseInvMass}})
    moveTail(*pair.first, *pair.second, s + 1);
  moveTail(head->anchor, tail.anchor, s + 1);
  moveTail(head->tetherTo, tail.tetherTo, s + 1);
  head->updatePins();
  tail.updatePins();
  wakeLater(*head, "it was cut");
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
  World::Impl::sizeScratch(*head);  // the tail is sized when stored

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
  impl_->resetToRest(*r);
  wakeLater(*r, "it was reset");
  return Status::Ok();
}

// --- operations every object kind has --------------------------------------------------------

namespace {

template <class Id>
Status particleOf(const World::Impl& w, Id id, int index, ParticleState* out) {
  const auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (index < 0 || index >= r->count()) return badIndex("particle", index, r->count());
  out->position = r->worldPosition(index);
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
  wakeLater(*r, "a particle's velocity was set");
  return Status::Ok();
}

template <class Id>
Status pinOf(World::Impl& w, Id id, int particle, AnchorId anchor, float maxDistance, float compliance) {
  auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (!w.anchorLive(anchor)) return badHandle("anchor", anchor);
  if (particle < 0 || particle >= r->count()) return badIndex("particle", particle, r->count());
  WISP_TRY(checkRange("pin maxDistance", maxDistance, 0, 1e4));
  WISP_TRY(checkRange("pin compliance", compliance, 0, 1e4));
  if (maxDistance > 0 && compliance > 0)
    return Status::Error(StatusCode::InvalidArgument, "pin takes a maxDistance or a compliance, not both (got maxDistance " +
                                                          std::to_string(maxDistance) + ", compliance " + std::to_string(compliance) + ")");
  r->anchor[particle] = static_cast<int32_t>(anchor.index);
  r->pinDistance[particle] = maxDistance;
  r->pinCompliance[particle] = compliance;
  r->invMass[particle] = maxDistance == 0.0f && compliance == 0.0f ? 0.0f : r->baseInvMass[particle];
  r->updatePins();
  wakeLater(*r, "a particle was pinned");
  return Status::Ok();
}

template <class Id>
Status unpinOf(World::Impl& w, Id id, int particle) {
  auto* r = w.object(id);
  if (!r) return badHandle(kindName(id), id);
  if (particle < 0 || particle >= r->count()) return badIndex("particle", particle, r->count());
  r->anchor[particle] = -1;
  r->pinDistance[particle] = 0;
  r->pinCompliance[particle] = 0;
  r->invMass[particle] = r->baseInvMass[particle];
  r->updatePins();
  wakeLater(*r, "a particle was unpinned");
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
  const RigidMotion m = turnAboutThenShift(normalize(delta.rotation), toLocal(pivot, r->origin), delta.position);
  movePoints(m, 0, r->count(), r->px.data(), r->py.data(), r->pz.data());
  movePoints(m, 0, r->count(), r->ox.data(), r->oy.data(), r->oz.data());
  turnVectors(m, 0, r->count(), r->vx.data(), r->vy.data(), r->vz.data());
  r->writeOutput(0, r->count());
  wakeLater(*r, "it was teleported");
  return Status::Ok();
}

}  // namespace

Status World::particle(RopeId id, int i, ParticleState* out) const { return particleOf(*impl_, id, i, out); }
Status World::particle(ClothId id, int i, ParticleState* out) const { return particleOf(*impl_, id, i, out); }
Status World::setParticleVelocity(RopeId id, int i, Vec3 v) { return setVelocityOf(*impl_, id, i, v); }
Status World::setParticleVelocity(ClothId id, int i, Vec3 v) { return setVelocityOf(*impl_, id, i, v); }
Status World::pin(RopeId id, int particle, AnchorId anchor, float d, float c) { return pinOf(*impl_, id, particle, anchor, d, c); }
Status World::pin(ClothId id, int particle, AnchorId anchor, float d, float c) { return pinOf(*impl_, id, particle, anchor, d, c); }
Status World::unpin(RopeId id, int particle) { return unpinOf(*impl_, id, particle); }
Status World::unpin(ClothId id, int particle) { return unpinOf(*impl_, id, particle); }
Status World::teleportRope(RopeId id, const Transform& d, Vec3 pivot) { return teleportOf(*impl_, id, d, pivot); }
Status World::teleportCloth(ClothId id, const Transform& d, Vec3 pivot) { return teleportOf(*impl_, id, d, pivot); }
Status World::particle(ChainId id, int i, ParticleState* out) const { return particleOf(*impl_, id, i, out); }
Status World::setParticleVelocity(ChainId id, int i, Vec3 v) { return setVelocityOf(*impl_, id, i, v); }

// --- chains -------------------------------------------------------------------------------------

Status World::addChain(const ChainDef& def, ChainId* out) {
  WISP_TRY(memory::reserve(memory::chainBytes(def), "this chain"));
  ChainState state;
  WISP_TRY(buildLocal(def, &state, buildChain));
  *out = impl_->store<ChainId>(impl_->chains, std::move(state));
  return Status::Ok();
}

Status World::removeChain(ChainId id) {
  Impl& w = *impl_;
  if (!w.chain(id)) return badHandle("chain", id);
  w.dropLinkedChain(*w.chain(id));  // its links go, the set's other chains stay linked
  w.release(w.chains, id.index);
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
  // the chain's own gravity vector means nothing while it uses the world's
  ChainParams was = c->params, now = params;
  if (!was.customGravity) was.gravity = {};
  if (!now.customGravity) now.gravity = {};
  WISP_TRY(resolveChainParams(*c, params));
  if (changed(was, now)) wakeLater(*c, "its parameters were set");
  return Status::Ok();
}

Status World::chainJointCount(ChainId id, int* out) const {
  const ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  *out = c->joints();
  return Status::Ok();
}


// The root pose a checked setChainRoot(s) gives one chain; `rotation` already normalized.
static void moveChainRoot(ChainState& c, Vec3 position, Quat rotation, float scale) {
  if (scale != c.scale) wakeLater(c, "its scale changed");
  scaleChain(c, scale);
  c.rootTo = {toLocal(position, c.origin), rotation};
}

Status World::setChainRoot(ChainId id, const Transform& root, float scale) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkTransform("setChainRoot: root.position", "setChainRoot: root.rotation", root));
  if (!(scale >= 1e-4f && scale <= 1e4f)) WISP_TRY(checkRange("setChainRoot: scale", scale, 1e-4, 1e4));
  moveChainRoot(*c, root.position, normalize(root.rotation), scale);
  return Status::Ok();
}

Status World::setChainRoots(const ChainId* ids, int count, const Transform& root, float scale) {
  if (count < 0 || (count > 0 && ids == nullptr))
    return Status::Error(StatusCode::InvalidArgument, "setChainRoots: count must be >= 0 with that many ids (got " + std::to_string(count) + ")");
  WISP_TRY(checkTransform("setChainRoots: root.position", "setChainRoots: root.rotation", root));
  if (!(scale >= 1e-4f && scale <= 1e4f)) WISP_TRY(checkRange("setChainRoots: scale", scale, 1e-4, 1e4));
  for (int i = 0; i < count; ++i)
    if (!impl_->chain(ids[i])) return badHandle("chain", ids[i]);
  const Quat rotation = normalize(root.rotation);  // what setChainRoot computes per chain, once
  for (int i = 0; i < count; ++i) moveChainRoot(*impl_->chain(ids[i]), root.position, rotation, scale);
  return Status::Ok();
}

Status World::setChainSpace(ChainId id, const Transform& space) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkTransform("setChainSpace: space.position", "setChainSpace: space.rotation", space));
  c->spaceTo = {toLocal(space.position, c->origin), normalize(space.rotation)};
  if (!c->ownSpace) c->spaceFrom = c->spacePrev = c->spaceTo;  // the first space pose is a placement, not motion
  c->ownSpace = true;
  return Status::Ok();
}

Status World::teleportChain(ChainId id, const Transform& root) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkTransform("teleportChain: root.position", "teleportChain: root.rotation", root));
  const Transform to{toLocal(root.position, c->origin), normalize(root.rotation)};
  // carry the chain from its current root pose, whole: shape and velocities turn with it
  const RigidMotion m = betweenFrames(c->rootFrom, to);
  const int n = c->joints();
  movePoints(m, 0, n, c->px.data(), c->py.data(), c->pz.data());
  movePoints(m, 0, n, c->ox.data(), c->oy.data(), c->oz.data());
  movePoints(m, 0, n, c->qx.data(), c->qy.data(), c->qz.data());  // VRM's tail
  turnVectors(m, 0, n, c->vx.data(), c->vy.data(), c->vz.data());
  for (int j = 0; j < n; ++j) {
    c->simRotation[j] = m.rotation(c->simRotation[j]);
    // the outputs move with the root too (they may be blended with the animation: physics weight)
    c->writeJointRotations(j, m.rotation(c->worldRotationOut(j)), c->localRotationOut(j));
    // outputs are in world coordinates, the root poses relative to the chain's origin
    const Vec3 outLocal = toLocal(Vec3{c->out[3 * j], c->out[3 * j + 1], c->out[3 * j + 2]}, c->origin);
    const Vec3 out = toWorld(m.point(outLocal), c->origin);
    c->out[3 * j] = out.x; c->out[3 * j + 1] = out.y; c->out[3 * j + 2] = out.z;
  }
  c->rootFrom = c->rootTo = c->rootPrev = to;
  if (c->ownSpace) {
    Transform s = c->spaceTo;
    c->spaceFrom = c->spaceTo = c->spacePrev = {m.point(s.position), m.rotation(s.rotation)};
  } else {
    c->spaceFrom = c->spaceTo = c->spacePrev = to;
  }
  c->warmupPending = true;
  wakeLater(*c, "it was teleported");
  return Status::Ok();
}

Status World::setChainPose(ChainId id, const float* q, int count) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  if (!(count >= 1 && count <= c->joints()) || q == nullptr)
    return Status::Error(StatusCode::InvalidArgument, "setChainPose: count must be 1.." + std::to_string(c->joints()) +
                                                          " (the chain's joints), got " + std::to_string(count));
  for (int j = 0; j < count; ++j) {
    const Quat r{q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]};
    const Status st = checkQuat("setChainPose: localRotations", r);
    if (!st.ok()) return Status::Error(st.code, st.message + " (joint " + std::to_string(j) + ")");
  }
  bool changed = !c->animated;
  for (int j = 0; j < c->joints(); ++j) {
    const Quat a = j < count ? normalize(Quat{q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]}) : c->localRotation[j];
    const Quat& b = c->animTo[j];
    changed |= a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w;
    c->animTo[j] = a;
  }
  if (changed) wakeLater(*c, "its animated pose changed");  // a still pose, given every frame, lets it sleep
  if (!c->animated) {  // the first pose is a placement, not motion
    c->animFrom = c->animPrev = c->animEnd = c->animNow = c->animTo;
    c->animated = true;
  }
  return Status::Ok();
}

Status World::setChainPhysicsWeight(ChainId id, float weight, float seconds) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(checkRange("setChainPhysicsWeight: weight", weight, 0, 1));
  WISP_TRY(checkRange("setChainPhysicsWeight: seconds", seconds, 0, 1e6));
  c->weightTarget = weight;
  if (seconds > 0.0f) {
    c->weightRate = std::fabs(weight - c->weight) / seconds;
  } else {
    c->weight = weight;
    c->weightRate = 0;
  }
  wakeLater(*c, "its physics weight changed");
  return Status::Ok();
}

Status World::boostChain(ChainId id, const ChainBoost& m, float seconds) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  WISP_TRY(validateChainBoost(m));
  WISP_TRY(checkRange("boostChain: seconds", seconds, 0, 1e4));
  c->boost = seconds > 0.0f ? m : ChainBoost{};
  c->boostSeconds = c->boostLeft = seconds;
  return Status::Ok();
}

Status World::chainBoost(ChainId id, ChainBoost* now, float* secondsLeft) const {
  const ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  *now = boostAt(*c, 0);
  *secondsLeft = c->boostLeft;
  return Status::Ok();
}

Status World::resetChain(ChainId id) {
  ChainState* c = impl_->chain(id);
  if (!c) return badHandle("chain", id);
  impl_->resetToRest(*c);
  wakeLater(*c, "it was reset");
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
  s.physicsWeight = c->weight;
  *out = s;
  return Status::Ok();
}

// --- cloth --------------------------------------------------------------------------------------

Status World::addCloth(const ClothDef& def, ClothId* out) {
  WISP_TRY(memory::reserve(memory::clothBytes(def), "this cloth"));
  ClothState state;
  WISP_TRY(buildLocal(def, &state, buildCloth));
  Impl& w = *impl_;
  ClothId id = w.store<ClothId>(w.cloths, std::move(state));
  w.pinOwned(w.cloths[id.index], def.pinned, id.index);
  *out = id;
  return Status::Ok();
}

Status World::removeCloth(ClothId id) {
  Impl& w = *impl_;
  if (!w.cloth(id)) return badHandle("cloth", id);
  w.release(w.cloths, id.index);
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
  if (changed(c->params, params)) wakeLater(*c, "its parameters were set");
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
  impl_->resetToRest(*c);
  wakeLater(*c, "it was reset");
  return Status::Ok();
}

}  // namespace wisp
