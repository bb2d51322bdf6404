// What every rope needs to run one frame's worth of fixed steps: rebuilt by World::step each
// call (no allocation: the arrays it points to belong to the world and only grow when objects
// are added).
#pragma once
#include <algorithm>

#include "colliders/shapes.h"
#include "forces/wind_field.h"
#include "math/frame.h"
#include "math/vec3.h"

namespace wisp {

// Solver stages. Each kind's substep is a fixed sequence written out in its frame function
// (rope_solver.cpp, cloth_solver.cpp, chain_solver.cpp) and named in comments there; there is no
// Stage enum or stage table on purpose. The sequences differ per kind (ropes solve tethers before
// the stretch solve, cloth after it; cloth fuses the velocity update and the anchors into its
// integration, one barrier fewer per substep; chains solve root to tip in one pass), so one shared
// table would either hide those fusions or add barriers, and per-stage timings would need a clock
// read per stage, team member and substep in the hottest loop (callers time step() as a whole,
// as the playground's ms per step does).

// A kinematic target moving from `from` (end of the previous frame) to `to` over this frame.
struct AnchorPath {
  Vec3 from, to;
};

// A collider's pose at the start and end of the frame.
struct ColliderPath {
  ColliderType type;
  Transform from, to;
  float radius, radiusTop, halfHeight;
  Vec3 halfExtents;
  float friction;
  bool inside;
  uint32_t groups;
};

// The path of a collider moving from `from` to its def's transform over the frame. `scale` is
// the uniform scale of its pose (World::setColliderTransform): the def's sizes times it (a plane
// has none), as a three.js object's geometry is drawn at its world scale.
inline ColliderPath pathOf(const ColliderDef& d, const Transform& from, float scale = 1) {
  const float top = d.type == ColliderType::Capsule && d.radiusTop >= 0 ? d.radiusTop : d.radius;
  return {d.type, from, d.transform, d.radius * scale, top * scale, d.halfHeight * scale, d.halfExtents * scale,
          d.friction, d.inside && (d.type == ColliderType::Sphere || d.type == ColliderType::Capsule), d.groups};
}

inline ColliderPose poseAt(const ColliderPath& c, float t) {
  ColliderPose p;
  p.type = c.type;
  p.position = lerp(c.from.position, c.to.position, t);
  p.rotation = nlerp(c.from.rotation, c.to.rotation, t);
  p.axis = turn(p.rotation, Vec3{0, 1, 0});  // a collider frame: math/frame.h
  p.radius = c.radius;
  p.radiusTop = c.radiusTop;
  p.inside = c.inside;
  p.halfHeight = c.halfHeight;
  p.halfExtents = c.halfExtents;
  p.friction = c.friction;
  return p;
}

// Everything a solver needs for one frame. World::runFrame fills the inputs; the quantities
// derived from them are computed here once (setTiming, setAir), not again in each solver.
struct StepContext {
  int fixedSteps = 0;      // fixed steps in this frame
  int substeps = 1;
  int iterations = 1;
  float h = 0;             // s, substep length
  // derived by setTiming from fixedSteps, substeps and h:
  float invH = 0;          // 1/s
  float h2 = 0;            // s^2, h * h: XPBD's compliance alpha becomes alpha / h2
  float stepDt = 0;        // s, one fixed step (h * substeps) as the solvers see it
  float frameDt = 0;       // s, the whole frame (h * totalSubsteps)
  int totalSubsteps = 0;   // fixedSteps * substeps
  double time0 = 0;        // s, world time at the start of the frame
  Vec3 gravity;
  AirField wind;           // set with setAir
  bool airVaries = false;  // derived: wind.varies(), the air differs from point to point
  bool collisions = true;
  const AnchorPath* anchors = nullptr;     // indexed by anchor slot
  const ColliderPath* colliders = nullptr; // enabled colliders only
  int colliderCount = 0;
  // The world's colliders posed once per frame at every substep boundary t = sub / posedSubsteps
  // (sub = 0..posedSubsteps), [sub * colliderCount + i], for the chains' substeps instead of each
  // chain posing them again (the same poseAt, so the same bits). Valid for a context whose
  // `colliders` are `posedColliders`, whose totalSubsteps is posedSubsteps and pathScale 1: see
  // posedCollider.
  const ColliderPose* colliderPoses = nullptr;
  const ColliderPath* posedColliders = nullptr;
  int posedSubsteps = 0;
  // An object updated every N fixed steps (RopeParams::updateEvery) runs its own steps of N * dt:
  // its substeps span frame fractions tStart .. tStart + tSpan of the anchors' and colliders'
  // paths (tStart < 0 when its step began in an earlier frame: held at the frame's start).
  float tStart = 0, tSpan = 1;
  // The frame's last fixed step ends at this fraction of the way from the previous frame's
  // targets to this frame's (1 when the frame ends on a fixed step): the time of that step.
  float alpha = 1;
  // Multiplies the frame fraction at which colliders are posed: 0 holds them at the frame's start
  // (a chain's warm-up), 1 moves them along their path.
  float pathScale = 1;

  // The frame's timing and what derives from it (every change of fixedSteps or h goes through
  // here: the world's frame, an object's own update rate, a chain's warm-up).
  void setTiming(int fixedStepCount, int substepCount, float substepLength) {
    fixedSteps = fixedStepCount;
    substeps = substepCount;
    h = substepLength;
    invH = 1.0f / h;
    h2 = h * h;
    stepDt = h * static_cast<float>(substeps);
    totalSubsteps = fixedSteps * substeps;
    frameDt = h * static_cast<float>(totalSubsteps);
  }
  // The same frame in `factor` times the substeps, each 1/factor as long (fast pins in
  // cloth_solver.cpp, fast ropes in rope_substeps.h).
  StepContext finer(int factor) const {
    StepContext c = *this;
    if (factor > 1) c.setTiming(fixedSteps, substeps * factor, h / static_cast<float>(factor));
    return c;
  }
  void setAir(const AirField& air) {
    wind = air;
    airVaries = air.varies();
  }
  // Collider i posed at substep boundary sub / totalSubsteps of this context's frame, if the
  // world posed it already (nullptr: pose it with poseAt).
  const ColliderPose* posedCollider(int sub, int i) const {
    if (colliderPoses == nullptr || posedColliders != colliders || posedSubsteps != totalSubsteps || pathScale != 1.0f)
      return nullptr;
    return &colliderPoses[static_cast<size_t>(sub) * static_cast<size_t>(colliderCount) + static_cast<size_t>(i)];
  }
  // Whether an object with collisions switched on (its own `collide`) meets colliders this frame.
  bool collides(bool objectCollides) const { return collisions && objectCollides && colliderCount > 0; }

  // The fraction of the frame's paths where substep `sub` of `total` starts (0, 1 for the usual
  // case: exactly sub / total).
  float frameT(int sub, int total) const {
    return std::max(0.0f, tStart + tSpan * (static_cast<float>(sub) / static_cast<float>(total)));
  }
  // Substep `sub` (counted over the frame) is the first of its fixed step: where the air varies
  // from point to point it is sampled then (in the integration stage) and held through the step.
  bool startsStep(int sub) const { return sub % substeps == 0; }
  // s: the middle of the fixed step substep `sub` belongs to, when the air is sampled.
  float airTime(int sub) const {
    return static_cast<float>(time0 + (static_cast<double>(sub / substeps) + 0.5) * static_cast<double>(h) * substeps);
  }
};

struct RopeState;
struct ClothState;
struct ChainState;
// Run ctx.fixedSteps * ctx.substeps substeps on one object. With `threads` > 1 each stage is
// cut into chunks run in parallel; the result is bit-identical to threads == 1. A rope is given
// the context of its frame: the world's, or a finer one for a fast rope (solver/rope_substeps.h).
void simulateRope(RopeState& rope, const StepContext& ctx, int threads);
void simulateCloth(ClothState& cloth, const StepContext& ctx, int threads);
// Chains are small and sequential (root to tip): always one thread each. Like every chain's frame
// end, also notes whether the state went non-finite (ChainState::broken).
void simulateChain(ChainState& chain, const StepContext& ctx);

}  // namespace wisp
