// Stage helpers shared by every object kind.
#pragma once
#include <algorithm>

#include "colliders/contact.h"
#include "jobs/job_pool.h"
#include "particles/particles.h"
#include "solver/step_context.h"

namespace wisp {

// Work inside one stage is cut into chunks of this many elements. The cut does not depend on
// the thread count, and the items of one stage touch disjoint data.
constexpr int kChunk = 1024;

// Runs fn(begin, end) over [0, n) in chunks, on `threads` threads.
template <class F>
void forChunks(int n, int threads, F&& fn) {
  if (n <= 0) return;
  if (threads <= 1 || n <= kChunk) {
    fn(0, n);
    return;
  }
  int chunks = (n + kChunk - 1) / kChunk;
  jobs::parallelFor(chunks, threads, [&](int c) { fn(c * kChunk, std::min(n, (c + 1) * kChunk)); });
}

// Same over [begin, end).
template <class F>
void forChunks(int begin, int end, int threads, F&& fn) {
  forChunks(end - begin, threads, [&](int b, int e) { fn(begin + b, begin + e); });
}

// Stage::DriveAnchors: pinned particles follow their anchors' paths (t in [0, 1] over the frame).
inline void driveAnchors(Particles& p, const StepContext& ctx, float t) {
  for (int32_t i : p.pinnedList) {
    const AnchorPath& a = ctx.anchors[p.anchor[i]];
    Vec3 x = lerp(a.from, a.to, t);
    p.px[i] = x.x; p.py[i] = x.y; p.pz[i] = x.z;
  }
}

// Stage::Collide, against every enabled collider at its pose at tNow, moving since tPrev.
inline void collideAll(Particles& p, float radius, const StepContext& ctx, float tPrev, float tNow, int threads) {
  for (int c = 0; c < ctx.colliderCount; ++c) {
    const ColliderPath& path = ctx.colliders[c];
    ColliderPose before = poseAt(path, tPrev);
    ColliderPose now = poseAt(path, tNow);
    Vec3 move = now.position - before.position;
    forChunks(p.count(), threads, [&](int b, int e) {
      for (int i = b; i < e; ++i)
        if (p.invMass[i] > 0.0f) collideParticle(p, i, now, move, radius);
    });
  }
}

}  // namespace wisp
