// Sine and cosine without the platform's libm, for values computed once per parameter change
// (limit cones, thresholds): libm's last bit differs between targets, and a threshold that
// differs by one ulp could flip a decision and break native == WASM determinism. Taylor series
// in double on [0, pi], where 24 terms are far below float precision.
#pragma once

namespace wisp {

inline void sinCos(double x, double* s, double* c) {
  const double kPi = 3.14159265358979323846;
  // reduce to [0, pi] using symmetry: sin is odd, cos even
  double sign = 1;
  if (x < 0) { x = -x; sign = -1; }
  while (x > kPi) x -= 2 * kPi;  // inputs are small; this runs at most a few times
  if (x < 0) { x = -x; sign = -sign; }
  double term = x, sum = x;        // sin
  double cterm = 1, csum = 1;      // cos
  for (int n = 1; n < 24; ++n) {
    term *= -x * x / ((2 * n) * (2 * n + 1));
    sum += term;
    cterm *= -x * x / ((2 * n - 1) * (2 * n));
    csum += cterm;
  }
  *s = sign * sum;
  *c = csum;
}

}  // namespace wisp
