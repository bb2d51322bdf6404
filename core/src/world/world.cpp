// Creation, settings, the frame (fixed steps, containment, debug checks), events and inspection.
#include "solver/chain_lanes.h"
#include "world/world_impl.h"

namespace wisp {

namespace {
std::atomic<uint32_t> gNextWorldTag{1};
}  // namespace

// A collider's pose at fraction alpha of the way from the previous target to the current one
// (exactly the target at 1).
static Transform colliderEnd(const ColliderSlot& c, float alpha) {
  if (alpha >= 1.0f) return c.def.transform;
  return {lerp(c.prev.position, c.def.transform.position, alpha), nlerp(c.prev.rotation, c.def.transform.rotation, alpha)};
}

void World::Impl::preparePaths(bool stepping, float alpha) {
  for (size_t i = 0; i < anchors.size(); ++i) {
    const AnchorSlot& a = anchors[i];
    // the last fixed step ends on the line from the previous frame's target to this one's
    const Vec3 end = stepping ? lerp(a.prev, a.to, alpha) : (a.jump ? a.to : a.from);
    anchorPaths[i] = {a.from, end};
  }
  colliderPaths.clear();
  for (const ColliderSlot& c : colliders) {
    if (!c.alive || !c.def.enabled) continue;
    ColliderPath path = pathOf(c.def, c.from, c.scale);
    path.to = colliderEnd(c, alpha);
    colliderPaths.push_back(path);
  }
}

void World::Impl::runFrame(int fixedSteps, float alpha) {
  rebuildLists();
  StepContext ctx;
  ctx.setTiming(fixedSteps, settings.substeps, static_cast<float>(settings.fixedDt / settings.substeps));
  ctx.alpha = alpha;
  ctx.iterations = settings.iterations;
  ctx.time0 = static_cast<double>(steps) * settings.fixedDt;
  ctx.gravity = settings.gravity;
  ctx.setAir(air());
  ctx.collisions = settings.collisions;
  ctx.anchors = anchorPaths.data();
  ctx.colliders = colliderPaths.data();
  ctx.colliderCount = static_cast<int>(colliderPaths.size());
  const int threads = stepThreads(totalParticles);
  poseCollidersAtSubsteps(ctx);
  // objects far from the world's origin: rebased when they travelled, and given what they meet
  // in their own frames (serially: this only converts a few poses per object)
  forEachObject([&](auto& o) {
    rebase(o);
    localize(o);
  });

  planActivity(fixedSteps);  // wakes disturbed sleepers; who runs, and how many steps

  // The frame as the object sees it: its share of the fixed steps (updateEvery) and, far out,
  // what it meets in its own frame.
  auto contextOf = [&](const auto& obj) { return frameFor(obj, objectContext(ctx, obj.activity, obj.params.updateEvery)); };
  // Disabled, sleeping and not-due objects are skipped whole. Each object notes whether its state
  // went non-finite, and applies its speed cap, in its own job (KindRow::step).
  groupChains(fixedSteps, threads);
  groupRopes(fixedSteps);
  auto simulate = [&](ObjectRef o, int t) {
    if (o.kind == ObjectKind::Chain && chainInGroup[o.index]) return;  // in a lane group
    if (o.kind == ObjectKind::Rope && ropeInGroup[o.index]) return;
    withKind(o.kind, [&](auto& store) {
      auto& obj = store[o.index];
      if (obj.activity.frameSteps == 0) return;
      rowOf(store).step(obj, contextOf(obj), t);
    });
  };
  // Work items: the small objects, then the lane groups of chains (one or two per item,
  // chainItems) and of ropes (run with the world's context: solvesInLanes admits only objects
  // whose own context, contextOf, is that one), then the chain links sets (each one item: its
  // chains are solved together, world_chain_links.cpp).
  auto stepRopeGroup = [&](const LaneGroup& g) {
    RopeState* members[wide::kWidth];
    for (int l = 0; l < g.count; ++l) members[l] = &ropes[g.member[l]];
    KindRow<RopeState>::stepGroup(members, g.count, ctx);
  };
  auto stepChainItem = [&](GroupPair item) {
    ChainState* members[2][wide::kWidth];
    ChainGroup pair[2];
    int count = 0;
    for (int g : {item.first, item.second}) {
      if (g < 0) continue;
      const LaneGroup& group = chainGroups[g];
      for (int l = 0; l < group.count; ++l) members[count][l] = &chains[group.member[l]];
      pair[count] = {members[count], group.count, &chainGroupParams[g]};
      ++count;
    }
    KindRow<ChainState>::stepGroups(pair, count, ctx);
  };
  const int items = static_cast<int>(smallObjects.size());
  const int groups = static_cast<int>(chainItems.size());
  const int ropeItems = static_cast<int>(ropeGroups.size());
  const int lanes = items + groups + ropeItems;
  jobs::parallelFor(lanes + static_cast<int>(linkSets.size()), threads, [&](int k) {
    if (k < items) return simulate(smallObjects[k], 1);
    if (k >= lanes) return stepChainLinks(chainLinks[linkSets[k - lanes]], ctx);
    if (k >= items + groups) return stepRopeGroup(ropeGroups[k - items - groups]);
    stepChainItem(chainItems[k - items]);
  });
  for (ObjectRef o : bigObjects) simulate(o, threads);

  contain();
  reportClampedSpeeds();
  settleActivity();
  if (settings.debugChecks) debugCheck();

  steps += static_cast<uint64_t>(fixedSteps);
}

// StepContext::colliderPoses: the colliders at every substep boundary of the frame, posed once
// here (serially: colliders x substeps poses) instead of in every chain's every substep. Sized
// for the longest frame maxFrameDt allows, so later frames allocate nothing.
void World::Impl::poseCollidersAtSubsteps(StepContext& ctx) {
  const int nc = ctx.colliderCount, total = ctx.totalSubsteps;
  if (nc == 0 || chains.liveCount() == 0) return;
  const size_t needed = static_cast<size_t>(total + 1) * static_cast<size_t>(nc);
  if (colliderPoses.size() < needed) {
    const size_t longest = static_cast<size_t>(settings.maxFrameDt / settings.fixedDt + 2.0) * static_cast<size_t>(ctx.substeps);
    colliderPoses.resize(std::max(needed, (longest + 1) * static_cast<size_t>(nc)));
  }
  for (int sub = 0; sub <= total; ++sub) {
    // the chains' substep boundaries, computed as they compute them (chain_solver.cpp)
    const float t = static_cast<float>(sub) / static_cast<float>(total);
    for (int ci = 0; ci < nc; ++ci) colliderPoses[static_cast<size_t>(sub) * nc + ci] = poseAt(colliderPaths[ci], t);
  }
  ctx.colliderPoses = colliderPoses.data();
  ctx.posedColliders = colliderPaths.data();
  ctx.posedSubsteps = total;
}

void World::Impl::reportClampedSpeeds() {
  forEachKind([&](auto& objects) {
    using Row = decltype(rowOf(objects));
    if constexpr (Row::capsSpeed) {
      for (size_t i = 0; i < objects.size(); ++i) {
        auto& o = objects[i];
        if (!o.alive || o.clampedSpeed == 0.0f) continue;
        report(WorldEvent::Type::SpeedClamped, Row::kind, static_cast<uint32_t>(i), o.generation,
               std::string(Row::name) + " " + std::to_string(i) + ": particles up to " + std::to_string(o.clampedSpeed) +
                   " m/s were slowed to maxSpeed " + std::to_string(o.params.maxSpeed) + " m/s");
        o.clampedSpeed = 0;
      }
    }
  });
}

void World::Impl::contain() {
  forEachKind([&](auto& objects) {
    using Row = decltype(rowOf(objects));
    for (size_t i = 0; i < objects.size(); ++i) {
      auto& o = objects[i];
      if (!o.alive || !o.broken) continue;
      const int p = firstBadParticle(o);
      resetToRest(o);
      o.broken = false;
      report(WorldEvent::Type::ObjectReset, Row::kind, static_cast<uint32_t>(i), o.generation,
             std::string(Row::name) + " " + std::to_string(i) + ": particle " + std::to_string(p) +
                 " became non-finite; the object was reset to its rest pose on its anchors");
    }
  });
}

// WorldSettings::debugChecks: the first problem of each object, as an event (KindRow::check).
void World::Impl::debugCheck() {
  const int nc = static_cast<int>(colliderPaths.size());
  forEachKind([&](auto& objects) {
    using Row = decltype(rowOf(objects));
    for (size_t i = 0; i < objects.size(); ++i) {
      const auto& o = objects[i];
      if (!o.alive || !o.activity.enabled) continue;
      const std::string m = Row::check(*this, static_cast<int>(i), o, nc);
      if (!m.empty()) report(WorldEvent::Type::InvariantViolated, Row::kind, static_cast<uint32_t>(i), o.generation, m);
    }
  });
}

World::World(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
World::~World() = default;

Status World::validate(const WorldSettings& s) { return validateWorldSettings(s); }

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
  if (w.settings.rejectFrameDt > 0 && frameDt > w.settings.rejectFrameDt)
    return Status::Error(StatusCode::InvalidArgument,
                         "step: frameDt " + formatValue(frameDt) + " s is longer than WorldSettings.rejectFrameDt (" +
                             formatValue(w.settings.rejectFrameDt) + " s); after a long pause call step with a short dt");
  w.events.clear();
  double dropped = frameDt > w.settings.maxFrameDt ? frameDt - w.settings.maxFrameDt : 0.0;
  const double frame = std::min(frameDt, w.settings.maxFrameDt);
  w.accumulator += frame;
  // A relative tolerance so that frame times that sum to whole steps in exact arithmetic
  // (144 frames of 1/144 s = 60 steps of 1/60 s) are not one step short from rounding.
  const double dt = w.settings.fixedDt;
  int k = 0;
  while (w.accumulator >= dt * (1.0 - 1e-9)) {
    w.accumulator -= dt;
    ++k;
  }
  if (std::fabs(w.accumulator) < dt * 1e-9) w.accumulator = 0;  // round-off, not time
  // Every fixed step of this call ends after the previous call's end time (the accumulator held
  // less than one step), so the anchors' and colliders' targets at those times lie on the line
  // from the previous call's targets to this one's; the last ends `leftover` before this call's end.
  const float alpha = w.accumulator > 0 ? static_cast<float>(1.0 - w.accumulator / frame) : 1.0f;
  w.preparePaths(k > 0, alpha);
  w.resolveTeleports(k > 0);
  if (k > 0) w.runFrame(k, alpha);
  for (size_t i = 0; i < w.anchors.size(); ++i) {
    AnchorSlot& a = w.anchors[i];
    if (k > 0 || a.jump) a.from = w.anchorPaths[i].to;
    a.prev = a.to;
    a.jump = false;
  }
  for (ColliderSlot& c : w.colliders) {
    if (k > 0) c.from = colliderEnd(c, alpha);
    c.prev = c.def.transform;
  }
  for (ChainState& c : w.chains) {
    if (!c.alive) continue;
    c.rootPrev = c.rootTo;
    c.spacePrev = c.spaceTo;
    if (c.animated) std::copy(c.animTo.begin(), c.animTo.end(), c.animPrev.begin());
  }
  if (report) {
    report->fixedSteps = k;
    report->droppedTime = dropped;
    report->leftover = std::max(0.0, w.accumulator);
  }
  return Status::Ok();
}

const WorldSettings& World::settings() const { return impl_->settings; }

// Whether two settings move objects the same way (a change of anything else wakes no one).
static bool sameMotion(const WorldSettings& a, const WorldSettings& b) {
  auto same = [](Vec3 u, Vec3 v) { return u.x == v.x && u.y == v.y && u.z == v.z; };
  return same(a.gravity, b.gravity) && a.fixedDt == b.fixedDt && a.substeps == b.substeps &&
         a.iterations == b.iterations && a.collisions == b.collisions && same(a.wind.direction, b.wind.direction) &&
         a.wind.speed == b.wind.speed && a.wind.turbulence == b.wind.turbulence &&
         a.wind.turbulenceScale == b.wind.turbulenceScale && a.wind.seed == b.wind.seed;
}

Status World::setSettings(const WorldSettings& s) {
  WISP_TRY(validate(s));
  if (!sameMotion(impl_->settings, s)) impl_->wakeAll("the world's gravity, wind or step settings changed");
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

// --- events and containment ----------------------------------------------------------------------

const std::vector<WorldEvent>& World::events() const { return impl_->events; }

template <class Id>
static Status injectInto(World::Impl& w, Id id, int particle) {
  auto* o = w.object(id);
  if (!o) return badHandle(kindName(id), id);
  if (particle < 0 || particle >= o->count()) return badIndex("particle", particle, o->count());
  o->px[particle] = std::numeric_limits<float>::quiet_NaN();
  wakeLater(*o, "a fault was injected");
  return Status::Ok();
}
Status World::injectFault(RopeId id, int particle) { return injectInto(*impl_, id, particle); }
Status World::injectFault(ClothId id, int particle) { return injectInto(*impl_, id, particle); }
Status World::injectFault(ChainId id, int particle) { return injectInto(*impl_, id, particle); }

// --- inspection --------------------------------------------------------------------------------

WorldStats World::stats() const {
  const Impl& w = *impl_;
  WorldStats s;
  w.forEachKind([&](const auto& objects) {
    using Row = decltype(w.rowOf(objects));
    for (const auto& o : objects) {
      if (!o.alive) continue;
      ++(s.*Row::statsCount);
      s.particles += o.count();
      s.constraints += Row::constraints(o);
    }
  });
  s.anchors = w.anchors.liveCount();
  s.colliders = w.colliders.liveCount();
  s.threads = w.stepThreads(s.particles);
  s.simd = wide::kEnabled;
  return s;
}

uint64_t World::layoutVersion() const { return impl_->layoutVersion; }

}  // namespace wisp
