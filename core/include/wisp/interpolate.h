// Render interpolation: outputs shown between the last two fixed steps, so a display faster than
// the fixed step (144 Hz over 60 Hz) moves every frame instead of showing the same pose twice.
// Output only: these read two copies of an object's outputs the caller keeps (the outputs after
// the previous fixed step and after the current one) and write a third; the simulation and its
// state hash are untouched. No allocation: every array belongs to the caller.
//
// Usage, per frame: step the world; when StepReport::fixedSteps > 0 copy `cur` into `prev` and
// the world's outputs into `cur` first; then interpolate with renderAlpha(). The JavaScript
// library does the same with the world option `interpolate` (wasm/js/interpolation.js, whose
// float arithmetic is written to give the same bits).
#pragma once

namespace wisp {

// The weight of `cur` at display time. The views lag the simulation by one fixed step: the
// display time is (frame end - fixedDt), which lies `leftover` past the previous fixed step when
// prev and cur are one step apart (`span` = 1, the usual case with a display faster than the
// step): alpha = leftover / fixedDt. When one call ran `span` > 1 fixed steps, `prev` holds the
// outputs `span` steps back (the solver does not stop in between) and alpha spans all of them.
// 0 <= alpha < 1 for 0 <= leftover < fixedDt.
float renderAlpha(double leftover, double fixedDt, int span);

// `count` points (x, y, z each): prev at alpha 0, cur at alpha >= 1 (both bit for bit), the
// straight line between (wisp's lerp: a + (b - a) * alpha).
void interpolatePositions(const float* prev, const float* cur, int count, float alpha, float* out);
// `count` unit vectors (cloth normals): lerped, then renormalised (cur where the lerp vanishes).
void interpolateNormals(const float* prev, const float* cur, int count, float alpha, float* out);
// `count` unit quaternions (x, y, z, w each; chain rotations): wisp's nlerp (shortest arc,
// normalised), exactly prev at alpha 0 and cur at 1.
void interpolateRotations(const float* prev, const float* cur, int count, float alpha, float* out);

}  // namespace wisp
