// Turns a ClothDef (grid or indexed triangle mesh) into particles, coloured constraint sets,
// triangles, masses and the edge graph.
#pragma once
#include "cloth/cloth_state.h"
#include "wisp/cloth.h"
#include "wisp/status.h"

namespace wisp {

constexpr int kMaxClothParticles = 1 << 20;

// Pressure needs a closed mesh enclosing a volume.
Status checkPressure(const ClothState& c, const ClothParams& p);
// Validates `def` and fills `out`. Pins are left to the caller, which owns the anchors.
Status buildCloth(const ClothDef& def, ClothState* out);

}  // namespace wisp
