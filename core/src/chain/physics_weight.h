// A chain's physics weight: how much of the simulation its outputs show over the animated pose
// (0 = exactly the animation, 1 = fully simulated), with a timed fade between values. The
// simulation runs underneath at any weight, so fading back in starts from a live state.
#pragma once
#include <algorithm>

#include "chain/chain_state.h"
#include "math/quat.h"

namespace wisp {

// Moves the weight toward its target at its fade rate over `seconds` of simulated time.
inline void advancePhysicsWeight(ChainState& c, float seconds) {
  if (c.weight == c.weightTarget) return;
  const float step = c.weightRate * seconds;
  if (!(c.weightRate > 0.0f) || std::fabs(c.weightTarget - c.weight) <= step) c.weight = c.weightTarget;
  else c.weight += c.weightTarget > c.weight ? step : -step;
}

// Blends the outputs (simulated, as the solver wrote them) with the animated pose on the root
// where the last fixed step ended (c.rootFrom once the frame is done): per joint the local
// rotation is nlerp(animated, simulated, weight), and world rotations and positions follow from
// them by forward kinematics, so the outputs stay one skeleton (bone lengths exact) at any weight.
// Weight 1 leaves the outputs untouched; weight 0 gives the animated pose exactly.
inline void blendWithAnimation(ChainState& c) {
  if (c.weight >= 1.0f) return;
  Vec3 p = c.rootFrom.position;
  Quat q = c.rootFrom.rotation;
  for (int j = 0; j < c.joints(); ++j) {
    p = p + rotate(q, c.localPosition[j]);
    const Quat animated = c.animated ? c.animFrom[j] : c.localRotation[j];
    const Quat local = nlerp(animated, c.localRotationOut(j), std::max(c.weight, 0.0f));
    q = normalize(mul(q, local));
    c.writeJointRotations(j, q, local);
    const Vec3 o = toWorld(p, c.origin);  // outputs are world positions; the root is relative to the chain's origin
    c.out[3 * j] = o.x; c.out[3 * j + 1] = o.y; c.out[3 * j + 2] = o.z;
  }
}

}  // namespace wisp
