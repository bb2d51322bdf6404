// Per-object activity: enable/disable, sleep when settled, and update rates (updateEvery).
// A disabled or sleeping object is skipped by the step whole (not integrated, not solved), so it
// costs nothing and its state is kept bit for bit. A sleeper wakes on the step that disturbs it.
#include "world/world_impl.h"

namespace wisp {

bool carryOntoAnchors(Particles& o, const AnchorPath* paths);  // world_teleport.cpp

namespace {

bool same(Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
bool same(const Transform& a, const Transform& b) {
  return same(a.position, b.position) && a.rotation.x == b.rotation.x && a.rotation.y == b.rotation.y &&
         a.rotation.z == b.rotation.z && a.rotation.w == b.rotation.w;
}

// Whether a collider moving along `c` may come within `reach` of the box: the box against the
// bounding box of the collider's bounding spheres at both ends (conservative: a false wake costs
// one step, a missed one would freeze an object in mid-air). Planes and inside colliders reach
// everything.
bool mayReach(const ColliderPath& c, Vec3 boxMin, Vec3 boxMax, float reach) {
  if (c.type == ColliderType::Plane || c.inside) return true;
  const float r = std::max(c.radius, c.radiusTop) + c.halfHeight + length(c.halfExtents) + reach;
  const Vec3 a = c.from.position, b = c.to.position;
  return std::min(a.x, b.x) - r <= boxMax.x && std::max(a.x, b.x) + r >= boxMin.x &&
         std::min(a.y, b.y) - r <= boxMax.y && std::max(a.y, b.y) + r >= boxMin.y &&
         std::min(a.z, b.z) - r <= boxMax.z && std::max(a.z, b.z) + r >= boxMin.z;
}

// How far past its particles' bounds a collider can touch the object (m): the particle radius,
// plus a margin for the motion a wake-up step makes.
constexpr float kWakeMargin = 0.05f;
template <class State>
float reachOf(const State& o) { return o.params.radius + kWakeMargin; }
float reachOf(const ChainState& c) {  // its bones' radii vary along it
  float r = 0;
  for (float v : c.jRadius) r = std::max(r, v);
  return r + kWakeMargin;
}
// Whether the air pushes it (turbulence varies in time: such objects never settle for good).
bool feelsAir(const RopeState& r) { return r.params.drag > 0.0f; }
bool feelsAir(const ClothState& c) { return c.params.dragCoefficient > 0.0f || c.params.liftCoefficient > 0.0f; }
bool feelsAir(const ChainState& c) { return c.params.drag > 0.0f; }
bool gusty(const WindSettings& w) { return w.turbulence > 0.0f && w.speed > 0.0f; }

// Why a sleeping object must wake now, or nullptr: its anchors (or a chain's root) move or jump.
const char* disturbance(const Particles& o, const AnchorPath* paths, const std::vector<uint8_t>& jumped) {
  for (const std::vector<int32_t>* list : {&o.pinnedList, &o.leashList})
    for (int32_t i : *list) {
      const int a = o.anchor[i];
      if (jumped[a] || !same(paths[a].from, paths[a].to)) return "its anchors moved";
    }
  return nullptr;
}
const char* disturbance(const ChainState& c, const AnchorPath*, const std::vector<uint8_t>&) {
  if (!same(c.rootFrom, c.rootTo)) return "its root moved";
  if (c.ownSpace && !same(c.spaceFrom, c.spaceTo)) return "its space moved";
  return nullptr;
}

void boundsOf(const Particles& o, Activity& a) {
  Vec3 lo{o.px[0], o.py[0], o.pz[0]}, hi = lo;
  for (int i = 1; i < o.count(); ++i) {
    lo = {std::min(lo.x, o.px[i]), std::min(lo.y, o.py[i]), std::min(lo.z, o.pz[i])};
    hi = {std::max(hi.x, o.px[i]), std::max(hi.y, o.py[i]), std::max(hi.z, o.pz[i])};
  }
  // in world coordinates, where colliders are (an object far out keeps its particles relative to
  // its own origin); float rounding there is far under the reach the test allows
  const Vec3 origin{static_cast<float>(o.origin.x), static_cast<float>(o.origin.y), static_cast<float>(o.origin.z)};
  a.boxMin = lo + origin;
  a.boxMax = hi + origin;
}

// At rest: velocities and the reactions the solvers carry between substeps zeroed.
void stopParticles(Particles& o) {
  for (int i = 0; i < o.count(); ++i) {
    o.vx[i] = o.vy[i] = o.vz[i] = 0;
    o.ox[i] = o.px[i]; o.oy[i] = o.py[i]; o.oz[i] = o.pz[i];
  }
}

}  // namespace

StepContext World::Impl::objectContext(const StepContext& ctx, const Activity& a, int updateEvery) const {
  StepContext c = ctx;
  c.setTiming(a.frameSteps, ctx.substeps, ctx.h);
  if (updateEvery <= 1) return c;
  const int n = updateEvery, k = ctx.fixedSteps;
  c.setTiming(a.frameSteps, ctx.substeps, ctx.h * static_cast<float>(n));
  // its first step ends at the end of the frame's fixed step firstStep and began n steps earlier
  const int64_t start = static_cast<int64_t>(steps) + a.firstStep + 1 - n;
  c.time0 = static_cast<double>(start) * settings.fixedDt;
  c.tStart = static_cast<float>(a.firstStep + 1 - n) / static_cast<float>(k);
  c.tSpan = static_cast<float>(a.frameSteps * n) / static_cast<float>(k);
  return c;
}

void World::Impl::planActivity(int fixedSteps) {
  forEachKind([&](auto& objects) {
    const ObjectKind kind = rowOf(objects).kind;
    for (size_t i = 0; i < objects.size(); ++i) {
      auto& o = objects[i];
      Activity& a = o.activity;
      a.frameSteps = 0;
      if (!o.alive || !a.enabled) continue;
      if (a.sleeping) {
        const char* why = disturbance(o, anchorPaths.data(), anchorJumped);
        for (int c = 0; !why && c < static_cast<int>(colliderPaths.size()); ++c) {
          const ColliderPath& p = colliderPaths[c];
          if (settings.collisions && o.params.collide && (p.groups & o.params.colliderMask) && !same(p.from, p.to) &&
              mayReach(p, a.boxMin, a.boxMax, reachOf(o)))
            why = "a collider moved near it";
        }
        if (why) wakeLater(a, why);
      }
      if (a.woke) {
        report(WorldEvent::Type::Woke, kind, static_cast<uint32_t>(i), o.generation,
               std::string(kindName(kind)) + " " + std::to_string(i) + " woke: " + a.woke);
        a.woke = nullptr;
      }
      if (a.sleeping) continue;
      // fixed steps g = steps + j of this frame it runs on: (g + phase) % n == 0
      const uint64_t n = static_cast<uint64_t>(o.params.updateEvery);
      const int first = static_cast<int>((n - (steps + a.phase) % n) % n);
      if (first < fixedSteps) {
        a.firstStep = first;
        a.frameSteps = (fixedSteps - 1 - first) / static_cast<int>(n) + 1;
      }
    }
  });
}

void World::Impl::settleActivity() {
  const double dt = settings.fixedDt;
  bool turbulent = gusty(settings.wind);
  for (const WindZoneSlot& z : windZones) turbulent = turbulent || (z.alive && gusty(z.def.wind));
  forEachKind([&](auto& objects) {
    const ObjectKind kind = rowOf(objects).kind;
    for (size_t i = 0; i < objects.size(); ++i) {
      auto& o = objects[i];
      Activity& a = o.activity;
      if (!o.alive || a.frameSteps == 0) continue;
      a.updates += static_cast<uint64_t>(a.frameSteps);
      const auto& p = o.params;
      if (!(p.sleepSpeed > 0.0f)) continue;
      if (!(a.speed < p.sleepSpeed) || (turbulent && feelsAir(o))) {
        a.stillTime = 0;
        continue;
      }
      a.stillTime += static_cast<float>(a.frameSteps * p.updateEvery * dt);
      if (a.stillTime < p.sleepTime) continue;
      a.sleeping = true;
      boundsOf(o, a);
      report(WorldEvent::Type::Slept, kind, static_cast<uint32_t>(i), o.generation,
             std::string(kindName(kind)) + " " + std::to_string(i) + " fell asleep: no particle faster than " +
                 std::to_string(p.sleepSpeed) + " m/s for " + std::to_string(a.stillTime) + " s");
    }
  });
}

void World::Impl::wakeNear(const ColliderPath& c, const char* why) {
  forEachObject([&](auto& o) {
    if (o.activity.sleeping && o.params.collide && (c.groups & o.params.colliderMask) &&
        mayReach(c, o.activity.boxMin, o.activity.boxMax, reachOf(o)))
      wakeLater(o, why);
  });
}

void World::Impl::wakeAll(const char* why) {
  forEachObject([&](auto& o) { wakeLater(o, why); });
}

// --- the API ----------------------------------------------------------------------------------

namespace {

// Onto its anchors' current positions (where the next step's paths start), at rest.
void restOnAnchors(World::Impl& w, Particles& o) {
  for (int32_t i : o.leashList) {
    const Vec3 a = w.anchors[o.anchor[i]].from;
    w.anchorPaths[o.anchor[i]] = {Vec3{o.px[i], o.py[i], o.pz[i]}, a};
  }
  for (int32_t i : o.pinnedList) {
    const Vec3 a = w.anchors[o.anchor[i]].from;
    w.anchorPaths[o.anchor[i]] = {a, a};
  }
  carryOntoAnchors(o, w.anchorPaths.data());
  stopParticles(o);
  o.writeOutput(0, o.count());
}

template <class Id>
Status setEnabledOf(World::Impl& w, World& world, Id id, bool enabled) {
  auto* o = w.object(id);
  if (!o) return badHandle(kindName(id), id);
  Activity& a = o->activity;
  if (a.enabled == enabled) return Status::Ok();
  a.enabled = enabled;
  a.sleeping = false;
  a.stillTime = 0;
  a.woke = nullptr;
  if (!enabled) return Status::Ok();
  if constexpr (std::is_same_v<Id, ChainId>) {
    // carried from the root it last ran with onto the current one, then at rest
    ChainState& c = *o;
    WISP_TRY(world.teleportChain(id, c.rootTo));
    const bool vrm = c.params.mode == ChainMode::Vrm;
    for (int j = 0; j < c.joints(); ++j) {
      c.vx[j] = c.vy[j] = c.vz[j] = 0;
      if (vrm) {  // VRM: q is the tail, o the previous tail
        c.ox[j] = c.qx[j]; c.oy[j] = c.qy[j]; c.oz[j] = c.qz[j];
      } else {   // q - x is the reaction carried to the next substep
        c.ox[j] = c.qx[j] = c.px[j]; c.oy[j] = c.qy[j] = c.py[j]; c.oz[j] = c.qz[j] = c.pz[j];
      }
    }
    c.wx = c.wy = c.wz = 0;
  } else {
    (void)world;
    restOnAnchors(w, *o);
  }
  return Status::Ok();
}

template <class Id>
Status wakeOf(World::Impl& w, Id id) {
  auto* o = w.object(id);
  if (!o) return badHandle(kindName(id), id);
  wakeLater(*o, "wake() was called");
  return Status::Ok();
}

template <class Id>
Status activityOf(const World::Impl& w, Id id, World::ObjectActivity* out) {
  const auto* o = w.object(id);
  if (!o) return badHandle(kindName(id), id);
  out->enabled = o->activity.enabled;
  out->sleeping = o->activity.sleeping;
  out->updates = o->activity.updates;
  return Status::Ok();
}

}  // namespace

Status World::setEnabled(RopeId id, bool enabled) { return setEnabledOf(*impl_, *this, id, enabled); }
Status World::setEnabled(ClothId id, bool enabled) { return setEnabledOf(*impl_, *this, id, enabled); }
Status World::setEnabled(ChainId id, bool enabled) { return setEnabledOf(*impl_, *this, id, enabled); }
Status World::wake(RopeId id) { return wakeOf(*impl_, id); }
Status World::wake(ClothId id) { return wakeOf(*impl_, id); }
Status World::wake(ChainId id) { return wakeOf(*impl_, id); }
Status World::activity(RopeId id, ObjectActivity* out) const { return activityOf(*impl_, id, out); }
Status World::activity(ClothId id, ObjectActivity* out) const { return activityOf(*impl_, id, out); }
Status World::activity(ChainId id, ObjectActivity* out) const { return activityOf(*impl_, id, out); }

}  // namespace wisp
