// Which chains and ropes run in SIMD lane groups this frame (World::Impl::groupChains,
// groupRopes).
#include "solver/chain_lanes.h"
#include "solver/rope_lanes.h"
#include "world/world_impl.h"

namespace wisp {

namespace {

// The bins (lane groups, or work items of groups) still taking members, at most one per kind of
// member (its size, its rule): there are few kinds, so a linear search over the last 8 bins opened
// is enough; a bin forgotten when a ninth opens stays partly filled.
struct OpenBins {
  int bin[8];
  int count = 0;

  template <class Match>
  int find(Match match) const {
    for (int k = 0; k < count; ++k)
      if (match(bin[k])) return bin[k];
    return -1;
  }
  void open(int b) {
    if (count == 8) {  // forget the oldest
      for (int k = 1; k < 8; ++k) bin[k - 1] = bin[k];
      --count;
    }
    bin[count++] = b;
  }
  void close(int b) {
    for (int k = 0; k < count; ++k)
      if (bin[k] == b) {
        bin[k] = bin[--count];
        return;
      }
  }
};

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
  OpenBins open;  // the groups still taking objects
  for (size_t i = 0; i < objects.size(); ++i) {
    const auto& o = objects[i];
    inGroup[i] = admit(o);
    if (!inGroup[i]) continue;
    int g = open.find([&](int b) { return groups[b].size == size(o) && alike(objects[groups[b].member[0]], o); });
    if (g < 0) {
      groups.push_back({{}, 0, size(o)});
      g = static_cast<int>(groups.size()) - 1;
      open.open(g);
    }
    World::Impl::LaneGroup& group = groups[g];
    group.member[group.count++] = static_cast<int>(i);
    if (group.count == wide::kWidth) open.close(g);
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
  OpenBins open;  // the items of Wisp-rule groups still without a pair
  for (int g = 0; g < groups; ++g) {
    if (pair && wisp(g)) {
      const int w = open.find([&](int item) { return chainGroups[chainItems[item].first].size == chainGroups[g].size; });
      if (w >= 0) {
        chainItems[w].second = g;
        open.close(w);
        continue;
      }
      open.open(static_cast<int>(chainItems.size()));
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
