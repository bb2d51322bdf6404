// Which chains and ropes run in SIMD lane groups this frame (World::Impl::groupChains,
// groupRopes).
#include "solver/chain_lanes.h"
#include "solver/rope_lanes.h"
#include "world/world_impl.h"

namespace wisp {

namespace {

// Fills groups (wide::kWidth objects of equal size each, filled in slot order) and inGroup (per
// slot) with the objects that admit(o) takes; objects share a group only if alike(a, b) too (one
// lane kernel per group).
template <class Store, class Admit, class Size, class Alike>
void fillLaneGroups(const Store& objects, std::vector<World::Impl::LaneGroup>& groups, std::vector<uint8_t>& inGroup,
                    Admit admit, Size size, Alike alike) {
  groups.clear();
  // grown only when objects are added (capacity is kept by clear())
  if (inGroup.size() < objects.size()) inGroup.resize(objects.size());
  if (groups.capacity() < objects.size()) groups.reserve(objects.size());
  // the group still taking objects of each size: few distinct sizes, so a linear search over
  // the open groups (the last groups made) is enough
  int open[8];
  int openCount = 0;
  for (size_t i = 0; i < objects.size(); ++i) {
    const auto& o = objects[i];
    inGroup[i] = admit(o);
    if (!inGroup[i]) continue;
    int g = -1;
    for (int k = 0; k < openCount; ++k)
      if (groups[open[k]].size == size(o) && alike(objects[groups[open[k]].member[0]], o)) g = open[k];
    if (g < 0) {
      groups.push_back({{}, 0, size(o)});
      g = static_cast<int>(groups.size()) - 1;
      if (openCount == 8) {  // forget the oldest open group: it stays partly filled
        for (int k = 1; k < 8; ++k) open[k - 1] = open[k];
        --openCount;
      }
      open[openCount++] = g;
    }
    World::Impl::LaneGroup& group = groups[g];
    group.member[group.count++] = static_cast<int>(i);
    if (group.count == wide::kWidth)
      for (int k = 0; k < openCount; ++k)
        if (open[k] == g) {
          open[k] = open[--openCount];
          break;
        }
  }
}

}  // namespace

void World::Impl::groupChains(int fixedSteps, int threads) {
  fillLaneGroups(
      chains, chainGroups, chainInGroup,
      [&](const ChainState& c) { return c.alive && c.activity.frameSteps == fixedSteps && solvesInLanes(c); },
      [](const ChainState& c) { return c.joints(); },
      [](const ChainState& a, const ChainState& b) { return a.params.mode == b.params.mode; });  // one rule per group
  // grown only when there are more groups, or bigger ones, than before
  if (chainGroupParams.size() < chainGroups.size()) chainGroupParams.resize(chainGroups.size());
  for (size_t g = 0; g < chainGroups.size(); ++g) chainGroupParams[g].reserve(chainGroups[g].size);

  // Work items. Two groups' bones walked side by side take about 0.75 of the time of walking them
  // one after the other (solver/chain_lanes_wisp.cpp), but make one item of two: pairs are made
  // only when every thread still gets at least two items.
  chainItems.clear();
  if (chainItems.capacity() < chainGroups.size()) chainItems.reserve(chainGroups.size());
  const int groups = static_cast<int>(chainGroups.size());
  const bool pair = groups >= 4 * threads;
  auto wisp = [&](int g) { return chains[chainGroups[g].member[0]].params.mode == ChainMode::Wisp; };
  // the items of Wisp-rule groups still without a pair, one per joint count (the last 8 counts)
  int waiting[8];
  int waitingCount = 0;
  for (int g = 0; g < groups; ++g) {
    if (pair && wisp(g)) {
      int w = 0;
      while (w < waitingCount && chainGroups[chainItems[waiting[w]].first].size != chainGroups[g].size) ++w;
      if (w < waitingCount) {
        chainItems[waiting[w]].second = g;
        waiting[w] = waiting[--waitingCount];
        continue;
      }
      if (waitingCount == 8) {  // forget the first: it stays alone
        for (int k = 1; k < 8; ++k) waiting[k - 1] = waiting[k];
        --waitingCount;
      }
      waiting[waitingCount++] = static_cast<int>(chainItems.size());
    }
    chainItems.push_back({g, -1});
  }
}

void World::Impl::groupRopes(int fixedSteps) {
  fillLaneGroups(
      ropes, ropeGroups, ropeInGroup,
      [&](const RopeState& r) { return r.alive && r.activity.frameSteps == fixedSteps && solvesInLanes(r); },
      [](const RopeState& r) { return r.segments(); }, [](const RopeState&, const RopeState&) { return true; });
}

}  // namespace wisp
