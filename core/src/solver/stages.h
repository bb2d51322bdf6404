// Stage helpers shared by every object kind.
#pragma once
#include <algorithm>

#include "colliders/contact.h"
#include "constraints/tether.h"
#include "jobs/job_pool.h"
#include "particles/particles.h"
#include "solver/step_context.h"

namespace wisp {

// A stage shorter than this many elements per member runs on fewer members: splitting tiny
// stages costs more in shared cache lines than it saves.
constexpr int kMinPart = 512;

// The threads solving one object together. Every member runs the same substep loop; a stage's
// range is cut into one contiguous part per member (part t to member t), and members meet at a
// barrier after each stage, so one frame costs one wake-up instead of one per stage. Every stage
// cuts its range the same way, and particles and constraints are laid out in space order, so a
// member keeps working on the same region of an object (and the same cache lines) from stage to
// stage. The elements of one stage touch disjoint data, so the cut never changes the result;
// parts start at multiples of 4 so SIMD quads stay as in a single-threaded run. A team of one
// runs everything inline.
class Team {
 public:
  Team() = default;
  Team(int index, int size, jobs::SpinBarrier* barrier) : index_(index), size_(size), barrier_(barrier) {}
  int size() const { return size_; }

  // fn(b, e) over this member's part of [begin, end), then everyone waits for everyone.
  template <class F>
  void forChunks(int begin, int end, F&& fn) {
    forParts(begin, end, kMinPart, fn);
    sync();
  }
  template <class F>
  void forChunks(int n, F&& fn) { forChunks(0, n, fn); }

  // fn(b, e) over this member's part of [begin, end) (parts of at least minPart elements), with
  // no barrier: for fusing work into a stage whose barrier follows.
  template <class F>
  void forParts(int begin, int end, int minPart, F&& fn) const {
    int b, e;
    if (part(end - begin, minPart, &b, &e)) fn(begin + b, begin + e);
  }

  // This member's part [*b, *e) of n elements; false when it has none.
  bool part(int n, int minPart, int* b, int* e) const {
    if (n <= 0) return false;
    const int parts = std::min(size_, std::max(1, n / minPart));
    if (index_ >= parts) return false;
    auto cut = [n, parts](int t) {
      return t == parts ? n : static_cast<int>(static_cast<int64_t>(n) * t / parts) & ~3;
    };
    *b = cut(index_);
    *e = cut(index_ + 1);
    return *b < *e;
  }

  // fn() on one member, then everyone waits.
  template <class F>
  void serial(F&& fn) {
    if (index_ == 0) fn();
    sync();
  }
  void sync() {
    if (size_ > 1) barrier_->wait();
  }

 private:
  int index_ = 0;
  int size_ = 1;
  jobs::SpinBarrier* barrier_ = nullptr;
};

// Runs body(team) on `threads` threads as one team (inline when threads < 2).
template <class F>
void runTeam(int threads, F&& body) {
  threads = jobs::regionSize(threads);
  if (threads <= 1) {
    Team solo;
    body(solo);
    return;
  }
  jobs::SpinBarrier barrier(threads);
  jobs::parallelRegion(threads, [&](int t) {
    Team team(t, threads, &barrier);
    body(team);
  });
}

// DriveAnchors: pinned particles follow their anchors' paths (t in [0, 1] over the frame).
inline void driveAnchorsIn(Particles& p, const StepContext& ctx, float t, int begin, int end) {
  for (int32_t i : p.pinnedList) {
    if (i < begin || i >= end) continue;
    const AnchorPath& a = ctx.anchors[p.anchor[i]];
    Vec3 x = lerp(a.from, a.to, t);
    p.px[i] = x.x; p.py[i] = x.y; p.pz[i] = x.z;
  }
}
inline void driveAnchors(Particles& p, const StepContext& ctx, float t, Team& team) {
  if (p.pinnedList.empty()) return;  // every member sees the same list: no barrier needed
  team.serial([&] { driveAnchorsIn(p, ctx, t, 0, p.count()); });
}

// SolveLeashes: particles pinned with a maximum distance or a compliance (serial: they are few).
inline void solveLeashes(Particles& p, const StepContext& ctx, float t, Team& team) {
  if (p.leashList.empty()) return;
  team.serial([&] {
    for (int32_t i : p.leashList) {
      const AnchorPath& a = ctx.anchors[p.anchor[i]];
      solveLeash(p, i, lerp(a.from, a.to, t), ctx.h2);
    }
  });
}

// Collide, against every enabled collider at its pose at tNow, moving since tPrev, for
// particles [begin, end). Collider after collider, as each particle sees them in that order
// whatever range it is in.
inline void collideRange(Particles& p, float radius, uint32_t mask, const StepContext& ctx, float tPrev, float tNow,
                         int begin, int end) {
  for (int c = 0; c < ctx.colliderCount; ++c) {
    const ColliderPath& path = ctx.colliders[c];
    if ((path.groups & mask) == 0) continue;
    ColliderPose before = poseAt(path, tPrev);
    ColliderPose now = poseAt(path, tNow);
    Vec3 move = now.position - before.position;
    for (int i = begin; i < end; ++i)
      if (p.invMass[i] > 0.0f) collideParticle(p, i, before, now, move, radius);
  }
}
inline void collideAll(Particles& p, float radius, uint32_t mask, const StepContext& ctx, float tPrev, float tNow,
                       Team& team) {
  team.forChunks(p.count(), [&](int b, int e) { collideRange(p, radius, mask, ctx, tPrev, tNow, b, e); });
}

}  // namespace wisp
