// Links between chains (wisp/chain_links.h): the public calls, and the frame of one links set.
#include <cmath>

#include "math/frame.h"
#include "math/quat.h"
#include "world/world_impl.h"

namespace wisp {

namespace {

// Joint positions (m, world, in double) of the chain's animated pose (the rest pose without
// one) on its current root target: what the links' rest lengths are measured on.
void animatedPose(const ChainState& c, std::vector<double>* out) {
  const int n = c.joints();
  out->assign(3 * static_cast<size_t>(n), 0.0);
  auto pose = [&](int j) { return c.animated ? c.animTo[j] : c.localRotation[j]; };
  Transform t{fromFrame(c.rootTo, c.localPosition[0]), mul(c.rootTo.rotation, pose(0))};
  for (int j = 0; j < n; ++j) {
    if (j > 0) t = compose(t, c.localPosition[j], pose(j));
    (*out)[3 * j] = c.origin.x + static_cast<double>(t.position.x);
    (*out)[3 * j + 1] = c.origin.y + static_cast<double>(t.position.y);
    (*out)[3 * j + 2] = c.origin.z + static_cast<double>(t.position.z);
  }
}

std::string chainName(const ChainId& id, size_t k) {
  return "addChainLinks: chains[" + std::to_string(k) + "] (chain id {" + std::to_string(id.index) + ", " +
         std::to_string(id.generation) + "})";
}

Status badLinks(const std::string& m) { return Status::Error(StatusCode::InvalidArgument, m); }

}  // namespace

Status World::addChainLinks(const ChainLinksDef& def, ChainLinksId* out) {
  Impl& w = *impl_;
  WISP_TRY(validateChainLinksParams(def.params));
  const size_t m = def.chains.size();
  if (m < 2) return badLinks("addChainLinks: chains must hold at least 2 chains (got " + std::to_string(m) + ")");
  int shortest = 1 << 30;
  for (size_t k = 0; k < m; ++k) {
    const ChainState* c = w.chain(def.chains[k]);
    if (!c) return Status::Error(StatusCode::InvalidHandle, chainName(def.chains[k], k) + " is not a live chain of this world");
    for (size_t i = 0; i < k; ++i)
      if (def.chains[i] == def.chains[k])
        return badLinks(chainName(def.chains[k], k) + " is listed twice (also chains[" + std::to_string(i) + "])");
    if (c->params.mode != ChainMode::Wisp) return badLinks(chainName(def.chains[k], k) + " is in Vrm mode: only Wisp-mode chains can be linked");
    if (c->linkSet >= 0)
      return badLinks(chainName(def.chains[k], k) + " is already in chain links set " + std::to_string(c->linkSet) +
                      ": a chain can be in one links set");
    shortest = std::min(shortest, c->joints());
  }
  if (def.params.fromJoint >= shortest)
    return badLinks("ChainLinksParams.fromJoint must be in [0, " + std::to_string(shortest - 1) + "] (the shortest chain has " +
                    std::to_string(shortest) + " joints; got " + std::to_string(def.params.fromJoint) + ")");

  ChainLinksState L;
  L.params = def.params;
  std::vector<std::vector<double>> pose(m);
  std::vector<int> joints(m);
  for (size_t k = 0; k < m; ++k) {
    const ChainState& c = *w.chain(def.chains[k]);
    L.chainSlot.push_back(def.chains[k].index);
    L.chainGeneration.push_back(def.chains[k].generation & 0xFFFFFu);  // the serial: the tag is the world's
    L.memberAlive.push_back(1);
    animatedPose(c, &pose[k]);
    joints[k] = c.joints();
  }
  auto add = [&](int a, int ja, int b, int jb, uint8_t kind) {
    const double* p = &pose[a][3 * ja];
    const double* q = &pose[b][3 * jb];
    const double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
    L.allA.push_back(a); L.allJointA.push_back(ja); L.allB.push_back(b); L.allJointB.push_back(jb);
    L.allRest.push_back(static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz)));
    L.allKind.push_back(kind);
  };
  // neighbours k, k+1, then the loop's last-to-first pair (none for two chains: that is the same pair)
  const int pairs = static_cast<int>(m) > 2 ? static_cast<int>(m) : 1;
  for (int k = 0; k < pairs; ++k) {
    const int a = k, b = (k + 1) % static_cast<int>(m);
    const uint8_t loop = k + 1 == static_cast<int>(m) ? ChainLinksState::kLoop : 0;
    const int n = std::min(joints[a], joints[b]);
    for (int j = 0; j < n; ++j) add(a, j, b, j, loop);
    for (int j = 0; j + 1 < n; ++j) {
      add(a, j, b, j + 1, loop | ChainLinksState::kDiagonal);
      add(a, j + 1, b, j, loop | ChainLinksState::kDiagonal);
    }
  }
  L.activate();
  L.sizeScratch(joints);

  bool grown;
  const uint32_t slot = w.chainLinks.open(w.tag, &grown);
  const uint32_t gen = w.chainLinks[slot].generation;
  w.chainLinks[slot] = std::move(L);
  w.chainLinks[slot].generation = gen;
  w.chainLinks[slot].alive = true;
  w.refreshChainLinks(slot);
  ++w.layoutVersion;
  *out = w.chainLinks.id<ChainLinksId>(slot);
  return Status::Ok();
}

Status World::removeChainLinks(ChainLinksId id) {
  Impl& w = *impl_;
  ChainLinksState* L = w.chainLinks.get(id);
  if (!L) return badHandle("chain links", id);
  for (int k = 0; k < L->members(); ++k)
    if (L->memberAlive[k]) w.chains[L->chainSlot[k]].linkSet = -1;
  const uint32_t gen = L->generation;
  *L = ChainLinksState();
  L->generation = gen;
  w.chainLinks.close(id.index);
  ++w.layoutVersion;
  return Status::Ok();
}

Status World::chainLinksParams(ChainLinksId id, ChainLinksParams* out) const {
  const ChainLinksState* L = impl_->chainLinks.get(id);
  if (!L) return badHandle("chain links", id);
  *out = L->params;
  return Status::Ok();
}

Status World::setChainLinksParams(ChainLinksId id, const ChainLinksParams& params) {
  Impl& w = *impl_;
  ChainLinksState* L = w.chainLinks.get(id);
  if (!L) return badHandle("chain links", id);
  WISP_TRY(validateChainLinksParams(params));
  int shortest = 1 << 30;
  for (int k = 0; k < L->members(); ++k)
    if (L->memberAlive[k]) shortest = std::min(shortest, w.chains[L->chainSlot[k]].joints());
  if (shortest < (1 << 30) && params.fromJoint >= shortest)
    return badLinks("ChainLinksParams.fromJoint must be in [0, " + std::to_string(shortest - 1) + "] (got " +
                    std::to_string(params.fromJoint) + ")");
  L->params = params;
  L->activate();
  return Status::Ok();
}

Status World::chainLinksPairs(ChainLinksId id, std::vector<int32_t>* pairs) const {
  const ChainLinksState* L = impl_->chainLinks.get(id);
  if (!L) return badHandle("chain links", id);
  pairs->clear();
  for (int k = 0; k < L->count(); ++k) {
    pairs->push_back(L->a[k]); pairs->push_back(L->jointA[k]);
    pairs->push_back(L->b[k]); pairs->push_back(L->jointB[k]);
  }
  return Status::Ok();
}

Status World::chainLinksRestLengths(ChainLinksId id, std::vector<float>* rest) const {
  const ChainLinksState* L = impl_->chainLinks.get(id);
  if (!L) return badHandle("chain links", id);
  *rest = L->rest;
  return Status::Ok();
}

Status World::chainLinksCount(ChainLinksId id, int* out) const {
  const ChainLinksState* L = impl_->chainLinks.get(id);
  if (!L) return badHandle("chain links", id);
  *out = L->count();
  return Status::Ok();
}

// Marks the set's chains as run by it (ChainState::linkSet), after it was made or loaded.
void World::Impl::refreshChainLinks(uint32_t slot) {
  ChainLinksState& L = chainLinks[slot];
  for (int k = 0; k < L.members(); ++k) {
    if (!L.memberAlive[k]) continue;
    chains[L.chainSlot[k]].linkSet = static_cast<int32_t>(slot);
  }
}

void World::Impl::dropLinkedChain(ChainState& c) {
  if (c.linkSet < 0) return;
  ChainLinksState& L = chainLinks[static_cast<size_t>(c.linkSet)];
  const uint32_t slot = static_cast<uint32_t>(&c - chains.slots.data());
  for (int k = 0; k < L.members(); ++k)
    if (L.chainSlot[k] == slot) L.memberAlive[k] = 0;
  L.activate();
  c.linkSet = -1;
  ++layoutVersion;
}

void World::Impl::relinkAfterLoad() {
  for (uint32_t s = 0; s < chainLinks.size(); ++s) {
    ChainLinksState& L = chainLinks[s];
    if (!L.alive) continue;
    std::vector<int> joints(L.members(), 0);
    for (int k = 0; k < L.members(); ++k)
      if (L.memberAlive[k]) joints[k] = chains[L.chainSlot[k]].joints();
    L.activate();
    L.sizeScratch(joints);
    refreshChainLinks(s);
  }
}

// One set's frame: its chains that run this frame with the first one's timing (Wisp mode, their
// share of the frame alike) run together with the links; a chain that runs on another timing or
// in Vrm mode runs alone, and the links hold it (and any chain not running) still.
void World::Impl::stepChainLinks(ChainLinksState& L, const StepContext& ctx) {
  int lead = -1;
  for (int k = 0; k < L.members(); ++k) {
    L.moving[k] = 0;
    L.chain[k] = L.memberAlive[k] ? &chains[L.chainSlot[k]] : nullptr;
    if (!L.chain[k]) continue;
    ChainState& c = *L.chain[k];
    if (c.activity.frameSteps == 0) continue;
    L.ctx[k] = frameFor(c, objectContext(ctx, c.activity, c.params.updateEvery));
    const bool together = c.params.mode == ChainMode::Wisp &&
                          (lead < 0 || (L.ctx[k].totalSubsteps == L.ctx[lead].totalSubsteps &&
                                        L.ctx[k].h == L.ctx[lead].h && L.ctx[k].tStart == L.ctx[lead].tStart));
    if (!together) {
      KindRow<ChainState>::step(c, L.ctx[k], 1);
      continue;
    }
    L.moving[k] = 1;
    if (lead < 0) lead = k;
  }
  if (lead < 0) return;
  // positions of each chain in the lead's frame: its own plus the difference of the origins
  const Origin& o = L.chain[lead]->origin;
  for (int k = 0; k < L.members(); ++k) {
    if (!L.chain[k]) continue;
    const Origin& c = L.chain[k]->origin;
    L.offset[k] = Vec3{static_cast<float>(c.x - o.x), static_cast<float>(c.y - o.y), static_cast<float>(c.z - o.z)};
  }
  simulateLinkedChains(L);  // each moving chain's frame end notes ChainState::broken
}

}  // namespace wisp
