// Links between neighbouring spring-bone chains (World::addChainLinks): a ring of chains around
// the hips behaves like a skirt, a row of them like a cape. Joint i of chain k is joined to joint
// i of chain k+1 (and, with `diagonals`, to joints i+1 and i-1 of it, against shear) by an XPBD
// distance constraint (constraints/chain_link.h) whose rest length is measured from the animated
// pose (the rest pose without one) when the links are made. Linked chains are solved together,
// substep by substep: each chain's substep, then the links, then the bones' lengths again.
// Wisp-mode chains only (ChainMode::Wisp). docs/physics.md says why links and not a cloth
// driven by bones.
#pragma once
#include <vector>

#include "wisp/ids.h"

namespace wisp {

struct ChainLinksParams {
  bool loop = false;       // also link the last chain to the first (a closed skirt)
  bool diagonals = false;  // also joint i of chain k to joint i+1 of chain k+1 and i+1 to i (shear)
  float compliance = 0;    // m/N, XPBD compliance of every link (0 = rigid), >= 0, finite
  // A hard cap: after the compliant solve, a link longer than rest * (1 + stretch) is pulled back
  // to that length (both ends alike), so a soft skirt cannot open up between two chains. >= 0,
  // finite; the bones' lengths, restored after the links, win where both cannot hold.
  float stretch = 0.1f;
  bool collide = true;     // link segments meet colliders, as capsules of the chains' radius
  int fromJoint = 1;       // the first joint linked (joint 0 rides the root), 0 .. joints - 1
};

struct ChainLinksDef {
  std::vector<ChainId> chains;  // 2 or more, distinct, Wisp mode, in ring order; a chain is in at most one links set
  ChainLinksParams params;
};

}  // namespace wisp
