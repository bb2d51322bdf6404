// Stage Integrate: predict positions from velocities and external accelerations.
//   v <- (v + h * (g + drag * v_air)) / (1 + h * (damping + drag))
//   o <- x;  x <- x + h * v
// Damping and drag are taken implicitly (backward Euler), so any damping (1/s) is stable at any
// step size and a particle in steady wind tends exactly to the air velocity (plus g / drag).
// The caller passes k = 1 / (1 + h * (damping + drag)) and a = h * (g + drag * v_air).
//
// Stage UpdateVelocity: v <- v + (x - x~) / h, x~ the predicted position. This equals
// (x - o) / h in exact arithmetic, but only the constraint correction goes through the
// subtraction: a free particle keeps its velocity bit-exact instead of picking up the rounding
// of x + h v (a bias of ~ulp(x) / h per substep, 0.4% of g for a body falling at y = 10 m).
#pragma once
#include "forces/wind_field.h"
#include "math/wide.h"
#include "particles/particles.h"

namespace wisp {

// The tail every integration kernel shares, once v is known: o <- x; x <- x + h v; x~ <- x.
inline void advance(Particles& r, int i, float vx, float vy, float vz, float h) {
  r.ox[i] = r.px[i]; r.oy[i] = r.py[i]; r.oz[i] = r.pz[i];
  r.px[i] += vx * h; r.py[i] += vy * h; r.pz[i] += vz * h;
  r.qx[i] = r.px[i]; r.qy[i] = r.py[i]; r.qz[i] = r.pz[i];
  r.vx[i] = vx; r.vy[i] = vy; r.vz[i] = vz;
}
#if WISP_SIMD
// advance() for particles i..i+3.
inline void advanceLanes(Particles& r, int i, wide::F4 vx, wide::F4 vy, wide::F4 vz, wide::F4 hh) {
  using namespace wide;
  F4 x = load(&r.px[i]), y = load(&r.py[i]), z = load(&r.pz[i]);
  store(&r.ox[i], x); store(&r.oy[i], y); store(&r.oz[i], z);
  F4 nx = x + vx * hh, ny = y + vy * hh, nz = z + vz * hh;
  store(&r.px[i], nx); store(&r.py[i], ny); store(&r.pz[i], nz);
  store(&r.qx[i], nx); store(&r.qy[i], ny); store(&r.qz[i], nz);
  store(&r.vx[i], vx); store(&r.vy[i], vy); store(&r.vz[i], vz);
}
#endif

// Uniform air velocity (no turbulence): a 4-wide kernel with a scalar tail.
inline void integrateUniform(Particles& r, int begin, int end, Vec3 a, float k, float h) {
  int i = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 ax = splat(a.x), ay = splat(a.y), az = splat(a.z), kk = splat(k), hh = splat(h);
  for (; i + kWidth <= end; i += kWidth) {
    F4 vx = (load(&r.vx[i]) + ax) * kk, vy = (load(&r.vy[i]) + ay) * kk, vz = (load(&r.vz[i]) + az) * kk;
    advanceLanes(r, i, vx, vy, vz, hh);
  }
#endif
  for (; i < end; ++i) {
    float vx = (r.vx[i] + a.x) * k, vy = (r.vy[i] + a.y) * k, vz = (r.vz[i] + a.z) * k;
    advance(r, i, vx, vy, vz, h);
  }
}

// The previous substep's UpdateVelocity (with `update`) and this substep's integrateUniform in
// one pass over particles [begin, end): per particle exactly updateVelocities' then
// integrateUniform's operations, but v is loaded once, the updated v never stored, and the
// arrays read through local pointers (through the vectors, every store makes the compiler load
// their data pointers again). Without `keepStart` the substep-start position o is not written:
// only collisions read it within a substep, and the last substep's o is what the state keeps.
template <bool update, bool keepStart>
inline void integrateUniformAfter(Particles& r, int begin, int end, float invH, Vec3 a, float k, float h) {
  float *px = r.px.data(), *py = r.py.data(), *pz = r.pz.data(), *vx = r.vx.data(), *vy = r.vy.data(),
        *vz = r.vz.data(), *ox = r.ox.data(), *oy = r.oy.data(), *oz = r.oz.data(), *qx = r.qx.data(),
        *qy = r.qy.data(), *qz = r.qz.data();
  int i = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 s = splat(invH), ax = splat(a.x), ay = splat(a.y), az = splat(a.z), kk = splat(k), hh = splat(h);
  for (; i + kWidth <= end; i += kWidth) {
    const F4 x = load(px + i), y = load(py + i), z = load(pz + i);
    F4 ux = load(vx + i), uy = load(vy + i), uz = load(vz + i);
    if (update) {
      ux = ux + (x - load(qx + i)) * s; uy = uy + (y - load(qy + i)) * s; uz = uz + (z - load(qz + i)) * s;
    }
    ux = (ux + ax) * kk; uy = (uy + ay) * kk; uz = (uz + az) * kk;
    if (keepStart) { store(ox + i, x); store(oy + i, y); store(oz + i, z); }
    const F4 nx = x + ux * hh, ny = y + uy * hh, nz = z + uz * hh;
    store(px + i, nx); store(py + i, ny); store(pz + i, nz);
    store(qx + i, nx); store(qy + i, ny); store(qz + i, nz);
    store(vx + i, ux); store(vy + i, uy); store(vz + i, uz);
  }
#endif
  for (; i < end; ++i) {
    const float x = px[i], y = py[i], z = pz[i];
    float ux = vx[i], uy = vy[i], uz = vz[i];
    if (update) {
      ux += (x - qx[i]) * invH; uy += (y - qy[i]) * invH; uz += (z - qz[i]) * invH;
    }
    ux = (ux + a.x) * k; uy = (uy + a.y) * k; uz = (uz + a.z) * k;
    if (keepStart) { ox[i] = x; oy[i] = y; oz[i] = z; }
    const float nx = x + ux * h, ny = y + uy * h, nz = z + uz * h;
    px[i] = qx[i] = nx; py[i] = qy[i] = ny; pz[i] = qz[i] = nz;
    vx[i] = ux; vy[i] = uy; vz[i] = uz;
  }
}

// Where the air varies from point to point (turbulence, zones): its velocity at particles
// [begin, end) at time t, into airx/airy/airz. Once per fixed step: the field changes over
// turbulenceScale / speed (0.25 s for 2 m gusts in an 8 m/s wind), a step is 1/60 s, and the
// noise costs more than the rest of a rope's substep. The positions are particle i's at
// index i * stride of px, py, pz (a chain lane group's block holds them while it is solved).
inline void sampleAir(Particles& r, const float* px, const float* py, const float* pz, int stride, int begin, int end,
                      const AirField& wind, float t) {
  for (int i = begin; i < end; ++i) {
    const Vec3 a = airVelocity(wind, Vec3{px[i * stride], py[i * stride], pz[i * stride]}, t);
    r.airx[i] = a.x; r.airy[i] = a.y; r.airz[i] = a.z;
  }
}
inline void sampleAir(Particles& r, int begin, int end, const AirField& wind, float t) {
  sampleAir(r, r.px.data(), r.py.data(), r.pz.data(), 1, begin, end, wind, t);
}

// A per-particle term u_i scaled by s:  v <- (v + gh + s u_i) k. Aerodynamic accelerations
// (u = a_i in m/s^2, s = h) and drag toward the sampled air (u = air_i in m/s, s = drag h).
inline void integrateWithPerParticle(Particles& r, int begin, int end, Vec3 gh, const float* ux, const float* uy,
                                     const float* uz, float s, float k, float h) {
  int i = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 gx = splat(gh.x), gy = splat(gh.y), gz = splat(gh.z), ss = splat(s), kk = splat(k), hh = splat(h);
  for (; i + kWidth <= end; i += kWidth) {
    F4 vx = (load(&r.vx[i]) + gx + load(&ux[i]) * ss) * kk;
    F4 vy = (load(&r.vy[i]) + gy + load(&uy[i]) * ss) * kk;
    F4 vz = (load(&r.vz[i]) + gz + load(&uz[i]) * ss) * kk;
    advanceLanes(r, i, vx, vy, vz, hh);
  }
#endif
  for (; i < end; ++i) {
    float vx = (r.vx[i] + gh.x + ux[i] * s) * k, vy = (r.vy[i] + gh.y + uy[i] * s) * k, vz = (r.vz[i] + gh.z + uz[i] * s) * k;
    advance(r, i, vx, vy, vz, h);
  }
}

inline void updateVelocities(Particles& r, int begin, int end, float invH) {
  int i = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 s = splat(invH);
  for (; i + kWidth <= end; i += kWidth) {
    store(&r.vx[i], load(&r.vx[i]) + (load(&r.px[i]) - load(&r.qx[i])) * s);
    store(&r.vy[i], load(&r.vy[i]) + (load(&r.py[i]) - load(&r.qy[i])) * s);
    store(&r.vz[i], load(&r.vz[i]) + (load(&r.pz[i]) - load(&r.qz[i])) * s);
  }
#endif
  for (; i < end; ++i) {
    r.vx[i] += (r.px[i] - r.qx[i]) * invH;
    r.vy[i] += (r.py[i] - r.qy[i]) * invH;
    r.vz[i] += (r.pz[i] - r.qz[i]) * invH;
  }
}

}  // namespace wisp
