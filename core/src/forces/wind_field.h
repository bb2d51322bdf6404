// Air velocity at a point and time: the mean wind plus turbulence. Turbulence is smooth value
// noise (trilinear with smoothstep weights, three channels from one hash per corner) on an integer lattice hashed with the seed, carried
// along by the mean wind (frozen-turbulence hypothesis), so gusts travel downwind. Only integer
// hashing, floor and + - * are used: deterministic on every target.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "math/frame.h"
#include "math/vec3.h"
#include "wisp/wind.h"

namespace wisp {

struct WindField {
  Vec3 mean;          // m/s
  float gust = 0;     // m/s amplitude of the turbulent part
  float invScale = 0; // 1/m
  uint32_t seed = 1;
  // m: added to a sample point before the noise is read: the origin of an object that simulates
  // relative to one (particles/origin.h), so every object feels the same gusts at the same place
  Vec3 offset;
  bool active = false;
  bool turbulent = false;
};

inline WindField makeWindField(const WindSettings& w) {
  WindField f;
  float len = length(w.direction);
  Vec3 dir = len > 0 ? w.direction * (1.0f / len) : Vec3{1, 0, 0};
  f.mean = dir * w.speed;
  f.gust = w.speed * w.turbulence;
  f.invScale = 1.0f / w.turbulenceScale;
  f.seed = w.seed;
  f.active = w.speed > 0.0f;
  f.turbulent = f.active && w.turbulence > 0.0f;
  return f;
}

inline uint32_t latticeHash(int32_t x, int32_t y, int32_t z, uint32_t seed) {
  uint32_t h = seed * 0x9E3779B1u;
  h ^= static_cast<uint32_t>(x) * 0x85EBCA77u;
  h = (h << 13) | (h >> 19);
  h ^= static_cast<uint32_t>(y) * 0xC2B2AE3Du;
  h = (h << 11) | (h >> 21);
  h ^= static_cast<uint32_t>(z) * 0x27D4EB2Fu;
  h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
  return h;
}
// Three values in (-1, 1) from one lattice hash: its bits 2-11, 12-21 and 22-31 (the hash's final
// avalanche leaves every bit independent of the others), 1024 levels each, symmetric about 0.
inline float latticeLevel(uint32_t bits10) { return static_cast<float>(2u * bits10 + 1u) * (1.0f / 1024.0f) - 1.0f; }
inline Vec3 latticeValues(uint32_t h) {
  return {latticeLevel((h >> 2) & 1023u), latticeLevel((h >> 12) & 1023u), latticeLevel(h >> 22)};
}

// Smooth 3-channel value noise, each channel in [-1, 1): one pass over the cell's eight corners
// serves all three channels, so a sample costs eight hashes, not 24.
inline Vec3 valueNoise3(Vec3 p, uint32_t seed) {
  float fx = std::floor(p.x), fy = std::floor(p.y), fz = std::floor(p.z);
  int32_t ix = floorToCell(fx), iy = floorToCell(fy), iz = floorToCell(fz);
  float tx = p.x - fx, ty = p.y - fy, tz = p.z - fz;
  tx = tx * tx * (3.0f - 2.0f * tx);
  ty = ty * ty * (3.0f - 2.0f * ty);
  tz = tz * tz * (3.0f - 2.0f * tz);
  Vec3 c[2][2];
  for (int dz = 0; dz < 2; ++dz)
    for (int dy = 0; dy < 2; ++dy) {
      Vec3 a = latticeValues(latticeHash(ix, iy + dy, iz + dz, seed));
      Vec3 b = latticeValues(latticeHash(ix + 1, iy + dy, iz + dz, seed));
      c[dz][dy] = a + (b - a) * tx;
    }
  Vec3 y0 = c[0][0] + (c[0][1] - c[0][0]) * ty;
  Vec3 y1 = c[1][0] + (c[1][1] - c[1][0]) * ty;
  return y0 + (y1 - y0) * tz;
}

// A wind zone ready for sampling.
struct WindZoneField {
  WindZoneShape shape = WindZoneShape::Sphere;
  Vec3 centre;
  Quat inverseRotation;   // world -> zone axes
  float radius = 1;
  Vec3 halfExtents;
  float falloff = 0.25f;
  WindField wind;
};

inline WindZoneField makeWindZoneField(const WindZoneDef& d) {
  WindZoneField z;
  z.shape = d.shape;
  z.centre = d.transform.position;
  // the zone's frame inverted once here, not per sample; samples turn by it with math/frame.h's
  // turn (GLM's q * v), the same bits as intoFrame (conjugating only flips signs)
  z.inverseRotation = conjugate(normalize(d.transform.rotation));
  z.radius = d.radius;
  z.halfExtents = d.halfExtents;
  z.falloff = d.falloff;
  z.wind = makeWindField(d.wind);
  return z;
}

// 1 in the zone's core, fading linearly to 0 at its boundary over the outer `falloff` part.
inline float zoneWeight(const WindZoneField& z, Vec3 p) {
  float u;  // 0 at the centre, 1 on the boundary
  if (z.shape == WindZoneShape::Sphere) {
    u = length(p - z.centre) / z.radius;
  } else {
    Vec3 q = turn(z.inverseRotation, p - z.centre);  // intoFrame's bits, inverse stored
    u = std::max({std::fabs(q.x) / z.halfExtents.x, std::fabs(q.y) / z.halfExtents.y, std::fabs(q.z) / z.halfExtents.z});
  }
  if (!(u < 1.0f)) return 0.0f;
  if (z.falloff <= 0.0f) return 1.0f;
  return std::min(1.0f, (1.0f - u) / z.falloff);
}

inline Vec3 airVelocity(const WindField& f, Vec3 p, float t) {
  if (!f.turbulent) return f.mean;
  Vec3 q = ((p + f.offset) - f.mean * t) * f.invScale;  // p + 0 is p: objects near the origin see the same bits
  return f.mean + valueNoise3(q, f.seed) * f.gust;
}

// Everything that moves the air: the global wind and the zones.
struct AirField {
  WindField global;
  const WindZoneField* zones = nullptr;
  int zoneCount = 0;
  // true when the air velocity differs from point to point (turbulence or zones)
  bool varies() const { return global.turbulent || zoneCount > 0; }
};

inline Vec3 airVelocity(const AirField& air, Vec3 p, float t) {
  Vec3 v = airVelocity(air.global, p, t);
  for (int i = 0; i < air.zoneCount; ++i) {
    const WindZoneField& z = air.zones[i];
    float w = zoneWeight(z, p);
    if (w > 0.0f) v += airVelocity(z.wind, p, t) * w;
  }
  return v;
}

}  // namespace wisp
