// A set of links between chains (wisp/chain_links.h): its chains, every link it can have (with
// the rest lengths measured when it was made) and the live ones, and the scratch its driver
// (solver/chain_links_solver.cpp) runs the chains with. Sized when made or changed, never by a step.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "chain/chain_state.h"
#include "solver/chain_frame.h"
#include "solver/step_context.h"
#include "wisp/chain_links.h"

namespace wisp {

struct ChainLinksState {
  uint32_t generation = 0;
  bool alive = false;
  ChainLinksParams params;

  // the chains, in the order given (what pairs() indexes)
  std::vector<uint32_t> chainSlot, chainGeneration;
  std::vector<uint8_t> memberAlive;  // 0 once the chain was removed: its links are dropped

  // Every link the set can have: neighbours (k, k+1), the loop's (last, first) and the diagonals,
  // for every joint of the shorter chain; rest lengths (m) from the animated pose at creation.
  enum : uint8_t { kLoop = 1, kDiagonal = 2 };
  std::vector<int32_t> allA, allJointA, allB, allJointB;
  std::vector<float> allRest;
  std::vector<uint8_t> allKind;

  // The live links (derived by activate()): those params select whose chains are still there.
  std::vector<int32_t> a, jointA, b, jointB;
  std::vector<float> rest, lambda;

  // Driver scratch, per chain: the chain (nullptr once removed), whether it runs with the links
  // this frame (else the links hold it still), its frame context and frame, its origin relative
  // to the first running chain's (m), and where its joints start in `before`.
  std::vector<ChainState*> chain;
  std::vector<uint8_t> moving;
  std::vector<StepContext> ctx;
  std::vector<ChainFrame> frame;
  std::vector<Vec3> offset;
  std::vector<int32_t> jointStart;
  std::vector<Vec3> before;  // joint positions before the link pass, for the velocity update

  int members() const { return static_cast<int>(chainSlot.size()); }
  int count() const { return static_cast<int>(a.size()); }

  void activate() {
    for (auto* v : {&a, &jointA, &b, &jointB}) v->clear();
    rest.clear();
    for (size_t k = 0; k < allA.size(); ++k) {
      if (!memberAlive[allA[k]] || !memberAlive[allB[k]]) continue;
      if ((allKind[k] & kLoop) && !params.loop) continue;
      if ((allKind[k] & kDiagonal) && !params.diagonals) continue;
      if (std::min(allJointA[k], allJointB[k]) < params.fromJoint) continue;
      a.push_back(allA[k]); jointA.push_back(allJointA[k]);
      b.push_back(allB[k]); jointB.push_back(allJointB[k]);
      rest.push_back(allRest[k]);
    }
    lambda.assign(a.size(), 0.0f);
  }
  // Scratch for the chains' joint counts.
  void sizeScratch(const std::vector<int>& joints) {
    const size_t m = chainSlot.size();
    chain.assign(m, nullptr);
    moving.assign(m, 0);
    ctx.assign(m, StepContext{});
    frame.assign(m, ChainFrame{});
    offset.assign(m, Vec3{});
    jointStart.assign(m, 0);
    int total = 0;
    for (size_t i = 0; i < m; ++i) {
      jointStart[i] = total;
      total += joints[i];
    }
    before.assign(static_cast<size_t>(total), Vec3{});
  }
};

// Runs the frame of the chains in L.chain with L.moving set (contexts in L.ctx, the same timing)
// in lock step: each chain's substep, then the links' pass. Chains not moving are held still.
void simulateLinkedChains(ChainLinksState& L);

}  // namespace wisp
