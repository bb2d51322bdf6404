// Argument checks shared by every public entry point. Each returns a Status whose message names
// the parameter and the offending value, e.g. "RopeParams.damping must be >= 0 (got -1)".
#pragma once
#include <string>

#include "wisp/chain.h"
#include "wisp/cloth.h"
#include "wisp/collider.h"
#include "wisp/rope.h"
#include "wisp/status.h"
#include "wisp/types.h"
#include "wisp/wind.h"
#include "wisp/world.h"

namespace wisp {

std::string formatValue(double v);
std::string formatVec(Vec3 v);

Status checkFinite(const char* name, double v);
Status checkRange(const char* name, double v, double lo, double hi);  // inclusive
Status checkFiniteVec(const char* name, Vec3 v);
Status checkQuat(const char* name, Quat q);  // finite and not zero length
// A finite position and a usable rotation. Literal names: building them would allocate on every
// call of a per-frame setter.
Status checkTransform(const char* positionName, const char* rotationName, const Transform& t);

// Every parameter struct's checks live here (the bindings and JavaScript check types only).
Status validateWorldSettings(const WorldSettings& s);

Status validateRopeParams(const RopeParams& p);
Status validateClothParams(const ClothParams& p);
// The base values and the curves (not the per-joint products: see resolveChainParams).
Status validateChainParams(const ChainParams& p);
// compliance and stretch in [0, 1e6]; fromJoint checked against the chains by the world.
Status validateChainLinksParams(const ChainLinksParams& p);
// Each multiplier in [0, 100] (World::boostChain).
Status validateChainBoost(const ChainBoost& b);
// The parameters every object kind has: teleportDistance, teleportAngle, sleepSpeed, sleepTime and
// updateEvery of `kind` ("RopeParams", ...).
Status validateObjectParams(const char* kind, float teleportDistance, float teleportAngle, float sleepSpeed,
                            float sleepTime, int32_t updateEvery);
Status validateWind(const WindSettings& w);
Status validateColliderDef(const ColliderDef& d);
Status validateWindZone(const WindZoneDef& d);

// Early-return helper: `WISP_TRY(checkFinite("x", x));`
#define WISP_TRY(expr)                 \
  do {                                 \
    ::wisp::Status wisp_s_ = (expr);   \
    if (!wisp_s_.ok()) return wisp_s_; \
  } while (0)

}  // namespace wisp
