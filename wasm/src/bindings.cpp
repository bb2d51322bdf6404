// embind registration and value conversion only: every rule lives in the core. Methods return
// a status code (0 = ok) or an id/number; on failure the Status is kept for lastError(). The
// core never throws, so no C++ exception can cross into JavaScript.
//
// Ids cross as doubles: generation * 2^21 + index (exact up to 2^53).
#include <emscripten/bind.h>
#include <emscripten/em_macros.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <type_traits>
#include <vector>
#include <memory>
#include <string>

#include "jobs/job_pool.h"
#include "math/wide.h"
#include "wisp/world.h"
#include "world/kinds.h"
#include "js_archive.h"

using emscripten::val;

namespace wisp::bindings {
namespace {

constexpr double kIndexRange = 2097152.0;  // 2^21
// objectStatesBlock: more objects than any scene holds is a bad count, not a block to grow
constexpr int kMaxObjectStates = 1 << 24;

double encode(Handle h) { return double(h.generation) * kIndexRange + double(h.index); }

template <class Id>
Id decode(double v) {
  Id id;  // generation 0: always invalid
  if (!(v >= 0) || v > 9007199254740991.0 || std::floor(v) != v) return id;
  id.generation = static_cast<uint32_t>(std::floor(v / kIndexRange));
  id.index = static_cast<uint32_t>(v - double(id.generation) * kIndexRange);
  return id;
}

// Reads o[key] if present (for the definitions' own members; parameters go through
// js_archive.h). The JS wrapper has already checked types.
float num(const val& o, const char* key, float def) {
  val v = o[key];
  return v.isUndefined() ? def : v.as<float>();
}
Vec3 vec(const val& o, const char* key, Vec3 def) {
  val v = o[key];
  if (v.isUndefined()) return def;
  return {v[0].as<float>(), v[1].as<float>(), v[2].as<float>()};
}
Quat quat(const val& o, const char* key, Quat def) {
  val v = o[key];
  if (v.isUndefined()) return def;
  return {v[0].as<float>(), v[1].as<float>(), v[2].as<float>(), v[3].as<float>()};
}

// `gravity` is null (the world's) or a vector (the chain's own): customGravity is not a JS option.
ChainParams readChainParams(const val& o, ChainParams p) {
  fromJs(o, &p);
  val g = o["gravity"];
  if (!g.isUndefined()) p.customGravity = !g.isNull();
  return p;
}
val chainParamsToJs(const ChainParams& p) {
  val o = toJs(p);
  o.set("gravity", p.customGravity ? vecToJs(p.gravity) : val::null());
  o.delete_("customGravity");
  return o;
}

// debugChecks is not in the snapshot's field list (snapshot/fields.h says why).
WorldSettings readSettings(const val& o, WorldSettings s) {
  fromJs(o, &s);
  val v = o["debugChecks"];
  if (!v.isUndefined()) s.debugChecks = v.as<bool>();
  return s;
}

// A stats struct's fields as doubles, in the order of its field list (snapshot/fields.h), which
// is the order toJs gives them: a worker world publishes them by that order (objectStates).
struct FieldCount {
  int n = 0;
  template <class T>
  void operator()(const char*, T&) { ++n; }
};
struct FieldWriter {
  double* out;
  template <class T>
  void operator()(const char*, T& v) {
    static_assert(std::is_arithmetic_v<T>, "a state record holds numbers and booleans only");
    *out++ = static_cast<double>(v);
  }
};
template <class T>
int fieldCount() {
  T t{};
  FieldCount c;
  visit(c, t);
  return c.n;
}

}  // namespace

// Doubles per object in the objectStates block: [kind, id] in, [activity flags, updates, ...the
// fields of its stats struct] out; the larger stats struct sets it.
int objectStateStride() {
  static const int stride = 2 + std::max(fieldCount<ClothStats>(), fieldCount<ChainStats>());
  return stride;
}

class WorldBinding {
 public:
  WorldBinding() { World::create(WorldSettings{}, &world_); }

  // Replaces the settings (fields missing from `o` keep their current values).
  int configure(val o) { return check(world_->setSettings(readSettings(o, world_->settings()))); }
  val settings() const {
    val o = toJs(world_->settings());
    o.set("debugChecks", world_->settings().debugChecks);
    return o;
  }

  int step(double dt) { return check(world_->step(dt, &report_)); }
  int lastFixedSteps() const { return report_.fixedSteps; }
  double lastDroppedTime() const { return report_.droppedTime; }
  double lastLeftover() const { return report_.leftover; }
  double time() const { return world_->time(); }

  // def: { start, end, segments, massPerLength, params... }; points/pinned come as heap arrays.
  double addRope(val def, uintptr_t points, int pointCount, uintptr_t pinned, int pinnedCount) {
    RopeDef d;
    d.start = vec(def, "start", d.start);
    d.end = vec(def, "end", d.end);
    val segs = def["segments"];
    if (!segs.isUndefined()) d.segments = segs.as<int>();
    d.massPerLength = num(def, "massPerLength", d.massPerLength);
    fromJs(def, &d.params);
    const float* p = reinterpret_cast<const float*>(points);
    for (int i = 0; i < pointCount; ++i) d.points.push_back({p[3 * i], p[3 * i + 1], p[3 * i + 2]});
    const int32_t* pin = reinterpret_cast<const int32_t*>(pinned);
    d.pinned.assign(pin, pin + pinnedCount);
    RopeId id;
    return check(world_->addRope(d, &id)) == 0 ? encode(id) : -1;
  }
  int removeRope(double id) { return check(world_->removeRope(decode<RopeId>(id))); }
  int setRopeParams(double id, val o) {
    RopeParams p;
    RopeId r = decode<RopeId>(id);
    if (check(world_->ropeParams(r, &p))) return code_;
    fromJs(o, &p);
    return check(world_->setRopeParams(r, p));
  }
  val ropeParams(double id) {
    RopeParams p;
    if (check(world_->ropeParams(decode<RopeId>(id), &p))) return val::null();
    return toJs(p);
  }
  int ropeParticleCount(double id) {
    int n = 0;
    return check(world_->ropeParticleCount(decode<RopeId>(id), &n)) ? -1 : n;
  }
  uintptr_t ropePositionsPtr(double id) const {
    return reinterpret_cast<uintptr_t>(world_->ropePositions(decode<RopeId>(id)));
  }
  val particle(double id, int i) {
    ParticleState s;
    if (check(world_->particle(decode<RopeId>(id), i, &s))) return val::null();
    return toJs(s);
  }
  int setParticleVelocity(double id, int i, float x, float y, float z) {
    return check(world_->setParticleVelocity(decode<RopeId>(id), i, {x, y, z}));
  }
  double segmentRestLength(double id, int s) {
    float len = 0;
    return check(world_->segmentRestLength(decode<RopeId>(id), s, &len)) ? NAN : len;
  }
  double cutRope(double id, int segment) {
    RopeId tail;
    return check(world_->cutRope(decode<RopeId>(id), segment, &tail)) ? -1 : encode(tail);
  }
  int teleportRope(double id, float tx, float ty, float tz, float qx, float qy, float qz, float qw, float px,
                   float py, float pz) {
    return check(world_->teleportRope(decode<RopeId>(id), {{tx, ty, tz}, {qx, qy, qz, qw}}, {px, py, pz}));
  }
  int resetRope(double id) { return check(world_->resetRope(decode<RopeId>(id))); }

  // def: { grid: {width, height, resolutionX, resolutionY, position, rotation}, weldDistance,
  // areaDensity, params... }; mesh positions/indices and pinned come as heap arrays.
  double addCloth(val def, uintptr_t positions, int vertexCount, uintptr_t indices, int indexCount, uintptr_t pinned,
                  int pinnedCount) {
    ClothDef d;
    val g = def["grid"];
    if (!g.isUndefined()) fromJs(g, &d.grid);
    d.weldDistance = num(def, "weldDistance", d.weldDistance);
    d.areaDensity = num(def, "areaDensity", d.areaDensity);
    fromJs(def, &d.params);
    const float* p = reinterpret_cast<const float*>(positions);
    for (int i = 0; i < vertexCount; ++i) d.positions.push_back({p[3 * i], p[3 * i + 1], p[3 * i + 2]});
    const uint32_t* ix = reinterpret_cast<const uint32_t*>(indices);
    d.indices.assign(ix, ix + indexCount);
    const int32_t* pin = reinterpret_cast<const int32_t*>(pinned);
    d.pinned.assign(pin, pin + pinnedCount);
    ClothId id;
    return check(world_->addCloth(d, &id)) ? -1 : encode(id);
  }
  int removeCloth(double id) { return check(world_->removeCloth(decode<ClothId>(id))); }
  int setClothParams(double id, val o) {
    ClothParams p;
    ClothId c = decode<ClothId>(id);
    if (check(world_->clothParams(c, &p))) return code_;
    fromJs(o, &p);
    return check(world_->setClothParams(c, p));
  }
  val clothParams(double id) {
    ClothParams p;
    if (check(world_->clothParams(decode<ClothId>(id), &p))) return val::null();
    return toJs(p);
  }
  int clothParticleCount(double id) {
    int n = 0;
    return check(world_->clothParticleCount(decode<ClothId>(id), &n)) ? -1 : n;
  }
  uintptr_t clothPositionsPtr(double id) const {
    return reinterpret_cast<uintptr_t>(world_->clothPositions(decode<ClothId>(id)));
  }
  uintptr_t clothNormalsPtr(double id) const {
    return reinterpret_cast<uintptr_t>(world_->clothNormals(decode<ClothId>(id)));
  }
  uintptr_t clothTrianglesPtr(double id) const {
    const uint32_t* p = nullptr;
    int n = 0;
    world_->clothTriangles(decode<ClothId>(id), &p, &n);
    return reinterpret_cast<uintptr_t>(p);
  }
  int clothTriangleCount(double id) {
    const uint32_t* p = nullptr;
    int n = 0;
    return check(world_->clothTriangles(decode<ClothId>(id), &p, &n)) ? -1 : n;
  }
  uintptr_t clothVertexMapPtr(double id) const {
    const int32_t* p = nullptr;
    int n = 0;
    world_->clothVertexMap(decode<ClothId>(id), &p, &n);
    return reinterpret_cast<uintptr_t>(p);
  }
  int clothVertexCount(double id) {
    const int32_t* p = nullptr;
    int n = 0;
    return check(world_->clothVertexMap(decode<ClothId>(id), &p, &n)) ? -1 : n;
  }
  val clothStats(double id) {
    ClothStats s;
    if (check(world_->clothStats(decode<ClothId>(id), &s))) return val::null();
    return toJs(s);
  }
  val clothParticle(double id, int i) {
    ParticleState s;
    if (check(world_->particle(decode<ClothId>(id), i, &s))) return val::null();
    return toJs(s);
  }
  int setClothParticleVelocity(double id, int i, float x, float y, float z) {
    return check(world_->setParticleVelocity(decode<ClothId>(id), i, {x, y, z}));
  }
  int pinCloth(double cloth, int particle, double anchor, float maxDistance, float compliance) {
    return check(world_->pin(decode<ClothId>(cloth), particle, decode<AnchorId>(anchor), maxDistance, compliance));
  }
  int unpinCloth(double cloth, int particle) { return check(world_->unpin(decode<ClothId>(cloth), particle)); }
  int teleportCloth(double id, float tx, float ty, float tz, float qx, float qy, float qz, float qw, float px,
                    float py, float pz) {
    return check(world_->teleportCloth(decode<ClothId>(id), {{tx, ty, tz}, {qx, qy, qz, qw}}, {px, py, pz}));
  }
  int resetCloth(double id) { return check(world_->resetCloth(decode<ClothId>(id))); }

  // def: { root: {position, rotation}, endLength, params... }; joints come as a heap array of
  // 7 floats each (local position xyz, local rotation xyzw), points as 3 floats each.
  double addChain(val def, uintptr_t joints, int jointCount, uintptr_t points, int pointCount) {
    ChainDef d;
    d.root.position = vec(def, "position", d.root.position);
    d.root.rotation = quat(def, "rotation", d.root.rotation);
    d.endLength = num(def, "endLength", d.endLength);
    d.params = readChainParams(def, d.params);
    const float* j = reinterpret_cast<const float*>(joints);
    for (int i = 0; i < jointCount; ++i, j += 7) d.joints.push_back({{j[0], j[1], j[2]}, {j[3], j[4], j[5], j[6]}});
    const float* p = reinterpret_cast<const float*>(points);
    for (int i = 0; i < pointCount; ++i) d.points.push_back({p[3 * i], p[3 * i + 1], p[3 * i + 2]});
    ChainId id;
    return check(world_->addChain(d, &id)) ? -1 : encode(id);
  }
  int removeChain(double id) { return check(world_->removeChain(decode<ChainId>(id))); }
  int setChainParams(double id, val o) {
    ChainParams p;
    ChainId c = decode<ChainId>(id);
    if (check(world_->chainParams(c, &p))) return code_;
    return check(world_->setChainParams(c, readChainParams(o, p)));
  }
  val chainParams(double id) {
    ChainParams p;
    if (check(world_->chainParams(decode<ChainId>(id), &p))) return val::null();
    return chainParamsToJs(p);
  }
  int chainJointCount(double id) {
    int n = 0;
    return check(world_->chainJointCount(decode<ChainId>(id), &n)) ? -1 : n;
  }
  int setChainRoot(double id, float px, float py, float pz, float qx, float qy, float qz, float qw, float scale) {
    return check(world_->setChainRoot(decode<ChainId>(id), {{px, py, pz}, {qx, qy, qz, qw}}, scale));
  }
  int setChainSpace(double id, float px, float py, float pz, float qx, float qy, float qz, float qw) {
    return check(world_->setChainSpace(decode<ChainId>(id), {{px, py, pz}, {qx, qy, qz, qw}}));
  }
  int teleportChain(double id, float px, float py, float pz, float qx, float qy, float qz, float qw) {
    return check(world_->teleportChain(decode<ChainId>(id), {{px, py, pz}, {qx, qy, qz, qw}}));
  }
  int resetChain(double id) { return check(world_->resetChain(decode<ChainId>(id))); }
  // The animated pose's local rotations arrive in this block (the wrapper copies them in, then
  // calls wisp_set_chain_pose): 4 floats per joint, grown only by chainPoseBlock, never per frame.
  // Both blocks: 0 when the memory to grow them is not there (the wrapper throws
  // 'out-of-memory'; no exception crosses into JavaScript).
  uintptr_t chainPoseBlock(int floats) {
    try {
      if (floats > static_cast<int>(poseBlock_.size())) poseBlock_.resize(static_cast<size_t>(floats));
    } catch (const std::bad_alloc&) {
      return 0;
    }
    return reinterpret_cast<uintptr_t>(poseBlock_.data());
  }
  // setChainRoots' ids arrive in this block (the wrapper writes them, then calls
  // wisp_set_chain_roots): grown only by chainRootsBlock, never per frame, with the decoded ids
  // beside it.
  uintptr_t chainRootsBlock(int count) {
    try {
      if (count > static_cast<int>(rootIds_.size())) {
        rootChains_.resize(static_cast<size_t>(count));
        rootIds_.resize(static_cast<size_t>(count));
      }
    } catch (const std::bad_alloc&) {
      return 0;
    }
    return reinterpret_cast<uintptr_t>(rootIds_.data());
  }
  // A worker world's per-step state of its ropes, cloths and chains, all in one call: the wrapper
  // writes [kind code, id] at the start of each record (objectStateStride() doubles each), then
  // objectStates overwrites every record in place (see readState). Grown only by
  // objectStatesBlock, never per step.
  uintptr_t objectStatesBlock(int count) {
    if (count < 0 || count > kMaxObjectStates) return 0;
    try {
      const size_t doubles = static_cast<size_t>(count) * static_cast<size_t>(objectStateStride());
      if (doubles > states_.size()) states_.resize(doubles);
    } catch (const std::bad_alloc&) {
      return 0;
    }
    return reinterpret_cast<uintptr_t>(states_.data());
  }
  // The error of the first record whose kind or id is bad: the records before it are written, it
  // and those after it keep their [kind, id]. Per record only the World's reads: the status is
  // kept (check) only for an error, and byKind only names a kind this build does not have.
  int objectStates(int count) {
    const int stride = objectStateStride();
    if (count < 0 || static_cast<size_t>(count) * static_cast<size_t>(stride) > states_.size())
      return check(Status::Error(StatusCode::InvalidArgument, "objectStates: " + std::to_string(count) + " objects, but the state block holds " + std::to_string(states_.size() / static_cast<size_t>(stride))));
    for (int i = 0; i < count; ++i) {
      double* r = states_.data() + static_cast<size_t>(i) * static_cast<size_t>(stride);
      // a kind that is not a small integer is no kind (a double out of int's range must not be cast)
      const int kind = r[0] >= 0 && r[0] < 256 && std::floor(r[0]) == r[0] ? static_cast<int>(r[0]) : -1;
      int code = -1;
      forEachKindRow([&](auto row) {
        if (static_cast<int>(row.kind) == kind) code = readState(decode<typename decltype(row)::Id>(r[1]), r);
      });
      if (code < 0) return byKind(kind, r[1], [](auto) { return Status::Ok(); });
      if (code != 0) return code;
    }
    return check(Status::Ok());
  }
  int setChainRoots(int count, float px, float py, float pz, float qx, float qy, float qz, float qw, float scale) {
    if (count < 0 || count > static_cast<int>(rootIds_.size()))
      return check(Status::Error(StatusCode::InvalidArgument, "setChainRoots: " + std::to_string(count) + " chains, but the id block holds " + std::to_string(rootIds_.size())));
    for (int i = 0; i < count; ++i) rootChains_[static_cast<size_t>(i)] = decode<ChainId>(rootIds_[static_cast<size_t>(i)]);
    return check(world_->setChainRoots(rootChains_.data(), count, {{px, py, pz}, {qx, qy, qz, qw}}, scale));
  }
  // Chain links: `ids` is a JS array of chain ids (the wrapper checked they are this world's Chains).
  double addChainLinks(val ids, val o) {
    ChainLinksDef d;
    const int n = ids["length"].as<int>();
    for (int i = 0; i < n; ++i) d.chains.push_back(decode<ChainId>(ids[i].as<double>()));
    fromJs(o, &d.params);
    ChainLinksId id;
    return check(world_->addChainLinks(d, &id)) ? -1 : encode(id);
  }
  int removeChainLinks(double id) { return check(world_->removeChainLinks(decode<ChainLinksId>(id))); }
  int setChainLinksParams(double id, val o) {
    ChainLinksParams p;
    const ChainLinksId l = decode<ChainLinksId>(id);
    if (check(world_->chainLinksParams(l, &p))) return code_;
    fromJs(o, &p);
    return check(world_->setChainLinksParams(l, p));
  }
  val chainLinksParams(double id) {
    ChainLinksParams p;
    if (check(world_->chainLinksParams(decode<ChainLinksId>(id), &p))) return val::null();
    return toJs(p);
  }
  int chainLinksCount(double id) {
    int n = 0;
    return check(world_->chainLinksCount(decode<ChainLinksId>(id), &n)) ? -1 : n;
  }
  // Copies (typed arrays the caller owns): for debug drawing, not per frame.
  val chainLinksPairs(double id) {
    std::vector<int32_t> v;
    if (check(world_->chainLinksPairs(decode<ChainLinksId>(id), &v))) return val::null();
    return val::global("Int32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
  }
  val chainLinksRestLengths(double id) {
    std::vector<float> v;
    if (check(world_->chainLinksRestLengths(decode<ChainLinksId>(id), &v))) return val::null();
    return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
  }
  int boostChain(double id, val o, float seconds) {
    ChainBoost m;
    fromJs(o, &m);
    return check(world_->boostChain(decode<ChainId>(id), m, seconds));
  }
  int setChainPhysicsWeight(double id, float weight, float seconds) {
    return check(world_->setChainPhysicsWeight(decode<ChainId>(id), weight, seconds));
  }
  int setChainPose(double id, int count) {
    if (4 * static_cast<size_t>(count > 0 ? count : 0) > poseBlock_.size())
      return check(Status::Error(StatusCode::InvalidArgument, "setChainPose: " + std::to_string(count) + " rotations, but the pose block holds " + std::to_string(poseBlock_.size() / 4)));
    return check(world_->setChainPose(decode<ChainId>(id), poseBlock_.data(), count));
  }
  uintptr_t chainPositionsPtr(double id) const {
    return reinterpret_cast<uintptr_t>(world_->chainPositions(decode<ChainId>(id)));
  }
  uintptr_t chainRotationsPtr(double id) const {
    return reinterpret_cast<uintptr_t>(world_->chainRotations(decode<ChainId>(id)));
  }
  uintptr_t chainLocalRotationsPtr(double id) const {
    return reinterpret_cast<uintptr_t>(world_->chainLocalRotations(decode<ChainId>(id)));
  }
  val chainStats(double id) {
    ChainStats s;
    if (check(world_->chainStats(decode<ChainId>(id), &s))) return val::null();
    return toJs(s);
  }
  val chainParticle(double id, int i) {
    ParticleState s;
    if (check(world_->particle(decode<ChainId>(id), i, &s))) return val::null();
    return toJs(s);
  }
  int setChainParticleVelocity(double id, int i, float x, float y, float z) {
    return check(world_->setParticleVelocity(decode<ChainId>(id), i, {x, y, z}));
  }

  double addAnchor(float x, float y, float z) {
    AnchorId id;
    return check(world_->addAnchor({x, y, z}, &id)) ? -1 : encode(id);
  }
  int removeAnchor(double id) { return check(world_->removeAnchor(decode<AnchorId>(id))); }
  int setAnchorPosition(double id, float x, float y, float z) {
    return check(world_->setAnchorPosition(decode<AnchorId>(id), {x, y, z}));
  }
  int teleportAnchor(double id, float x, float y, float z) {
    return check(world_->teleportAnchor(decode<AnchorId>(id), {x, y, z}));
  }
  val anchorPosition(double id) {
    Vec3 p;
    if (check(world_->anchorPosition(decode<AnchorId>(id), &p))) return val::null();
    return vecToJs(p);
  }
  int pin(double rope, int particle, double anchor, float maxDistance, float compliance) {
    return check(world_->pin(decode<RopeId>(rope), particle, decode<AnchorId>(anchor), maxDistance, compliance));
  }
  int unpin(double rope, int particle) { return check(world_->unpin(decode<RopeId>(rope), particle)); }

  // def: ColliderDef's members (type 0..3, position, rotation, radius, radiusTop, halfHeight, ...)
  double addCollider(val o) {
    ColliderDef d;
    fromJs(o, &d);
    ColliderId id;
    return check(world_->addCollider(d, &id)) ? -1 : encode(id);
  }
  int removeCollider(double id) { return check(world_->removeCollider(decode<ColliderId>(id))); }
  int setColliderTransform(double id, float px, float py, float pz, float qx, float qy, float qz, float qw, float scale = 1) {
    return check(world_->setColliderTransform(decode<ColliderId>(id), {{px, py, pz}, {qx, qy, qz, qw}}, scale));
  }
  int teleportCollider(double id, float px, float py, float pz, float qx, float qy, float qz, float qw, float scale = 1) {
    return check(world_->teleportCollider(decode<ColliderId>(id), {{px, py, pz}, {qx, qy, qz, qw}}, scale));
  }
  int setColliderEnabled(double id, bool on) { return check(world_->setColliderEnabled(decode<ColliderId>(id), on)); }
  int setColliderFriction(double id, float f) {
    return check(world_->setColliderFriction(decode<ColliderId>(id), f));
  }

  // def: WindZoneDef's members (shape 0 sphere | 1 box, position, rotation, radius, halfExtents,
  // falloff, wind: {...})
  double addWindZone(val o) {
    WindZoneDef d;
    fromJs(o, &d);
    WindZoneId id;
    return check(world_->addWindZone(d, &id)) ? -1 : encode(id);
  }
  int setWindZone(double id, val o) {
    WindZoneDef d;
    fromJs(o, &d);
    return check(world_->setWindZone(decode<WindZoneId>(id), d));
  }
  int removeWindZone(double id) { return check(world_->removeWindZone(decode<WindZoneId>(id))); }
  val airVelocityAt(float x, float y, float z) const { return vecToJs(world_->airVelocityAt({x, y, z})); }

  int shiftOrigin(double x, double y, double z) { return check(world_->shiftOrigin(x, y, z)); }
  std::string stateHash() const {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(world_->stateHash()));
    return buf;
  }
  val stats() const {
    return toJs(world_->stats());
  }
  double layoutVersion() const { return static_cast<double>(world_->layoutVersion()); }

  // { ropes, cloths, chains, anchors, windZones: [id...], colliders: [[id, type]...] }: every live
  // object, so the wrapper can hand out handles for what a snapshot restored.
  val objects() const {
    WorldObjects o;
    world_->objects(&o);
    auto ids = [](const auto& list) {
      val a = val::array();
      for (const Handle& h : list) a.call<void>("push", encode(h));
      return a;
    };
    val out = val::object();
    out.set("ropes", ids(o.ropes));
    out.set("cloths", ids(o.cloths));
    out.set("chains", ids(o.chains));
    out.set("anchors", ids(o.anchors));
    out.set("windZones", ids(o.windZones));
    val colliders = val::array();
    for (ColliderId id : o.colliders) {
      ColliderDef d;
      world_->collider(id, &d);
      val pair = val::array();
      pair.call<void>("push", encode(id));
      pair.call<void>("push", static_cast<int>(d.type));
      colliders.call<void>("push", pair);
    }
    out.set("colliders", colliders);
    return out;
  }

  // A copy of the snapshot bytes as a Uint8Array.
  val saveSnapshot() {
    std::vector<uint8_t> bytes;
    check(world_->saveSnapshot(&bytes));
    return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
  }
  int loadSnapshot(uintptr_t data, int size) {
    return check(world_->loadSnapshot(reinterpret_cast<const uint8_t*>(data), static_cast<size_t>(size)));
  }
  std::string saveSnapshotJson() {
    std::string json;
    check(world_->saveSnapshotJson(&json));
    return json;
  }
  int loadSnapshotJson(const std::string& json) { return check(world_->loadSnapshotJson(json)); }

  // The last step's events: [{ type: 0 reset | 1 invariant, kind: 0 rope | 1 cloth | 2 chain, id, message }].
  val events() const {
    val a = val::array();
    for (const WorldEvent& e : world_->events()) {
      val o = val::object();
      o.set("type", static_cast<int>(e.type));
      o.set("kind", static_cast<int>(e.kind));
      o.set("id", encode(e.object));
      o.set("message", e.message);
      a.call<void>("push", o);
    }
    return a;
  }
  int eventCount() const { return static_cast<int>(world_->events().size()); }
  int injectFault(int kind, double id, int particle) {
    return byKind(kind, id, [&](auto h) { return world_->injectFault(h, particle); });
  }

  // f(id) with the id decoded as the kind whose ObjectKind code is `kind` (the kind table, also
  // exported as ObjectKind): no allocation, so a game may switch objects every frame.
  template <class F>
  int byKind(int kind, double id, F&& f) {
    int result = -1;
    forEachKindRow([&](auto row) {
      if (static_cast<int>(row.kind) == kind) result = check(f(decode<typename decltype(row)::Id>(id)));
    });
    if (result >= 0) return result;
    return check(Status::Error(StatusCode::InvalidArgument, "object kind " + std::to_string(kind) + " is not a kind of this build"));
  }
  int setEnabled(int kind, double id, bool on) { return byKind(kind, id, [&](auto h) { return world_->setEnabled(h, on); }); }
  int wake(int kind, double id) { return byKind(kind, id, [&](auto h) { return world_->wake(h); }); }
  // enabled (1) | sleeping (2), or -1 with lastCode() set
  int activityFlags(int kind, double id) {
    World::ObjectActivity a;
    if (byKind(kind, id, [&](auto h) { return world_->activity(h, &a); }) != 0) return -1;
    return (a.enabled ? 1 : 0) | (a.sleeping ? 2 : 0);
  }
  double activityUpdates(int kind, double id) {
    World::ObjectActivity a;
    if (byKind(kind, id, [&](auto h) { return world_->activity(h, &a); }) != 0) return -1;
    return static_cast<double>(a.updates);
  }

  // One object's record (objectStates): [enabled 1 | sleeping 2, updates, ...stats fields], written
  // only once everything is read, so a bad id leaves the record as it was; the rest of the record
  // is not written. 0, or the error's code (kept for lastError).
  template <class Id>
  int readState(Id h, double* r) {
    World::ObjectActivity a;
    if (Status s = world_->activity(h, &a); !s.ok()) return check(s);
    if constexpr (std::is_same_v<Id, ClothId>) {
      ClothStats st;
      if (Status s = world_->clothStats(h, &st); !s.ok()) return check(s);
      writeState(a, st, r);
    } else if constexpr (std::is_same_v<Id, ChainId>) {
      ChainStats st;
      if (Status s = world_->chainStats(h, &st); !s.ok()) return check(s);
      writeState(a, st, r);
    } else {
      struct None {} none;
      writeState(a, none, r);
    }
    return 0;
  }
  template <class Stats>
  static void writeState(const World::ObjectActivity& a, Stats& st, double* r) {
    r[0] = (a.enabled ? 1 : 0) | (a.sleeping ? 2 : 0);
    r[1] = static_cast<double>(a.updates);
    FieldWriter w{r + 2};
    if constexpr (!std::is_empty_v<Stats>) visit(w, st);
  }

  std::string lastError() const { return message_; }
  int lastCode() const { return code_; }
  // For the per-frame entry points below, which JavaScript calls as plain WASM exports.
  uintptr_t address() { return reinterpret_cast<uintptr_t>(this); }

 private:
  int check(const Status& s) {
    code_ = static_cast<int>(s.code);
    message_ = s.message;
    return code_;
  }

  std::unique_ptr<World> world_;
  StepReport report_;
  int code_ = 0;
  std::string message_;
  std::vector<float> poseBlock_;
  std::vector<double> rootIds_;
  std::vector<ChainId> rootChains_;
  std::vector<double> states_;
};

size_t heapUsed() { return mallinfo().uordblks; }

// Test hook, registered by the self-test module (selftest.cpp), not by the shipped one.
int injectFault(uintptr_t world, int kind, double id, int particle) {
  return reinterpret_cast<WorldBinding*>(world)->injectFault(kind, id, particle);
}

}  // namespace wisp::bindings

// Per-frame calls as plain WASM exports: an embind call allocates JavaScript objects on every call
// (its invoker checks `arguments` and boxes numbers), and a game makes these every frame. Numbers
// travel through a scratch block in WASM memory the wrapper owns (`io`, 8-byte aligned), not as
// arguments, so no double is boxed on the way in or out whatever the JIT inlines. `w` is
// WorldBinding::address(); ids as above (already boxed where the wrapper keeps them); the return
// value is the status code.
extern "C" {
using wisp::bindings::WorldBinding;
// io: in double dt; out double fixedSteps, droppedTime, leftover
EMSCRIPTEN_KEEPALIVE int wisp_step(WorldBinding* w, double* io) {
  int code = w->step(io[0]);
  io[0] = w->lastFixedSteps();
  io[1] = w->lastDroppedTime();
  io[2] = w->lastLeftover();
  return code;
}
// io: float x, y, z
EMSCRIPTEN_KEEPALIVE int wisp_set_anchor_position(WorldBinding* w, double id, const float* io) {
  return w->setAnchorPosition(id, io[0], io[1], io[2]);
}
// io: float px, py, pz, qx, qy, qz, qw, scale (the uniform scale of a chain root or a collider; 1 for a space or a teleported chain).
// which: 0 setColliderTransform, 1 teleportCollider, 2 setChainRoot, 3 setChainSpace, 4 teleportChain
EMSCRIPTEN_KEEPALIVE int wisp_set_pose(WorldBinding* w, int which, double id, const float* io) {
  const float px = io[0], py = io[1], pz = io[2], qx = io[3], qy = io[4], qz = io[5], qw = io[6];
  switch (which) {
    case 0: return w->setColliderTransform(id, px, py, pz, qx, qy, qz, qw, io[7]);
    case 1: return w->teleportCollider(id, px, py, pz, qx, qy, qz, qw, io[7]);
    case 2: return w->setChainRoot(id, px, py, pz, qx, qy, qz, qw, io[7]);
    case 3: return w->setChainSpace(id, px, py, pz, qx, qy, qz, qw);
    default: return w->teleportChain(id, px, py, pz, qx, qy, qz, qw);
  }
}
// io as wisp_set_pose's; the ids of `count` chains already in WorldBinding::chainRootsBlock.
EMSCRIPTEN_KEEPALIVE int wisp_set_chain_roots(WorldBinding* w, int count, const float* io) {
  return w->setChainRoots(count, io[0], io[1], io[2], io[3], io[4], io[5], io[6], io[7]);
}
// The state records of `count` objects whose [kind, id] are already in WorldBinding::objectStatesBlock.
EMSCRIPTEN_KEEPALIVE int wisp_object_states(WorldBinding* w, int count) { return w->objectStates(count); }
// The animated pose: `count` local rotations already in WorldBinding::chainPoseBlock.
EMSCRIPTEN_KEEPALIVE int wisp_set_chain_pose(WorldBinding* w, double id, int count) {
  return w->setChainPose(id, count);
}
}

namespace wisp::bindings {

int maxThreads() { return jobs::maxThreads(); }
bool threadsAvailable() { return jobs::threadsAvailable(); }
bool simdEnabled() { return wide::kEnabled; }

}  // namespace wisp::bindings

EMSCRIPTEN_BINDINGS(wisp) {
  using namespace wisp::bindings;
  using emscripten::class_;
  using emscripten::function;
  function("heapUsed", &heapUsed);
  function("maxThreads", &maxThreads);
  function("threadsAvailable", &threadsAvailable);
  function("simdEnabled", &simdEnabled);
  function("objectStateStride", &objectStateStride);
  // The kind table's codes and names (ObjectKind.rope.value == 0, ...), which JavaScript uses.
  emscripten::enum_<wisp::ObjectKind> kinds("ObjectKind");
  wisp::forEachKindRow([&](auto row) { kinds.value(row.name, row.kind); });
  class_<WorldBinding>("World")
      .constructor<>()
      .function("configure", &WorldBinding::configure)
      .function("settings", &WorldBinding::settings)
      .function("step", &WorldBinding::step)
      .function("lastFixedSteps", &WorldBinding::lastFixedSteps)
      .function("lastDroppedTime", &WorldBinding::lastDroppedTime)
      .function("lastLeftover", &WorldBinding::lastLeftover)
      .function("time", &WorldBinding::time)
      .function("addRope", &WorldBinding::addRope)
      .function("removeRope", &WorldBinding::removeRope)
      .function("setRopeParams", &WorldBinding::setRopeParams)
      .function("ropeParams", &WorldBinding::ropeParams)
      .function("ropeParticleCount", &WorldBinding::ropeParticleCount)
      .function("ropePositionsPtr", &WorldBinding::ropePositionsPtr)
      .function("particle", &WorldBinding::particle)
      .function("setParticleVelocity", &WorldBinding::setParticleVelocity)
      .function("segmentRestLength", &WorldBinding::segmentRestLength)
      .function("cutRope", &WorldBinding::cutRope)
      .function("teleportRope", &WorldBinding::teleportRope)
      .function("resetRope", &WorldBinding::resetRope)
      .function("addCloth", &WorldBinding::addCloth)
      .function("removeCloth", &WorldBinding::removeCloth)
      .function("setClothParams", &WorldBinding::setClothParams)
      .function("clothParams", &WorldBinding::clothParams)
      .function("clothParticleCount", &WorldBinding::clothParticleCount)
      .function("clothPositionsPtr", &WorldBinding::clothPositionsPtr)
      .function("clothNormalsPtr", &WorldBinding::clothNormalsPtr)
      .function("clothTrianglesPtr", &WorldBinding::clothTrianglesPtr)
      .function("clothTriangleCount", &WorldBinding::clothTriangleCount)
      .function("clothVertexMapPtr", &WorldBinding::clothVertexMapPtr)
      .function("clothVertexCount", &WorldBinding::clothVertexCount)
      .function("clothStats", &WorldBinding::clothStats)
      .function("clothParticle", &WorldBinding::clothParticle)
      .function("setClothParticleVelocity", &WorldBinding::setClothParticleVelocity)
      .function("pinCloth", &WorldBinding::pinCloth)
      .function("unpinCloth", &WorldBinding::unpinCloth)
      .function("teleportCloth", &WorldBinding::teleportCloth)
      .function("resetCloth", &WorldBinding::resetCloth)
      .function("addChain", &WorldBinding::addChain)
      .function("removeChain", &WorldBinding::removeChain)
      .function("setChainParams", &WorldBinding::setChainParams)
      .function("chainParams", &WorldBinding::chainParams)
      .function("chainJointCount", &WorldBinding::chainJointCount)
      .function("setChainRoot", &WorldBinding::setChainRoot)
      .function("setChainSpace", &WorldBinding::setChainSpace)
      .function("teleportChain", &WorldBinding::teleportChain)
      .function("resetChain", &WorldBinding::resetChain)
      .function("chainPoseBlock", &WorldBinding::chainPoseBlock)
      .function("chainRootsBlock", &WorldBinding::chainRootsBlock)
      .function("objectStatesBlock", &WorldBinding::objectStatesBlock)
      .function("setChainPhysicsWeight", &WorldBinding::setChainPhysicsWeight)
      .function("boostChain", &WorldBinding::boostChain)
      .function("addChainLinks", &WorldBinding::addChainLinks)
      .function("removeChainLinks", &WorldBinding::removeChainLinks)
      .function("setChainLinksParams", &WorldBinding::setChainLinksParams)
      .function("chainLinksParams", &WorldBinding::chainLinksParams)
      .function("chainLinksCount", &WorldBinding::chainLinksCount)
      .function("chainLinksPairs", &WorldBinding::chainLinksPairs)
      .function("chainLinksRestLengths", &WorldBinding::chainLinksRestLengths)
      .function("chainPositionsPtr", &WorldBinding::chainPositionsPtr)
      .function("chainRotationsPtr", &WorldBinding::chainRotationsPtr)
      .function("chainLocalRotationsPtr", &WorldBinding::chainLocalRotationsPtr)
      .function("chainStats", &WorldBinding::chainStats)
      .function("chainParticle", &WorldBinding::chainParticle)
      .function("setChainParticleVelocity", &WorldBinding::setChainParticleVelocity)
      .function("addAnchor", &WorldBinding::addAnchor)
      .function("removeAnchor", &WorldBinding::removeAnchor)
      .function("setAnchorPosition", &WorldBinding::setAnchorPosition)
      .function("teleportAnchor", &WorldBinding::teleportAnchor)
      .function("anchorPosition", &WorldBinding::anchorPosition)
      .function("pin", &WorldBinding::pin)
      .function("unpin", &WorldBinding::unpin)
      .function("addCollider", &WorldBinding::addCollider)
      .function("removeCollider", &WorldBinding::removeCollider)
      .function("setColliderTransform", &WorldBinding::setColliderTransform)
      .function("teleportCollider", &WorldBinding::teleportCollider)
      .function("setColliderEnabled", &WorldBinding::setColliderEnabled)
      .function("setColliderFriction", &WorldBinding::setColliderFriction)
      .function("addWindZone", &WorldBinding::addWindZone)
      .function("setWindZone", &WorldBinding::setWindZone)
      .function("removeWindZone", &WorldBinding::removeWindZone)
      .function("airVelocityAt", &WorldBinding::airVelocityAt)
      .function("stateHash", &WorldBinding::stateHash)
      .function("shiftOrigin", &WorldBinding::shiftOrigin)
      .function("stats", &WorldBinding::stats)
      .function("layoutVersion", &WorldBinding::layoutVersion)
      .function("objects", &WorldBinding::objects)
      .function("saveSnapshot", &WorldBinding::saveSnapshot)
      .function("loadSnapshot", &WorldBinding::loadSnapshot)
      .function("saveSnapshotJson", &WorldBinding::saveSnapshotJson)
      .function("loadSnapshotJson", &WorldBinding::loadSnapshotJson)
      .function("events", &WorldBinding::events)
      .function("eventCount", &WorldBinding::eventCount)
      .function("setEnabled", &WorldBinding::setEnabled)
      .function("wake", &WorldBinding::wake)
      .function("activityFlags", &WorldBinding::activityFlags)
      .function("activityUpdates", &WorldBinding::activityUpdates)
      .function("lastError", &WorldBinding::lastError)
      .function("lastCode", &WorldBinding::lastCode)
      .function("address", &WorldBinding::address);
}
