// The only place with SIMD intrinsics: a 4-wide float type with the handful of operations the
// hot loops need. wasm_simd128 on WASM (-msimd128), SSE on x86-64, scalar otherwise (or when
// WISP_NO_SIMD is defined, so tests can build both paths). Every operation is lane-wise IEEE
// add/mul/sub, so all three paths give bit-identical results.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#if defined(WISP_NO_SIMD)
#define WISP_SIMD 0
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define WISP_SIMD 1
#elif defined(__SSE2__)
#include <immintrin.h>
#define WISP_SIMD 1
#else
#define WISP_SIMD 0
#endif

namespace wisp::wide {

constexpr int kWidth = 4;
constexpr bool kEnabled = WISP_SIMD != 0;

// Besides + - *: division, square root, sign flip (exact, like unary minus), comparisons
// giving lane masks, and a per-lane select. Lanes are gathered from and scattered to
// arbitrary indices by the callers (there is no gather instruction in wasm_simd128), or loaded
// whole when the indices are consecutive, and split into even and odd lanes when they alternate.
// Masks (from comparisons) are lanes of all ones or all zeros; maskAnd/maskOr/select read them
// bitwise and `any` says whether some lane is set. abs clears the sign bit (exact, like fabs);
// lane(a, i) reads one lane (for the rare per-lane scalar work inside a lane kernel).
// transpose(a, b, c, d) swaps rows and columns of the 4 x 4 matrix whose rows are a..d: four
// chains' joints j..j+3 loaded whole become joints j..j+3 across the four lanes, and back.
#if WISP_SIMD && defined(__wasm_simd128__)
struct F4 { v128_t v; };
inline F4 abs(F4 a) { return {wasm_f32x4_abs(a.v)}; }
inline F4 maskAnd(F4 a, F4 b) { return {wasm_v128_and(a.v, b.v)}; }
inline bool any(F4 m) { return wasm_v128_any_true(m.v); }
inline float lane(F4 a, int i) { float t[4]; wasm_v128_store(t, a.v); return t[i]; }
inline F4 make(float a, float b, float c, float d) { return {wasm_f32x4_make(a, b, c, d)}; }
inline F4 operator/(F4 a, F4 b) { return {wasm_f32x4_div(a.v, b.v)}; }
inline F4 sqrt(F4 a) { return {wasm_f32x4_sqrt(a.v)}; }
inline F4 neg(F4 a) { return {wasm_f32x4_neg(a.v)}; }
inline F4 lessThan(F4 a, F4 b) { return {wasm_f32x4_lt(a.v, b.v)}; }
inline F4 equal(F4 a, F4 b) { return {wasm_f32x4_eq(a.v, b.v)}; }
inline F4 maskOr(F4 a, F4 b) { return {wasm_v128_or(a.v, b.v)}; }
// lanes of `a` where mask is set, else lanes of `b`
inline F4 select(F4 mask, F4 a, F4 b) { return {wasm_v128_bitselect(a.v, b.v, mask.v)}; }
inline void storeLanes(float* out, F4 a) { wasm_v128_store(out, a.v); }
inline F4 load(const float* p) { return {wasm_v128_load(p)}; }
inline void store(float* p, F4 a) { wasm_v128_store(p, a.v); }
inline F4 splat(float s) { return {wasm_f32x4_splat(s)}; }
inline F4 operator+(F4 a, F4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
// lanes 0, 2, 4, 6 (evens) or 1, 3, 5, 7 (odds) of the 8 floats lo:hi, and back
inline F4 evens(F4 lo, F4 hi) { return {wasm_i32x4_shuffle(lo.v, hi.v, 0, 2, 4, 6)}; }
inline F4 odds(F4 lo, F4 hi) { return {wasm_i32x4_shuffle(lo.v, hi.v, 1, 3, 5, 7)}; }
inline F4 interleaveLow(F4 e, F4 o) { return {wasm_i32x4_shuffle(e.v, o.v, 0, 4, 1, 5)}; }
inline F4 interleaveHigh(F4 e, F4 o) { return {wasm_i32x4_shuffle(e.v, o.v, 2, 6, 3, 7)}; }
inline void transpose(F4& a, F4& b, F4& c, F4& d) {
  const v128_t t0 = wasm_i32x4_shuffle(a.v, b.v, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(c.v, d.v, 0, 4, 1, 5);
  const v128_t t2 = wasm_i32x4_shuffle(a.v, b.v, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(c.v, d.v, 2, 6, 3, 7);
  a.v = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
  b.v = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
  c.v = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
  d.v = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
#elif WISP_SIMD
struct F4 { __m128 v; };
inline F4 abs(F4 a) { return {_mm_andnot_ps(_mm_set1_ps(-0.0f), a.v)}; }
inline F4 maskAnd(F4 a, F4 b) { return {_mm_and_ps(a.v, b.v)}; }
inline bool any(F4 m) { return _mm_movemask_ps(m.v) != 0; }
inline float lane(F4 a, int i) { float t[4]; _mm_storeu_ps(t, a.v); return t[i]; }
inline F4 make(float a, float b, float c, float d) { return {_mm_set_ps(d, c, b, a)}; }
inline F4 operator/(F4 a, F4 b) { return {_mm_div_ps(a.v, b.v)}; }
inline F4 sqrt(F4 a) { return {_mm_sqrt_ps(a.v)}; }
inline F4 neg(F4 a) { return {_mm_xor_ps(a.v, _mm_set1_ps(-0.0f))}; }
inline F4 lessThan(F4 a, F4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
inline F4 equal(F4 a, F4 b) { return {_mm_cmpeq_ps(a.v, b.v)}; }
inline F4 maskOr(F4 a, F4 b) { return {_mm_or_ps(a.v, b.v)}; }
inline F4 select(F4 mask, F4 a, F4 b) { return {_mm_or_ps(_mm_and_ps(mask.v, a.v), _mm_andnot_ps(mask.v, b.v))}; }
inline void storeLanes(float* out, F4 a) { _mm_storeu_ps(out, a.v); }
inline F4 load(const float* p) { return {_mm_loadu_ps(p)}; }
inline void store(float* p, F4 a) { _mm_storeu_ps(p, a.v); }
inline F4 splat(float s) { return {_mm_set1_ps(s)}; }
inline F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline F4 evens(F4 lo, F4 hi) { return {_mm_shuffle_ps(lo.v, hi.v, _MM_SHUFFLE(2, 0, 2, 0))}; }
inline F4 odds(F4 lo, F4 hi) { return {_mm_shuffle_ps(lo.v, hi.v, _MM_SHUFFLE(3, 1, 3, 1))}; }
inline F4 interleaveLow(F4 e, F4 o) { return {_mm_unpacklo_ps(e.v, o.v)}; }
inline F4 interleaveHigh(F4 e, F4 o) { return {_mm_unpackhi_ps(e.v, o.v)}; }
inline void transpose(F4& a, F4& b, F4& c, F4& d) { _MM_TRANSPOSE4_PS(a.v, b.v, c.v, d.v); }
#else
// Masks hold all-ones or all-zero bit patterns in float lanes, as the SIMD backends' do.
struct F4 { float v[4]; };
namespace detail {
inline uint32_t bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float fromBits(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline float maskOf(bool b) { return fromBits(b ? 0xFFFFFFFFu : 0u); }
}  // namespace detail
inline F4 make(float a, float b, float c, float d) { return {{a, b, c, d}}; }
inline F4 operator/(F4 a, F4 b) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] / b.v[i]; return r; }
inline F4 sqrt(F4 a) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = std::sqrt(a.v[i]); return r; }
inline F4 neg(F4 a) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = -a.v[i]; return r; }
inline F4 abs(F4 a) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = std::fabs(a.v[i]); return r; }
inline F4 lessThan(F4 a, F4 b) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = detail::maskOf(a.v[i] < b.v[i]); return r; }
inline F4 equal(F4 a, F4 b) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = detail::maskOf(a.v[i] == b.v[i]); return r; }
inline F4 maskOr(F4 a, F4 b) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = detail::fromBits(detail::bits(a.v[i]) | detail::bits(b.v[i]));
  return r;
}
inline F4 maskAnd(F4 a, F4 b) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = detail::fromBits(detail::bits(a.v[i]) & detail::bits(b.v[i]));
  return r;
}
inline F4 select(F4 mask, F4 a, F4 b) {
  F4 r;
  for (int i = 0; i < 4; ++i) r.v[i] = detail::bits(mask.v[i]) ? a.v[i] : b.v[i];
  return r;
}
inline bool any(F4 m) { return (detail::bits(m.v[0]) | detail::bits(m.v[1]) | detail::bits(m.v[2]) | detail::bits(m.v[3])) != 0; }
inline float lane(F4 a, int i) { return a.v[i]; }
inline F4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline void store(float* p, F4 a) { for (int i = 0; i < 4; ++i) p[i] = a.v[i]; }
inline F4 splat(float s) { return {{s, s, s, s}}; }
inline F4 operator+(F4 a, F4 b) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] + b.v[i]; return r; }
inline F4 operator-(F4 a, F4 b) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] - b.v[i]; return r; }
inline F4 operator*(F4 a, F4 b) { F4 r; for (int i = 0; i < 4; ++i) r.v[i] = a.v[i] * b.v[i]; return r; }
inline void transpose(F4& a, F4& b, F4& c, F4& d) {
  F4* const rows[4] = {&a, &b, &c, &d};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) std::swap(rows[i]->v[j], rows[j]->v[i]);
}
#endif

}  // namespace wisp::wide
