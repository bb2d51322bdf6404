// Stage helpers shared by every object kind.
#pragma once
#include <algorithm>

#include "colliders/contact.h"
#include "constraints/tether.h"
#include "jobs/job_pool.h"
#include "particles/particles.h"
#include "solver/step_context.h"

namespace wisp {

// Work inside one stage is cut into chunks of this many elements. The cut does not depend on
// the thread count, and the items of one stage touch disjoint data.
constexpr int kChunk = 1024;

// The threads solving one object together. Every member runs the same substep loop; a stage's
// chunks are dealt out round-robin (chunk c to member c % size) and members meet at a barrier
// after each stage, so one frame costs one wake-up instead of one per stage. A team of one runs
// everything inline. Which member runs a chunk never changes the result.
class Team {
 public:
  Team() = default;
  Team(int index, int size, jobs::SpinBarrier* barrier) : index_(index), size_(size), barrier_(barrier) {}
  int size() const { return size_; }

  // fn(b, e) over [begin, end) in chunks, then everyone waits for everyone.
  template <class F>
  void forChunks(int begin, int end, F&& fn) {
    const int n = end - begin;
    if (n <= 0) return;
    if (size_ == 1) {
      fn(begin, end);
      return;
    }
    const int chunks = (n + kChunk - 1) / kChunk;
    for (int c = index_; c < chunks; c += size_) fn(begin + c * kChunk, begin + std::min(n, (c + 1) * kChunk));
    sync();
  }
  template <class F>
  void forChunks(int n, F&& fn) { forChunks(0, n, fn); }

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

// Stage::DriveAnchors: pinned particles follow their anchors' paths (t in [0, 1] over the frame).
inline void driveAnchors(Particles& p, const StepContext& ctx, float t, Team& team) {
  if (p.pinnedList.empty()) return;  // every member sees the same list: no barrier needed
  team.serial([&] {
    for (int32_t i : p.pinnedList) {
      const AnchorPath& a = ctx.anchors[p.anchor[i]];
      Vec3 x = lerp(a.from, a.to, t);
      p.px[i] = x.x; p.py[i] = x.y; p.pz[i] = x.z;
    }
  });
}

// Stage::SolveLeashes: particles pinned with a maximum distance (serial: they are few).
inline void solveLeashes(Particles& p, const StepContext& ctx, float t, Team& team) {
  if (p.leashList.empty()) return;
  team.serial([&] {
    for (int32_t i : p.leashList) {
      const AnchorPath& a = ctx.anchors[p.anchor[i]];
      solveLeash(p, i, lerp(a.from, a.to, t));
    }
  });
}

// Stage::Collide, against every enabled collider at its pose at tNow, moving since tPrev.
inline void collideAll(Particles& p, float radius, uint32_t mask, const StepContext& ctx, float tPrev, float tNow,
                       Team& team) {
  for (int c = 0; c < ctx.colliderCount; ++c) {
    const ColliderPath& path = ctx.colliders[c];
    if ((path.groups & mask) == 0) continue;
    ColliderPose before = poseAt(path, tPrev);
    ColliderPose now = poseAt(path, tNow);
    Vec3 move = now.position - before.position;
    team.forChunks(p.count(), [&](int b, int e) {
      for (int i = b; i < e; ++i)
        if (p.invMass[i] > 0.0f) collideParticle(p, i, now, move, radius);
    });
  }
}

}  // namespace wisp
