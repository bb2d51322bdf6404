// Render interpolation (wisp/interpolate.h): free functions over contiguous output arrays, with
// the core's own lerp and nlerp so native and WebAssembly give the same bits.
#include "wisp/interpolate.h"

#include "math/quat.h"
#include "math/vec3.h"

namespace wisp {

namespace {
Vec3 load3(const float* p, int i) { return {p[3 * i], p[3 * i + 1], p[3 * i + 2]}; }
void store3(float* p, int i, Vec3 v) {
  p[3 * i] = v.x;
  p[3 * i + 1] = v.y;
  p[3 * i + 2] = v.z;
}
// Exact endpoints without relying on the formula (a + 0 * (b - a) turns -0 into +0).
bool copyEndpoint(const float* prev, const float* cur, int floats, float alpha, float* out) {
  if (alpha > 0.0f && alpha < 1.0f) return false;
  const float* src = alpha <= 0.0f ? prev : cur;
  for (int i = 0; i < floats; ++i) out[i] = src[i];
  return true;
}
}  // namespace

float renderAlpha(double leftover, double fixedDt, int span) {
  const double s = span < 1 ? 1.0 : static_cast<double>(span);
  const double a = (leftover + (s - 1.0) * fixedDt) / (s * fixedDt);
  return static_cast<float>(a < 0 ? 0 : (a > 1 ? 1 : a));
}

void interpolatePositions(const float* prev, const float* cur, int count, float alpha, float* out) {
  if (copyEndpoint(prev, cur, 3 * count, alpha, out)) return;
  for (int i = 0; i < count; ++i) store3(out, i, lerp(load3(prev, i), load3(cur, i), alpha));
}

void interpolateNormals(const float* prev, const float* cur, int count, float alpha, float* out) {
  if (copyEndpoint(prev, cur, 3 * count, alpha, out)) return;
  for (int i = 0; i < count; ++i) {
    const Vec3 b = load3(cur, i);
    store3(out, i, normalizeOr(lerp(load3(prev, i), b, alpha), b));
  }
}

void interpolateRotations(const float* prev, const float* cur, int count, float alpha, float* out) {
  if (copyEndpoint(prev, cur, 4 * count, alpha, out)) return;
  for (int i = 0; i < count; ++i) {
    const float* a = prev + 4 * i;
    const float* b = cur + 4 * i;
    const Quat q = nlerp({a[0], a[1], a[2], a[3]}, {b[0], b[1], b[2], b[3]}, alpha);
    out[4 * i] = q.x;
    out[4 * i + 1] = q.y;
    out[4 * i + 2] = q.z;
    out[4 * i + 3] = q.w;
  }
}

}  // namespace wisp
