// FNV-1a, 64 bit: a stable, byte-order-fixed hash of the simulation state. Floats are hashed by
// their bit patterns, so equal hashes mean bit-identical states (up to hash collisions).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace wisp {

class StateHasher {
 public:
  void bytes(const void* data, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) {
      h_ ^= p[i];
      h_ *= 0x100000001B3ull;
    }
  }
  template <class T>
  void value(const T& v) { bytes(&v, sizeof v); }
  template <class T>
  void array(const std::vector<T>& v) {
    value(static_cast<uint64_t>(v.size()));
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  uint64_t result() const { return h_; }

 private:
  uint64_t h_ = 0xCBF29CE484222325ull;
};

}  // namespace wisp
