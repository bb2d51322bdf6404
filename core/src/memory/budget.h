// Out of memory as a Status instead of a crash. Under Emscripten the core is built without
// exceptions, so a failed operator new aborts the whole module (RuntimeError: Aborted()); calls
// that allocate in proportion to their input therefore first check that the heap can give about
// what they will take, and fail with OutOfMemory, having changed nothing, if it cannot.
//
// The check allocates the estimate as one block and frees it at once: the heap (grown if need
// be) then has that much free for the object's arrays. The estimates are measured heap bytes per
// particle (tests/js/memory.test.mjs prints them) with room for the builders' temporaries.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <string>

#include "wisp/chain.h"
#include "wisp/cloth.h"
#include "wisp/rope.h"
#include "wisp/status.h"

namespace wisp::memory {

// Measured in WASM: a rope keeps 120 B per particle, a grid cloth 507 B per particle.
inline constexpr uint64_t kRopeBytesPerParticle = 192;
inline constexpr uint64_t kClothBytesPerParticle = 1024;
inline constexpr uint64_t kClothBytesPerIndex = 64;   // mesh cloth: triangles, edges, bends, welding
inline constexpr uint64_t kChainBytesPerJoint = 2048;

inline uint64_t ropeBytes(const RopeDef& d) {
  const uint64_t n = d.points.empty() ? static_cast<uint64_t>(d.segments > 0 ? d.segments : 0) + 1 : d.points.size();
  return n * kRopeBytesPerParticle;
}
inline uint64_t clothBytes(const ClothDef& d) {
  if (!d.indices.empty() || !d.positions.empty())
    return d.positions.size() * kClothBytesPerParticle + d.indices.size() * kClothBytesPerIndex;
  const uint64_t rx = d.grid.resolutionX > 0 ? static_cast<uint64_t>(d.grid.resolutionX) : 0;
  const uint64_t ry = d.grid.resolutionY > 0 ? static_cast<uint64_t>(d.grid.resolutionY) : 0;
  return (rx + 1) * (ry + 1) * kClothBytesPerParticle;
}
inline uint64_t chainBytes(const ChainDef& d) {
  return (static_cast<uint64_t>(d.joints.size()) + d.points.size() + 1) * kChainBytesPerJoint;
}

// Ok when the heap can give `bytes` now; else OutOfMemory naming `what` and the size.
inline Status reserve(uint64_t bytes, const char* what) {
  constexpr uint64_t kMaxBlock = SIZE_MAX / 2;  // 2 GiB in wasm32: past that no block can exist
  // volatile: a malloc whose block is only freed may be elided by the compiler, and the check with it
  void* volatile block = bytes <= kMaxBlock ? std::malloc(static_cast<size_t>(bytes)) : nullptr;
  if (!block)
    return Status::Error(StatusCode::OutOfMemory, std::string(what) + " needs about " +
                                                      std::to_string((bytes + (1u << 20) - 1) >> 20) +
                                                      " MiB, more than the heap can give; nothing was changed");
  std::free(block);
  return Status::Ok();
}

}  // namespace wisp::memory
