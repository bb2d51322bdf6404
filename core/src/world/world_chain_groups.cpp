// Which chains run in SIMD lane groups this frame (World::Impl::groupChains).
#include "solver/chain_lanes.h"
#include "world/world_impl.h"

namespace wisp {

void World::Impl::groupChains(int fixedSteps) {
  chainGroups.clear();
  // grown only when chains are added (capacity is kept by clear())
  if (chainInGroup.size() < chains.size()) chainInGroup.resize(chains.size());
  if (chainGroups.capacity() < chains.size()) chainGroups.reserve(chains.size());
  // the group still taking chains of each joint count and rule: few distinct counts, so a linear search
  // over the open groups (the last groups made) is enough
  int open[8];
  int openCount = 0;
  for (size_t i = 0; i < chains.size(); ++i) {
    const ChainState& c = chains[i];
    chainInGroup[i] = c.alive && c.activity.frameSteps == fixedSteps && solvesInLanes(c);
    if (!chainInGroup[i]) continue;
    int g = -1;
    for (int o = 0; o < openCount; ++o)
      if (chainGroups[open[o]].joints == c.joints() && chains[chainGroups[open[o]].chain[0]].params.mode == c.params.mode)
        g = open[o];  // one rule per group
    if (g < 0) {
      chainGroups.push_back({{}, 0, c.joints()});
      g = static_cast<int>(chainGroups.size()) - 1;
      if (openCount == 8) {  // forget the oldest open group: it stays partly filled
        for (int o = 1; o < 8; ++o) open[o - 1] = open[o];
        --openCount;
      }
      open[openCount++] = g;
    }
    ChainGroup& group = chainGroups[g];
    group.chain[group.count++] = static_cast<int>(i);
    if (group.count == wide::kWidth)
      for (int o = 0; o < openCount; ++o)
        if (open[o] == g) {
          open[o] = open[--openCount];
          break;
        }
  }
}

}  // namespace wisp
