// XPBD distance constraint between particles a and b.
//   C(x) = |x_a - x_b| - rest            (m)
//   compliance alpha                     (m/N);  alpha~ = alpha / h^2
//   dlambda = (-C - alpha~ * lambda) / (w_a + w_b + alpha~)
//   x_a += w_a * dlambda * n,  x_b -= w_b * dlambda * n,  n = (x_a - x_b) / |x_a - x_b|
// (Macklin, Mueller, Chentanez, "XPBD", 2016, eq. 18.) Used for rope stretch (i, i+1), rope
// bending as a distance across one particle (i, i+2), and cloth edges.
//
// Constraints are solved in colour passes (red-black Gauss-Seidel) rather than one sequential
// sweep: the constraints of a pass are independent, so the CPU overlaps their sqrt and divide
// instead of waiting on each in turn (2.4x faster here), and long ropes can be split across
// threads. Measured stretch of a whipping rope was no worse than with sequential sweeps. Rope
// colours: for stretch, even segments then odd ones; for bends (i, i+2), indices with i % 4 < 2
// then the rest. Inside one pass no two constraints share a particle, so a pass can be cut into
// chunks and run in any order or in parallel with the same result, whatever the thread count.
#pragma once
#include <cmath>

#include "math/wide.h"
#include "rope/rope_state.h"

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
  // one division: s = dlambda / len, and dlambda = s * len
  float s = (-c - alphaTilde * lambda) / ((wsum + alphaTilde) * len);
  lambda += s * len;
  dx *= s; dy *= s; dz *= s;
  r.px[a] += wa * dx; r.py[a] += wa * dy; r.pz[a] += wa * dz;
  r.px[b] -= wb * dx; r.py[b] -= wb * dy; r.pz[b] -= wb * dz;
}

#if WISP_SIMD
struct RawArrays {
  float *x, *y, *z;
  const float* invMass;
};
inline RawArrays rawArrays(Particles& p) { return {p.px.data(), p.py.data(), p.pz.data(), p.invMass.data()}; }
#endif

// Four constraints at once, lane by lane exactly the operations of solveDistance: the ends
// (ax..bz), inverse masses, rest lengths and multipliers in, the moved ends and multipliers out.
// A lane that solveDistance would skip keeps its old bits. Also in builds without SIMD (the
// rope lane groups use it there on wide.h's plain F4).
// With `fresh` the multipliers are 0 (the first iteration of a substep): -c - alpha * 0 is -c
// exactly for the finite alpha >= 0 of validated compliances, so the product and the
// subtraction are left out.
struct DistanceLanes {
  wide::F4 ax, ay, az, bx, by, bz, lambda;
};
template <bool fresh = false>
inline void solveDistanceLanes(DistanceLanes& d, wide::F4 wa, wide::F4 wb, wide::F4 rest, wide::F4 alpha) {
  using namespace wide;
  const F4 zero = splat(0.0f), tiny = splat(1e-9f);
  F4 wsum = wa + wb;
  F4 dx = d.ax - d.bx, dy = d.ay - d.by, dz = d.az - d.bz;
  F4 len = sqrt(dx * dx + dy * dy + dz * dz);
  F4 skip = maskOr(equal(wsum, zero), lessThan(len, tiny));
  F4 c = len - rest;
  F4 s = (fresh ? neg(c) : neg(c) - alpha * d.lambda) / ((wsum + alpha) * len);
  F4 dl = s * len;
  dx = dx * s; dy = dy * s; dz = dz * s;
  if (!any(skip)) {  // the usual case: no lane to keep, so no selects (7 of them, 3 ops each on SSE2)
    d.ax = d.ax + wa * dx; d.ay = d.ay + wa * dy; d.az = d.az + wa * dz;
    d.bx = d.bx - wb * dx; d.by = d.by - wb * dy; d.bz = d.bz - wb * dz;
    d.lambda = d.lambda + dl;
    return;
  }
  d.ax = select(skip, d.ax, d.ax + wa * dx);
  d.ay = select(skip, d.ay, d.ay + wa * dy);
  d.az = select(skip, d.az, d.az + wa * dz);
  d.bx = select(skip, d.bx, d.bx - wb * dx);
  d.by = select(skip, d.by, d.by - wb * dy);
  d.bz = select(skip, d.bz, d.bz - wb * dz);
  d.lambda = select(skip, d.lambda, d.lambda + dl);
}

// Solves constraints [begin, end) of one colour, where constraint k joins particles ia(k) and
// ib(k) with rest length rest[ic(k)] and multiplier lambda[ic(k)]. No two of them share a
// particle, so with SIMD four are solved at once: gathered, solved by solveDistanceLanes and
// scattered back.
template <class IndexA, class IndexB, class IndexC>
inline void solveDistances(Particles& p, IndexA ia, IndexB ib, IndexC ic, const float* rest, float* lambda, int begin,
                           int end, float alphaTilde) {
  int k = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 alpha = splat(alphaTilde);
  auto [px, py, pz, w] = rawArrays(p);
  for (; k + kWidth <= end; k += kWidth) {
    const int as[4] = {ia(k), ia(k + 1), ia(k + 2), ia(k + 3)};
    const int bs[4] = {ib(k), ib(k + 1), ib(k + 2), ib(k + 3)};
    const int cs[4] = {ic(k), ic(k + 1), ic(k + 2), ic(k + 3)};
    auto gather = [](const float* v, const int* i) { return make(v[i[0]], v[i[1]], v[i[2]], v[i[3]]); };
    DistanceLanes d{gather(px, as), gather(py, as), gather(pz, as), gather(px, bs), gather(py, bs), gather(pz, bs),
                    gather(lambda, cs)};
    solveDistanceLanes(d, gather(w, as), gather(w, bs), gather(rest, cs), alpha);
    alignas(16) float o[7][4];
    storeLanes(o[0], d.ax); storeLanes(o[1], d.ay); storeLanes(o[2], d.az);
    storeLanes(o[3], d.bx); storeLanes(o[4], d.by); storeLanes(o[5], d.bz);
    storeLanes(o[6], d.lambda);
    for (int j = 0; j < 4; ++j) {
      px[as[j]] = o[0][j]; py[as[j]] = o[1][j]; pz[as[j]] = o[2][j];
      px[bs[j]] = o[3][j]; py[bs[j]] = o[4][j]; pz[bs[j]] = o[5][j];
      lambda[cs[j]] = o[6][j];
    }
  }
#endif
  for (; k < end; ++k) solveDistance(p, ia(k), ib(k), rest[ic(k)], alphaTilde, lambda[ic(k)]);
}

// i[0..3] are i[0], i[0] + step, i[0] + 2 step, i[0] + 3 step
inline bool evenlySpaced(const int32_t* i, int step) {
  return i[1] == i[0] + step && i[2] == i[0] + 2 * step && i[3] == i[0] + 3 * step;
}

// The regular runs of an edge list (edge k joins a[k] and b[k]), found once when the edges are
// laid out so that solveEdgeList reads no indices inside a run. runs[k] = r > 0: the 4r edges
// from k join consecutive particles to consecutive particles (a[k + i] = a[k] + i, b[k + i] =
// b[k] + i; a grid's columns and diagonals, laid out row by row); r < 0: the -4r edges from k
// join alternate particles (a[k + i] = a[k] + 2i, b[k + i] = a[k + i] + 1; a grid's rows);
// r = 0: the four edges from k are neither, or fewer than four are left. Defined at every k,
// since a colour, and a thread's part of it, may start anywhere.
inline void edgeRuns(const int32_t* a, const int32_t* b, int n, int32_t* runs) {
  for (int k = n - 1; k >= 0; --k) {
    int32_t r = 0;
    if (k + 4 <= n) {
      const bool more = k + 8 <= n;
      if (evenlySpaced(a + k, 1) && evenlySpaced(b + k, 1))
        r = 1 + (more && runs[k + 4] > 0 && a[k + 4] == a[k] + 4 && b[k + 4] == b[k] + 4 ? runs[k + 4] : 0);
      else if (b[k] == a[k] + 1 && evenlySpaced(a + k, 2) && evenlySpaced(b + k, 2))
        r = -1 + (more && runs[k + 4] < 0 && a[k + 4] == a[k] + 8 ? runs[k + 4] : 0);
    }
    runs[k] = r;
  }
}

#if WISP_SIMD
// Groups of four edges whose ends are consecutive particles, `groups` of them from edge k (ends
// a0, b0), loaded and stored whole: solveDistanceLanes, lane by lane solveDistance's operations.
// With `fresh` the multipliers start at 0 (the first iteration of a substep) and are not read.
template <bool fresh>
inline void solveConsecutiveEdges(const RawArrays& p, int32_t a0, int32_t b0, const float* rest, float* lambda, int k,
                                  int groups, wide::F4 alpha) {
  using namespace wide;
  for (int g = 0; g < groups; ++g, a0 += kWidth, b0 += kWidth, k += kWidth) {
    DistanceLanes d{load(p.x + a0), load(p.y + a0), load(p.z + a0), load(p.x + b0), load(p.y + b0), load(p.z + b0),
                    fresh ? splat(0.0f) : load(lambda + k)};
    solveDistanceLanes<fresh>(d, load(p.invMass + a0), load(p.invMass + b0), load(rest + k), alpha);
    store(p.x + a0, d.ax); store(p.y + a0, d.ay); store(p.z + a0, d.az);
    store(p.x + b0, d.bx); store(p.y + b0, d.by); store(p.z + b0, d.bz);
    store(lambda + k, d.lambda);
  }
}

// Groups of four edges joining alternate particles (a0, a0 + 1), (a0 + 2, a0 + 3), ...: eight
// floats loaded and split into even (a) and odd (b) lanes, and interleaved back.
template <bool fresh>
inline void solveAlternateEdges(const RawArrays& p, int32_t a0, const float* rest, float* lambda, int k, int groups,
                                wide::F4 alpha) {
  using namespace wide;
  for (int g = 0; g < groups; ++g, a0 += 2 * kWidth, k += kWidth) {
    F4 xl = load(p.x + a0), xh = load(p.x + a0 + 4), yl = load(p.y + a0), yh = load(p.y + a0 + 4);
    F4 zl = load(p.z + a0), zh = load(p.z + a0 + 4), wl = load(p.invMass + a0), wh = load(p.invMass + a0 + 4);
    DistanceLanes d{evens(xl, xh), evens(yl, yh), evens(zl, zh), odds(xl, xh), odds(yl, yh), odds(zl, zh),
                    fresh ? splat(0.0f) : load(lambda + k)};
    solveDistanceLanes<fresh>(d, evens(wl, wh), odds(wl, wh), load(rest + k), alpha);
    store(p.x + a0, interleaveLow(d.ax, d.bx)); store(p.x + a0 + 4, interleaveHigh(d.ax, d.bx));
    store(p.y + a0, interleaveLow(d.ay, d.by)); store(p.y + a0 + 4, interleaveHigh(d.ay, d.by));
    store(p.z + a0, interleaveLow(d.az, d.bz)); store(p.z + a0 + 4, interleaveHigh(d.az, d.bz));
    store(lambda + k, d.lambda);
  }
}
#endif

// Solves edges [begin, end) of one colour of an edge list (edge k joins a[k] and b[k], rest
// length rest[k], multiplier lambda[k]; `runs` from edgeRuns). With `fresh` the multipliers
// start at 0: the first iteration of a substep, which would otherwise clear them in a pass of
// its own. Regular runs are solved four edges at a time with whole loads and stores; other
// quads are gathered; the tail is scalar. All give solveDistance's bits.
inline void solveEdgeList(Particles& p, const int32_t* a, const int32_t* b, const int32_t* runs, const float* rest,
                          float* lambda, int begin, int end, float alphaTilde, bool fresh) {
  int k = begin;
#if WISP_SIMD
  using namespace wide;
  const F4 alpha = splat(alphaTilde);
  const RawArrays raw = rawArrays(p);
  while (k + kWidth <= end) {
    const int32_t r = runs[k];
    const int room = (end - k) / kWidth;
    if (r > 0) {
      const int groups = r < room ? r : room;
      if (fresh) solveConsecutiveEdges<true>(raw, a[k], b[k], rest, lambda, k, groups, alpha);
      else solveConsecutiveEdges<false>(raw, a[k], b[k], rest, lambda, k, groups, alpha);
      k += groups * kWidth;
    } else if (r < 0) {
      const int groups = -r < room ? -r : room;
      if (fresh) solveAlternateEdges<true>(raw, a[k], rest, lambda, k, groups, alpha);
      else solveAlternateEdges<false>(raw, a[k], rest, lambda, k, groups, alpha);
      k += groups * kWidth;
    } else {
      if (fresh) for (int j = 0; j < kWidth; ++j) lambda[k + j] = 0.0f;
      solveDistances(p, [a](int i) { return a[i]; }, [b](int i) { return b[i]; }, [](int i) { return i; }, rest, lambda, k,
                     k + kWidth, alphaTilde);
      k += kWidth;
    }
  }
#else
  (void)runs;
#endif
  for (; k < end; ++k) {
    if (fresh) lambda[k] = 0.0f;
    solveDistance(p, a[k], b[k], rest[k], alphaTilde, lambda[k]);
  }
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
